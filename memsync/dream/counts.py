"""Before/after counts of a dream (SPEC W3): memories, index lines, index bytes.

They travel in the dream commit's trailers (``Memsync-Before: memories=12
index-lines=40 index-bytes=3120``), so a proposal can be shown from Git alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from memsync.confined import ConfinedRoot, EntryKind
from memsync.memory import INDEX_FILENAME, TEAM_DIRNAME, MemoryIndex, is_topic_path

_FIELD = re.compile(r"([a-z-]+)=(\d+)")


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

    @classmethod
    def of(cls, paths: Iterable[str], index: bytes | None) -> MemoryCounts:
        memories = sum(1 for path in paths if is_memory_path(path))
        if index is None:
            return cls(memories, 0, 0)
        parsed = MemoryIndex.parse_bytes(index)
        return cls(memories, parsed.line_count, parsed.byte_count)

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

    def to_dict(self) -> dict[str, int]:
        return {
            "memories": self.memories,
            "index_lines": self.index_lines,
            "index_bytes": self.index_bytes,
        }
