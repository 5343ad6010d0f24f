"""`MEMORY.md`, the index of a memory directory (SPEC F3).

The index is a Markdown file whose entry lines look like
``- [Title](file.md) — one-line hook``. Real indexes also carry a ``#`` title, ``##``
group headings, blank lines and the odd sentence; all of that is kept exactly where
it stands. A `MemoryIndex` is immutable: `with_entry` and `without_entry` return a
new index that differs from the old one only in the lines they touch.

An agent sees the first 200 lines of the index, cut further at the last whole line
within 25,000 UTF-16 code units, as Claude Code counts (see `memsync.memory.limits`);
`visible()` and `invisible_lines()` say what that leaves.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from urllib.parse import unquote

from memsync.memory.decoding import BOM, decode_memory_bytes
from memsync.memory.entry_line import entry_parts as _entry_parts
from memsync.memory.frozen import built
from memsync.memory.limits import MAX_ENTRY_CHARS, MAX_INDEX_LINES, MAX_INDEX_UNITS, utf16_len
from memsync.memory.problems import Problem, ProblemCode, Severity

INDEX_FILENAME = "MEMORY.md"
__all__ = [
    "INDEX_FILENAME",
    "MAX_ENTRY_CHARS",
    "MAX_INDEX_LINES",
    "MAX_INDEX_UNITS",
    "IndexEntry",
    "MemoryIndex",
    "entry_targets",
    "entry_titles",
    "format_entry",
    "link_file",
    "long_entries",
    "split_lines",
]

_HEADING = re.compile(r"^[ \t]{0,3}(?P<marks>#{1,6})(?:[ \t]+(?P<text>.*?))?[ \t#]*$")
_FENCE = re.compile(r"^[ \t]{0,3}(?P<fence>`{3,}|~{3,})")
_DELIMITER = re.compile(r"^---[ \t]*$")
_URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_NEEDS_ANGLES = re.compile(r"[\s()<>]")
# A link target that names a file in the index's folder as it is: no space, scheme,
# folder, anchor, query or escape to read through.
_FILE_NAME = re.compile(r"[A-Za-z0-9_-]+\.md")


@dataclass(frozen=True)
class IndexEntry:
    title: str
    target: str
    hook: str
    line: int
    raw: str
    # How it was written, so an in-place update keeps the author's style.
    indent: str = ""
    bullet: str = "-"
    separator: str = ""
    emphasis: str = ""

    @property
    def file(self) -> str | None:
        """The memory file the entry points at, relative to the index, or None for a URL."""
        return link_file(self.target)


def link_file(target: str) -> str | None:
    """Normalise a link target to a POSIX path inside the memory directory.

    ``./a.md``, ``a.md#why`` and ``my%20notes.md`` name files; URLs, absolute
    paths, bare anchors and paths leaving the directory do not.
    """
    if _FILE_NAME.fullmatch(target):
        return target  # most targets, as Claude Code writes them: nothing to normalise
    target = target.strip()
    if target.startswith("<") and target.endswith(">"):
        target = target[1:-1]
    if not target or target.startswith(("/", "#")) or _URL_SCHEME.match(target):
        return None
    target = unquote(target.split("#", 1)[0].split("?", 1)[0])
    parts: list[str] = []
    for part in target.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            return None
        parts.append(part)
    return "/".join(parts) or None


def format_entry(title: str, target: str, hook: str = "") -> str:
    """One index line in Claude Code's canonical form: ``- [Title](file.md) — hook``."""
    return _entry_line("", "-", "", title, target, " — ", hook)


def _entry_line(
    indent: str, bullet: str, emphasis: str, title: str, target: str, separator: str, hook: str
) -> str:
    for value, what in ((title, "title"), (target, "target"), (hook, "hook")):
        if "\n" in value or "\r" in value:
            raise ValueError(f"an index entry is one line; the {what} has a line break")
    if not target.strip():
        raise ValueError("an index entry needs a link target")
    title = _escape_title(title)
    destination = f"<{target}>" if _NEEDS_ANGLES.search(target) else target
    line = f"{indent}{bullet} {emphasis}[{title}]({destination}){emphasis}"
    hook = hook.strip()
    if hook:
        line += f"{separator or ' — '}{hook}"
    return line


def _escape_title(title: str) -> str:
    return re.sub(r"(?<!\\)([\[\]])", r"\\\1", title)


# An edit of an index leaves most lines where they were, and its parse then finds the
# same entries: kept (they are immutable) instead of built again, which cost more than
# matching them.
@functools.lru_cache(maxsize=65536)
def _parse_entry(content: str, line: int) -> IndexEntry | None:
    parts = _entry_parts(content)
    return None if parts is None else _entry_at(parts, line)


def _entry_at(parts: tuple[str, str, str, str, str, str, str, str], line: int) -> IndexEntry:
    """``IndexEntry(*parts[:3], line, *parts[3:])``: every edit that moves lines (a
    dream makes several) gives each entry below a new number, so a new entry."""
    title, target, hook, raw, indent, bullet, separator, emphasis = parts
    return built(
        IndexEntry,
        title=title,
        target=target,
        hook=hook,
        line=line,
        raw=raw,
        indent=indent,
        bullet=bullet,
        separator=separator,
        emphasis=emphasis,
    )


def split_lines(text: str) -> list[tuple[str, str]]:
    """(content, ending) pairs; joining them gives back `text` exactly."""
    parts = text.split("\n")
    last = parts.pop()
    if "\r" in text:
        lines = [(p[:-1], "\r\n") if p.endswith("\r") else (p, "\n") for p in parts]
    else:  # the common case, without a test per line
        lines = [(part, "\n") for part in parts]
    if last:
        lines.append((last, ""))
    return lines


def _utf8_len(text: str) -> int:
    try:
        return len(text.encode("utf-8", "surrogateescape"))
    except UnicodeEncodeError:
        return len(text.encode("utf-8", "surrogatepass"))


def _outside_fences(contents: Iterable[str]) -> Iterator[tuple[int, str, bool]]:
    """(number, content, is a heading) of each line outside code fences, the fence
    lines themselves left out: where a reader of the index looks for entries."""
    fence: str | None = None
    for number, content in enumerate(contents, start=1):
        # A fence has three backticks or tildes, a heading a "#": most lines have
        # neither, and a substring test is far cheaper than the patterns.
        fenced = "```" in content or "~~~" in content
        opened = _FENCE.match(content) if fenced else None
        if fence is not None:
            if opened and opened["fence"][0] == fence[0] and len(opened["fence"]) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened["fence"]
            continue
        yield number, content, "#" in content and _HEADING.match(content) is not None


def _parts_of_entries(lines: Iterable[str]) -> Iterator[tuple[str, ...]]:
    """The parts of each entry `MemoryIndex` finds in these lines (without line
    endings), in order, without building the entries."""
    for _number, content, heading in _outside_fences(lines):
        if not heading and (parts := _entry_parts(content)) is not None:
            yield parts


def entry_titles(lines: Iterable[str]) -> list[str]:
    """The titles of the entries `MemoryIndex` finds in these lines, as written: for a
    caller that needs no more."""
    return [parts[0] for parts in _parts_of_entries(lines)]


def entry_targets(lines: Iterable[str]) -> list[str]:
    """The link targets of the entries `MemoryIndex` finds in these lines, as written:
    for a caller that needs no more."""
    return [parts[1] for parts in _parts_of_entries(lines)]


def long_entries(lines: Iterable[str], limit: int) -> list[IndexEntry]:
    """The entries `MemoryIndex` finds in these lines (without line endings) that are
    over `limit` characters as written: only those lines are parsed, for a caller that
    looks at no other (most of an index's entries are short)."""
    return [
        entry
        for number, content, heading in _outside_fences(lines)
        if len(content) > limit and not heading and (entry := _parse_entry(content, number))
    ]


class MemoryIndex:
    """A parsed `MEMORY.md`. Never raises on content; renders back byte for byte."""

    __slots__ = ("_bom", "_decode_problem", "_entries", "_headings", "_lines")

    def __init__(
        self,
        lines: list[tuple[str, str]],
        bom: str = "",
        decode_problem: Problem | None = None,
    ) -> None:
        self._lines = tuple(lines)
        self._bom = bom
        self._decode_problem = decode_problem
        entries: list[IndexEntry] = []
        headings: dict[int, str] = {}
        for number, content, heading in _outside_fences(content for content, _ in self._lines):
            if heading:
                headings[number] = content
                continue
            entry = _parse_entry(content, number)
            if entry is not None:
                entries.append(entry)
        self._entries = tuple(entries)
        self._headings = headings

    # -- reading -------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> MemoryIndex:
        bom = ""
        if text.startswith(BOM):
            bom, text = BOM, text[1:]
        return cls(split_lines(text), bom)

    @classmethod
    def parse_bytes(cls, data: bytes, path: str = INDEX_FILENAME) -> MemoryIndex:
        decoded = decode_memory_bytes(path, data)
        # Undecodable bytes are carried as lone surrogates so render_bytes() gives
        # them back unchanged; the problem says they are there.
        text = data.decode("utf-8", "surrogateescape")
        bom = ""
        if text.startswith(BOM):
            bom, text = BOM, text[1:]
        return cls(split_lines(text), bom, decoded.problem)

    @classmethod
    def empty(cls) -> MemoryIndex:
        return cls([])

    def render(self) -> str:
        return self._bom + "".join(content + ending for content, ending in self._lines)

    def render_bytes(self) -> bytes:
        return self.render().encode("utf-8", "surrogateescape")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MemoryIndex) and self.render() == other.render()

    def __hash__(self) -> int:
        return hash(self.render())

    def __repr__(self) -> str:
        return f"<MemoryIndex {len(self._lines)} lines, {len(self._entries)} entries>"

    @property
    def entries(self) -> list[IndexEntry]:
        return list(self._entries)

    @property
    def lines(self) -> list[str]:
        """Every line as written, without its line ending."""
        return [content for content, _ending in self._lines]

    @property
    def line_count(self) -> int:
        return len(self._lines)

    @property
    def byte_count(self) -> int:
        """Size on disk (UTF-8), for people; limits are in `unit_count`."""
        return _utf8_len(self.render())

    @property
    def unit_count(self) -> int:
        """Size as Claude Code measures it against its limit: UTF-16 code units."""
        return utf16_len(self.render())

    def __iter__(self) -> Iterator[IndexEntry]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def entry_for(self, target: str) -> IndexEntry | None:
        """The first entry linking to `target` (``a.md``, ``./a.md`` and ``a.md#x`` match)."""
        wanted = link_file(target)
        for entry in self._entries:
            if entry.target == target or (wanted is not None and entry.file == wanted):
                return entry
        return None

    def linked_files(self) -> set[str]:
        return {entry.file for entry in self._entries if entry.file is not None}

    def heading_for(self, entry: IndexEntry) -> str | None:
        """The nearest heading line above the entry, as written."""
        for number in range(entry.line - 1, 0, -1):
            if number in self._headings:
                return self._headings[number]
        return None

    # -- what an agent sees --------------------------------------------------------

    def _visible_count(self) -> int:
        offset = 0
        for number, (content, ending) in enumerate(self._lines, start=1):
            if number > MAX_INDEX_LINES:
                return number - 1
            end = offset + utf16_len(content)
            if end > MAX_INDEX_UNITS:
                return number - 1
            offset = end + len(ending)
        return len(self._lines)

    def visible(self) -> str:
        """What an agent actually loads: the first 200 lines, cut at the last whole
        line within 25,000 UTF-16 units (a first line longer than that is cut mid-line)."""
        count = self._visible_count()
        if count == 0 and self._lines:
            head = self._lines[0][0].encode("utf-16-le", "surrogatepass")[: MAX_INDEX_UNITS * 2]
            return head.decode("utf-16-le", "ignore")
        return "".join(content + ending for content, ending in self._lines[:count])

    def invisible_lines(self) -> range:
        """1-based numbers of the lines an agent never sees."""
        return range(self._visible_count() + 1, len(self._lines) + 1)

    # -- problems ------------------------------------------------------------------

    def has_frontmatter(self) -> bool:
        if not self._lines or not _DELIMITER.match(self._lines[0][0]):
            return False
        return any(_DELIMITER.match(content) for content, _ in self._lines[1:])

    def problems(self, path: str = INDEX_FILENAME) -> list[Problem]:
        found: list[Problem] = []
        if self._decode_problem is not None:
            found.append(
                Problem(
                    self._decode_problem.code,
                    path,
                    self._decode_problem.line,
                    self._decode_problem.message,
                    self._decode_problem.severity,
                )
            )
        if self.has_frontmatter():
            found.append(
                Problem.at(
                    ProblemCode.INDEX_FRONTMATTER,
                    path,
                    1,
                    f"{INDEX_FILENAME} must not have frontmatter; it is an index, "
                    "and an agent would read the block as index text",
                )
            )
        total = len(self._lines)
        if total > MAX_INDEX_LINES and any(
            content.strip() for content, _ in self._lines[MAX_INDEX_LINES:]
        ):
            found.append(
                Problem.at(
                    ProblemCode.INDEX_TOO_MANY_LINES,
                    path,
                    MAX_INDEX_LINES + 1,
                    f"{INDEX_FILENAME} has {total} lines; an agent loads only the first "
                    f"{MAX_INDEX_LINES}, so lines {MAX_INDEX_LINES + 1}–{total} are never seen",
                )
            )
        size = self.unit_count
        if size > MAX_INDEX_UNITS:
            offset = len(self._bom)
            crossing = total
            for number, (content, ending) in enumerate(self._lines, start=1):
                if offset + utf16_len(content) > MAX_INDEX_UNITS:
                    crossing = number
                    break
                offset += utf16_len(content) + len(ending)
            found.append(
                Problem.at(
                    ProblemCode.INDEX_TOO_LARGE,
                    path,
                    crossing,
                    f"{INDEX_FILENAME} is {size:,} characters (UTF-16 units, as Claude Code "
                    f"counts), over the {MAX_INDEX_UNITS:,} limit; an agent sees nothing "
                    "from this line on",
                )
            )
        first_line_for: dict[str, int] = {}
        for entry in self._entries:
            length = utf16_len(entry.raw)
            if length > MAX_ENTRY_CHARS:
                found.append(
                    Problem.at(
                        ProblemCode.INDEX_ENTRY_TOO_LONG,
                        path,
                        entry.line,
                        f"entry for {entry.target} is {length} characters, over "
                        f"{MAX_ENTRY_CHARS}, Claude Code's limit; "
                        "keep the hook short and move detail into the file",
                        Severity.WARNING,
                    )
                )
            key = entry.file or entry.target
            if key in first_line_for:
                found.append(
                    Problem.at(
                        ProblemCode.INDEX_DUPLICATE,
                        path,
                        entry.line,
                        f"second entry for {key} (the first is on line {first_line_for[key]})",
                        Severity.WARNING,
                    )
                )
            else:
                first_line_for[key] = entry.line
        return found

    # -- changing ------------------------------------------------------------------

    def _newline(self) -> str:
        for _content, ending in self._lines:
            if ending:
                return ending
        return "\n"

    def _rebuilt(self, lines: list[tuple[str, str]]) -> MemoryIndex:
        """Restore the line-ending invariants after an edit: every line but the last
        ends with a newline, and the last one ends as the original did."""
        newline = self._newline()
        final = self._lines[-1][1] if self._lines else newline
        fixed = [(content, ending or newline) for content, ending in lines]
        # An empty last line cannot go without its newline (it would vanish), so it keeps one.
        if fixed and (final or fixed[-1][0]):
            fixed[-1] = (fixed[-1][0], final)
        return MemoryIndex(fixed, self._bom, self._decode_problem)

    def with_entry(
        self, title: str, target: str, hook: str = "", heading: str | None = None
    ) -> MemoryIndex:
        """The index with an entry for `target`: updated where it stands if present,
        else appended under `heading` (created at the end if missing) or at the end."""
        existing = self.entry_for(target)
        lines = list(self._lines)
        if existing is not None:
            same_file = link_file(existing.target) == link_file(target)
            written = existing.target if same_file else target
            unchanged = existing.title == _escape_title(title) and existing.hook == hook.strip()
            if unchanged and written == existing.target:
                return self
            content = _entry_line(
                existing.indent,
                existing.bullet,
                existing.emphasis,
                title,
                written,
                existing.separator,
                hook,
            )
            index = existing.line - 1
            lines[index] = (content, lines[index][1])
            return self._rebuilt(lines)

        new_line = (format_entry(title, target, hook), "")
        if heading is None:
            return self._rebuilt(self._insert_after_last_text(lines, 0, len(lines), [new_line]))
        found = self._find_heading(heading)
        if found is None:
            heading_line = (
                heading.strip() if heading.lstrip().startswith("#") else f"## {heading.strip()}"
            )
            block: list[tuple[str, str]] = []
            if any(content.strip() for content, _ in lines):
                block.append(("", ""))
            block += [(heading_line, ""), new_line]
            return self._rebuilt(self._insert_after_last_text(lines, 0, len(lines), block))
        section_end = next(
            (number - 1 for number in sorted(self._headings) if number > found), len(lines)
        )
        return self._rebuilt(self._insert_after_last_text(lines, found, section_end, [new_line]))

    @staticmethod
    def _insert_after_last_text(
        lines: list[tuple[str, str]], start: int, end: int, new: list[tuple[str, str]]
    ) -> list[tuple[str, str]]:
        """Insert after the last non-blank line in lines[start:end] (0-based, end
        exclusive), so blank lines that close a section stay below the new entry."""
        position = start
        for index in range(end - 1, start - 1, -1):
            if lines[index][0].strip():
                position = index + 1
                break
        return lines[:position] + new + lines[position:]

    def _find_heading(self, heading: str) -> int | None:
        wanted = heading.strip()
        by_text = not wanted.startswith("#")
        for number, content in sorted(self._headings.items()):
            if by_text:
                match = _HEADING.match(content)
                text = (match["text"] or "") if match else ""
                if text.strip().casefold() == wanted.casefold():
                    return number
            elif content.strip() == wanted:
                return number
        return None

    def without_entry(self, target: str) -> MemoryIndex:
        """The index without any entry linking to `target`; every other line stays."""
        wanted = link_file(target)
        drop = {
            entry.line
            for entry in self._entries
            if entry.target == target or (wanted is not None and entry.file == wanted)
        }
        if not drop:
            return self
        kept = [line for number, line in enumerate(self._lines, start=1) if number not in drop]
        return self._rebuilt(kept)
