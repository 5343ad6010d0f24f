"""The memsync-managed block in a private ``MEMORY.md``: team memories in context.

Claude Code loads exactly one file into the model's context, ``<memory dir>/MEMORY.md``
(never ``team/MEMORY.md``, never topic files, no ``@path`` expansion). So the team's
memories reach the model only through entries in that one file, written as
``team/<file>.md`` links — the convention Claude Code's own team mode tells the model
("use a path like ``team/file.md`` for team memories").

memsync owns one delimited block at the end of the file::

    <!-- memsync:team:begin — team memories, rewritten by every memsync pull; … -->
    - [Deploy freeze](team/project-deploy-freeze.md) — no deploys on Fridays
    …
    - 37 more team memories — recall finds them
    <!-- memsync:team:end -->

Rules, so that nobody's words are lost:

* Every line outside the block is private and is never changed or dropped. Private
  lines written below the block (Claude Code appends new entries at the end) move
  above it, in their order: the block stays last, so when the file is too long it is
  the team's lines Claude Code stops reading, never the user's own.
* A line inside the block that memsync did not write there last time (the agent
  added an entry, or reworded a team entry) is kept: it moves above the block as a
  private line. A team line the agent deleted comes back on the next regeneration —
  the team's copy, not the private index, decides what team memories exist.
* The whole file stays within Claude Code's limits (`memsync.memory.limits`), with
  headroom for the entries Claude Code adds between pulls. When not every team entry
  fits, the most useful ones stay — by type (feedback, then project, reference, user),
  then the most recently changed — and one last line says how many more exist.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from memsync.memory.index import format_entry, split_lines
from memsync.memory.limits import MAX_ENTRY_CHARS, MAX_INDEX_LINES, MAX_INDEX_UNITS, utf16_len

BEGIN_PREFIX = "<!-- memsync:team:begin"
END_PREFIX = "<!-- memsync:team:end"
BEGIN = (
    f"{BEGIN_PREFIX} — team memories, rewritten by every memsync pull; "
    "write your own lines above it -->"
)
END = f"{END_PREFIX} -->"
# Left free for what Claude Code writes between two pulls (one line per new memory).
HEADROOM_LINES = 20
HEADROOM_UNITS = 2_000
# Most useful first: how to work with the team, then what is going on, then where
# things are, then who people are.
TYPE_ORDER = ("feedback", "project", "reference", "user")
_ELLIPSIS = "…"


@dataclass(frozen=True)
class TeamEntry:
    """One team memory as the block lists it."""

    path: str  # relative to the team directory: ``deploy-freeze.md``
    title: str
    hook: str
    type: str | None
    modified: datetime

    def line(self) -> str:
        return entry_line(self.title, f"team/{self.path}", self.hook)


@dataclass(frozen=True)
class ManagedText:
    """A private index split around its managed block."""

    private: list[str]  # every line outside the block, in order (below ones after)
    block: list[str] | None  # the lines between the markers, None when there is no block
    newline: str


@dataclass(frozen=True)
class BlockResult:
    text: str
    shown: int
    hidden: int
    kept_from_block: list[str]  # agent lines moved out of the block


def split_managed(text: str) -> ManagedText:
    """Private lines and the block's inner lines. An unclosed block runs to the end."""
    pairs = split_lines(text)
    newline = next((ending for _content, ending in pairs if ending), "\n")
    private: list[str] = []
    block: list[str] | None = None
    inside = False
    for content, _ending in pairs:
        if not inside and content.startswith(BEGIN_PREFIX):
            inside = True
            block = block if block is not None else []
            continue
        if inside and content.startswith(END_PREFIX):
            inside = False
            continue
        (block if inside and block is not None else private).append(content)
    return ManagedText(private, block, newline)


def more_line(hidden: int) -> str:
    noun = "team memory" if hidden == 1 else "team memories"
    return f"- {hidden} more {noun} — recall finds them"


def entry_line(title: str, target: str, hook: str) -> str:
    """``- [title](target) — hook`` within `MAX_ENTRY_CHARS` UTF-16 units, the hook
    (then the title) cut at a word boundary when it is too long."""
    hook = " ".join(hook.split())
    line = format_entry(title, target, hook)
    if utf16_len(line) <= MAX_ENTRY_CHARS:
        return line
    bare = format_entry(title, target)
    room = MAX_ENTRY_CHARS - utf16_len(bare) - len(" — ")
    if room > 10:
        return format_entry(title, target, _cut(hook, room))
    room = MAX_ENTRY_CHARS - utf16_len(format_entry("", target))
    return format_entry(_cut(title, max(room, 1)), target)


def _cut(text: str, room: int) -> str:
    if utf16_len(text) <= room:
        return text
    cut = ""
    for char in text:
        if utf16_len(cut + char) > room - 1:
            break
        cut += char
    boundary = cut.rfind(" ")
    if boundary >= len(cut) // 2:
        cut = cut[:boundary]
    return cut.rstrip(" ,;:—–-(") + _ELLIPSIS


def ranked(entries: Iterable[TeamEntry]) -> list[TeamEntry]:
    """Most useful first: by type (`TYPE_ORDER`, unknown types last), then newest."""

    def key(entry: TeamEntry) -> tuple[int, float, str]:
        rank = TYPE_ORDER.index(entry.type) if entry.type in TYPE_ORDER else len(TYPE_ORDER)
        return (rank, -entry.modified.timestamp(), entry.path)

    return sorted(entries, key=key)


def with_team_block(
    text: str, entries: Sequence[TeamEntry], last_written: Sequence[str] | None = None
) -> BlockResult:
    """`text` (a private ``MEMORY.md``, maybe empty) with its team block regenerated.

    `last_written` are the block lines memsync wrote last time; any other line found
    inside the block is the agent's and moves above it. Without that record, team
    entry lines and the "more" line count as memsync's.
    """
    parts = split_managed(text)
    private = list(parts.private)
    kept: list[str] = []
    if parts.block is not None:
        ours = set(last_written) if last_written is not None else None
        for line in parts.block:
            if not line.strip():
                continue
            if ours is not None and line in ours:
                continue
            if ours is None and _looks_generated(line):
                continue
            kept.append(line)
    while private and not private[-1].strip():
        private.pop()
    private += kept
    if not entries:
        body = private
        return BlockResult(_joined(body, parts.newline), 0, 0, kept)
    lines_used = len(private) + (1 if private else 0)  # a blank line before the block
    units_used = sum(utf16_len(line) + len(parts.newline) for line in private)
    units_used += len(parts.newline) if private else 0
    fixed = [BEGIN, END]
    lines_left = MAX_INDEX_LINES - HEADROOM_LINES - lines_used - len(fixed)
    units_left = (
        MAX_INDEX_UNITS
        - HEADROOM_UNITS
        - units_used
        - sum(utf16_len(line) + len(parts.newline) for line in fixed)
    )
    order = ranked(entries)
    shown: list[str] = []
    for position, entry in enumerate(order):
        line = entry.line()
        cost = utf16_len(line) + len(parts.newline)
        remaining = len(order) - position - 1
        # Room for this line, and for the "more" line should anything stay behind.
        reserve = 0 if remaining == 0 else utf16_len(more_line(remaining)) + len(parts.newline)
        reserve_lines = 0 if remaining == 0 else 1
        if len(shown) + 1 + reserve_lines > lines_left or cost + reserve > units_left:
            break
        shown.append(line)
        units_left -= cost
    hidden = len(order) - len(shown)
    block = [BEGIN, *shown, *([more_line(hidden)] if hidden else []), END]
    body = [*private, *([""] if private else []), *block]
    return BlockResult(_joined(body, parts.newline), len(shown), hidden, kept)


def generated_lines(text: str) -> list[str]:
    """The block's inner lines as written, to pass back as `last_written` next time."""
    block = split_managed(text).block
    return list(block or [])


def without_team_block(text: str) -> str:
    """`text` with the block gone; lines the agent added inside it stay, as private
    lines (only memsync's own entry lines and the "more" line are dropped)."""
    parts = split_managed(text)
    if parts.block is None:
        return text
    kept = [line for line in parts.block if line.strip() and not _looks_generated(line)]
    private = list(parts.private)
    while private and not private[-1].strip():
        private.pop()
    return _joined(private + kept, parts.newline)


def _looks_generated(line: str) -> bool:
    stripped = line.strip()
    if stripped.startswith("- [") and "](team/" in stripped:
        return True
    return stripped.startswith("- ") and stripped.endswith("recall finds them")


def _joined(lines: list[str], newline: str) -> str:
    return "".join(line + newline for line in lines)
