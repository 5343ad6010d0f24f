"""Phrases a re-wording uses for one word, written as that word, and a unit abbreviated
after a number written out (issue 15 item 3): "looks after" is "owns", "has to" is
"must", "three replicas" is "3 replicas", "30 s" is "30 seconds". Duplicate detection
reads a memory's words after `reworded`; the phrases are `memsync.dream.vocabulary.PHRASES`.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable

from memsync.dream.vocabulary import PHRASES

# Longest first, so "point of contact for" goes before "point of contact".
_PHRASE_PATTERNS = [
    (phrase, re.compile(rf"\b{re.escape(phrase)}\b", re.IGNORECASE), word)
    for phrase, word in sorted(PHRASES.items(), key=lambda item: -len(item[0]))
]


def _longest_word(phrase: str) -> bytes:
    return max(re.findall(r"\w+", phrase), key=len).encode("ascii")


# One word of each phrase (its longest, as ASCII) → the phrases: a phrase its pattern
# finds (between word boundaries) has each of its words as a whole word of the text.
_PHRASES_BY_WORD: dict[bytes, list[str]] = {}
for _phrase in PHRASES:
    _PHRASES_BY_WORD.setdefault(_longest_word(_phrase), []).append(_phrase)
PHRASE_WORDS = frozenset(_PHRASES_BY_WORD)
# ASCII text's bytes with all but word characters (what "\w" and "\b" read) as spaces.
WORD_RUNS = bytes(c if re.match(r"\w", chr(c)) else 32 for c in range(128)) + b" " * 128


def reworded(text: str) -> str:
    """`text` with each phrase of `PHRASES` written as its one word (lowercase), and a
    unit abbreviated after a number written out (`_ABBREVIATED_UNIT`)."""
    lower = text.lower()
    if lower.isascii():
        held = PHRASE_WORDS.intersection(lower.encode("ascii").translate(WORD_RUNS).split())
        return reworded_ascii(text, lower, held)
    # A substring test per phrase first: cheaper than one pattern over every phrase
    # (measured: about 14 µs a memory against 25).
    for phrase, pattern, word in _PHRASE_PATTERNS:
        if phrase in lower:
            text = pattern.sub(word, text)
    return _ABBREVIATED_UNIT.sub(_spelt_unit, text)


def reworded_ascii(text: str, lower: str, held: Iterable[bytes]) -> str:
    """`reworded` of ASCII text (`lower`: in lowercase) holding `held` of `PHRASE_WORDS`
    as whole words (and no others).

    `reworded` writes each phrase its text holds, longest first, where its pattern
    finds it in the text as written so far. Only the phrases that can be found are
    tried, not each of them (about 20 µs a memory): one found in the text as it came
    holds its longest word (`held`), and one found only once another was written
    overlaps what that one was written as, so it holds a word of it (`_UNCOVERED`):
    "get in touch with" written as "contact" makes "point of contact" of "point of get
    in touch with". Each is found with `str.find` (for ASCII text, what the pattern
    finds: its lowercase, between characters that are no word's), a regular
    expression's search being slower than the phrase's."""
    # The phrases to try, by their place in `_PHRASE_PATTERNS` (a sorted list is a heap).
    queue = sorted({number for word in held for number in _NUMBERS_BY_WORD.get(word, ())})
    tried = set(queue)
    written = lower
    while queue:
        number = heapq.heappop(queue)
        phrase, _, word = _PHRASE_PATTERNS[number]
        if phrase not in lower:  # as `reworded`: a phrase of the text as it came
            continue
        found = _whole(written, phrase)
        if found:
            text = _written_as(text, found, len(phrase), word)
            written = text.lower()
            for later in _UNCOVERED[number] - tried:
                tried.add(later)
                heapq.heappush(queue, later)
    if not _may_abbreviate_a_unit(text):
        return text
    return _ABBREVIATED_UNIT.sub(_spelt_unit, text)


def _whole(lower: str, phrase: str) -> list[int]:
    """Where the pattern of `phrase` (which starts and ends with a letter: the phrase
    between word boundaries) finds it in ASCII text (`lower`: in lowercase), one place
    after another as `re.sub` takes them: where no word character is before or after."""
    found: list[int] = []
    start = lower.find(phrase)
    while start >= 0:
        end = start + len(phrase)
        if (
            lower[start - 1 : start] not in _WORD_CHARACTERS
            and lower[end : end + 1] not in _WORD_CHARACTERS
        ):
            found.append(start)
            start = lower.find(phrase, end)
        else:
            start = lower.find(phrase, start + 1)
    return found


def _written_as(text: str, starts: list[int], length: int, word: str) -> str:
    """`text` with each of its pieces `length` long at `starts` written as `word`."""
    pieces: list[str] = []
    at = 0
    for start in starts:
        pieces += (text[at:start], word)
        at = start + length
    pieces.append(text[at:])
    return "".join(pieces)


# The characters "\w" finds in ASCII text (a slice past a text's end, "", is none).
_WORD_CHARACTERS = frozenset(chr(c) for c in range(128) if re.match(r"\w", chr(c)))


# A unit abbreviated after a number ("30 s", "30s", "5 min", "2 hrs"): written out, so
# "s" (a stopword, as in "Ana's") is a unit and "30 s" / "30 ms" a unit changed, and
# "min" is minutes, not a minimum. The number starts at a word boundary: the pattern
# starts with the digit, which is quick to look for, and checks the character before.
_ABBREVIATED_UNIT = re.compile(
    r"(\d(?<!\w\d)\d*(?:\.\d+)?) ?(ms|msec|s|sec|secs|min|mins|h|hr|hrs)\b", re.IGNORECASE
)
_UNITS_SPELT = (
    dict.fromkeys(("ms", "msec"), "ms")
    | dict.fromkeys(("s", "sec", "secs"), "seconds")
    | dict.fromkeys(("min", "mins"), "minutes")
    | dict.fromkeys(("h", "hr", "hrs"), "hours")
)


def _spelt_unit(match: re.Match[str]) -> str:
    return f"{match.group(1)} {_UNITS_SPELT[match.group(2).lower()]}"


def may_reword(lower: str, held: Iterable[bytes]) -> bool:
    """Whether `reworded` may change an ASCII text (`lower`: in lowercase) that holds
    `held` of `PHRASE_WORDS` as whole words: only a phrase the text holds is written as
    its word, and the first one written must be a phrase of one of those words; or it
    abbreviates a unit after a number."""
    if any(phrase in lower for word in held for phrase in _PHRASES_BY_WORD.get(word, ())):
        return True
    return _may_abbreviate_a_unit(lower) and bool(_ABBREVIATED_UNIT.search(lower))


def _may_abbreviate_a_unit(text: str) -> bool:
    """Whether ASCII text holds what `_ABBREVIATED_UNIT` starts with: a digit, then
    perhaps a space, then "m", "s" or "h" in either case (most memories hold none, and
    a pattern's search reads every character)."""
    marked = text.encode("ascii").translate(_UNIT_MARKS)
    return b"0u" in marked or b"0 u" in marked


# ASCII's bytes as what `_may_abbreviate_a_unit` reads: a digit, a letter a unit starts
# with, a space, or another character.
_UNIT_MARK = dict.fromkeys("0123456789", "0") | dict.fromkeys("mshMSH", "u") | {" ": " "}
_UNIT_MARKS = bytes(ord(_UNIT_MARK.get(chr(c), "x")) for c in range(256))


# Each word of `PHRASE_WORDS` → the places in `_PHRASE_PATTERNS` of its phrases.
_NUMBERS_BY_WORD: dict[bytes, list[int]] = {}
for _number, (_phrase, _pattern, _word) in enumerate(_PHRASE_PATTERNS):
    _NUMBERS_BY_WORD.setdefault(_longest_word(_phrase), []).append(_number)
# Each phrase's place → the later phrases its word, once written, may be part of: those
# holding a word of it ("contact" of "point of contact", "by" of "is maintained by").
# A phrase found once another is written overlaps what was written (elsewhere the
# text, and what "\b" reads there, is as it was), so it holds a whole word of it.
_PLACES_BY_WORD: dict[str, set[int]] = {}
for _number, (_phrase, _pattern, _word) in enumerate(_PHRASE_PATTERNS):
    for _held in re.findall(r"\w+", _phrase):
        _PLACES_BY_WORD.setdefault(_held, set()).add(_number)
_UNCOVERED = [
    frozenset(
        later
        for held in re.findall(r"\w+", word)
        for later in _PLACES_BY_WORD.get(held, ())
        if later > number
    )
    for number, (_, _, word) in enumerate(_PHRASE_PATTERNS)
]
