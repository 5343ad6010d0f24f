"""The dream's scan throttle on a developer machine (SPEC D1).

Which sessions a machine's transcripts hold is :mod:`memsync.extract.sessions`.
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta
from pathlib import Path


class ScanStateFile:
    """The scan throttle's state on a developer machine: the mtime of a file under the
    repository's ``.git/`` (never committed, never seen by Claude Code)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    @classmethod
    def for_repository(cls, repo_path: Path) -> ScanStateFile:
        return cls(Path(repo_path) / ".git" / "memsync" / "last-session-scan")

    def last_scan(self) -> datetime | None:
        try:
            mtime = self.path.stat().st_mtime
        except FileNotFoundError:
            return None
        return datetime.fromtimestamp(mtime).astimezone()

    def claim_scan(self, now: datetime, interval: timedelta) -> bool:
        last = self.last_scan()
        if last is not None and timedelta(0) <= now - last < interval:
            return False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.touch()
        stamp = now.timestamp()
        os.utime(self.path, (stamp, stamp))
        return True
