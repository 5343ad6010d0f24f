"""Long-running children in process groups of their own, stopped together and for good.

Each child starts in a new session, so the terminal's Ctrl-C reaches only the
supervisor, which then stops the children in the reverse order of their start: first a
SIGINT to the child's whole group (what Ctrl-C would have sent it: a Celery worker
finishes its task, gunicorn and beat exit), then SIGTERM, then SIGKILL for whatever is
still there. Signalling the group, not the process, reaches what the child started too
(a worker's prefork pool), so nothing is left behind.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

GRACE_SECONDS = 20.0  # a worker in a warm shutdown finishes the task it holds
TERM_SECONDS = 5.0


@dataclass
class Child:
    name: str
    process: subprocess.Popen[bytes]
    log_path: Path | None

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, limit: int = 3000) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return self.log_path.read_text(errors="replace")[-limit:]


class Supervisor:
    """Starts children (each the leader of its own process group) and stops them all."""

    def __init__(self, env: Mapping[str, str], cwd: Path) -> None:
        self.env = dict(env)
        self.cwd = cwd
        self.children: list[Child] = []

    def start(
        self,
        name: str,
        command: Sequence[str],
        *,
        log_path: Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> Child:
        """Start ``command``; its output goes to ``log_path`` (else to this terminal)."""
        log = log_path.open("ab") if log_path is not None else None
        try:
            process = subprocess.Popen(
                list(command),
                cwd=self.cwd,
                env={**self.env, **(env or {})},
                stdout=log,
                stderr=subprocess.STDOUT if log is not None else None,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        finally:
            if log is not None:
                log.close()
        child = Child(name, process, log_path)
        self.children.append(child)
        return child

    def exited(self) -> Child | None:
        """A child that stopped on its own, if any."""
        return next((child for child in self.children if not child.running), None)

    def stop(self, child: Child) -> None:
        group = child.process.pid
        for sig, wait in ((signal.SIGINT, GRACE_SECONDS), (signal.SIGTERM, TERM_SECONDS)):
            if not _group_alive(group):
                break
            _signal_group(group, sig)
            _wait_for_group(child, group, wait)
        if _group_alive(group):
            _signal_group(group, signal.SIGKILL)
            _wait_for_group(child, group, TERM_SECONDS)
        if child.process.poll() is None:
            child.process.wait(timeout=TERM_SECONDS)

    def stop_all(self) -> None:
        for child in reversed(self.children):
            self.stop(child)
        self.children.clear()


def _signal_group(group: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # the whole group exited meanwhile
        os.killpg(group, sig)


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _wait_for_group(child: Child, group: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        child.process.poll()  # reap the leader, or its zombie keeps the group "alive"
        if not _group_alive(group):
            return
        time.sleep(0.05)


__all__ = ["Child", "Supervisor"]
