"""Searching gitleaks patterns in linear time with Python's `re`, with RE2's matches.

gitleaks runs Go's RE2, whose cost grows linearly with the text. Python's `re`
backtracks, and two shapes in the rule set make it retry work at every position:

* a leading lazy identifier run, `[\\w.-]{0,50}?` before the keyword (99 rules), retried
  at each character of the text. `IdentifierRunBranch` searches from the keyword on and
  measures the run backwards afterwards: the leftmost match of the whole pattern starts
  at the leftmost keyword match, as far back as the run reaches.
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


@dataclass(frozen=True)
class Hit:
    """A match of a whole pattern: where it starts and ends, and a match object
    holding its capture groups (numbered within the branch that found it)."""

    start: int
    end: int
    match: re.Match[str]


class Branch(Protocol):
    def search(self, text: str, pos: int) -> Hit | None: ...


@dataclass(frozen=True)
class PlainBranch:
    pattern: re.Pattern[str]

    def search(self, text: str, pos: int) -> Hit | None:
        found = self.pattern.search(text, pos)
        return None if found is None else Hit(found.start(), found.end(), found)


@dataclass(frozen=True)
class IdentifierRunBranch:
    # The branch from its keyword on, and the longest identifier run before it.
    pattern: re.Pattern[str]
    longest_run: int

    def search(self, text: str, pos: int) -> Hit | None:
        found = self.pattern.search(text, pos)
        if found is None:
            return None
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

    def search(self, text: str, pos: int) -> Hit | None:
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


def _branch(flags: str, alternative: str, whole: re.Pattern[str] | None) -> Branch:
    run = _IDENTIFIER_RUN.match(alternative)
    if run is not None:
        rest = alternative[run.end() :]
        if run.group("inner"):
            return IdentifierRunBranch(re.compile(flags + "(?i:" + rest, re.ASCII), 100)
        return IdentifierRunBranch(re.compile(flags + rest, re.ASCII), 50)
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


def finditer(branches: tuple[Branch, ...], text: str) -> Iterator[Hit]:
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
                hit = hits[n] = branch.search(text, pos)
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
