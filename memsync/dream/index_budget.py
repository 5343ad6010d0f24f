"""Keeping ``MEMORY.md`` within what an agent sees, at the least cost to the agent
(SPEC F3, issue 15 item 1).

Claude Code loads ``MEMORY.md`` alone: 200 lines, 25,000 UTF-16 code units
(`memsync.dream.visibility`), no links followed. An entry moved to a sub-index is an
entry the agent no longer sees, so the budget moves as few as it can, and the least
useful ones:

1. nothing happens while the index fits;
2. blank lines go first (they cost a line each and tell the agent nothing);
3. then entries move one at a time, least useful first, until the index fits with
   the pointers to where they went. Usefulness (`memsync.dream.usefulness`) ranks
   by type, then by how many memories link the file, then by how recently it
   changed; among equals the lower entry in the file moves first. Everything else,
   headings and text included, stays where people put it; a heading goes only when
   every line under it moved, and it goes with them.

The overflow is written to ``indexes/more.md`` (``indexes/more-part-2.md``, … when it
is bigger than one sub-index may be), under the headings the entries had, linked
from ``MEMORY.md`` by one entry per file, each listing the titles it holds. A later
dream that must move more entries reads that overflow back and writes it anew, so
entries are never split across two generations of files. Sub-indexes a person or an
earlier memsync wrote stay as they are: their entries in ``MEMORY.md`` are pointers,
never moved.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from memsync.dream.index_edit import (
    SUBINDEX_DIRNAME,
    IndexLines,
    Section,
    entry_path,
    fit_line,
    is_subindex_path,
    link_from,
    sections,
    title_after_retarget,
    with_target,
)
from memsync.dream.visibility import MAX_INDEX_UTF16_UNITS, fits, utf16_units
from memsync.memory import INDEX_FILENAME, MAX_INDEX_LINES, IndexEntry, format_entry
from memsync.memory.index import entry_titles

# Room under the limits for a sub-index's own title and headings.
CHUNK_MAX_LINES = MAX_INDEX_LINES - 20
CHUNK_MAX_UNITS = MAX_INDEX_UTF16_UNITS - 2_000
OVERFLOW_NAME = "more"
OVERFLOW_TITLE = "More memories"
_OVERFLOW = re.compile(rf"{SUBINDEX_DIRNAME}/{OVERFLOW_NAME}(?:-part-\d+)?\.md")
_UNESCAPE = re.compile(r"\\([\[\]])")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^##[ \t]+(.*?)[ \t#]*$")
# A pointer line: "- [More memories (1 of 2)](indexes/more.md) — " plus a few titles;
# short, since it takes the room of an entry the agent would otherwise see.
POINTER_CHARS = 110
_POINTER_UNITS = POINTER_CHARS + 1
# How a sub-index links a memory: the same folder up for every one of them.
_UP = link_from(f"{SUBINDEX_DIRNAME}/x.md", "")

Usefulness = Callable[[str], tuple[float, ...]]


def within_budget(lines: IndexLines) -> bool:
    return fits(lines.render())


def is_overflow_path(path: str) -> bool:
    return _OVERFLOW.fullmatch(path) is not None


@dataclass
class BudgetResult:
    index: IndexLines
    subindexes: dict[str, IndexLines]  # written or rewritten, by path
    removed: list[str]  # overflow files no longer needed
    moved: list[str] = field(default_factory=list)  # memories whose entry moved out
    blank_lines: int = 0  # blank lines removed from MEMORY.md
    fits: bool = True


class _Moving(NamedTuple):
    """An entry that may move (a tuple: the budget makes one for each of thousands)."""

    line: int  # in the compacted MEMORY.md
    path: str
    section: str | None
    entry: IndexEntry


class _OverflowLine(NamedTuple):
    """One line bound for an overflow file, measured once: the budget lays the overflow
    out several times over, and measuring each line again cost more than the layout.
    (A tuple, as `_Moving`: a frozen dataclass's ``__init__`` cost a sixth of moving
    each of the thousands of entries.)"""

    heading: str | None
    text: str
    cost: int  # UTF-16 units with its newline
    titles: tuple[str, ...]  # the entry title `entry_titles` finds on it alone, if any


def _overflow_line(heading: str | None, text: str, title: str | None = None) -> _OverflowLine:
    """`title`, when given, is the one entry title `entry_titles` finds on `text`."""
    titles = (title,) if title is not None else tuple(entry_titles([text]))
    return _OverflowLine(heading, text, utf16_units(text) + 1, titles)


def _moved_line(moving: _Moving) -> _OverflowLine:
    """The entry as a sub-index lists it, linking its memory one folder up."""
    target = _UP + moving.path
    text = with_target(moving.entry, target)
    return _overflow_line(moving.section, text, title_after_retarget(moving.entry, target, text))


def fit_budget(
    index: IndexLines, subindexes: Mapping[str, IndexLines], usefulness: Usefulness
) -> BudgetResult:
    """`index` (``MEMORY.md``) brought within what an agent sees, moving the fewest,
    least useful entries. `subindexes` are the sub-index files already present;
    `usefulness(path)` ranks a memory (higher stays longer). `fits` is False when
    even moving every entry leaves the index too big (its other lines are text,
    which is never deleted)."""
    if within_budget(index):
        return BudgetResult(index, {}, [])
    compact, blanks = _without_blank_lines(index)
    if within_budget(compact):
        return BudgetResult(compact, {}, [], blank_lines=blanks)

    entries = compact.index().entries
    linked = [(entry, entry_path(INDEX_FILENAME, entry.target)) for entry in entries]
    old_pointers = {
        entry.line: path
        for entry, path in linked
        if path and is_overflow_path(path) and path in subindexes
    }
    carried = [_overflow_line(heading, line)
               for path in sorted(set(old_pointers.values()), key=_part_number)
               for heading, line in _overflow_lines(subindexes[path])]  # fmt: skip
    all_sections = sections(compact)
    title_of = _section_titles(all_sections, len(compact.lines))
    candidates = [
        _Moving(entry.line, path, title_of[entry.line], entry)
        for entry, path in linked
        if path is not None and not is_subindex_path(path) and entry.line not in old_pointers
    ]
    # Least useful first; among equals, the one further down the file.
    candidates.sort(key=lambda m: (usefulness(m.path), -m.line))
    layout = _Layout(compact, all_sections, old_pointers, carried)
    units = [utf16_units(content) + 1 for content in compact.contents()]

    count = _estimate(compact, units, candidates, len(carried))
    result = layout.moved_out(candidates[:count])
    while count > 0:  # the estimate counts full-length pointers and no heading freed
        smaller = layout.moved_out(candidates[: count - 1])
        if not within_budget(smaller[0]):
            break
        count, result = count - 1, smaller
    while not within_budget(result[0]) and count < len(candidates):
        count += 1
        result = layout.moved_out(candidates[:count])
    # When size binds rather than lines, a long entry may have made room for several
    # short ones: bring back, most useful first, moved entries that still fit. Counted,
    # not rebuilt per entry; one build checks the whole return at the end.
    moving = candidates[:count]
    rendered = result[0].render()
    lines, total = len(result[0].lines), utf16_units(rendered)
    moved_lines = {m.line for m in moving}
    staying = {entry.line for entry in entries} - moved_lines
    removed_headings = {m.section for m in moving} - {title_of[n] for n in staying}
    returning: list[_Moving] = []
    for back in reversed(moving):
        cost = units[back.line - 1]
        if back.section in removed_headings or lines + 1 > MAX_INDEX_LINES:
            continue
        if total + cost <= MAX_INDEX_UTF16_UNITS - _POINTER_UNITS:
            returning.append(back)
            lines, total = lines + 1, total + cost
    if returning and (len(returning) < len(moving) or carried):
        kept_out = [m for m in moving if m not in returning]
        attempt = layout.moved_out(kept_out)
        if within_budget(attempt[0]):
            moving, result = kept_out, attempt
    new_index, overflow = result
    # The files only for the layout kept: building each trial's cost more than all
    # the rest of the budget.
    files = overflow.files()
    removed = sorted(path for path in set(old_pointers.values()) if path not in files)
    return BudgetResult(
        new_index,
        files,
        removed,
        moved=[m.path for m in moving],
        blank_lines=blanks,
        fits=within_budget(new_index),
    )


def _section_titles(all_sections: list[Section], count: int) -> list[str | None]:
    """The title of the section of each of `count` lines (by 1-based number), as
    `section_of` finds it: one list for the thousands of entries of a big index,
    instead of a walk over the sections for each."""
    titles = [all_sections[0].title] * (count + 1)
    for section in reversed(all_sections):
        lines = range(section.first, section.last + 1)
        titles[section.first : section.last + 1] = [section.title] * len(lines)
    return titles


def _part_number(path: str) -> int:
    found = re.search(r"-part-(\d+)\.md$", path)
    return int(found.group(1)) if found else 1


def _without_blank_lines(index: IndexLines) -> tuple[IndexLines, int]:
    blanks: dict[int, list[str]] = {}
    fence = ""
    for number, content in enumerate(index.contents(), start=1):
        opened = _FENCE.match(content)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
            continue
        if opened:
            fence = opened.group(1)
        elif not content.strip():
            blanks[number] = []
    return (index.edited(blanks), len(blanks)) if blanks else (index, 0)


def _overflow_lines(lines: IndexLines) -> list[tuple[str | None, str]]:
    """(heading, entry line) of an overflow file memsync wrote earlier."""
    found: list[tuple[str | None, str]] = []
    heading: str | None = None
    for content in lines.contents():
        match = _HEADING.match(content)
        if match:
            heading = match.group(1).strip() or None
        elif content.strip() and not content.startswith("# "):
            found.append((heading, content))
    return found


def _estimate(index: IndexLines, units: list[int], candidates: list[_Moving], carried: int) -> int:
    """How many entries must move, counting each pointer as a full-length line.
    `units` are each line's UTF-16 units with its newline."""
    lines = len(index.lines)
    total = utf16_units(index.render())
    for count in range(len(candidates) + 1):
        pointers = max(1, math.ceil((carried + count) / CHUNK_MAX_LINES))
        if (
            lines + pointers <= MAX_INDEX_LINES
            and total + pointers * _POINTER_UNITS <= MAX_INDEX_UTF16_UNITS
        ):
            return count
        if count < len(candidates):
            lines -= 1
            total -= units[candidates[count].line - 1]
    return len(candidates)


class _Layout:
    """``MEMORY.md`` with a given set of entries moved out, and the overflow they go to.
    What each section holds is found once, and each line of the overflow is measured
    once, so each trial layout only chooses lines."""

    def __init__(
        self,
        index: IndexLines,
        all_sections: list[Section],
        old_pointers: Mapping[int, str],
        carried: list[_OverflowLine],
    ) -> None:
        self.index = index
        self.old_pointers = old_pointers
        self.carried = carried
        contents = index.contents()
        # Each headed section's heading line and its non-blank lines.
        self.sections = [
            (
                section.heading,
                [n for n in range(section.first, section.last + 1) if contents[n - 1].strip()],
            )
            for section in all_sections
            if section.heading is not None
        ]
        self.measured: dict[int, _OverflowLine] = {}

    def moved_out(self, moving: list[_Moving]) -> tuple[IndexLines, _Overflow]:
        if not moving and not self.carried:
            return self.index, _Overflow([], [])
        by_line = {m.line: m for m in moving}  # one entry per line
        gone = by_line.keys() | self.old_pointers.keys()
        replace: dict[int, Sequence[str]] = dict.fromkeys(gone, ())
        for heading, members in self.sections:
            if members and all(n in gone for n in members):
                replace[heading] = ()  # the heading goes with all it held
        # In file order, each line measured the first time it moves: sorting the line
        # numbers and looking each up costs less than sorting the entries by a key.
        measured = self.measured
        overflow = self.carried + [
            measured[line] if line in measured else self._measure(by_line[line])
            for line in sorted(by_line)
        ]
        laid_out = _Overflow.of(overflow)
        return self.index.edited(replace, laid_out.pointers), laid_out

    def _measure(self, moving: _Moving) -> _OverflowLine:
        found = self.measured[moving.line] = _moved_line(moving)
        return found


@dataclass
class _Overflow:
    """The overflow laid out as sub-index files (path, title, lines under the title),
    and their entries for ``MEMORY.md``."""

    pieces: list[tuple[str, str, list[str]]]
    pointers: list[str]

    @classmethod
    def of(cls, overflow: list[_OverflowLine]) -> _Overflow:
        grouped: dict[str | None, list[_OverflowLine]] = {}
        for line in overflow:
            grouped.setdefault(line.heading, []).append(line)
        # After a line that may open a code fence, which lines are entries depends on
        # the lines before them: such files are read whole, as `MemoryIndex` reads them.
        fenced = any("```" in line.text or "~~~" in line.text for line in overflow)
        # The last piece and its titles are at hand: the loop runs for each of the
        # thousands of lines, and several times per dream.
        piece: list[str] = []
        piece_titles: list[str] = []
        pieces, titles = [piece], [piece_titles]
        headings: set[str] = set()  # the "## " lines of the last piece
        units = 0
        for heading, lines in grouped.items():
            for line in lines:
                if piece and (len(piece) >= CHUNK_MAX_LINES or units + line.cost > CHUNK_MAX_UNITS):
                    piece, piece_titles = [], []
                    pieces.append(piece)
                    titles.append(piece_titles)
                    headings = set()
                    units = 0
                if heading is not None and heading not in headings:
                    piece.append(f"## {heading}")
                    headings.add(heading)
                elif heading is None and headings:
                    # Before every such line, as it always was; a later dream reads
                    # them back as one "Other" section.
                    piece.append("## Other")
                    headings.add("Other")
                piece.append(line.text)
                piece_titles += line.titles
                units += line.cost
        laid_out: list[tuple[str, str, list[str]]] = []
        pointers: list[str] = []
        for number, piece in enumerate(pieces, start=1):
            name = OVERFLOW_NAME if number == 1 else f"{OVERFLOW_NAME}-part-{number}"
            path = f"{SUBINDEX_DIRNAME}/{name}.md"
            title = (
                OVERFLOW_TITLE
                if len(pieces) == 1
                else f"{OVERFLOW_TITLE} ({number} of {len(pieces)})"
            )
            written = entry_titles(_file_lines(title, piece)) if fenced else titles[number - 1]
            laid_out.append((path, title, piece))
            pointers.append(_pointer(title, path, written))
        return cls(laid_out, pointers)

    def files(self) -> dict[str, IndexLines]:
        return {
            path: IndexLines.parse("\n".join(_file_lines(title, piece)) + "\n")
            for path, title, piece in self.pieces
        }


def _file_lines(title: str, piece: list[str]) -> list[str]:
    return [f"# {title}", "", *piece]


def _pointer(title: str, path: str, written: list[str]) -> str:
    """The ``MEMORY.md`` entry for one overflow file: what it holds, by title."""
    count = len(written)
    prefix = format_entry(title, path) + " — "
    hook = f"{count} more {'entry' if count == 1 else 'entries'}: "
    # The line keeps at most `room` characters of the hook: once the hook is longer,
    # further titles change nothing in it (an overflow file holds ~180 of them).
    room = POINTER_CHARS - len(prefix)
    for number, written_title in enumerate(written):
        if len(hook) > room:
            break
        hook += (", " if number else "") + _UNESCAPE.sub(r"\1", written_title)
    return prefix + fit_line(prefix, hook, POINTER_CHARS)
