"""Local recall ranking: narrow any number of memories to the few worth showing (SPEC R2).

Claude Code lets the model choose from a manifest of at most 200 memory files. A
project with more memories than that, or a machine without an API key, needs a
ranking of its own: this module scores memories against a query with BM25F over an
inverted index built once per set of documents.

How text becomes terms (`tokenize`): NFKC folding (full-width letters and digits
become ASCII), lowercase, Unicode word split where `_`, `-`, `.` and spaces separate
words (so `user_role.md` and `fork-and-local-install` are words), camelCase split into
its words plus the joined word, English stop words dropped, and the inflectional
steps of Porter's stemmer (1a–1c and 5: plurals, -ed, -ing, final -e, -y/-i), so
"deploys", "deployed" and "deploying" meet but "deployment" stays apart: inflections
rarely change what a memory is about, derivations sometimes do. Chinese, Japanese and
Korean runs, written without spaces, become overlapping character bigrams plus single
characters (minus a few particles such as 的, 了, の): the bigrams carry most words,
the single characters let a one-character query and odd word boundaries still match.
"""

from __future__ import annotations

import heapq
import math
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import chain
from pathlib import PurePosixPath
from typing import cast

# BM25 saturation and length normalisation, the usual values (Robertson & Zaragoza).
K1 = 1.2
B = 0.75

# Field weights (BM25F: weighted term frequencies are summed before saturation, so a
# word repeated in every field does not count three times over). The description is
# the one line Claude Code writes precisely so that relevance can be judged from it
# (SPEC F2) and the one line Claude Code's own recall shows the model; the name (title
# and file name) states the subject in a few words. A word in either is strong
# evidence of what the memory is about, while a body mentions many things in passing
# (an example, a related system, the reason behind a rule).
NAME_WEIGHT = 3.0
DESCRIPTION_WEIGHT = 2.0
BODY_WEIGHT = 1.0

# Equal scores are broken by type, then by freshness. Feedback first: it corrects how
# the agent works, and missing it makes the agent repeat a mistake the user already
# pointed out. Project facts next (decisions, deadlines, who owns what): they steer
# the task at hand. User facts (role, preferences) shape tone more than the answer.
# References (where something lives) are cheapest to rediscover. Untyped files last.
TYPE_ORDER = {"feedback": 0, "project": 1, "user": 2, "reference": 3}
_UNTYPED = len(TYPE_ORDER)

# English function words; removing them keeps "how do we deploy" from matching every
# memory that says "how" or "we".
_STOP_WORD_LIST = """
    a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each
    few for from further had has have having he her here hers herself him himself his how
    i if in into is it its itself just me more most my myself no nor not now of off on once
    only or other our ours ourselves out over own same she should so some such than that
    the their theirs them themselves then there these they this those through to too under
    until up very was we were what when where which while who whom why will with would you
    your yours yourself yourselves
    s t d ll re ve m don doesn didn isn aren wasn weren won wouldn shouldn couldn
"""
_STOP_WORDS = frozenset(_STOP_WORD_LIST.split())
# Single characters too common to say anything alone; bigrams containing them stay.
_CJK_STOP_CHARS = frozenset(
    "的了是在和也就都而及与着或吗呢吧啊之其这那个有我你他她它们のはがをにでともへやか"
)

_CJK_CLASS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_RUN = re.compile(f"([{_CJK_CLASS}]+)")
_WORD = re.compile(r"[^\W_]+")
_ASCII_SEPARATORS = str.maketrans({c: " " for c in map(chr, range(128)) if not c.isalnum()})
# Acronym plurals first ("PRs", "URLs" are one word), then acronyms ("HTTP" in
# "parseHTTPResponse"), then capitalised or lowercase words.
_CAMEL_PART = re.compile(r"[A-Z]{2,}s(?![a-z])|[A-Z]+[0-9]*(?![a-z])|[A-Z]?[a-z0-9]+|[0-9]+")


@dataclass(frozen=True)
class RecallDocument:
    path: str
    name: str
    description: str
    body: str
    type: str | None
    modified: datetime


@dataclass(frozen=True)
class ScoredDocument:
    document: RecallDocument
    score: float


def tokenize(text: str) -> list[str]:
    """The index terms of `text`, in order, with repeats."""
    if text.isascii():
        # translate + split is twice as fast as a regular expression on ASCII text.
        words = text.translate(_ASCII_SEPARATORS).split()
    else:
        words = _WORD.findall(unicodedata.normalize("NFKC", text))
    # Words repeat across memories far more than they differ, so each word's terms
    # are remembered, and the lookup runs in C (map) rather than a Python loop: this
    # halves the time to build an index. Long CJK runs (whole sentences) rarely repeat
    # and are not kept.
    known = _terms_by_word
    found = list(map(known.get, words))
    if None in found:
        if len(known) >= _CACHED_WORDS:
            known.clear()
        for position, word in enumerate(words):
            if found[position] is None:
                word_terms = found[position] = _word_terms(word)
                if len(word) <= _CACHED_WORD_LENGTH:
                    known[word] = word_terms
    return list(chain.from_iterable(cast(list[tuple[str, ...]], found)))


_terms_by_word: dict[str, tuple[str, ...]] = {}
_CACHED_WORDS = 200_000
_CACHED_WORD_LENGTH = 24


def _word_terms(word: str) -> tuple[str, ...]:
    if word.isascii():
        return _latin_terms(word)
    terms: list[str] = []
    for position, run in enumerate(_CJK_RUN.split(word)):
        # split() with a capturing group alternates: other text, CJK run, other…
        if position % 2:
            terms.extend(_cjk_terms(run))
        elif run:
            terms.extend(_latin_terms(run))
    return tuple(terms)


def _latin_terms(word: str) -> tuple[str, ...]:
    if word.islower() or word.isupper() or word[1:].islower() or not word.isascii():
        lower = word.lower()
        return () if lower in _STOP_WORDS else (_stem(lower),)
    parts = _CAMEL_PART.findall(word)
    terms = [_stem(part.lower()) for part in parts if part.lower() not in _STOP_WORDS]
    if len(parts) > 1:
        # The joined form too, so "fuzzboxphysics" still finds FuzzboxPhysics.
        terms.append(_stem(word.lower()))
    return tuple(terms)


def _cjk_terms(run: str) -> list[str]:
    terms = []
    for position, char in enumerate(run):
        if char not in _CJK_STOP_CHARS:
            terms.append(char)
        if position + 1 < len(run):
            terms.append(run[position : position + 2])
    return terms


def _stem(word: str) -> str:
    """Porter's steps 1a–1c and 5 (M. F. Porter, 1980) on an ASCII lowercase word."""
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


class RecallIndex:
    """BM25F over name, description and body of a fixed set of memories.

    Build once per set of documents (rebuilding 10,000 takes about a second); each
    query then touches only the postings of its own terms.
    """

    def __init__(self, documents: Iterable[RecallDocument]) -> None:
        self._documents: list[RecallDocument] = list(documents)
        self._type_rank = [TYPE_ORDER.get(d.type or "", _UNTYPED) for d in self._documents]
        self._freshness = [_timestamp(d.modified) for d in self._documents]
        self._newest = sorted(
            range(len(self._documents)),
            key=lambda n: (-self._freshness[n], self._type_rank[n], self._documents[n].path),
        )
        self._weights: list[dict[str, float]] = []
        self._postings: dict[str, list[int]] = {}
        self._idf: dict[str, float] = {}
        self._build()

    def __len__(self) -> int:
        return len(self._documents)

    @property
    def documents(self) -> Sequence[RecallDocument]:
        return self._documents

    def _build(self) -> None:
        fields = [
            [Counter(tokenize(_name_text(d))) for d in self._documents],
            [Counter(tokenize(d.description)) for d in self._documents],
            [Counter(tokenize(d.body)) for d in self._documents],
        ]
        lengths = [[c.total() for c in counters] for counters in fields]
        count = len(self._documents)
        averages = [max(sum(field) / max(count, 1), 1.0) for field in lengths]
        weights = (NAME_WEIGHT, DESCRIPTION_WEIGHT, BODY_WEIGHT)
        postings: defaultdict[str, list[int]] = defaultdict(list)
        for number in range(count):
            # Each field's frequencies are scaled by its weight and by how long this
            # field is compared with the same field elsewhere, then saturated once.
            name, description, body = (
                weights[f] / (1 - B + B * lengths[f][number] / averages[f]) for f in range(3)
            )
            frequency = {term: n * body for term, n in fields[2][number].items()}
            for term, n in fields[1][number].items():
                frequency[term] = frequency.get(term, 0.0) + n * description
            for term, n in fields[0][number].items():
                frequency[term] = frequency.get(term, 0.0) + n * name
            # The saturated weight of a term depends only on the document, so it is
            # computed once here; a query just sums idf × weight over its postings.
            self._weights.append({t: f * (K1 + 1) / (K1 + f) for t, f in frequency.items()})
            for term in frequency:
                postings[term].append(number)
        self._postings = dict(postings)
        self._idf = {
            term: math.log(1 + (count - len(p) + 0.5) / (len(p) + 0.5))
            for term, p in self._postings.items()
        }

    def search(self, query: str, limit: int = 20) -> list[ScoredDocument]:
        """The best `limit` memories for `query`, best first.

        A query with no searchable terms (empty, punctuation, only stop words)
        returns the newest memories with score 0; a query whose terms occur nowhere
        returns nothing rather than unrelated memories.
        """
        if limit <= 0:
            return []
        terms = set(tokenize(query))
        if not terms:
            return [ScoredDocument(self._documents[n], 0.0) for n in self._newest[:limit]]
        scores = [0.0] * len(self._documents)
        matched: set[int] = set()
        weights = self._weights
        for term in terms:
            postings = self._postings.get(term)
            if postings is None:
                continue
            idf = self._idf[term]
            for number in postings:
                scores[number] += idf * weights[number][term]
            matched.update(postings)
        if not matched:
            return []
        # Only documents reaching the limit-th best score can be returned, so only
        # they are ordered by the full key. Rounding makes scores that differ by float
        # noise alone a tie, which the tie rules then decide.
        cut = heapq.nlargest(limit, map(scores.__getitem__, matched))[-1] - 1e-9
        candidates = [number for number in matched if scores[number] >= cut]
        candidates.sort(key=lambda n: (-round(scores[n], 9), *self._tie_key(n)))
        return [ScoredDocument(self._documents[n], scores[n]) for n in candidates[:limit]]

    def _tie_key(self, number: int) -> tuple[int, float, str]:
        return (self._type_rank[number], -self._freshness[number], self._documents[number].path)


def _name_text(document: RecallDocument) -> str:
    # The file name often says the subject differently from the title
    # (feedback_omnibus_context_gap.md vs. "Omnibus context gap").
    stem = PurePosixPath(document.path).name.removesuffix(".md")
    return f"{document.name} {stem}"


def _timestamp(moment: datetime) -> float:
    # A naive time is taken as UTC so that naive and aware times sort together.
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()
