"""How ``memsync pull --hook`` and ``memsync push --hook`` run inside Claude Code
without ever holding a session up (issue 11, item 6).

Claude Code waits for every hook: a ``Stop`` hook after each assistant turn, a
``SessionEnd`` hook (cancelled after about 1.5 s unless it names a ``timeout``). So:

* ``push --hook`` decides in a few milliseconds whether there is anything to do, with
  nothing heavier than three ``git`` calls (the store's runner only, no YAML: see
  ``bench/hooks.py``). At ``Stop`` that is the team clone's uncommitted changes and
  unpushed commits; at ``SessionEnd`` the session itself is reported too, so it
  always goes on. When there is work, it starts ``memsync push --background`` in a
  session of its own (Claude Code neither waits for it nor kills it) and returns.
* The background push runs one at a time per team clone: it holds
  ``.git/memsync/push.lock``; a push started meanwhile leaves ``push.again`` and
  exits, and the holder pushes once more before it lets go, so nothing is left behind.
  What it did goes to ``.git/memsync/hooks.log``.
* ``pull --hook`` (``SessionStart``) runs in the foreground, so the session starts
  with the team's latest memory, but gives the network PULL_DEADLINE seconds at most.

Network limits: git is killed after its deadline, API requests give up after
``HOOK_TIMEOUT`` per connect or read (``memsync.client.server``). A server that accepts
connections and never answers costs a session PULL_DEADLINE seconds, once.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memsync.store.gitcmd import GitRunner
from memsync.store.refs import MAIN, member_branch, remote_ref

PULL_DEADLINE = 3.0  # seconds for the SessionStart fetch
PUSH_DEADLINE = 10.0  # seconds for each git transfer of the background push
STATE_DIRNAME = "memsync"  # under the team clone's .git
LOG_NAME = "hooks.log"
LOCK_NAME = "push.lock"
AGAIN_NAME = "push.again"
MAX_LOG_BYTES = 1024 * 1024
# A push that keeps being asked for again (a session saving memories non-stop) still
# ends; the next hook starts another.
MAX_ROUNDS = 5


def read_event(stream: Any = None) -> dict[str, Any]:
    """The hook's JSON input (``cwd``, ``hook_event_name``, …); {} when run by hand."""
    stream = stream if stream is not None else sys.stdin
    try:
        if stream is None or stream.isatty():
            return {}
        event = json.loads(stream.read() or "{}")
    except (OSError, ValueError):
        return {}
    return event if isinstance(event, dict) else {}


def event_cwd(event: dict[str, Any], given: Path | None) -> Path:
    cwd = event.get("cwd")
    if given is not None:
        return given
    return Path(cwd) if isinstance(cwd, str) and cwd else Path.cwd()


def state_dir(team_dir: Path) -> Path:
    """``<team clone>/.git/memsync``: memsync's own files beside Git's, never committed."""
    return team_dir / ".git" / STATE_DIRNAME


# --- deciding (the fast path) ---------------------------------------------------------


def _git(team_dir: Path, *args: str) -> tuple[int, str]:
    status, out, _ = GitRunner(team_dir).run_status(*args)
    return status, out


def has_work(team_dir: Path) -> bool:
    """Whether a push would send anything: uncommitted changes, or commits neither the
    server's member branch nor its main has (as ``TeamClone._unpushed`` counts them).
    A merge waiting for the user to resolve it is not work for a hook."""
    if (team_dir / ".git" / "MERGE_HEAD").exists():
        return False
    status, changes = _git(team_dir, "status", "--porcelain", "--untracked-files=all")
    if status != 0 or changes.strip():
        return True  # a broken clone: let the push say what is wrong, in the log
    user = _linked_user(team_dir / ".git" / "config")
    if user is None:
        return False  # not a clone memsync linked: push has nothing to do here
    known = [remote_ref(name) for name in (MAIN, member_branch(user))]
    status, count = _git(
        team_dir, "rev-list", "--count", "--ignore-missing", "HEAD", "--not", *known
    )
    return status != 0 or count.strip() not in ("", "0")


def _linked_user(config: Path) -> str | None:
    """``memsync.user`` from the clone's own config, read directly: one process fewer
    on a path that runs after every turn. ``configure`` writes it as git does."""
    try:
        text = config.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            section = line.strip("[]").strip().lower()
        elif section == "memsync" and "=" in line:
            key, _, value = line.partition("=")
            if key.strip().lower() == "user" and value.strip():
                return value.strip().strip('"')
    return None


# --- starting the background push -----------------------------------------------------


def start_background_push(cwd: Path, memory_dir: Path, *, sessions: bool) -> int:
    """``memsync push --background`` in a session of its own, output to the log; its pid."""
    team_dir = memory_dir / "team"
    directory = state_dir(team_dir)
    directory.mkdir(parents=True, exist_ok=True)
    log = directory / LOG_NAME
    with contextlib.suppress(OSError):
        if log.stat().st_size > MAX_LOG_BYTES:
            log.replace(directory / f"{LOG_NAME}.1")
    command = [
        sys.executable, "-m", "memsync.client.cli", "push", "--background",
        "--cwd", str(cwd), "--memory-dir", str(memory_dir),
    ]  # fmt: skip
    if not sessions:
        command.append("--no-sessions")
    with log.open("ab") as output:
        child = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=output,
            start_new_session=True,  # not in Claude Code's process group: never killed with it
            close_fds=True,
        )
    return child.pid


# --- the background push itself --------------------------------------------------------


def log(text: str) -> None:
    """One line of the hooks log (the background push's stderr is the log)."""
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    print(f"{stamp} [{os.getpid()}] {text}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def _held(path: Path) -> Iterator[bool]:
    with path.open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def run_one_at_a_time(team_dir: Path, push: Callable[[], int]) -> int:
    """Run ``push`` unless another background push holds the clone; then leave it a
    note to push again. The holder runs again while notes arrive."""
    directory = state_dir(team_dir)
    directory.mkdir(parents=True, exist_ok=True)
    lock, again = directory / LOCK_NAME, directory / AGAIN_NAME
    status = 0
    rounds = 0
    while rounds < MAX_ROUNDS:
        with _held(lock) as holding:
            if not holding:
                again.touch()
                log("another push is running; it will push again when it is done")
                return 0
            while rounds < MAX_ROUNDS:
                rounds += 1
                with contextlib.suppress(FileNotFoundError):
                    again.unlink()
                status = push()
                if not again.exists():
                    break
        # A note left between the last look and the unlock is picked up here.
        if not again.exists():
            break
    return status
