"""One writer at a time per repository, across processes.

docs/git-notes.md#concurrency has the measurements: the ``git`` binary fails loudly on
``index.lock`` but two writers still interleave stage and commit. An ``flock`` around
every stage-and-commit, merge and revert serialises memsync's own writers at no
measurable cost; git state is re-read after the lock is taken because every step runs a
fresh ``git`` process.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class RepoLockTimeout(Exception):
    """Another writer held the repository longer than we were willing to wait."""


class RepoLock:
    """A re-entrant (per thread) exclusive ``flock`` on a file inside ``.git``."""

    def __init__(self, path: Path, timeout: float = 120.0) -> None:
        self.path = path
        self.timeout = timeout
        self._local = threading.local()

    @contextmanager
    def held(self) -> Iterator[None]:
        depth = getattr(self._local, "depth", 0)
        if depth:
            self._local.depth = depth + 1
            try:
                yield
            finally:
                self._local.depth -= 1
            return
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            self._acquire(fd)
            self._local.depth = 1
            try:
                yield
            finally:
                self._local.depth = 0
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    def _acquire(self, fd: int) -> None:
        deadline = time.monotonic() + self.timeout
        delay = 0.005
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise RepoLockTimeout(
                        f"{self.path} is held by another writer for over {self.timeout:.0f}s"
                    ) from None
                time.sleep(delay)
                delay = min(delay * 2, 0.1)
