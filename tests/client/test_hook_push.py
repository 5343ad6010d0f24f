"""``memsync push --hook``: decides fast, pushes in the background, one push at a time
per team clone, with a log (issue 11, item 6). A bare repository on disk stands in for
the server here; tests/claude_code/test_hooks.py runs it inside Claude Code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from memsync.client.hookrun import (
    AGAIN_NAME,
    LOG_NAME,
    has_work,
    run_one_at_a_time,
    state_dir,
)
from tests.client.local_origin import linked_clone

MEMSYNC = [sys.executable, "-m", "memsync.client.cli"]


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    return linked_clone(tmp_path, tmp_path / "memory" / "team")


def push_hook(team: Path, event: str, home: Path) -> subprocess.CompletedProcess[str]:
    stdin = json.dumps({"cwd": str(team.parent), "hook_event_name": event})
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    return subprocess.run(
        [*MEMSYNC, "push", "--hook", "--memory-dir", str(team.parent)],
        input=stdin, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def wait_for(condition, seconds: float = 60) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def test_it_sees_work_only_in_changes_and_unpushed_commits(clone: Path):
    clean = has_work(clone)
    (clone / "new.md").write_text("x\n")
    changed = has_work(clone)
    subprocess.run(["git", "-C", str(clone), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(clone), "commit", "-qm", "local"], check=True)
    committed = has_work(clone)

    assert (clean, changed, committed) == (False, True, True)


def test_a_stop_with_nothing_to_push_starts_nothing(clone: Path, tmp_path: Path):
    done = push_hook(clone, "Stop", tmp_path / "home")

    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert not (state_dir(clone) / LOG_NAME).exists()


def test_a_stop_with_a_change_pushes_in_the_background_and_logs_it(clone: Path, tmp_path: Path):
    (clone / "release.md").write_text("---\nname: release\n---\n\nTrains leave at 10.\n")

    done = push_hook(clone, "Stop", tmp_path / "home")

    origin = clone.parents[1] / "origin.git"
    assert (done.returncode, done.stdout) == (0, "")

    def pushed() -> bool:
        shown = ["git", "-C", str(origin), "show", "members/bob:release.md"]
        return subprocess.run(shown, capture_output=True).returncode == 0

    assert wait_for(pushed)
    log = state_dir(clone) / LOG_NAME
    assert wait_for(lambda: "push finished" in log.read_text())
    assert "pushed 1 commit to members/bob" in log.read_text()


def test_one_push_at_a_time_and_a_push_asked_for_meanwhile_runs_after(clone: Path):
    started = threading.Event()
    release = threading.Event()
    runs: list[str] = []

    def slow() -> int:
        runs.append("holder")
        started.set()
        release.wait(10)
        return 0

    holder = threading.Thread(target=lambda: run_one_at_a_time(clone, slow))
    holder.start()
    assert started.wait(10)
    # A second push while the first holds the clone: it leaves a note and returns.
    second = run_one_at_a_time(clone, lambda: runs.append("second") or 0)
    noted = (state_dir(clone) / AGAIN_NAME).exists()
    release.set()
    holder.join(10)

    assert second == 0 and noted
    assert runs == ["holder", "holder"]  # the holder pushed once more for the note
    assert not (state_dir(clone) / AGAIN_NAME).exists()
