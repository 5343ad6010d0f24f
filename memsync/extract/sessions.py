"""Claude Code's sessions on disk: which transcripts a project directory holds.

Claude Code keeps one transcript per session, ``<uuid>.jsonl``, directly in
``~/.claude/projects/<sanitized cwd>/``; the memory directory is ``memory/`` next to
them. Sub-agent transcripts (``agent-*.jsonl``) and anything in sub-directories are not
sessions. A session counts for the dream's gate (SPEC D1) when its file changed after
the last consolidation; reading one is :mod:`memsync.extract.transcript`.
"""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path

_SESSION_FILE = re.compile(
    r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$", re.IGNORECASE
)
_NS = 1_000_000_000


class TranscriptDirectory:
    """A Claude Code project directory as the dream's session source
    (``memsync.dream.gates.SessionSource``)."""

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
