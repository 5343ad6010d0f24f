"""Session sources and the scan throttle on a developer machine (SPEC D1).

Claude Code keeps one transcript per session, ``<uuid>.jsonl``, directly in
``~/.claude/projects/<sanitized cwd>/``; the memory directory is ``memory/`` next to
them. Sub-agent transcripts (``agent-*.jsonl``) and anything in sub-directories are not
sessions. A session counts when its file changed after the last consolidation.
"""

from __future__ import annotations

import os
import re
from datetime import datetime, timedelta
from pathlib import Path

_SESSION_FILE = re.compile(
    r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$", re.IGNORECASE
)
_NS = 1_000_000_000


class TranscriptDirectory:
    """A Claude Code project directory as a :class:`~memsync.dream.gates.SessionSource`."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def sessions_touched_since(self, since: datetime | None) -> list[str]:
        since_ns = round(since.timestamp() * _NS) if since is not None else 0
        found: list[tuple[int, str]] = []
        try:
            entries = os.scandir(self.path)
        except FileNotFoundError:
            return []
        with entries:
            for entry in entries:
                if not _SESSION_FILE.match(entry.name):
                    continue
                try:
                    if not entry.is_file(follow_symlinks=False):
                        continue
                    mtime_ns = entry.stat(follow_symlinks=False).st_mtime_ns
                except OSError:
                    continue  # removed while we looked
                if mtime_ns > since_ns:
                    found.append((mtime_ns, entry.name.removesuffix(".jsonl")))
        return [session for _, session in sorted(found, reverse=True)]


class NoTranscripts:
    """The session source of a memory directory whose transcripts are nowhere to be found:
    the session gate then stays closed, and only ``--force`` dreams."""

    def sessions_touched_since(self, since: datetime | None) -> list[str]:
        return []


def default_transcripts_dir(memory_dir: Path) -> Path | None:
    """Where Claude Code keeps the transcripts of a memory directory it owns: the parent
    of ``…/projects/<project>/memory``; None for a directory laid out otherwise."""
    memory_dir = Path(memory_dir).resolve()
    return memory_dir.parent if memory_dir.name == "memory" else None


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
