"""Editing index files line by line, for the deterministic dream (SPEC F3, D8).

An index file is ``MEMORY.md`` or a sub-index ``indexes/<group>.md``. Sub-indexes
are how the dream keeps a big index within 200 lines and 25,000 bytes without
dropping entries: ``MEMORY.md`` keeps one entry per group, linking the sub-index,
and the sub-index lists the group's entries in the usual format with links
relative to itself (``- [Title](../file.md) — hook``). So every memory is at most
one link away from ``MEMORY.md``.

How a reader recognises a sub-index is defined in ``memsync.memory.subindex``.

`IndexLines` edits keep every other line exactly as written; a whole edit is
applied at once, so 2,000 entries cost one parse, not one per entry.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from memsync.memory import (
    INDEX_FILENAME,
    MAX_ENTRY_CHARS,
    IndexEntry,
    MemoryIndex,
    format_entry,
)
from memsync.memory.decoding import BOM
from memsync.memory.index import entry_targets, long_entries, split_lines
from memsync.memory.subindex import SUBINDEX_DIRNAME, entry_path, is_subindex_path, link_from

__all__ = ["SUBINDEX_DIRNAME", "entry_path", "is_subindex_path", "link_from"]

_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^[ \t]{0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$")
_ELLIPSIS = "…"
_PLAIN_TARGET = re.compile(r"[^\s()<>\\]+")


def is_index_path(path: str) -> bool:
    return path == INDEX_FILENAME or is_subindex_path(path)


@dataclass
class IndexLines:
    """An index file as (content, line ending) pairs; joining them gives the text.
    Never changed once built (edits make a new one), so its text and its parse are
    each worked out once: a dream compares, measures and writes the same index again
    and again."""

    bom: str
    lines: list[tuple[str, str]]
    _parsed: MemoryIndex | None = field(default=None, repr=False, compare=False)
    _text: str | None = field(default=None, repr=False, compare=False)

    @classmethod
    def parse(cls, text: str) -> IndexLines:
        bom = ""
        if text.startswith(BOM):
            bom, text = BOM, text[1:]
        return cls(bom, split_lines(text))

    @classmethod
    def of(cls, index: MemoryIndex) -> IndexLines:
        """The lines of an index already parsed (its parse is kept, not redone)."""
        text = index.render()
        lines = cls.parse(text)
        lines._parsed, lines._text = index, text
        return lines

    def render(self) -> str:
        if self._text is None:
            self._text = self.bom + "".join(content + ending for content, ending in self.lines)
        return self._text

    @property
    def newline(self) -> str:
        return next((ending for _, ending in self.lines if ending), "\n")

    def index(self) -> MemoryIndex:
        """The parsed index."""
        if self._parsed is None:
            if self._as_split():
                # The lines are already what splitting the rendered text would give.
                self._parsed = MemoryIndex(self.lines, self.bom)
            else:
                self._parsed = MemoryIndex.parse(self.render())
        return self._parsed

    def _as_split(self) -> bool:
        """True when `split_lines(render())` gives these very lines (and the BOM)."""
        if not self.bom and self.lines and self.lines[0][0].startswith(BOM):
            return False
        last = len(self.lines) - 1
        for number, (content, ending) in enumerate(self.lines):
            if "\n" in content:
                return False
            if ending == "\n" and content.endswith("\r"):
                return False
            if not ending and (number != last or not content):
                return False
        return True

    def long_entries(self, limit: int = MAX_ENTRY_CHARS) -> list[IndexEntry]:
        """The entries over `limit` characters as written, in order: those of
        `index()`, without parsing the other lines when the file is not parsed yet."""
        if self._parsed is None and self._as_split():
            return long_entries(self.contents(), limit)
        return [entry for entry in self.index().entries if len(entry.raw) > limit]

    def targets(self) -> list[str]:
        """The link target of each entry of `index()`, as written, in order: without
        building the entries when the file is not parsed yet (every edit moves the
        lines below it, and each entry then is a new one)."""
        if self._parsed is None and self._as_split():
            return entry_targets(self.contents())
        return [entry.target for entry in self.index().entries]

    def contents(self) -> list[str]:
        return [content for content, _ in self.lines]

    def edited(
        self,
        replace: Mapping[int, Sequence[str]] | None = None,
        append: Iterable[str] = (),
    ) -> IndexLines:
        """A copy with lines replaced (1-based number → new lines; [] deletes) and
        lines appended after the last non-blank line. Every line ends with a newline."""
        replace = replace or {}
        newline = self.newline
        out: list[str] = []
        for number, (content, _ending) in enumerate(self.lines, start=1):
            if number in replace:
                out.extend(replace[number])
            else:
                out.append(content)
        extra = list(append)
        if extra:
            last = max((i for i, line in enumerate(out) if line.strip()), default=-1)
            out[last + 1 : last + 1] = extra
        return IndexLines(self.bom, [(line, newline) for line in out])


@dataclass(frozen=True)
class Section:
    """The lines under one ``##`` heading (or before the first one: the preamble)."""

    heading: int | None  # 1-based line of the heading, None for the preamble
    title: str | None
    first: int  # first line after the heading
    last: int  # last line of the section (inclusive); last < first when empty


def sections(lines: IndexLines) -> list[Section]:
    """Sections split at level-2 headings, fences respected. Deeper headings stay
    inside their section; a level-1 heading (the title) stays in the preamble."""
    found: list[Section] = []
    start, heading, title = 1, None, None
    fence = ""
    contents = lines.contents()
    for number, content in enumerate(contents, start=1):
        # A fence holds three backticks or tildes, a level-2 heading "##": most lines
        # hold neither, and a substring test is far cheaper than the patterns.
        fenced = "```" in content or "~~~" in content
        opened = _FENCE.match(content) if fenced else None
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
            continue
        if opened:
            fence = opened.group(1)
            continue
        match = _HEADING.match(content) if "##" in content else None
        if match and len(match.group(1)) == 2:
            found.append(Section(heading, title, start, number - 1))
            start, heading, title = number + 1, number, (match.group(2) or "").strip()
    found.append(Section(heading, title, start, len(contents)))
    return found


def section_of(all_sections: list[Section], line: int) -> Section:
    for section in all_sections:
        if section.first <= line <= section.last:
            return section
    return all_sections[0]


_TYPE_WORDS = {
    "user": "user",
    "users": "user",
    "feedback": "feedback",
    "feedbacks": "feedback",
    "project": "project",
    "projects": "project",
    "reference": "reference",
    "references": "reference",
}


def heading_type(title: str | None) -> str | None:
    """The memory type a heading stands for: "User", "Projects", "Feedback memories"."""
    if not title:
        return None
    words = title.casefold().split()
    if words and words[-1] in ("memory", "memories"):
        words = words[:-1]
    return _TYPE_WORDS.get(" ".join(words))


def with_target(entry: IndexEntry, target: str) -> str:
    """The entry's line, written as it was, linking `target` instead."""
    raw = entry.raw
    for written in (f"<{entry.target}>", entry.target):
        marker = f"]({written}"
        position = raw.find(marker)
        if position != -1:
            replacement = f"<{target}>" if written.startswith("<") or " " in target else target
            start = position + 2
            return raw[:start] + replacement + raw[start + len(written) :]
    return format_entry(entry.title, target, entry.hook)


def title_after_retarget(entry: IndexEntry, target: str, line: str) -> str | None:
    """The title `MemoryIndex` reads on `line`, which is ``with_target(entry, target)``,
    when it is sure to be the entry's own without parsing `line`: the link changed is
    the one right after the title, and neither target holds what makes a link read
    otherwise (a space, a parenthesis, an angle bracket, a backslash). None when only
    parsing can tell. A dream moving thousands of entries to a sub-index parsed each
    of them again to count them, at a cost above the rest of the move."""
    if not (_PLAIN_TARGET.fullmatch(entry.target) and _PLAIN_TARGET.fullmatch(target)):
        return None
    raw = entry.raw
    # Nothing before an entry's title holds a "[": the first one opens the title.
    link = raw.find("[") + 1 + len(entry.title)
    # A plain target has no "<": at most one of the two is written there, and almost
    # always the bare one, tried first.
    for written, replacement in ((entry.target, target), (f"<{entry.target}>", f"<{target}>")):
        if raw.startswith("](" + written, link):
            rest = raw[link + 2 + len(written) :]
            return entry.title if line == raw[: link + 2] + replacement + rest else None
    return None


def with_hook(entry: IndexEntry, hook: str) -> str:
    raw = entry.raw.rstrip()
    if entry.hook and raw.endswith(entry.hook):
        return raw[: len(raw) - len(entry.hook)] + hook
    return raw + (entry.separator or " — ") + hook


def fit_line(prefix: str, text: str, limit: int = MAX_ENTRY_CHARS) -> str:
    """`text` cut at a word boundary so that ``prefix + text`` is at most `limit`
    characters, with an ellipsis when something was cut; "" when nothing fits."""
    room = limit - len(prefix)
    if len(text) <= room:
        return text
    if room <= len(_ELLIPSIS):
        return ""
    cut = text[: room - len(_ELLIPSIS)]
    boundary = max(cut.rfind(" "), cut.rfind("\u3000"))
    if boundary >= len(cut) // 2:
        cut = cut[:boundary]
    cut = cut.rstrip(" ,;:—–-(")
    return cut + _ELLIPSIS if cut else ""


def shortened(entry: IndexEntry, limit: int = MAX_ENTRY_CHARS) -> str | None:
    """The entry's line with its hook cut to fit `limit`, or None when even an empty
    hook would not fit (the title alone is too long)."""
    raw = entry.raw.rstrip()
    if len(raw) <= limit:
        return raw
    if not entry.hook or not raw.endswith(entry.hook):
        return None
    prefix = raw[: len(raw) - len(entry.hook)]
    hook = fit_line(prefix, entry.hook, limit)
    if not hook:
        return None
    return prefix + hook


def cut_part(entry: IndexEntry, line: str) -> str:
    """What shortening `entry` to `line` removed from its hook."""
    kept = line.rstrip()
    if kept.endswith(_ELLIPSIS):
        kept = kept[: -len(_ELLIPSIS)]
    prefix_length = len(entry.raw.rstrip()) - len(entry.hook)
    kept_hook = kept[prefix_length:]
    return entry.hook[len(kept_hook) :].strip()
