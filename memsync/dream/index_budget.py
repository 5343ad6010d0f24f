"""Keeping ``MEMORY.md`` within what an agent sees: 200 lines and 25,000 UTF-16 units,
the limits of `memsync.memory.limits` (SPEC F3).

Nothing is deleted to get there. When the index is too big, whole groups move into
sub-indexes (see `memsync.dream.index_edit`): a group is the lines under one ``##``
heading, or, in the part before the first heading, the entries of one memory type.
``MEMORY.md`` keeps the heading and one entry per sub-index file; the sub-index gets
the group's lines with their links made relative to it. The biggest group moves
first, and groups move only until the index fits, so a small index keeps its entries
where people put them.

A sub-index is itself kept within the same limits: a large group is written as
several files (``indexes/projects.md``, ``indexes/projects-part-2.md``, …), each
with its own entry in ``MEMORY.md``. When a group moves again later (new entries
were added under its heading), its existing sub-index files are read back and the
group is written anew, so entries are never split between two generations of files.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from memsync.dream.index_edit import (
    SUBINDEX_DIRNAME,
    IndexLines,
    Section,
    entry_path,
    fit_line,
    is_subindex_path,
    link_from,
    sections,
    with_target,
)
from memsync.memory import (
    MAX_ENTRY_CHARS,
    MAX_INDEX_LINES,
    MAX_INDEX_UNITS,
    IndexEntry,
    format_entry,
    index_fits,
    utf16_len,
)

# Room under the limits for the sub-index's own title and a few later additions.
CHUNK_MAX_LINES = MAX_INDEX_LINES - 20
CHUNK_MAX_UNITS = MAX_INDEX_UNITS - 2_000
_UNESCAPE = re.compile(r"\\([\[\]])")


def within_budget(lines: IndexLines) -> bool:
    return len(lines.lines) <= MAX_INDEX_LINES and index_fits(lines.render())


def slug(title: str) -> str:
    words = re.findall(r"[^\W_]+", title.casefold())
    return "-".join(words)[:60].strip("-") or "group"


@dataclass
class MovedGroup:
    title: str
    entries: int
    files: list[str]


@dataclass
class BudgetResult:
    index: IndexLines
    subindexes: dict[str, IndexLines]  # written or rewritten, by path
    removed: list[str]  # sub-index files replaced by new ones
    moved: list[MovedGroup] = field(default_factory=list)
    fits: bool = True


@dataclass
class _Group:
    key: str
    title: str
    slug: str
    lines: list[int]  # 1-based lines of MEMORY.md that belong to the group
    replace_from: int  # where the group's entries in MEMORY.md go
    chunks: list[str]  # its sub-index files already there
    saving: int  # lines MEMORY.md loses when the group moves
    units: int  # UTF-16 units of its lines in MEMORY.md


def fit_budget(
    index: IndexLines,
    subindexes: Mapping[str, IndexLines],
    type_of: Mapping[str, str | None],
) -> BudgetResult:
    """`index` (``MEMORY.md``) brought within the limits by moving groups out.

    `subindexes` are the sub-index files already present; `type_of` gives a memory's
    type by path, for grouping entries that have no heading. The result says which
    files to write and remove; `fits` is False when even moving every group leaves
    the index too big (its other lines are text, which is never deleted).
    """
    current = index
    files = dict(subindexes)
    written: dict[str, IndexLines] = {}
    removed: set[str] = set()
    moved: list[MovedGroup] = []
    tried: set[str] = set()
    while not within_budget(current):
        groups = [g for g in _groups(current, files, type_of) if g.key not in tried]
        groups = sorted((g for g in groups if g.saving > 0), key=lambda g: (-g.saving, g.key))
        if not groups:
            return BudgetResult(current, written, sorted(removed), moved, fits=False)
        replace: dict[int, list[str]] = {}
        taken = set(files) - {chunk for group in groups for chunk in group.chunks}
        lines, size = len(current.lines), _size(current)
        for group in groups:
            if lines <= MAX_INDEX_LINES and size <= MAX_INDEX_UNITS:
                break
            tried.add(group.key)
            pointers, new_files, summary = _move(current, files, group, taken)
            replace.update({number: [] for number in group.lines})
            replace[group.replace_from] = pointers
            lines -= group.saving
            size -= group.units - sum(utf16_len(line) + 1 for line in pointers)
            for path in group.chunks:
                files.pop(path, None)
                written.pop(path, None)
                if path in subindexes and path not in new_files:
                    removed.add(path)
            taken |= set(new_files)
            files.update(new_files)
            written.update(new_files)
            moved.append(summary)
        current = current.edited(replace)
    return BudgetResult(current, written, sorted(removed), moved)


def _size(lines: IndexLines) -> int:
    return utf16_len(lines.render())


def _groups(
    index: IndexLines, files: Mapping[str, IndexLines], type_of: Mapping[str, str | None]
) -> list[_Group]:
    parsed = index.index()
    entries_at = {entry.line: entry for entry in parsed.entries}
    groups: list[_Group] = []
    occurrences: dict[str, int] = {}
    for section in sections(index):
        if section.heading is None:
            groups.extend(_type_groups(index, section, entries_at, files, type_of))
            continue
        title = section.title or "Untitled"
        occurrences[title] = occurrences.get(title, 0) + 1
        members = [
            number
            for number in range(section.first, section.last + 1)
            if index.lines[number - 1][0].strip()
        ]
        if not members:
            continue
        chunks = _chunks_in(members, entries_at, files)
        pointers = _expected_pointers(members, chunks, files)
        groups.append(
            _Group(
                key=f"section:{title}:{occurrences[title]}",
                title=title,
                slug=slug(title),
                lines=members,
                replace_from=members[0],
                chunks=chunks,
                saving=len(members) - pointers,
                units=_units(index, members),
            )
        )
    return groups


def _type_groups(
    index: IndexLines,
    section: Section,
    entries_at: Mapping[int, IndexEntry],
    files: Mapping[str, IndexLines],
    type_of: Mapping[str, str | None],
) -> list[_Group]:
    by_type: dict[str, list[int]] = {}
    for number in range(section.first, section.last + 1):
        entry = entries_at.get(number)
        if entry is None:
            continue
        path = entry_path("MEMORY.md", entry.target)
        if path is not None and is_subindex_path(path):
            kind = _chunk_type(path, type_of)
            if kind is None:
                continue  # someone else's sub-index: it stays where it is
        else:
            kind = (type_of.get(path) if path else None) or "other"
        by_type.setdefault(kind, []).append(number)
    groups = []
    for kind, members in sorted(by_type.items()):
        chunks = _chunks_in(members, entries_at, files)
        title = f"{kind.capitalize()} memories"
        groups.append(
            _Group(
                key=f"type:{kind}",
                title=title,
                slug=kind,
                lines=members,
                replace_from=members[0],
                chunks=chunks,
                saving=len(members) - max(1, len(chunks)),
                units=_units(index, members),
            )
        )
    return groups


def _units(index: IndexLines, members: list[int]) -> int:
    return sum(utf16_len(index.lines[n - 1][0]) + 1 for n in members)


def _chunk_type(path: str, type_of: Mapping[str, str | None]) -> str | None:
    """The type whose group wrote `path` (``indexes/feedback-part-2.md`` → feedback)."""
    name = path.removeprefix(f"{SUBINDEX_DIRNAME}/").removesuffix(".md")
    base = re.sub(r"-part-\d+$", "", name)
    known = {kind for kind in type_of.values() if kind} | {"other"}
    return base if base in known else None


def _chunks_in(
    members: list[int], entries_at: Mapping[int, IndexEntry], files: Mapping[str, IndexLines]
) -> list[str]:
    chunks = []
    for number in members:
        entry = entries_at.get(number)
        if entry is None:
            continue
        path = entry_path("MEMORY.md", entry.target)
        if path is not None and is_subindex_path(path) and path in files:
            chunks.append(path)
    return chunks


def _expected_pointers(
    members: list[int], chunks: list[str], files: Mapping[str, IndexLines]
) -> int:
    lines = len(members) - len(chunks) + sum(len(_chunk_body(files[c])) for c in chunks)
    return max(1, -(-lines // CHUNK_MAX_LINES))


def _chunk_body(lines: IndexLines) -> list[str]:
    """A sub-index's lines without its title and blank lines."""
    body = [content for content, _ in lines.lines if content.strip()]
    if body and body[0].startswith("# "):
        body = body[1:]
    return body


def _move(
    index: IndexLines, files: Mapping[str, IndexLines], group: _Group, taken: set[str]
) -> tuple[list[str], dict[str, IndexLines], MovedGroup]:
    """The group's entries for ``MEMORY.md`` (one per sub-index file), the sub-index
    files, and what moved. `taken` are sub-index paths other groups own."""
    entries_at = {entry.line: entry for entry in index.index().entries}
    moving: list[str] = []
    for number in group.lines:
        content = index.lines[number - 1][0]
        entry = entries_at.get(number)
        if entry is None:
            moving.append(content)
            continue
        path = entry_path("MEMORY.md", entry.target)
        if path is not None and path in group.chunks:
            moving.extend(_chunk_body(files[path]))
        elif path is None:
            moving.append(content)
        else:
            moving.append(with_target(entry, link_from(f"{SUBINDEX_DIRNAME}/x.md", path)))

    base = group.slug
    suffix = 1
    while f"{SUBINDEX_DIRNAME}/{base}.md" in taken:
        suffix += 1
        base = f"{group.slug}-{suffix}"
    pieces = _split(moving)
    new_files: dict[str, IndexLines] = {}
    pointers: list[str] = []
    entries = 0
    for number, piece in enumerate(pieces, start=1):
        name = base if number == 1 else f"{base}-part-{number}"
        path = f"{SUBINDEX_DIRNAME}/{name}.md"
        title = group.title if len(pieces) == 1 else f"{group.title} ({number} of {len(pieces)})"
        text = "\n".join([f"# {title}", "", *piece]) + "\n"
        new_files[path] = IndexLines.parse(text)
        pointer, count = _pointer(title, path, piece)
        pointers.append(pointer)
        entries += count
    return pointers, new_files, MovedGroup(group.title, entries, list(new_files))


def _split(lines: list[str]) -> list[list[str]]:
    pieces: list[list[str]] = [[]]
    size = 0
    for line in lines:
        cost = utf16_len(line) + 1
        if pieces[-1] and (len(pieces[-1]) >= CHUNK_MAX_LINES or size + cost > CHUNK_MAX_UNITS):
            pieces.append([])
            size = 0
        pieces[-1].append(line)
        size += cost
    return pieces


def _pointer(title: str, path: str, piece: list[str]) -> tuple[str, int]:
    """The ``MEMORY.md`` entry for one sub-index file, and how many entries it lists."""
    chunk = IndexLines.parse("\n".join(piece) + "\n").index()
    titles = [_UNESCAPE.sub(r"\1", entry.title) for entry in chunk.entries]
    count = len(titles)
    hook = f"{count} {'entry' if count == 1 else 'entries'}: " + ", ".join(titles)
    prefix = format_entry(title, path) + " — "
    return prefix + fit_line(prefix, hook, MAX_ENTRY_CHARS), count
