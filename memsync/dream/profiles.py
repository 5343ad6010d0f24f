"""How duplicate detection reads a memory (issue 15 item 3): its words, its facts and
its word order, each normalised so that what a re-wording changes without meaning to
(case, width, dashes, plurals, synonyms, filler words, Spanish, German, French or
Chinese for English) is equal. The judge that compares two memories is
`memsync.dream.dedupe`; the rules it reads word order with are in
`memsync.dream.rewording`.

Facts are what a re-wording keeps and a different memory changes: numbers, versions
and dates; capitalised names (people, services, products); weekdays and months;
identifiers (``payments.bill_split``, ``/v2/statements``, ``qa@x.dev``, a chat channel
``#payments-oncall``, anything in backticks; in text written all in capitals,
capitals name nothing); and the polarity of a rule ("never"/"do not" against
"always"/"must").

Most memories are ASCII text, which is read through byte tables rather than patterns;
``tests/dream/test_dedupe_fast_paths.py`` checks each shortcut against the plain way.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from memsync.dream.glossary import LATIN_HINTS, in_english, segment
from memsync.dream.phrasing import PHRASE_WORDS, WORD_RUNS, may_reword, reworded, reworded_ascii
from memsync.dream.rewording import Shape, Word
from memsync.dream.vocabulary import (
    DAY_SET,
    DAYS,
    DENYING,
    GRAMMAR,
    STOPWORDS,
    SYNONYMS,
    WORDING,
    stem,
    word_set,
)

_CJK = "\u2e80-\u2fff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+")
_WORD = re.compile(rf"[{_CJK}]+|\d+(?:[.,:]\d+)*|[^\W\d_{_CJK}]+")
_NUMBER = re.compile(r"(?<![\w.])v?(\d+(?:[.:/-]\d+)*)(?![\w])")
# Letters of an identifier: not Chinese, so "的值班：Joe" (a full-width colon) is none.
_ID = rf"(?:[^\W{_CJK}]|[+-])+"
_IDENTIFIER = re.compile(rf"{_ID}(?:[./@:]{_ID})+/?|/[\w.-]+(?:/[\w{{}}.-]+)+")
_IDENTIFIER_AT_START = re.compile(
    rf"(?<![^\W{_CJK}])(?<![+-]){_ID}(?:[./@:]{_ID})+/?|/[\w.-]+(?:/[\w{{}}.-]+)+"
)
# What every identifier holds: two runs of its letters joined by a separator, or a
# path of two parts. The patterns start with a character, which is quick to look for.
_JOINED = re.compile(rf"[./@:](?<=(?:[^\W{_CJK}]|[+-])[./@:])(?:[^\W{_CJK}]|[+-])")
_PATH = re.compile(r"/[\w.-]+/")
_DIGIT = re.compile(r"\d")
_BACKTICKED = re.compile(r"`([^`\n]+)`")
_SCHEME = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://")
_CHANNEL = re.compile(r"(?<![\w&#])#[^\W\d_][\w-]*")
_LETTER = re.compile(r"[A-Za-z]")
CJK_START = re.compile(rf"[{_CJK}]")
_LATIN_WORD = re.compile(r"[a-z]+")
_DAY_ZH = re.compile(r"周[一二三四五六日天]|星期[一二三四五六日天]")
_CAPITALS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_SMALL_LETTERS = _CAPITALS.lower()
_DIGITS = b"0123456789"
# Each pattern starts with the character it needs, which is quick to look for; the
# character before it is checked after.
_CAPITALISED = re.compile(r"[A-Z](?<![\w.][A-Z])[\w+#]*")
_CAMEL = re.compile(r"\b[a-z]++[A-Z]\w*")
_CAMEL_HINT = re.compile(r"[a-z][A-Z]")


# "isn't", "doesn't", "can't": a word ending in "n't" denies as "not" does; a word
# splits it in two, the first ("isn", "doesn": `DENYING`) said nowhere else ("can" and
# "won" are).
_NEGATIVE = re.compile(
    r"\b(?:never|not|no|don't|dont|do not|avoid|without|forbidden|stop|cannot)\b|\Bn't\b"
    r"|[不别勿禁]",
    re.I,
)
_NEGATIONS = word_set(f"never not no don dont avoid without forbidden stop {DENYING} 不 别 勿 禁")
_POSITIVE = re.compile(r"\b(?:always|must|required|only)\b|必须|一律|总是", re.I)
# The words of `_NEGATIVE` and `_POSITIVE` in ASCII text, but "don't" and "do not".
_NEGATIVE_WORDS = word_set(f"never not no dont avoid without forbidden stop {DENYING}")
_POSITIVE_WORDS = word_set("always must required only")


def tokens(text: str) -> list[str]:
    """Words (and single Chinese, Japanese or Korean characters), case-folded."""
    return _TOKEN.findall(text.casefold())


def normalise(text: str) -> str:
    """What a re-wording changes without meaning to, made equal: width, case, dashes."""
    text = unicodedata.normalize("NFKC", text)
    return text if text.isascii() else _DASH.sub("-", text)  # the dashes are not ASCII


_DASH = re.compile(r"[\u2010-\u2015\u2212\u30fc]")


@functools.lru_cache(maxsize=65536)
def canonical(word: str) -> str:
    stemmed = stem(word)
    return SYNONYMS.get(stemmed, SYNONYMS.get(word, stemmed))


FILLER_WORDS = frozenset(canonical(word) for word in WORDING)


def content_words(text: str) -> frozenset[str]:
    """The words that say something, normalised; Chinese text as character bigrams."""
    return _content_words(normalise(text).casefold())


_EXACT_WORD = re.compile(r"\w+")
_ASCII_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
# ASCII text read by byte tables rather than patterns (most memories are such text):
# `_WORD` keeps words of letters and numbers, `\w+` the runs `Profile.exact` joins.
_ASCII_LETTER_BYTES = bytes(c if 97 <= c <= 122 else 32 for c in range(256))


class _AsciiWords(dict[bytes, str | None]):
    """A word of ASCII letters → its canonical form, or None for a stopword (and, when
    `meaningful`, for a filler word: `WORDING`)."""

    def __init__(self, meaningful: bool) -> None:
        super().__init__()
        self.fillers = FILLER_WORDS if meaningful else frozenset()

    def __missing__(self, word: bytes) -> str | None:
        if len(self) >= 65536:  # vocabularies of many directories: start again
            self.clear()
        text = word.decode("ascii")
        word_form = None if text in STOPWORDS else canonical(text)
        found = self[word] = None if word_form in self.fillers else word_form
        return found


_ascii_words, _ascii_meaningful_words = _AsciiWords(False), _AsciiWords(True)


def _content_words(folded: str) -> frozenset[str]:
    """`content_words` of text already normalised and case-folded."""
    if folded.isascii():  # no Chinese: every word is one word
        return _ascii_content_words(folded, _ascii_words)
    found: set[str] = set()
    # Each distinct word once: what a word adds does not depend on how often it occurs.
    for word in set(_WORD.findall(folded)):
        if CJK_START.match(word):
            found.update(_chinese_words(word))
        elif word not in STOPWORDS:
            found.add(canonical(word))
    return frozenset(found)


def _ascii_content_words(folded: str, known: _AsciiWords) -> frozenset[str]:
    """`_content_words` of ASCII text (less `WORDING` with `_ascii_meaningful_words`):
    the words of `_WORD` are runs of letters a-z and numbers, and a number is only
    looked for when the text has a digit."""
    raw = folded.encode("ascii")
    letters = raw.translate(_ASCII_LETTER_BYTES)
    found = set(map(known.__getitem__, letters.split()))
    found.discard(None)
    if letters != raw.translate(WORD_RUNS):  # a digit or an underscore
        numbers = set(_ASCII_NUMBER.findall(folded)) - STOPWORDS
        found.update(word for word in map(canonical, numbers) if word not in known.fillers)
    return frozenset(found)  # type: ignore[arg-type]


def _ascii_exact(folded: str) -> str:
    """ASCII text's runs of word characters joined by spaces (`Profile.exact`)."""
    return b" ".join(folded.encode("ascii").translate(WORD_RUNS).split()).decode("ascii")


def _chinese_words(run: str) -> set[str]:
    """The words of a run of Chinese: glossary words as their English, and the
    characters between them as character bigrams (a lone character as itself)."""
    found: set[str] = set()
    chars: list[str] = []
    for piece, english in [*segment(run), ("", True)]:
        if not english:
            if piece not in STOPWORDS:
                chars.append(piece)
            continue
        found.update(a + b for a, b in itertools.pairwise(chars))
        if len(chars) == 1:
            found.add(chars[0])
        chars = []
        found.update(
            canonical(w) for word in piece.split() if (w := word.casefold()) not in STOPWORDS
        )
    return found


def facts(text: str) -> frozenset[str]:
    """The facts of a memory's text (see the module's docstring), normalised."""
    return _facts(normalise(text))


def _facts(text: str) -> frozenset[str]:
    found: set[str] = set()
    bare = text
    if "`" in text:
        for match in _BACKTICKED.finditer(text):
            found.add("`" + match.group(1).strip().casefold())
        bare = _BACKTICKED.sub(" ", text)
    if "://" in bare:  # a URL's scheme is part of it: "http://…" is another address
        found.update(match.group(0).casefold() for match in _SCHEME.finditer(bare))
    if "#" in bare:  # a chat channel ("#payments-oncall") names one as an identifier does
        found.update(match.group(0).casefold() for match in _CHANNEL.finditer(bare))
    # Identifiers leave the text (3.11 or 2025-07-15, no letter in it, is a number, below).
    pieces: list[str] = []
    at = 0
    for match in _identifiers(bare):
        identifier = match.group(0)
        if _LETTER.search(identifier):
            found.add(identifier.casefold().rstrip("/.:"))
            pieces += (bare[at : match.start()], " ")
            at = match.end()
    if at:
        bare = "".join(pieces) + bare[at:]
    raw = bare.encode()
    if _DIGIT.search(bare) if not bare.isascii() else len(raw.translate(None, _DIGITS)) < len(raw):
        found.update(match.group(1) for match in _NUMBER.finditer(bare))
    for match in () if _shouted(raw) else _CAPITALISED.finditer(bare):
        word = match.group(0).casefold()
        # A capitalised common word ("Never", "Ask") starts a sentence; it names nothing.
        if word not in STOPWORDS and word not in DAY_SET and stem(word) not in SYNONYMS:
            found.add(stem(word))
    if _CAMEL_HINT.search(bare):
        found.update(match.group(0) for match in _CAMEL.finditer(bare))
    folded = bare.casefold()
    if bare.isascii():
        _ascii_day_and_rule_facts(folded, found)
    else:
        found.update(DAY_SET.intersection(_LATIN_WORD.findall(folded)))
        if "周" in folded or "星期" in folded:
            found.update(match.group(0) for match in _DAY_ZH.finditer(folded))
        if _NEGATIVE.search(bare):
            found.add("<never>")
        if _POSITIVE.search(bare):
            found.add("<always>")
    if "may" in found and "May" not in bare:  # the verb ("v4 may receive …"), no month
        found.discard("may")
    return frozenset(found)


def _ascii_day_and_rule_facts(lowered: str, found: set[str]) -> None:
    """The days, months and rule polarity of lowercase ASCII text, into `found`: what
    `_LATIN_WORD`, `_NEGATIVE` and `_POSITIVE` find there, read from its words (a
    word between two word boundaries is a run of word characters)."""
    raw = lowered.encode("ascii")
    if any(day in lowered for day in DAYS):
        found.update(DAY_SET.intersection(raw.translate(_ASCII_LETTER_BYTES).decode().split()))
    words = set(raw.translate(WORD_RUNS).decode().split())
    # "do not" holds the word "not"; "don't" is two words ("can't" and "won't" too).
    if not _NEGATIVE_WORDS.isdisjoint(words) or ("n't" in lowered and _NEGATIVE.search(lowered)):
        found.add("<never>")
    if not _POSITIVE_WORDS.isdisjoint(words):
        found.add("<always>")


def _identifiers(text: str) -> Iterator[re.Match[str]]:
    """`_IDENTIFIER.finditer(text)`, in time linear in the text: that pattern tries
    every letter of a word as an identifier's start, and each attempt reads to the
    word's end. One that starts inside a run of identifier letters fails when one at
    the run's start did, so `_IDENTIFIER_AT_START` tries only a run's first letter.
    The two differ only after a path ("/a/b") that a "+" follows: then the pattern."""
    if not _JOINED.search(text) and not _PATH.search(text):
        return iter(())  # nothing joins two runs of letters
    found = list(_IDENTIFIER_AT_START.finditer(text))
    if any(m.group(0)[0] == "/" and text[m.end() : m.end() + 1] == "+" for m in found):
        return _IDENTIFIER.finditer(text)
    return iter(found)


def _shouted(raw: bytes) -> bool:
    """Whether text (UTF-8) is written all in capitals (more than 20 letters A-Z, over
    60% of them capitals): then capitals name nothing."""
    capitals = len(raw) - len(raw.translate(None, _CAPITALS))
    letters = capitals + len(raw) - len(raw.translate(None, _SMALL_LETTERS))
    return letters > 20 and capitals > 0.6 * letters


@dataclass
class Profile:
    """A memory as the judge reads it: its words at once, its facts and word order when
    a pair needs them."""

    words: frozenset[str]  # meaningful: content words less `WORDING`
    exact: str  # the normalised text, for exact copies
    text: str  # normalised
    _facts: frozenset[str] | None = None
    _shape: Shape | None = None
    _spelled: frozenset[str] | None = None
    _capitalised: frozenset[str] | None = None
    _comparable: int | None = None

    # Found only for the few pairs whose words already make them look like
    # duplicates, not for every memory of the directory: several regex passes each.
    @property
    def facts(self) -> frozenset[str]:
        if self._facts is None:
            self._facts = _facts(self.text)
        return self._facts

    @property
    def shape(self) -> Shape:
        if self._shape is None:
            self._shape = _shape(self.text)
        return self._shape

    @property
    def spelled(self) -> frozenset[str]:
        """Every word as written (case-folded), for misspelt words and words written
        joined or apart."""
        if self._spelled is None:
            if self.text.isascii():  # then case-folding splits or joins no word
                raw = self.text.lower().encode("ascii")
                self._spelled = frozenset(raw.translate(_ASCII_LETTER_BYTES).decode().split())
            else:
                self._spelled = frozenset(word.casefold() for word in _SPELLED.findall(self.text))
        return self._spelled

    @property
    def capitalised(self) -> frozenset[str]:
        """Its words written capitalised after a space somewhere (a name, or a
        sentence's first word): a cheap look at what its facts would say."""
        if self._capitalised is None:
            text = self.text
            self._capitalised = frozenset(
                [
                    word
                    for word in self.words
                    if word.isascii() and word.isalpha() and f" {word.capitalize()}" in text
                ]
            )
        return self._capitalised

    @property
    def comparable(self) -> int:
        """How many of its words another language can share: Chinese characters the
        glossary does not read are left out."""
        if self._comparable is None:
            words = self.words
            self._comparable = (
                len(words)
                if self.text.isascii()
                else sum(1 for word in words if not CJK_START.match(word))
            )
        return self._comparable


def profile_of(text: str, content: frozenset[str] | None = None) -> Profile:
    """How duplicate detection reads a memory's text (description and body).

    `content`: the text's `content_words`, when stale detection read them first. An
    ASCII text holding none of the words the glossary or a phrase is found through
    reads as it is written: it has those words less filler words, not read again. An
    ASCII text's words are split once, for both tests and for `reworded`."""
    normal = normalise(text)
    if not normal.isascii():
        text = reworded(in_english(normal))
    else:
        lower = normal.lower()
        runs = lower.encode("ascii").translate(WORD_RUNS).split()
        held = _FOUND_THROUGH.intersection(runs)
        if held and not _HINTS.isdisjoint(held) and not LATIN_HINTS.isdisjoint(lower.split()):
            text = reworded(in_english(normal))  # Spanish, German or French words
        elif content is not None and not may_reword(lower, held):
            return Profile(content - FILLER_WORDS, b" ".join(runs).decode("ascii"), normal)
        else:  # none of the glossary's languages: `in_english` leaves it as it is
            text = reworded_ascii(normal, lower, held)
    folded = text.casefold()
    if folded.isascii():
        words = _ascii_content_words(folded, _ascii_meaningful_words)
        return Profile(words, _ascii_exact(folded), text)
    words, exact = _content_words(folded), " ".join(_EXACT_WORD.findall(folded))
    return Profile(words - FILLER_WORDS, exact, text)


# A word between spaces is a whole word: a text holding no hint as a whole word holds
# none `in_english` finds.
_HINTS = frozenset(word.encode() for word in LATIN_HINTS)
_FOUND_THROUGH = PHRASE_WORDS | _HINTS


_SHAPE_TOKEN = re.compile(
    rf"(?P<cjk>[{_CJK}]+)|(?P<number>\d+(?:[.:,]\d+)*)|(?P<word>[^\W\d_{_CJK}]+)"
    r"|(?P<sentence>[.!?](?=\s|$)|[。！？\n])|(?P<clause>[,;:()\[\]，；：、（）—–]|\s-\s)"
)
_SPELLED = re.compile(r"[^\W\d_]+")
# What ends one statement of several in a sentence (`Word.part`).
_PART_ENDS = frozenset(";；")
_PART_WORDS = word_set("and but while whereas 而 但")


def _shape(text: str) -> Shape:
    """The words of a memory in order for `memsync.dream.rewording`: grammar left
    out; names are numbers, days and words capitalised where a sentence does not
    start; clauses end at sentence ends, lines, commas, colons, brackets and dashes."""
    words: list[Word] = []
    negative: set[int] = set()
    clause = sentence = 0
    starts = True
    # A sentence said twice (a description repeating the body's first line) once.
    said: set[tuple[str, ...]] = set()
    begins = 0
    part = 0
    for kind, token in _shape_tokens(text):
        if kind in ("sentence", "clause"):
            clause += 1
            if kind == "sentence":
                sentence, starts = sentence + 1, True
                begins = _once(words, begins, said)
            if kind == "sentence" or token in _PART_ENDS:
                part += 1
            continue
        parts, grammar, denies, word, name, capitalised, meaningful = _token_readings[(kind, token)]
        initial, starts = starts, False
        if parts:
            part += 1
        if grammar:
            continue
        if denies:
            negative.add(clause)
        name = name or (capitalised and not initial)
        words.append(Word(word, name, clause, sentence, meaningful, part))
    _once(words, begins, said)
    return Shape(tuple(words), frozenset(negative))


class _TokenReading(NamedTuple):
    """What `_shape` reads of a token of a kind, wherever it is."""

    parts: bool  # "and", "but": another part of its sentence starts (`Word.part`)
    grammar: bool  # left out of the words
    denies: bool  # its clause says "never", "not", …
    word: str  # case-folded, stemmed, synonyms mapped
    name: bool  # a number, a day, Chinese the glossary does not cover
    capitalised: bool  # a name unless it starts a sentence
    meaningful: bool  # counted when comparing word sets


class _TokenReadings(dict[tuple[str, str], _TokenReading]):
    """(kind, token) → its `_TokenReading`, read once: most words of a directory's
    memories are words of many of them."""

    def __missing__(self, key: tuple[str, str]) -> _TokenReading:
        if len(self) >= 65536:  # vocabularies of many directories: start again
            self.clear()
        kind, token = key
        folded = token.casefold()
        word = folded if kind != "word" else canonical(folded)
        found = self[key] = _TokenReading(
            parts=folded in _PART_WORDS,
            grammar=folded in GRAMMAR or (kind == "cjk" and folded in STOPWORDS),
            denies=folded in _NEGATIONS,
            word=word,
            # Chinese the glossary does not cover: a name, as far as anyone can tell.
            name=kind in ("number", "cjk") or (kind == "word" and folded in DAY_SET),
            capitalised=kind == "word" and token[0].isupper() and _may_name(folded, word),
            meaningful=folded not in STOPWORDS and word not in FILLER_WORDS,
        )
        return found


_token_readings = _TokenReadings()
# ASCII text's tokens as `_SHAPE_TOKEN` finds them there (no Chinese; "\d" is 0-9 and
# "[^\W\d_]" a-z and A-Z), each group read without making a match object.
_ASCII_SHAPE_TOKEN = re.compile(
    r"([0-9]+(?:[.:,][0-9]+)*)|([A-Za-z]+)|([.!?](?=\s|$)|\n)|([,;:()\[\]]|\s-\s)"
)


def _shape_tokens(text: str) -> Iterator[tuple[str, str]]:
    """(kind, token) for each token of `_SHAPE_TOKEN`, a run of Chinese read through
    the glossary: English words as words, other characters one by one."""
    if text.isascii():
        for number, word, sentence, clause in _ASCII_SHAPE_TOKEN.findall(text):
            if word:
                yield "word", word
            elif number:
                yield "number", number
            else:
                yield ("sentence", sentence) if sentence else ("clause", clause)
        return
    for match in _SHAPE_TOKEN.finditer(text):
        kind, token = match.lastgroup or "", match.group(0)
        if kind != "cjk":
            yield kind, token
            continue
        for piece, english in segment(token):
            for word in piece.split() if english else [piece]:
                yield ("word", word) if english else ("cjk", word)


def _once(words: list[Word], begins: int, said: set[tuple[str, ...]]) -> int:
    """Drop the sentence `words[begins:]` when an earlier one said the same words;
    returns where the next sentence begins."""
    sentence = tuple([word.text for word in words[begins:]])
    if sentence in said:
        del words[begins:]
    said.add(sentence)
    return len(words)


def _may_name(folded: str, word_form: str) -> bool:
    """Whether a capitalised word can be a name: not a stopword, not a filler word."""
    return folded not in STOPWORDS and word_form not in FILLER_WORDS and word_form not in SYNONYMS
