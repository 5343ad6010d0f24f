"""Searching gitleaks patterns in linear time with Python's `re`, with RE2's matches.

gitleaks runs Go's RE2, whose cost grows linearly with the text. Python's `re`
backtracks, and two shapes in the rule set make it retry work at every position:

* a leading lazy identifier run, `[\\w.-]{0,50}?` before the keyword (99 rules), retried
  at each character of the text. `IdentifierRunBranch` matches from the keyword on, only
  where the lower-cased text holds one of the keyword's literal beginnings (its
  anchors), and measures the run backwards afterwards: the leftmost match of the whole
  pattern starts at the leftmost keyword match, as far back as the run reaches.
* `\\bcurl\\b(?:.*?|.*?(?:[\\r\\n]{1,2}.*?){1,5})<tail>` (the two curl rules), which
  rescans the rest of the line from every `curl`: quadratic on one long line of shell
  commands, seconds for a transcript line. `GapBranch` runs the untouched pattern only
  from a `curl` that certainly matches: one whose nearest valid tail is within the gap's
  reach (reach only shrinks as the tail moves away, so the nearest decides).

A pattern with top-level alternatives is searched branch by branch and the leftmost
hit wins, the earlier branch on a tie, as in the whole pattern. Every other pattern is
searched as it is. tests/secrets/test_search.py checks on generated text that each
rule yields exactly the matches of its untouched pattern.
"""

from __future__ import annotations

import bisect
import re
import string
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

_IDENTIFIER_CHARS = frozenset(string.ascii_letters + string.digits + "_.-")
_IDENTIFIER_RUN = re.compile(r"^\[\\w\.-\]\{0,50\}\?(?P<inner>\(\?i:\[\\w\.-\]\{0,50\}\?)?")
_GAP_SHAPE = re.compile(
    r"^(?P<head>\\b\w+\\b)"
    r"(?P<gap>\(\?:\.\*\??\|\.\*\??\(\?:\[\\r\\n\]\{1,2\}\.\*\??\)\{1,5\}\))"
    r"(?P<tail>.+)$",
    re.DOTALL,
)
_LEADING_FLAGS = re.compile(r"^\(\?[a-z]+\)")


# What may start a keyword alternative: literal characters, or a class of one letter's
# two cases (`[Aa]`); anything else ends the alternative's anchor.
_ANCHOR_CHARS = re.compile(r"(?:[A-Za-z0-9_,-]|\[(?P<a>[A-Za-z])(?P<b>[A-Za-z])\])(?![?*+{])")


class Subject:
    """A text being scanned, with what several rules need from it computed once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lowered = text.lower()
        self._anchored: dict[tuple[str, ...], list[int]] = {}

    def anchor_positions(self, anchors: tuple[str, ...]) -> list[int] | None:
        """Every offset where one of `anchors` starts in the lower-cased text, sorted.

        None when lower-casing changed the text's length (a few Unicode letters grow),
        so that offsets in the lower-cased text no longer point into the original.
        """
        if len(self.lowered) != len(self.text):
            return None
        positions = self._anchored.get(anchors)
        if positions is None:
            found: set[int] = set()
            for anchor in anchors:
                at = self.lowered.find(anchor)
                while at >= 0:
                    found.add(at)
                    at = self.lowered.find(anchor, at + 1)
            positions = self._anchored[anchors] = sorted(found)
        return positions


@dataclass(frozen=True)
class Hit:
    """A match of a whole pattern: where it starts and ends, and a match object
    holding its capture groups (numbered within the branch that found it)."""

    start: int
    end: int
    match: re.Match[str]


class Branch(Protocol):
    def search(self, subject: Subject, pos: int) -> Hit | None: ...


@dataclass(frozen=True)
class PlainBranch:
    pattern: re.Pattern[str]

    def search(self, subject: Subject, pos: int) -> Hit | None:
        found = self.pattern.search(subject.text, pos)
        return None if found is None else Hit(found.start(), found.end(), found)


@dataclass(frozen=True)
class IdentifierRunBranch:
    # The branch from its keyword on, and the longest identifier run before it.
    pattern: re.Pattern[str]
    longest_run: int
    # Lower-case beginnings, one of which every match of `pattern` starts with.
    anchors: tuple[str, ...] = ()

    def _keyword_match(self, subject: Subject, pos: int) -> re.Match[str] | None:
        positions = subject.anchor_positions(self.anchors) if self.anchors else None
        if positions is None:
            return self.pattern.search(subject.text, pos)
        for n in range(bisect.bisect_left(positions, pos), len(positions)):
            found = self.pattern.match(subject.text, positions[n])
            if found is not None:
                return found
        return None

    def search(self, subject: Subject, pos: int) -> Hit | None:
        found = self._keyword_match(subject, pos)
        if found is None:
            return None
        text = subject.text
        floor = max(pos, found.start() - self.longest_run)
        start = found.start()
        while start > floor and text[start - 1] in _IDENTIFIER_CHARS:
            start -= 1
        return Hit(start, found.end(), found)


@dataclass(frozen=True)
class GapBranch:
    whole: re.Pattern[str]
    head: re.Pattern[str]
    gap: re.Pattern[str]
    tail: re.Pattern[str]

    def _reaches(self, gap: str) -> bool:
        # Each repetition of the gap's second form takes at most two line breaks.
        return gap.count("\n") <= 10 and self.gap.fullmatch(gap) is not None

    def search(self, subject: Subject, pos: int) -> Hit | None:
        text = subject.text
        tail: re.Match[str] | None = None
        for head in self.head.finditer(text, pos):
            if tail is None or tail.start() < head.end():
                tail = self.tail.search(text, head.end())
                if tail is None:
                    return None
            if not self._reaches(text[head.end() : tail.start()]):
                continue
            found = self.whole.match(text, head.start())
            if found is not None:
                return Hit(found.start(), found.end(), found)
        return None


def class_end(pattern: str, i: int) -> int:
    """Index just past the character class opening at `pattern[i]`."""
    # `]` right after `[` or `[^` is a literal in both dialects.
    j = i + 1
    if pattern.startswith("^", j):
        j += 1
    if pattern.startswith("]", j):
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    if j >= len(pattern):
        raise ValueError("unterminated character class")
    return j + 1


def top_level_alternatives(pattern: str) -> list[str]:
    parts: list[str] = []
    depth = start = i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i = class_end(pattern, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
        i += 1
    parts.append(pattern[start:])
    return parts


def _group_end(pattern: str, i: int) -> int:
    """Index just past the group opening at `pattern[i]`."""
    depth = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i = class_end(pattern, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unterminated group")


def _anchors_of_group(pattern: str, i: int) -> set[str] | None:
    """The literal beginnings of a group at `pattern[i]` that is not repeated."""
    end = _group_end(pattern, i)
    if pattern[end : end + 1] in ("?", "*", "+", "{"):
        return None
    opening = re.match(r"\((?:\?(?:-?i)?:)?", pattern[i:])
    assert opening is not None
    anchors: set[str] = set()
    for alternative in top_level_alternatives(pattern[i + opening.end() : end - 1]):
        if alternative.startswith("("):
            inner = _anchors_of_group(alternative, 0)
            if inner is None:
                return None
            anchors |= inner
            continue
        literal, at = "", 0
        while (char := _ANCHOR_CHARS.match(alternative, at)) is not None:
            if char.group("a") and char.group("a").lower() != char.group("b").lower():
                break
            literal += (char.group("a") or char.group(0)).lower()
            at = char.end()
        if not literal:
            return None
        anchors.add(literal)
    return anchors


def keyword_anchors(keyword_pattern: str) -> tuple[str, ...]:
    """Lower-case literals one of which starts every match of `keyword_pattern`.

    The pattern is a branch from its keyword on: optional flags, then a group of
    keyword alternatives. Empty when that shape is not recognised (no anchors, the
    pattern is searched as it is).
    """
    start = re.match(r"\(\?i\)|\(\?i:", keyword_pattern)
    i = start.end() if start else 0
    if not keyword_pattern.startswith("(?:", i):
        return ()
    try:
        anchors = _anchors_of_group(keyword_pattern, i)
    except ValueError:
        return ()
    if not anchors:
        return ()
    # "passw" makes "password" redundant: every place the latter starts, so does the former.
    return tuple(sorted(a for a in anchors if not any(b != a and a.startswith(b) for b in anchors)))


def _branch(flags: str, alternative: str, whole: re.Pattern[str] | None) -> Branch:
    run = _IDENTIFIER_RUN.match(alternative)
    if run is not None:
        rest = alternative[run.end() :]
        if run.group("inner"):
            keyword = flags + "(?i:" + rest
            return IdentifierRunBranch(re.compile(keyword, re.ASCII), 100, keyword_anchors(keyword))
        keyword = flags + rest
        return IdentifierRunBranch(re.compile(keyword, re.ASCII), 50, keyword_anchors(keyword))
    gap = _GAP_SHAPE.match(alternative)
    if gap is not None:
        return GapBranch(
            whole=whole or re.compile(flags + alternative, re.ASCII),
            head=re.compile(flags + gap.group("head"), re.ASCII),
            gap=re.compile(flags + gap.group("gap"), re.ASCII),
            tail=re.compile(flags + gap.group("tail"), re.ASCII),
        )
    return PlainBranch(whole or re.compile(flags + alternative, re.ASCII))


def branches_of(regex: re.Pattern[str], secret_group: int) -> tuple[Branch, ...]:
    """How to search `regex` (a translated, compiled gitleaks pattern) fast."""
    pattern = regex.pattern
    leading = _LEADING_FLAGS.match(pattern)
    flags = leading.group(0) if leading else ""
    alternatives = top_level_alternatives(pattern[len(flags) :])
    if len(alternatives) == 1:
        return (_branch(flags, alternatives[0], regex),)
    if secret_group:
        # Searching alternatives apart renumbers the groups of the later ones.
        return (PlainBranch(regex),)
    try:
        return tuple(_branch(flags, alternative, None) for alternative in alternatives)
    except re.error:
        # An alternative that means nothing on its own (a back-reference into another).
        return (PlainBranch(regex),)


def finditer(branches: tuple[Branch, ...], subject: Subject) -> Iterator[Hit]:
    """The non-overlapping leftmost matches of the branches' whole pattern, in order."""
    hits: list[Hit | None] = [None] * len(branches)
    exhausted = [False] * len(branches)
    pos = 0
    while True:
        best: int | None = None
        for n, branch in enumerate(branches):
            if exhausted[n]:
                continue
            hit = hits[n]
            if hit is None or hit.start < pos:
                hit = hits[n] = branch.search(subject, pos)
                if hit is None:
                    exhausted[n] = True
                    continue
            best_hit = hits[best] if best is not None else None
            if best_hit is None or hit.start < best_hit.start:
                best = n
        if best is None:
            return
        hit = hits[best]
        assert hit is not None
        hits[best] = None
        yield hit
        pos = hit.end if hit.end > hit.start else hit.start + 1
