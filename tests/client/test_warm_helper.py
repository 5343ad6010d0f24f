"""``memsync extract`` served by the repository's warm helper (issue 14): real ``memsync``
processes, real repositories and git, the helper a real detached process.

Which process ran a call is read from the helper's log (a line per call it served) and
its pid file, never from timing.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import stop_warm_helpers, warm_helpers_under
from tests.extract.sessions import SessionLog, memory_repo
from tests.support.messages_server import text, tool_use

MEMSYNC = [sys.executable, "-m", "memsync.client.cli"]
REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _helpers_stopped(tmp_path: Path) -> Iterator[None]:
    yield
    stop_warm_helpers(tmp_path)
    assert warm_helpers_under(tmp_path) == []


def memsync(
    *args: str | Path, cwd: Path = REPOSITORY, **env: str
) -> subprocess.CompletedProcess[str]:
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(
            ("ANTHROPIC_", "MEMSYNC_MODEL", "MEMSYNC_NO_HELPER", "MEMSYNC_HELPER")
        )
    }
    return subprocess.run(
        [*MEMSYNC, *map(str, args)],
        capture_output=True, text=True, cwd=cwd, env={**environment, **env}, timeout=120,
    )  # fmt: skip


def helper_dir(repo: Path) -> Path:
    return repo / ".git" / "memsync" / "helper"


def wait_for_helper(repo: Path, timeout: float = 60) -> int:
    """The pid of the helper serving `repo`, once it listens."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        directory = helper_dir(repo)
        if (directory / "socket").exists() and (directory / "pid").exists():
            return int((directory / "pid").read_text())
        time.sleep(0.05)
    raise AssertionError(f"no helper for {repo}: {log_of(repo)}")


def wait_until_gone(pid: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return
        if state == "Z":
            return
        time.sleep(0.05)
    raise AssertionError(f"helper {pid} is still running")


def log_of(repo: Path) -> str:
    try:
        return (helper_dir(repo) / "log").read_text()
    except OSError:
        return ""


def served_calls(repo: Path) -> list[str]:
    return [line for line in log_of(repo).splitlines() if "] call " in line]


def session(tmp_path: Path, name: str, statement: str) -> Path:
    return SessionLog(session_id=name).turn(f"Remember that {statement}.").write(tmp_path / "s")


def test_the_second_extraction_is_served_by_the_helper_the_first_started(tmp_path):
    repo = memory_repo(tmp_path / "memory").path
    first = session(tmp_path, "one", "the mobile team owns the release calendar")
    second = session(tmp_path, "two", "staging resets every night at midnight")

    cold = memsync("extract", repo, "--transcript", first)
    pid = wait_for_helper(repo)
    warm = memsync("extract", repo, "--transcript", second, "--json")

    assert cold.returncode == 0 and "saved 1 memory" in cold.stdout, cold.stderr
    assert warm.returncode == 0, warm.stderr
    [result] = json.loads(warm.stdout)["results"]
    assert result["status"] == "saved" and result["session"] == "two"
    [call] = served_calls(repo)
    assert f"[{pid}] call 1: extract {repo} --transcript {second} --json" in call
    assert "): exit 0 in " in call


def test_a_served_call_prints_and_exits_as_the_command_run_in_process(tmp_path):
    served_repo = memory_repo(tmp_path / "served").path
    plain_repo = memory_repo(tmp_path / "plain").path
    warm_up = session(tmp_path, "warm-up", "the atlas service deploys on mondays")
    memsync("extract", served_repo, "--transcript", warm_up)
    memsync("extract", plain_repo, "--transcript", warm_up, MEMSYNC_NO_HELPER="1")
    wait_for_helper(served_repo)
    path = session(tmp_path, "same", "the billing service deploys on fridays")
    missing = tmp_path / "no-such.jsonl"

    outcomes = []
    for repo, env in ((served_repo, {}), (plain_repo, {"MEMSYNC_NO_HELPER": "1"})):
        runs = [
            memsync("extract", repo.name, "--transcript", path, cwd=tmp_path, **env),
            memsync("extract", repo, "--transcript", path, **env),  # nothing new: skipped
            memsync("extract", repo, "--transcript", missing, **env),
            memsync("extract", repo, "--transcript", path, "--every", "0", **env),
            memsync("extract", repo, "--transcript", path, "--engine", "anthropic", **env),
        ]
        outcomes.append(
            [(r.returncode, r.stdout.replace(repo.name, "REPO"), r.stderr) for r in runs]
        )

    served, plain = outcomes
    assert len(served_calls(served_repo)) == 5 and served_calls(plain_repo) == []
    assert [status for status, _, _ in served] == [0, 0, 2, 2, 2]
    assert served[2][2] == f"memsync: error: no transcript at {missing}\n"
    # The commit ids differ between the two repositories; everything else is the same.
    assert served[0][1].split(" (commit")[0] == plain[0][1].split(" (commit")[0]
    assert served[0][1].splitlines()[1:] == plain[0][1].splitlines()[1:]
    assert served[1:] == plain[1:]


def test_each_served_call_runs_with_its_own_environment(tmp_path, messages_server):
    repo = memory_repo(tmp_path / "memory").path
    memsync("extract", repo, "--transcript", session(tmp_path, "zero", "e is owned by f"))
    wait_for_helper(repo)
    content = "---\nname: Staging\ndescription: Staging resets nightly\ntype: project\n---\n\nx\n"
    messages_server.add(
        [tool_use("write", {"path": "project_staging.md", "content": content})], [text("Saved.")]
    )
    path = SessionLog(session_id="one").turn("Staging resets every night.").write(tmp_path / "s")

    done = memsync(
        "extract", repo, "--transcript", path, "--json",
        ANTHROPIC_API_KEY="test", ANTHROPIC_BASE_URL=messages_server.base_url,
        MEMSYNC_MODEL="claude-from-env",
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    [result] = json.loads(done.stdout)["results"]
    assert (result["engine"], result["model"]) == ("anthropic", "claude-from-env")
    assert result["saved"] == ["project_staging.md"]
    assert messages_server.requests[0]["model"] == "claude-from-env"
    assert len(served_calls(repo)) == 1


def test_a_directory_that_is_no_memsync_repository_gets_the_same_refusal(tmp_path):
    path = session(tmp_path, "one", "the mobile team owns the release calendar")
    (tmp_path / "plain").mkdir()

    done = memsync("extract", tmp_path / "plain", "--transcript", path)
    alone = memsync("extract", tmp_path / "plain", "--transcript", path, MEMSYNC_NO_HELPER="1")

    assert (done.returncode, done.stdout, done.stderr) == (
        alone.returncode, alone.stdout, alone.stderr,
    )  # fmt: skip
    assert done.returncode == 2 and "memsync init" in done.stderr
    assert not (tmp_path / "plain" / ".git").exists()


def test_the_socket_is_private_to_its_user(tmp_path):
    repo = memory_repo(tmp_path / "memory").path
    memsync("extract", repo, "--transcript", session(tmp_path, "one", "the api uses port 8080"))
    wait_for_helper(repo)

    directory = helper_dir(repo)
    assert stat.S_IMODE(directory.lstat().st_mode) == 0o700
    socket_mode = (directory / "socket").lstat().st_mode
    assert stat.S_ISSOCK(socket_mode) and stat.S_IMODE(socket_mode) == 0o600
    assert stat.S_IMODE((directory / "log").lstat().st_mode) == 0o600
    assert directory.lstat().st_uid == os.getuid()


def test_a_symlinked_helper_directory_is_refused_and_the_command_runs_itself(tmp_path):
    repo = memory_repo(tmp_path / "memory").path
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (repo / ".git" / "memsync").mkdir(exist_ok=True)
    helper_dir(repo).symlink_to(elsewhere)

    first = memsync("extract", repo, "--transcript", session(tmp_path, "one", "a runs on b"))
    second = memsync("extract", repo, "--transcript", session(tmp_path, "two", "c runs on d"))

    assert first.returncode == 0 and "saved 1 memory" in first.stdout, first.stderr
    assert second.returncode == 0 and "saved 1 memory" in second.stdout, second.stderr
    assert list(elsewhere.iterdir()) == []
    assert warm_helpers_under(tmp_path) == []


def test_a_stale_socket_is_passed_over_and_replaced(tmp_path):
    repo = memory_repo(tmp_path / "memory").path
    directory = helper_dir(repo)
    directory.mkdir(parents=True, mode=0o700)
    # A socket whose process is gone: bound, never listening, closed.
    with socket.socket(socket.AF_UNIX) as dead:
        os.chdir(directory)
        try:
            dead.bind("socket")
        finally:
            os.chdir(REPOSITORY)
    stale = (directory / "socket").lstat().st_ino

    done = memsync("extract", repo, "--transcript", session(tmp_path, "one", "x deploys on y"))
    wait_for_helper(repo)
    again = memsync("extract", repo, "--transcript", session(tmp_path, "two", "z deploys on w"))

    assert done.returncode == 0 and "saved 1 memory" in done.stdout, done.stderr
    assert again.returncode == 0 and "saved 1 memory" in again.stdout, again.stderr
    assert (directory / "socket").lstat().st_ino != stale
    assert len(served_calls(repo)) == 1


def test_a_helper_of_another_build_is_not_used(tmp_path):
    repo = memory_repo(tmp_path / "memory").path
    other_build = tmp_path / "build"
    shutil.copytree(
        REPOSITORY / "memsync",
        other_build / "memsync",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    memsync("extract", repo, "--transcript", session(tmp_path, "one", "q is owned by r"))
    old = wait_for_helper(repo)

    # Run from elsewhere: ``python -m`` puts the working directory first on the path.
    done = memsync(
        "extract", repo, "--transcript", session(tmp_path, "two", "s is owned by t"),
        cwd=tmp_path, PYTHONPATH=str(other_build),
    )  # fmt: skip
    wait_until_gone(old)
    new = wait_for_helper(repo)
    again = memsync(
        "extract", repo, "--transcript", session(tmp_path, "three", "u is owned by v"),
        cwd=tmp_path, PYTHONPATH=str(other_build),
    )  # fmt: skip

    assert done.returncode == 0 and "saved 1 memory" in done.stdout, done.stderr
    assert again.returncode == 0 and "saved 1 memory" in again.stdout, again.stderr
    assert new != old
    assert "exiting after 0 calls: a call from another memsync build" in log_of(repo)
    [call] = served_calls(repo)
    assert f"[{new}] call 1" in call
    assert str(other_build) in Path(f"/proc/{new}/cmdline").read_text()


def test_a_helper_whose_files_change_exits(tmp_path):
    repo = memory_repo(tmp_path / "memory").path
    build = tmp_path / "build"
    shutil.copytree(
        REPOSITORY / "memsync", build / "memsync", ignore=shutil.ignore_patterns("__pycache__")
    )
    memsync(
        "extract", repo, "--transcript", session(tmp_path, "one", "k is owned by l"),
        cwd=tmp_path, PYTHONPATH=str(build),
    )  # fmt: skip
    pid = wait_for_helper(repo)

    (build / "memsync" / "memory" / "dates.py").touch()

    wait_until_gone(pid)
    assert "exiting after 0 calls: memsync's files changed" in log_of(repo)
    assert not (helper_dir(repo) / "socket").exists()


def test_no_helper_starts_when_it_is_turned_off(tmp_path):
    repo = memory_repo(tmp_path / "memory").path

    for name in ("one", "two"):
        path = session(tmp_path, name, f"{name} is owned by the platform team")
        done = memsync("extract", repo, "--transcript", path, MEMSYNC_NO_HELPER="1")
        assert done.returncode == 0 and "saved 1 memory" in done.stdout, done.stderr

    assert warm_helpers_under(tmp_path) == []
    assert not helper_dir(repo).exists()


def test_an_idle_helper_exits(tmp_path):
    repo = memory_repo(tmp_path / "memory").path
    memsync(
        "extract", repo, "--transcript", session(tmp_path, "one", "m is owned by n"),
        MEMSYNC_HELPER_IDLE="2",
    )  # fmt: skip
    pid = wait_for_helper(repo)

    wait_until_gone(pid)

    assert "exiting after 0 calls: idle for 2 s" in log_of(repo)
    assert not (helper_dir(repo) / "socket").exists()
    assert not (helper_dir(repo) / "pid").exists()


def test_a_helper_exits_when_its_repository_is_removed(tmp_path):
    repo = memory_repo(tmp_path / "memory").path
    memsync("extract", repo, "--transcript", session(tmp_path, "one", "o is owned by p"))
    pid = wait_for_helper(repo)

    shutil.rmtree(repo)

    wait_until_gone(pid)


def test_concurrent_extractions_both_land(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    memsync("extract", repo.path, "--transcript", session(tmp_path, "zero", "e is owned by f"))
    wait_for_helper(repo.path)
    paths = [
        session(tmp_path, "one", "the ledger service deploys on mondays"),
        session(tmp_path, "two", "the harbor service deploys on tuesdays"),
    ]
    environment = {k: v for k, v in os.environ.items() if not k.startswith("MEMSYNC_")}

    calls = [
        subprocess.Popen(
            [*MEMSYNC, "extract", str(repo.path), "--transcript", str(path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
        )
        for path in paths
    ]
    outputs = [call.communicate(timeout=120) for call in calls]

    assert [call.returncode for call in calls] == [0, 0], outputs
    assert all("saved 1 memory" in stdout for stdout, _ in outputs)
    assert len([c for c in repo.log() if c.kind == "extract"]) == 3
    state = json.loads((repo.path / ".git" / "memsync-extract.json").read_text())
    assert {"zero", "one", "two"} <= set(state["sessions"])


def test_a_call_killed_in_the_helper_is_reported_and_the_helper_serves_on(tmp_path):
    repo = memory_repo(tmp_path / "memory").path
    memsync("extract", repo, "--transcript", session(tmp_path, "zero", "g is owned by h"))
    helper = wait_for_helper(repo)
    # A model API that takes the connection and never answers: the call waits there.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        environment = {k: v for k, v in os.environ.items() if not k.startswith("MEMSYNC_")}
        call = subprocess.Popen(
            [*MEMSYNC, "extract", str(repo), "--transcript",
             str(session(tmp_path, "one", "i is owned by j")), "--engine", "anthropic"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**environment, "ANTHROPIC_API_KEY": "test", "ANTHROPIC_BASE_URL": url},
        )  # fmt: skip
        child = wait_for_child(helper)
        os.kill(child, 9)
        _, stderr = call.communicate(timeout=120)

    assert call.returncode == 128 + 9
    assert "memsync: error: the command was killed by signal 9" in stderr
    again = memsync("extract", repo, "--transcript", session(tmp_path, "two", "y is owned by z"))
    assert again.returncode == 0 and "saved 1 memory" in again.stdout, again.stderr
    assert wait_for_helper(repo) == helper
    assert [line.split(": ")[-1].split(" in ")[0] for line in served_calls(repo)] == [
        "killed by signal 9",
        "exit 0",
    ]


def wait_for_child(pid: int, timeout: float = 60) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        if children:
            return int(children[0])
        time.sleep(0.02)
    raise AssertionError(f"helper {pid} started no child")


def test_a_served_call_imports_neither_argparse_nor_the_command(tmp_path):
    repo = memory_repo(tmp_path / "memory").path
    memsync("extract", repo, "--transcript", session(tmp_path, "one", "a is owned by b"))
    wait_for_helper(repo)

    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "memsync.client.cli", "extract", str(repo),
         "--transcript", str(session(tmp_path, "two", "c is owned by d"))],
        capture_output=True, text=True, cwd=REPOSITORY, timeout=120,
    )  # fmt: skip

    assert done.returncode == 0 and "saved 1 memory" in done.stdout, done.stderr
    assert len(served_calls(repo)) == 1, log_of(repo)
    imported = {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    }
    assert "memsync.client.helper_client" in imported
    heavy = {"argparse", "socket", "json", "memsync.client.parser", "memsync.client.commands"}
    assert imported & heavy == set()
    assert [
        name for name in imported if name.startswith(("memsync.extract", "memsync.store"))
    ] == []


def test_a_helper_that_cannot_start_is_not_tried_on_every_call(tmp_path):
    repo = memory_repo(tmp_path / "memory").path
    directory = helper_dir(repo)
    (directory / "socket").mkdir(parents=True)  # where no socket can go
    directory.chmod(0o700)

    first = memsync("extract", repo, "--transcript", session(tmp_path, "one", "a is run by b"))
    deadline = time.monotonic() + 60
    while not (directory / "failed").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    second = memsync("extract", repo, "--transcript", session(tmp_path, "two", "c is run by d"))
    # A helper the second call started would be running now (it is started before the
    # call runs in-process): let it fail and log, if there is one.
    for pid in warm_helpers_under(tmp_path):
        wait_until_gone(pid)

    assert first.returncode == 0 and "saved 1 memory" in first.stdout, first.stderr
    assert second.returncode == 0 and "saved 1 memory" in second.stdout, second.stderr
    assert log_of(repo).count("could not start") == 1
