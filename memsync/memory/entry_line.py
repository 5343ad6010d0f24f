"""One line of an index read as an entry: its parts but its line number (SPEC F3).

An entry line is ``- [Title](file.md) — one-line hook`` as Claude Code writes it, or
any of the variants people write (another bullet, a number, emphasis, a target in
angle brackets, another separator). `entry_parts` gives (title, target, hook, raw,
indent, bullet, separator, emphasis) for such a line, None for any other; the
`memsync.memory.index` parse builds its entries from them.
"""

from __future__ import annotations

import functools
import re

_ENTRY = re.compile(
    r"""
    ^(?P<indent>[ \t]*)
    (?P<bullet>[-*+]|\d{1,9}[.)])[ \t]+
    (?P<open>\*\*)?
    \[(?P<title>(?:\\.|[^\[\]\\]|\[(?:\\.|[^\[\]\\])*\])*)\]
    \(
      [ \t]*
      (?:<(?P<angled>[^<>\n]*)>|(?P<bare>(?:\\.|[^\s()\\]|\((?:\\.|[^\s()\\])*\))+))
      (?P<linktitle>[ \t]+(?:"[^"\n]*"|'[^'\n]*'))?
      [ \t]*
    \)
    (?P<close>\*\*)?
    (?P<rest>.*)$
    """,
    re.VERBOSE,
)
# What follows the link: an optional separator (em dash, en dash, hyphen, colon)
# and the hook. A hyphen only separates when a space or the line's end follows it.
_REST = re.compile(
    r"^(?P<gap>[ \t]*)(?:(?P<sep>—|–|:|--?(?=[ \t]|$))(?P<gap2>[ \t]*))?(?P<hook>.*)$"
)
# A link target `_ENTRY` reads as the bare target it is, up to the closing parenthesis.
_CANONICAL_TARGET = re.compile(r"[^\s()\\<>]+")


# The parts of an entry line but its number. The same lines are parsed again and again
# (every edit of an index, every trial layout of the dream's index budget); matching
# each once keeps a 10,000-entry index from costing a regex match per line per parse.
# Sized for the lines of a 10,000-memory dream (MEMORY.md's and its sub-indexes', each
# edited a few times): a smaller cache is emptied before a parse comes round again, and
# the dream then grows faster than the memories.
@functools.lru_cache(maxsize=65536)
def entry_parts(content: str) -> tuple[str, str, str, str, str, str, str, str] | None:
    canonical = canonical_parts(content)
    return canonical if canonical is not None else matched_parts(content)


def canonical_parts(content: str) -> tuple[str, str, str, str, str, str, str, str] | None:
    """The parts of a line in Claude Code's canonical form, ``- [Title](file.md)`` and
    `` — hook`` or nothing after it, with no bracket or backslash in the title and
    nothing in the target that `_ENTRY` reads otherwise: what `matched_parts` gives
    for it, read with a few searches instead of the two patterns. None for any other
    line (which the patterns then read): most lines of an index are canonical, and
    a dream reads thousands of new ones (every hook it rewrites, every entry it
    moves to a sub-index)."""
    if not content.startswith("- [") or "\n" in content:
        return None
    close = content.find("](", 3)
    end = content.find(")", close + 2) if close != -1 else -1
    if end == -1:
        return None
    title, target, rest = content[3:close], content[close + 2 : end], content[end + 1 :]
    if "[" in title or "]" in title or "\\" in title or not _CANONICAL_TARGET.fullmatch(target):
        return None
    if not rest:
        return (title, target, "", content, "", "-", "", "")
    if rest.startswith(" — ") and rest[3:4] not in (" ", "\t"):
        return (title, target, rest[3:].rstrip(), content, "", "-", " — ", "")
    return None


def matched_parts(content: str) -> tuple[str, str, str, str, str, str, str, str] | None:
    match = _ENTRY.match(content)
    if match is None:
        return None
    target = match["angled"] if match["angled"] is not None else match["bare"]
    rest = _REST.match(match["rest"])
    assert rest is not None  # the pattern matches any single line
    separator = rest["gap"] + rest["sep"] + rest["gap2"] if rest["sep"] else rest["gap"]
    return (
        match["title"],  # title
        target,
        rest["hook"].rstrip(),  # hook
        content,  # raw
        match["indent"],
        match["bullet"],
        separator if rest["sep"] else "",
        "**" if match["open"] and match["close"] else "",  # emphasis
    )
