"""Before/after counts of a dream (SPEC W3): memories, index lines, index bytes, and the
index entries an agent sees (issue 15 item 1).

They travel in the dream commit's trailers (``Memsync-Before: memories=12
index-lines=40 index-bytes=3120``, ``Memsync-Visible: 198 -> 198``), so a proposal
can be shown from Git alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from memsync.confined import ConfinedRoot, EntryKind
from memsync.dream.visibility import visible_entries
from memsync.memory import INDEX_FILENAME, TEAM_DIRNAME, MemoryIndex, is_topic_path

_FIELD = re.compile(r"([a-z-]+)=(\d+)")
_VISIBLE = re.compile(r"^\s*(\d+)\s*->\s*(\d+)\s*$")


def is_memory_path(path: str) -> bool:
    """A topic file of the directory or of its ``team/`` scope."""
    if path.startswith(f"{TEAM_DIRNAME}/"):
        return is_topic_path(path.removeprefix(f"{TEAM_DIRNAME}/"))
    return is_topic_path(path)


@dataclass(frozen=True)
class MemoryCounts:
    memories: int
    index_lines: int
    index_bytes: int
    # Entries of MEMORY.md inside the window Claude Code loads; None when unknown
    # (a proposal made before it was recorded).
    visible_entries: int | None = None

    @classmethod
    def of(cls, paths: Iterable[str], index: bytes | None) -> MemoryCounts:
        memories = sum(1 for path in paths if is_memory_path(path))
        if index is None:
            return cls(memories, 0, 0, 0)
        parsed = MemoryIndex.parse_bytes(index)
        text = index.decode("utf-8", "surrogateescape").removeprefix("\ufeff")
        return cls(memories, parsed.line_count, parsed.byte_count, visible_entries(text))

    @classmethod
    def of_directory(cls, root: Path) -> MemoryCounts:
        """Counted from disk (a dream's worktree): ``*.md`` in the root and in ``team/``."""
        # Links are neither counted nor read (issue 10).
        confined = ConfinedRoot(root)
        paths = [entry.name for entry in confined.scan() if entry.kind is EntryKind.FILE]
        if confined.kind(TEAM_DIRNAME) is EntryKind.DIRECTORY:
            paths += [
                f"{TEAM_DIRNAME}/{entry.name}"
                for entry in confined.scan(TEAM_DIRNAME)
                if entry.kind is EntryKind.FILE
            ]
        index = (
            confined.read_bytes(INDEX_FILENAME)
            if confined.kind(INDEX_FILENAME) is EntryKind.FILE
            else None
        )
        return cls.of(paths, index)

    def trailer(self) -> str:
        return (
            f"memories={self.memories} index-lines={self.index_lines} "
            f"index-bytes={self.index_bytes}"
        )

    @classmethod
    def parse(cls, value: str | None) -> MemoryCounts | None:
        if not value:
            return None
        fields = dict(_FIELD.findall(value))
        try:
            return cls(
                int(fields["memories"]), int(fields["index-lines"]), int(fields["index-bytes"])
            )
        except KeyError:
            return None

    def to_dict(self) -> dict[str, int | None]:
        return {
            "memories": self.memories,
            "index_lines": self.index_lines,
            "index_bytes": self.index_bytes,
            "visible_entries": self.visible_entries,
        }


def hides_entries(before: MemoryCounts, after: MemoryCounts) -> bool:
    """Whether the agent sees fewer entries after than before, beyond the entries of
    memories that were merged away (one file fewer is one entry fewer, nothing lost)."""
    merged = max(0, before.memories - after.memories)
    return (after.visible_entries or 0) < (before.visible_entries or 0) - merged


def visible_trailer(before: MemoryCounts, after: MemoryCounts) -> str:
    return f"{before.visible_entries or 0} -> {after.visible_entries or 0}"


def parse_visible(value: str | None) -> tuple[int, int] | None:
    """(before, after) from a ``Memsync-Visible`` trailer."""
    match = _VISIBLE.match(value or "")
    return (int(match.group(1)), int(match.group(2))) if match else None
