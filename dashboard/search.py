"""The dashboard's search: recall's ranking over ``main``, with the words that matched
marked as data (text segments), so the template escapes every piece and adds the
``<mark>`` itself: nothing from a memory ever reaches the page as markup.

Only the ranking runs (never the model a recall hook may ask): a search box answers
each query at once and for free.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from memsync.memory import MemoryFile, age_days, age_label, freshness_note
from memsync.recall.rank import RecallIndex
from memsync.recall.recall import Reader
from memsync.recall.terms import STOP_WORDS

MAX_QUERY_CHARS = 200
MAX_HITS = 30
SNIPPET_CHARS = 220
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")


@dataclass(frozen=True)
class Segment:
    text: str
    hit: bool


@dataclass(frozen=True)
class SearchHit:
    path: str
    name: list[Segment]
    description: list[Segment]
    snippet: list[Segment]
    type: str | None
    age: str
    age_note: str | None


def search(index: RecallIndex, read: Reader, query: str, now: datetime) -> list[SearchHit]:
    """The memories matching ``query``, best first; none when no word of it matches."""
    pattern = highlighter(query)
    hits = []
    for scored in index.search(query, limit=MAX_HITS):
        if scored.score <= 0:  # a query of stop words only: recall returns the newest
            continue
        document = scored.document
        data = read(document.path) or b""
        body = MemoryFile.parse(document.path, data).body if data else ""
        days = age_days(document.modified, now)
        hits.append(
            SearchHit(
                document.path,
                segments(document.name, pattern),
                segments(document.description, pattern),
                segments(snippet(body, pattern), pattern),
                document.type,
                age_label(days),
                freshness_note(days),
            )
        )
    return hits


def highlighter(query: str) -> re.Pattern[str] | None:
    """A pattern for the query's words at the start of a word, case-insensitive: a
    word's stem-like prefix, so "deploys" marks "deploy" and "deployment" too."""
    words = {w.lower() for w in _WORD.findall(query) if w.lower() not in STOP_WORDS}
    alternatives = []
    for word in sorted(words, key=len, reverse=True):
        if _CJK.search(word):
            alternatives.append(re.escape(word))
        elif len(word) > 1:
            stem = word[: max(4, len(word) - 2)] if len(word) > 4 else word
            alternatives.append(rf"(?<![^\W_]){re.escape(stem)}[^\W_]*")
    return re.compile("|".join(alternatives), re.IGNORECASE) if alternatives else None


def segments(text: str, pattern: re.Pattern[str] | None) -> list[Segment]:
    if pattern is None or not text:
        return [Segment(text, False)] if text else []
    found, position = [], 0
    for match in pattern.finditer(text):
        if match.start() > position:
            found.append(Segment(text[position : match.start()], False))
        found.append(Segment(match.group(), True))
        position = match.end()
    if position < len(text):
        found.append(Segment(text[position:], False))
    return found


def snippet(body: str, pattern: re.Pattern[str] | None) -> str:
    """The body's line with the most matches, cut to about SNIPPET_CHARS around the first
    one; the first non-empty line when nothing in the body matches."""
    lines = [line.strip() for line in body.splitlines() if line.strip()]
    if not lines:
        return ""
    best = max(lines, key=lambda line: len(pattern.findall(line)) if pattern else 0)
    match = pattern.search(best) if pattern else None
    start = max(0, match.start() - SNIPPET_CHARS // 3) if match else 0
    cut = best[start : start + SNIPPET_CHARS]
    return ("…" if start else "") + cut + ("…" if start + SNIPPET_CHARS < len(best) else "")
