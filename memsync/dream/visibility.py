"""What an agent sees of ``MEMORY.md``, counted as Claude Code counts it (issue 15).

Claude Code loads the first 200 lines of ``MEMORY.md`` and, of those, the whole lines
whose running length, newlines included, stays within 25,000 UTF-16 code units (a
JavaScript string's ``length``). It follows no link: an entry in a sub-index is
invisible to the agent. So the measure a dream must protect is the number of index
entries inside that window: `visible_entries`.

The limits and the count are the memory format's own (`memsync.memory.limits`), shared
with ``memsync check``, the team block and the dashboard.
"""

from __future__ import annotations

from memsync.memory import MAX_INDEX_LINES, MemoryIndex
from memsync.memory.index import split_lines
from memsync.memory.limits import MAX_INDEX_UNITS as MAX_INDEX_UTF16_UNITS
from memsync.memory.limits import utf16_len as utf16_units

__all__ = [
    "MAX_INDEX_UTF16_UNITS",
    "fits",
    "utf16_units",
    "visible_entries",
    "visible_line_count",
]


def visible_line_count(text: str) -> int:
    """How many leading lines of `text` an agent loads."""
    units = 0
    count = 0
    for number, (content, ending) in enumerate(split_lines(text), start=1):
        if number > MAX_INDEX_LINES:
            break
        units += utf16_units(content) + utf16_units(ending)
        if units - utf16_units(ending) > MAX_INDEX_UTF16_UNITS:
            break
        count = number
    return count


def fits(text: str) -> bool:
    """Whether the agent sees all of `text`."""
    if text.count("\n") > MAX_INDEX_LINES:
        return False  # more lines than are loaded, without splitting a long index
    lines = split_lines(text)
    return len(lines) <= MAX_INDEX_LINES and visible_line_count(text) == len(lines)


def visible_entries(text: str | None) -> int:
    """Index entries (links to a memory or to a sub-index) in what an agent loads."""
    if not text:
        return 0
    window = visible_line_count(text)
    return sum(1 for entry in MemoryIndex.parse(text).entries if entry.line <= window)
