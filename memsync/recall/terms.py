"""How recall turns text into index terms, and what a memory teaches about abbreviations.

Identifiers are split *and* joined. A run of letters, digits, ``_``, ``-`` and ``.``
without spaces (``TypeScript``, ``user_role``, ``py311``, ``3.11``) is one identifier;
its parts come from those separators, from camelCase and from letter/digit boundaries,
and a memory is indexed under every part plus the joined whole: ``TypeScript`` →
``type``, ``script``, ``typescript``; ``Python 3.11`` → ``python``, ``3``, ``11``,
``311``; ``py311`` → ``py``, ``311``, ``py311``. A query uses the joined whole when
some memory has it and the parts otherwise (`QueryWord`), so ``typescript`` meets
``TypeScript`` and ``user_role`` meets ``UserRole`` either way round, without counting
one word three times.

Two adjacent words of a name or description are also indexed joined (``time zone`` →
``timezone``), so a query's ``timezone`` meets them.

Abbreviations come from the memories themselves (`abbreviations`): a definition
written out (``OpenTelemetry (OTel)``, ``k8s (Kubernetes)``), the initials of a compound
(``GitHub`` → ``gh``, ``ClickHouse`` → ``ch``, ``time zone`` → ``tz``), the first letter
of a compound plus the start of its second part (``OpenTelemetry`` → ``otel``), and
numeronyms of long words (``kubernetes`` → ``k8s``). Ranking treats them as weaker
alternatives of the word a query used.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain

# English function words; removing them keeps "how do we deploy" from matching every
# memory that says "how" or "we". "any" is not one of them here: it is a type in
# TypeScript and Python ("never add any"), and its idf keeps it weak where it is common.
_STOP_WORD_LIST = """
    a about above after again against all also am an and are as at be because been
    before being below between both but by can could did do does doing down during each
    few for from further had has have having he her here hers herself him himself his how
    i if in into is it its itself just me more most my myself no nor not now of off on once
    only or other our ours ourselves out over own same she should so some such than that
    the their theirs them themselves then there these they this those through to too under
    until up very was we were what when where which while who whom why will with would you
    your yours yourself yourselves
    s t d ll re ve m don doesn didn isn aren wasn weren won wouldn shouldn couldn
"""
STOP_WORDS = frozenset(_STOP_WORD_LIST.split())
# Single characters too common to say anything alone; bigrams containing them stay.
_CJK_STOP_CHARS = frozenset(
    "的了是在和也就都而及与着或吗呢吧啊之其这那个有我你他她它们のはがをにでともへやか"
)
_CJK_CLASS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
# An identifier: word characters joined by _ - . (not at its ends).
_IDENTIFIER = re.compile(r"[^\W_]+(?:[_.\-]+[^\W_]+)*")
_SEPARATOR = re.compile(r"[_.\-]+")
# Acronym plurals first ("PRs", "URLs" are one word), then acronyms ("HTTP" in
# "parseHTTPResponse"), then capitalised or lowercase words, then digits.
_CAMEL_PART = re.compile(r"[A-Z]{2,}s(?![a-z])|[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
# A parenthesis as in "OpenTelemetry (OTel)" or "k8s (Kubernetes)".
_PARENTHESES = re.compile(r"\(([^()\n]{1,60})\)")


@dataclass(frozen=True)
class QueryWord:
    """One word of a query: its joined term ("" for a CJK run) and its part terms."""

    joined: str
    parts: tuple[str, ...]


def index_terms(text: str, *, pairs: bool = False) -> list[str]:
    """The terms a memory is indexed under, with repeats; with `pairs`, two plain words
    separated by spaces alone are also indexed joined."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    if not pairs:
        # The body: no pairs, so one findall and a cached lookup per word, in C (map),
        # rather than a Python loop over every word of every memory.
        words = list(map(_word, _IDENTIFIER.findall(text)))
        return list(chain.from_iterable(word.terms for word in words))
    terms: list[str] = []
    previous: str | None = None
    for identifier, adjacent in _identifiers(text):
        word = _word(identifier)
        terms.extend(word.terms)
        if word.plain is not None and previous is not None and adjacent:
            terms.append(_stem(previous + word.plain))
        previous = word.plain
    return terms


def query_words(text: str) -> list[QueryWord]:
    """The words of a query that can match anything (stop words left out)."""
    words = []
    for identifier, _ in _identifiers(text):
        word = _word(identifier)
        if word.joined or word.parts:
            words.append(QueryWord(word.joined, word.parts))
    return words


def tokenize(text: str) -> list[str]:
    """The index terms of `text` without adjacent pairs (kept for callers and tests)."""
    return index_terms(text)


def _identifiers(text: str) -> Iterator[tuple[str, bool]]:
    """Each identifier, and whether only spaces separate it from the one before."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    end = -1
    for match in _IDENTIFIER.finditer(text):
        start = match.start()
        yield match.group(), end >= 0 and (start == end or text[end:start].isspace())
        end = match.end()


@dataclass(frozen=True)
class _Word:
    """What recall makes of one identifier, computed once and remembered: words repeat
    across memories far more than they differ."""

    joined: str  # the joined term, "" for a stop word or a CJK run
    parts: tuple[str, ...]  # the part terms
    terms: tuple[str, ...]  # what a memory is indexed under: parts, then joined
    forms: tuple[tuple[str, str], ...]  # abbreviations it implies (initials, k8s)
    plain: str | None  # the lowercase word, when it is one plain non-stop ASCII word


_words: dict[str, _Word] = {}
_CACHED = 200_000


def _word(identifier: str) -> _Word:
    found = _words.get(identifier)
    if found is None:
        joined, parts = _analyse(identifier)
        terms = parts if not joined or parts == (joined,) else (*parts, joined)
        plain = _plain_word(identifier)
        forms: set[tuple[str, str]] = set()
        if identifier.isascii() and plain is None:
            pieces = [p.lower() for c in _SEPARATOR.split(identifier) for p in _split(c)]
            if len(pieces) >= 2 and all(piece.isalpha() for piece in pieces):
                _compound_forms(pieces, forms)
        if plain is not None and len(plain) >= 8:
            forms.add((f"{plain[0]}{len(plain) - 2}{plain[-1]}", _stem(plain)))
        found = _Word(joined, parts, terms, tuple(sorted(forms)), plain)
        if len(_words) >= _CACHED:
            _words.clear()
        if len(identifier) <= 40:
            _words[identifier] = found
    return found


def _plain_word(identifier: str) -> str | None:
    """A lowercase-able ASCII word that is no stop word and no compound."""
    if not (identifier.isascii() and identifier.isalpha()):
        return None
    if len(_split(identifier)) != 1:
        return None
    word = identifier.lower()
    return None if word in STOP_WORDS else word


def _analyse(identifier: str) -> tuple[str, tuple[str, ...]]:
    if not identifier.isascii() and _cjk_run().search(identifier):
        parts: list[str] = []
        for position, run in enumerate(_cjk_run().split(identifier)):
            # split() with a capturing group alternates: other text, CJK run, other…
            if position % 2:
                parts.extend(_cjk_terms(run))
            elif run:
                parts.extend(_analyse(run.strip("_.-"))[1] if run.strip("_.-") else ())
        return "", tuple(parts)
    pieces = [piece for chunk in _SEPARATOR.split(identifier) for piece in _split(chunk)]
    lowered = [piece.lower() for piece in pieces]
    if len(pieces) == 1:
        word = lowered[0]
        return ("", ()) if word in STOP_WORDS else (_stem(word), (_stem(word),))
    kept = tuple(_stem(piece) for piece in lowered if piece not in STOP_WORDS)
    return _stem("".join(lowered)), kept


@functools.cache
def _cjk_run() -> re.Pattern[str]:
    # Compiled when first needed: a class of wide Unicode ranges takes the regex
    # compiler ~3 ms, which each process that only writes ASCII memories need not pay.
    return re.compile(f"([{_CJK_CLASS}]+)")


def _split(chunk: str) -> list[str]:
    if chunk.isalpha() and (chunk.islower() or chunk.isupper() or chunk[1:].islower()):
        return [chunk]
    if not chunk.isascii():
        return [chunk]
    return _CAMEL_PART.findall(chunk) or [chunk]


def _cjk_terms(run: str) -> list[str]:
    terms = []
    for position, char in enumerate(run):
        if char not in _CJK_STOP_CHARS:
            terms.append(char)
        if position + 1 < len(run):
            terms.append(run[position : position + 2])
    return terms


# -- abbreviations --------------------------------------------------------------------


def abbreviations(text: str, *, pairs: bool = False) -> set[tuple[str, str]]:
    """(abbreviation, term) pairs a memory's text teaches: definitions written out,
    initials and short forms of compounds, numeronyms. With `pairs`, also the
    initials of two adjacent words (a name or description: ``time zone`` → ``tz``)."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    found: set[tuple[str, str]] = set()
    for word in map(_word, set(_IDENTIFIER.findall(text))):
        found.update(word.forms)
    if pairs:
        previous: str | None = None
        for identifier, adjacent in _identifiers(text):
            plain = _word(identifier).plain
            if plain is not None and previous is not None and adjacent:
                _compound_forms([previous, plain], found)
            previous = plain
    if "(" in text:
        for match in _PARENTHESES.finditer(text):
            inside = match.group(1).strip()
            before = text[max(0, match.start() - 80) : match.start()].split()
            # The long form stops at the punctuation before it ("…, time zone (TZ)").
            for position in range(len(before) - 2, -1, -1):
                if before[position][-1] in ",.;:!?":
                    before = before[position + 1 :]
                    break
            # "Long Form (ABBR)", then "ABBR (Long Form)".
            _definition(inside, " ".join(before[-5:]), found)
            if before:
                _definition(before[-1].strip(",.;:"), inside, found)
    return found


def _compound_forms(pieces: list[str], found: set[tuple[str, str]]) -> None:
    joined = _stem("".join(pieces))
    if not 2 <= len(pieces) <= 4 or not all(pieces):
        return
    found.add(("".join(piece[0] for piece in pieces), joined))
    if len(pieces) == 2 and len(pieces[1]) > 3:
        found.add((pieces[0][0] + pieces[1][:3], joined))


def _definition(abbreviation: str, expansion: str, found: set[tuple[str, str]]) -> None:
    """``OpenTelemetry (OTel)``: the short form's letters appear in order in the long
    form's last words, starting with the first letter of one of them."""
    if " " in abbreviation or not 2 <= len(abbreviation) <= 8:
        return
    short = abbreviation.lower()
    words = expansion.split()
    for start in range(len(words) - 1, max(len(words) - 5, -1), -1):
        phrase = words[start:]
        letters = "".join(phrase).lower()
        if letters[:1] != short[:1] or len(letters) < 1.5 * len(short):
            continue
        if _is_subsequence(short.replace("-", "").replace(".", ""), letters):
            terms = index_terms(" ".join(phrase))
            joined = _stem(re.sub(r"[\W_]+", "", letters))
            target = terms[-1] if len(phrase) == 1 and terms else joined
            short_terms = index_terms(abbreviation)
            if short_terms and target:
                found.add((short_terms[-1], target))
                found.add((target, short_terms[-1]))
            return


def _is_subsequence(short: str, long: str) -> bool:
    letters = iter(long)
    return all(char in letters for char in short)


# -- stemming -------------------------------------------------------------------------


def _stem(word: str) -> str:
    """Porter's steps 1a–1c and 5 (M. F. Porter, 1980) on an ASCII lowercase word:
    inflections ("deploys", "deployed", "deploying") meet, derivations ("deployment")
    stay apart, as they sometimes change what a memory is about."""
    if len(word) <= 2 or not word.isalpha() or not word.isascii():
        return word
    if word.endswith("sses") or word.endswith("ies"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    removed = False
    if word.endswith("eed"):
        if _measure(word[:-3]) > 0:
            word = word[:-1]
    elif word.endswith("ed") and _has_vowel(word[:-2]):
        word, removed = word[:-2], True
    elif word.endswith("ing") and _has_vowel(word[:-3]):
        word, removed = word[:-3], True
    if removed:
        if word.endswith(("at", "bl", "iz")):
            word += "e"
        elif _ends_double_consonant(word) and word[-1] not in "lsz":
            word = word[:-1]
        elif _measure(word) == 1 and _ends_cvc(word):
            word += "e"
    if word.endswith("y") and _has_vowel(word[:-1]):
        word = word[:-1] + "i"
    if word.endswith("e"):
        measure = _measure(word[:-1])
        if measure > 1 or (measure == 1 and not _ends_cvc(word[:-1])):
            word = word[:-1]
    if word.endswith("ll") and _measure(word) > 1:
        word = word[:-1]
    return word


def _is_consonant(word: str, index: int) -> bool:
    char = word[index]
    if char in "aeiou":
        return False
    if char == "y":
        return index == 0 or not _is_consonant(word, index - 1)
    return True


def _measure(stem: str) -> int:
    """Porter's m: the number of vowel→consonant transitions."""
    count = 0
    after_vowel = False
    for index in range(len(stem)):
        consonant = _is_consonant(stem, index)
        if consonant and after_vowel:
            count += 1
        after_vowel = not consonant
    return count


def _has_vowel(stem: str) -> bool:
    return any(not _is_consonant(stem, index) for index in range(len(stem)))


def _ends_double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _is_consonant(word, len(word) - 1)


def _ends_cvc(word: str) -> bool:
    return (
        len(word) >= 3
        and _is_consonant(word, len(word) - 3)
        and not _is_consonant(word, len(word) - 2)
        and _is_consonant(word, len(word) - 1)
        and word[-1] not in "wxy"
    )
