"""memsync's hooks inside the real Claude Code (issue 11, item 6): they never hold a
session up, whatever the server does, and the recall hook's context reaches the model
whole, without a model call of its own."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memsync.client.config import ClientConfig, Credential, config_path
from memsync.client.hookrun import LOG_NAME, state_dir
from memsync.client.team import Link, TeamClone
from tests.claude_code.harness import ClaudeCode, ClaudeRun
from tests.client.local_origin import bare_origin

MEMSYNC = [sys.executable, "-m", "memsync.client.cli"]
TOPIC = "---\nname: {name}\ndescription: {description}\ntype: project\n---\n\n{body}\n"


class HangingServer:
    """Accepts every connection and never answers a byte: the worst server there is."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.accepted = 0
        self.held: list[socket.socket] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            self.held.append(conn)

    def close(self) -> None:
        self.sock.close()
        for conn in self.held:
            conn.close()


@pytest.fixture
def hanging() -> Iterator[HangingServer]:
    server = HangingServer()
    yield server
    server.close()


def memsync(claude_code: ClaudeCode, *args: str | Path, cwd: Path) -> str:
    done = subprocess.run(
        [*MEMSYNC, *map(str, args)], cwd=cwd, env=claude_code.env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def link_locally(claude_code: ClaudeCode, project: Path, server: str, tmp_path: Path) -> Path:
    """A linked team clone of a bare repository on disk, as bob, logged in to `server`
    (the clone's origin stays the bare repository until a test points it elsewhere)."""
    origin = bare_origin(tmp_path)
    team_dir = claude_code.memory_dir(project) / "team"
    TeamClone.create(team_dir, str(origin), Link(server, "shop", "bob"))
    for key, value in (("user.name", "bob"), ("user.email", "bob@example.com")):
        subprocess.run(["git", "-C", str(team_dir), "config", key, value], check=True)
    config = ClientConfig.load(config_path(claude_code.env, claude_code.home))
    config.remember(Credential(server, "bob", "bob-token"))
    config.save()
    return team_dir


def hook_seconds(run: ClaudeRun, event: str) -> list[float]:
    """How long Claude Code says each hook of `event` ran (its own summary entries)."""
    found = []
    summary = f"{event.lower()}_hook_summary"
    for entry in run.transcript_entries():
        if entry.get("type") == "system" and entry.get("subtype") == summary:
            found += [info["durationMs"] / 1000 for info in entry.get("hookInfos", [])]
    return found


def wait_for(condition, seconds: float = 60) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def test_the_push_runs_after_claude_code_is_gone_and_reaches_the_server(claude_code, tmp_path):
    project = claude_code.project("shop")
    team_dir = link_locally(claude_code, project, "http://127.0.0.1:9", tmp_path)
    memsync(claude_code, "hooks", "install", cwd=project)
    (team_dir / "release.md").write_text(
        TOPIC.format(name="release", description="release trains", body="Trains leave at 10.")
    )

    run = claude_code.run("hi", cwd=project)

    settings = json.loads((claude_code.config_dir / "settings.json").read_text())
    groups = [group for groups in settings["hooks"].values() for group in groups]
    assert all("timeout" in hook for group in groups for hook in group["hooks"])
    origin = tmp_path / "origin.git"

    def pushed() -> bool:
        done = subprocess.run(
            ["git", "-C", str(origin), "show", "members/bob:release.md"], capture_output=True
        )
        return done.returncode == 0

    log = state_dir(team_dir) / LOG_NAME

    def finished() -> bool:
        # The ref reaches the server a moment before the pusher logs that it is done.
        return pushed() and "push finished" in log.read_text()

    # The SessionEnd hook is over long before the push could be: it ran on its own.
    assert wait_for(finished), log.read_text()
    assert "push started" in log.read_text() and "push finished (status 0)" in log.read_text()
    assert hook_seconds(run, "Stop"), "Claude Code recorded no Stop hook"


def test_a_server_that_never_answers_costs_a_session_a_few_seconds(claude_code, tmp_path, hanging):
    project = claude_code.project("shop")
    team_dir = link_locally(claude_code, project, hanging.url, tmp_path)
    subprocess.run(
        ["git", "-C", str(team_dir), "remote", "set-url", "origin", f"{hanging.url}/git/shop.git"],
        check=True,
    )
    (team_dir / "offline.md").write_text(
        TOPIC.format(name="offline", description="written offline", body="Kept for later.")
    )
    baseline = claude_code.run("hi", cwd=project)
    memsync(claude_code, "hooks", "install", cwd=project)

    hooked = claude_code.run("hi", cwd=project)

    # Before: pull and push each waited about 21 s, `claude -p "hi"` took 56 s.
    added = hooked.seconds - baseline.seconds
    assert added <= 5.0, f"the hooks added {added:.1f} s ({baseline.seconds:.1f} s without)"
    assert hanging.accepted >= 1  # the pull really went to the hanging server
    log = state_dir(team_dir) / LOG_NAME
    assert wait_for(lambda: log.exists() and "push finished" in log.read_text(), 90)
    assert "timed out after" in log.read_text() or "cannot reach" in log.read_text()
    print(f"claude -p without hooks {baseline.seconds:.1f} s, with {hooked.seconds:.1f} s")


def test_the_recall_context_reaches_the_model_whole_and_without_a_model_call(claude_code):
    project = claude_code.project("shop")
    memory = claude_code.memory_dir(project)
    # Many long memories about the prompt: more than Claude Code would show whole.
    for number in range(12):
        body = f"Checkout refunds rule {number}: " + "refunds go through the ledger. " * 60
        (memory / f"refunds_{number}.md").write_text(
            TOPIC.format(name=f"refunds {number}", description="checkout refunds", body=body)
        )
    (memory / "MEMORY.md").write_text(
        "".join(f"- [Refunds {n}](refunds_{n}.md) — checkout refunds\n" for n in range(12))
    )
    memsync(claude_code, "hooks", "install", "--recall", cwd=project)

    run = claude_code.run("how do checkout refunds work?", cwd=project)

    context = run.context_text()
    start = context.index("<memsync-recall>")
    end = context.index("</memsync-recall>", start) + len("</memsync-recall>")
    assert end - start <= 9_800
    assert "Checkout refunds rule" in context[start:end]
    # Claude Code hands the hook its API key; without --model memsync asks no model.
    asked = [json.dumps(body) for body in [*run.requests, *run.side_requests]]
    assert not any("selected_memories" in body for body in asked)
