"""Shortcuts in reading what a memory claims give what the plain way gives: the value
pattern less the classes a sentence cannot hold, the test for a value made only where
one was found, and the names read from one list of capitalised words. Each is checked
against the way it replaced, on the generated corpus, the stale tuning material and
text built to hit their edges."""

from __future__ import annotations

import re
from pathlib import Path

from memsync.dream import stated_values, supersession
from tests.dream.test_stale_fast_paths import (
    EDGES,
    LEFT_BEHIND_EACH,
    ONE_VALUE_EACH,
    _every_tuning_text,
    _texts,
)

# A value of each class beside what the plain pattern leaves out (a digit, "@", a
# backtick), and words that start like a value and are none.
PLAIN_EDGES = [
    "Mail ops@example.org on mondays.", "Run `make ship` daily.", "Port 8443 in march.",
    "The api-v2 host is required.", "v-next and vnext are not versions.",
    "Ask in #ops, then in #ops-eu.", "See https://docs.example/x monthly.",
    "Audit in mar. 4th or may 2026.", "Deploy _after_ the freeze.", "a.b c-d e_f, +g -h .i",
    "https://localhost",
]  # fmt: skip


def _sentences(tmp_path: Path) -> list[str]:
    texts = _texts(tmp_path) + _every_tuning_text() + ONE_VALUE_EACH + LEFT_BEHIND_EACH
    texts += EDGES + PLAIN_EDGES
    return [
        sentence
        for text in texts
        for sentence in supersession._SENTENCE.split(supersession.normalise(text))
    ]


def _found(pattern: re.Pattern[str], lower: str) -> list[tuple[int, int, str | None]]:
    return [(m.start(), m.end(), m.lastgroup) for m in pattern.finditer(lower)]


def test_it_finds_in_plain_text_what_the_whole_value_pattern_finds(tmp_path: Path) -> None:
    plain = 0
    for sentence in _sentences(tmp_path):
        for piece in (sentence, sentence.upper(), sentence.title()):
            lower = piece.lower()
            if not lower.isascii() or re.search(r"[0-9@`]", lower):
                continue
            plain += 1
            found = _found(stated_values._LOWER_VALUE, lower)
            assert _found(stated_values._PLAIN_LOWER_VALUE, lower) == found, piece
    assert plain > 3000  # enough plain sentences to tell


def test_it_tests_for_a_value_where_the_plain_way_did(tmp_path: Path) -> None:
    held = 0
    for sentence in _sentences(tmp_path):
        for piece in (sentence, sentence.upper(), sentence.title()):
            gated = stated_values._MAY_HOLD_VALUE.search(piece)
            plain = list(stated_values.values(piece)) if gated else []
            assert stated_values.values_in(piece) == plain, piece
            held += bool(plain)
    assert held > 1000  # enough values to tell


def _plain_names(blanked: str) -> set[str]:
    """`supersession._names` as it was written first: each capitalised word in turn."""
    named: set[str] = set()
    starts = len(blanked) - len(blanked.lstrip(" `\"'(*-"))
    for match in supersession._CAPITALISED.finditer(blanked):
        first = match.start() == starts
        if first and not supersession._NAME_GOES_ON.match(blanked, match.end()):
            continue
        named |= supersession._name_words(match.group(0))
    return named


def test_it_reads_the_names_the_plain_way_reads(tmp_path: Path) -> None:
    # Sentences opening with what `_names` strips before the first word, and a first
    # capital that a look-behind refuses ("-Foo").
    openers = ["`Ledger` API runs", "(Search API) is down", "-Foo Bar owns it", "  *Ana* Ruiz"]
    named = 0
    for sentence in _sentences(tmp_path) + openers:
        found = list(stated_values.values(sentence))
        blanked = supersession._blank(sentence, found)
        assert supersession._names(blanked) == _plain_names(blanked), sentence
        named += bool(_plain_names(blanked))
    assert named > 500  # enough names to tell


# `stated_values._VALUE_MARK` and `_NAMED` as they were written first: alternatives
# tried at every character, and runs tried again a letter shorter.
_PLAIN_VALUE_MARK = re.compile(r"[0-9`@#]|[-._](?<=[a-z0-9][-._])(?=[a-z0-9])")
_PLAIN_NAMED = re.compile(
    r"[A-Z](?<!\w[A-Z])(?:(?P<team>[\w&-]*(?=\s+(?:team|squad)\b))"
    r"|(?P<person>[a-z]+\s[A-Z][a-z]+(?:-[A-Z][a-z]+)?\b(?!\s+(?:[A-Z]{2,}|[a-z]*(?:"
    r"service|worker|app|job|queue|cluster|bucket|database|db|api|team|squad|sync|bot)s?\b))))"
)
# Every ASCII character between two letters, two digits, and a letter and a digit.
EVERY_MARK = [f"{a}{chr(c)}{b}" for c in range(128) for a, b in ("ab", "12", "a1", "1a")]
# Names and teams beside what ends a run early ("Ana-Maria", "R&D team").
NAMED_EDGES = [
    "Ask Ana Ruiz-Lopez or Ana Ruiz-lopez.", "The R&D team and the Go-Live squad.",
    "Ask Ana Ruiz API or Bo Li service.", "Ledger\tteam, Ledger teams, Ledger  squad.",
]  # fmt: skip


def test_it_finds_a_mark_of_a_value_where_the_plain_pattern_does(tmp_path: Path) -> None:
    marked = 0
    for sentence in _sentences(tmp_path) + EVERY_MARK:
        lower = sentence.lower()
        found = _PLAIN_VALUE_MARK.search(lower) is not None
        assert (stated_values._VALUE_MARK.search(lower) is not None) == found, sentence
        marked += found
    assert marked > 1000  # enough of each to tell


def test_it_finds_the_names_and_teams_the_plain_pattern_finds(tmp_path: Path) -> None:
    found = 0
    for sentence in _sentences(tmp_path) + NAMED_EDGES:
        for piece in (sentence, sentence.title()):
            plain = [(m.span(), m.lastgroup) for m in _PLAIN_NAMED.finditer(piece)]
            named = [(m.span(), m.lastgroup) for m in stated_values._NAMED.finditer(piece)]
            assert named == plain, piece
            found += len(plain)
    assert found > 1000  # enough names to tell
