"""Local recall ranking: narrow any number of memories to the few worth showing (SPEC R2).

Claude Code lets the model choose from a manifest of at most 200 memory files. A
project with more memories than that, or a machine without an API key, needs a
ranking of its own: BM25F over the name, description and body of each memory, held
in SQLite so that the same index serves one query in memory (the server, per commit)
or lives on disk between calls (the hook, `memsync.recall.disk`) and a query reads
only the postings of its own terms.

Terms come from `memsync.recall.terms` (identifiers split and joined, inflections
folded, CJK bigrams). Each query word is a *group* of alternatives: the word itself,
then weaker ones — an abbreviation the memories define or imply (``gh`` → ``github``),
a longer word it starts (``py`` → ``python``), a shorter word that starts it
(``postgresql`` → ``postgres``). A memory scores the best alternative of each group.

Besides the score, each hit has a *coverage*: the share of the query's evidence (its
words weighted by idf) that the memory matches. Recall without a model uses it as a
floor so that a question nothing answers brings nothing (`memsync.recall.recall`).
"""

from __future__ import annotations

import math
import sqlite3
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import PurePosixPath

from memsync.recall.terms import QueryWord, abbreviations, index_terms, query_words, tokenize

# BM25 saturation and length normalisation, the usual values (Robertson & Zaragoza).
K1 = 1.2
B = 0.75

# Field weights (BM25F: weighted term frequencies are summed before saturation, so a
# word repeated in every field does not count three times over). The description is
# the one line Claude Code writes precisely so that relevance can be judged from it
# (SPEC F2); the name (title and file name) states the subject in a few words. A word
# in either is strong evidence of what the memory is about, while a body mentions many
# things in passing. Chosen on tests/recall/tuning (never on tests/heldout).
NAME_WEIGHT = 3.0
DESCRIPTION_WEIGHT = 2.0
BODY_WEIGHT = 1.0

# A query word no memory has counts this much of its idf in the coverage: it may be
# what makes a question unanswerable ("kafka" where no memory mentions it), or only
# another way of saying what a memory says ("downtime" for an SLO).
UNKNOWN_CREDIT = 0.7

# How much an alternative of a query word counts against the word itself: a defined or
# implied abbreviation is nearly as good; a prefix is a guess.
ALIAS_FACTOR = 0.8
PREFIX_FACTOR = 0.5
PREFIX_CANDIDATES = 3  # the most common words a short query word may stand for
# The length-normalisation averages are refreshed (every weight recomputed) when the
# memories' average field lengths move this far from those the weights were built with.
AVERAGE_DRIFT = 0.25

# Equal scores are broken by type, then by freshness. Feedback first: it corrects how
# the agent works, and missing it makes the agent repeat a mistake the user already
# pointed out. Project facts next (decisions, deadlines, who owns what): they steer
# the task at hand. User facts (role, preferences) shape tone more than the answer.
# References (where something lives) are cheapest to rediscover. Untyped files last.
TYPE_ORDER = {"feedback": 0, "project": 1, "user": 2, "reference": 3}
_UNTYPED = len(TYPE_ORDER)

SCHEMA_VERSION = 3
_SCHEMA = """
CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, mtime_ns INTEGER, size INTEGER,
    name TEXT NOT NULL, description TEXT NOT NULL, type TEXT, type_rank INTEGER NOT NULL,
    modified REAL NOT NULL, committed REAL,
    len_name INTEGER NOT NULL, len_description INTEGER NOT NULL, len_body INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS postings (
    term TEXT NOT NULL, file INTEGER NOT NULL, name REAL NOT NULL, description REAL NOT NULL,
    body REAL NOT NULL, weight REAL NOT NULL, PRIMARY KEY (term, file)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS postings_by_file ON postings (file);
CREATE TABLE IF NOT EXISTS vocabulary (
    term TEXT PRIMARY KEY, documents INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS aliases (short TEXT NOT NULL, term TEXT NOT NULL, file INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS aliases_by_short ON aliases (short);
CREATE INDEX IF NOT EXISTS aliases_by_file ON aliases (file);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
"""

__all__ = ["Analyses", "RecallDocument", "RecallIndex", "ScoredDocument", "tokenize"]


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
    coverage: float = 1.0  # share of the query's idf-weighted words this memory matches


@dataclass(frozen=True)
class _Alternative:
    term: str
    group: int
    factor: float  # of the term's idf in the score
    credit: float  # of its group's credit in the coverage


class RecallIndex:
    """BM25F over name, description and body of a set of memories, in SQLite.

    ``RecallIndex(documents)`` builds in memory; ``RecallIndex.on(connection)`` uses
    a database kept elsewhere (on disk) that `add`/`remove` keep up to date.
    """

    def __init__(
        self, documents: Iterable[RecallDocument] = (), *, analyses: Analyses | None = None
    ) -> None:
        """`analyses`, shared by several indexes of nearly the same memories (a dream's
        canaries index ``main`` and the dream's tree), analyses each memory once."""
        self._db = sqlite3.connect(":memory:")
        self._analyses = analyses
        create_schema(self._db)
        self.add(list(documents))

    @classmethod
    def on(cls, connection: sqlite3.Connection) -> RecallIndex:
        index = cls.__new__(cls)
        index._db = connection
        index._analyses = None
        return index

    def __len__(self) -> int:
        return int(str(self._meta("count", 0)))

    def paths(self) -> list[str]:
        return [path for (path,) in self._db.execute("SELECT path FROM files ORDER BY path")]

    @property
    def documents(self) -> Sequence[RecallDocument]:
        """Every memory without its body (reading all bodies back is what the index
        exists to avoid)."""
        rows = self._db.execute(f"SELECT {_DOCUMENT_COLUMNS} FROM files ORDER BY path")  # noqa: S608
        return [_document(row) for row in rows]

    # -- writing ----------------------------------------------------------------------

    def add(
        self,
        documents: Sequence[RecallDocument],
        stats: dict[str, tuple[int, int]] | None = None,
        committed: dict[str, datetime] | None = None,
    ) -> None:
        """Index `documents` (replacing any memory of the same path). `stats` keeps each
        file's (mtime_ns, size) and `committed` its last commit time, for a disk index."""
        if not documents:
            return
        stats = stats or {}
        committed = committed or {}
        # One transaction per batch: a first index of 50,000 memories takes a while, and
        # a hook stopped by Claude Code's timeout keeps what it did; the next call reads
        # only the files still missing.
        for start in range(0, len(documents), _BATCH):
            with self._db:
                self._add_batch(documents[start : start + _BATCH], stats, committed)
        with self._db:
            used = self._averages()
            averages = _averages_of(self._length_sums(), len(self))
            assert used is not None
            if any(abs(a - u) > AVERAGE_DRIFT * u for a, u in zip(averages, used, strict=True)):
                self._reweigh(averages)

    def _add_batch(
        self,
        batch: Sequence[RecallDocument],
        stats: dict[str, tuple[int, int]],
        committed: dict[str, datetime],
    ) -> None:
        if len(self):
            self._remove_paths([d.path for d in batch])
        count = len(self) + len(batch)
        lengths = self._length_sums()
        memo = self._analyses
        analysed = [
            _analysed(document) if memo is None else memo.of(document) for document in batch
        ]
        for name, description, body, _ in analysed:
            lengths[0] += name.total()
            lengths[1] += description.total()
            lengths[2] += body.total()
        used = self._averages()
        if used is None:  # a new index: its first batch sets the averages
            used = _averages_of(lengths, count)
            self._set_meta("averages", ",".join(map(str, used)))
        (next_id,) = self._db.execute("SELECT coalesce(max(id), 0) + 1 FROM files").fetchone()
        files, postings, aliases = [], [], []
        for document, fields in zip(batch, analysed, strict=True):
            files.append(_file_row(next_id, document, fields, stats, committed))
            postings += _posting_rows(next_id, fields, used)
            aliases += [(a, t, next_id) for a, t in fields[3] if a != t]
            next_id += 1
        # Sorted by the primary key, rows append to the B-tree instead of splitting
        # pages all over it: several times faster for a new index.
        postings.sort()
        self._db.executemany(f"INSERT INTO files VALUES ({_FILE_MARKS})", files)  # noqa: S608
        self._db.executemany("INSERT INTO postings VALUES (?, ?, ?, ?, ?, ?)", postings)
        self._db.executemany("INSERT INTO aliases VALUES (?, ?, ?)", aliases)
        self._db.executemany(
            "INSERT INTO vocabulary VALUES (?, ?) ON CONFLICT (term)"
            " DO UPDATE SET documents = documents + excluded.documents",
            sorted(Counter(row[0] for row in postings).items()),
        )
        self._set_meta("count", count)
        self._set_meta("lengths", ",".join(map(str, lengths)))

    def remove(self, paths: Sequence[str]) -> None:
        with self._db:
            self._remove_paths(paths)

    def _remove_paths(self, paths: Sequence[str]) -> None:
        if not paths:
            return
        lengths = self._length_sums()
        removed = 0
        for path in paths:
            row = self._db.execute(
                "SELECT id, len_name, len_description, len_body FROM files WHERE path = ?",
                (path,),
            ).fetchone()
            if row is None:
                continue
            number = row[0]
            for position in range(3):
                lengths[position] -= row[position + 1]
            self._db.execute(
                "UPDATE vocabulary SET documents = documents - 1 WHERE term IN"
                " (SELECT term FROM postings WHERE file = ?)",
                (number,),
            )
            self._db.execute("DELETE FROM postings WHERE file = ?", (number,))
            self._db.execute("DELETE FROM aliases WHERE file = ?", (number,))
            self._db.execute("DELETE FROM files WHERE id = ?", (number,))
            removed += 1
        if removed:
            self._db.execute("DELETE FROM vocabulary WHERE documents <= 0")
            self._set_meta("count", len(self) - removed)
            self._set_meta("lengths", ",".join(map(str, lengths)))

    def _reweigh(self, averages: tuple[float, ...]) -> None:
        """Every posting's saturated weight again, with new average field lengths."""
        self._db.execute(
            "UPDATE postings SET weight = (SELECT f * (:k1 + 1) / (:k1 + f) FROM (SELECT"
            " postings.name * :wn / (1 - :b + :b * files.len_name / :an)"
            " + postings.description * :wd / (1 - :b + :b * files.len_description / :ad)"
            " + postings.body * :wb / (1 - :b + :b * files.len_body / :ab) AS f"
            " FROM files WHERE files.id = postings.file))",
            {
                "k1": K1,
                "b": B,
                "wn": NAME_WEIGHT,
                "wd": DESCRIPTION_WEIGHT,
                "wb": BODY_WEIGHT,
                "an": averages[0],
                "ad": averages[1],
                "ab": averages[2],
            },
        )
        self._set_meta("averages", ",".join(map(str, averages)))

    # -- searching --------------------------------------------------------------------

    def search(self, query: str, limit: int = 20) -> list[ScoredDocument]:
        """The best `limit` memories for `query`, best first.

        A query with no searchable words (empty, punctuation, only stop words) returns
        the newest memories with score 0; a query whose words occur nowhere returns
        nothing rather than unrelated memories.
        """
        if limit <= 0:
            return []
        words = query_words(query)
        if not words:
            rows = self._db.execute(
                f"SELECT {_DOCUMENT_COLUMNS} FROM files"  # noqa: S608
                " ORDER BY modified DESC, type_rank, path LIMIT ?",
                (limit,),
            )
            return [ScoredDocument(_document(row), 0.0, 0.0) for row in rows]
        count = len(self)
        alternatives, credits = self._alternatives(words)
        frequencies = self._frequencies({a.term for a in alternatives})
        values = [
            (a.term, a.group, _idf(count, frequencies[a.term]) * a.factor, a.credit)
            for a in alternatives
            if frequencies.get(a.term)
        ]
        total = sum(credits)
        if not values or total <= 0:
            return []
        placeholders = ",".join("(?, ?, ?, ?)" for _ in values)
        parameters: list[object] = []
        for term, group, weight, credit in values:
            parameters += [term, group, weight, credits[group] / total * credit]
        rows = self._db.execute(
            f"WITH q(term, grp, weight, credit) AS (VALUES {placeholders})"  # noqa: S608
            f" SELECT {_DOCUMENT_COLUMNS}, m.score, m.coverage FROM ("
            "  SELECT file, SUM(best) AS score, SUM(credit) AS coverage FROM ("
            "   SELECT p.file AS file, MAX(q.weight * p.weight) AS best, MAX(q.credit) AS credit"
            "   FROM q JOIN postings p ON p.term = q.term GROUP BY p.file, q.grp)"
            # Only the best few are looked up in files (ties past them are ordered too).
            "  GROUP BY file ORDER BY round(score, 9) DESC LIMIT ?) m"
            " JOIN files ON files.id = m.file"
            " ORDER BY round(m.score, 9) DESC, type_rank, modified DESC, path LIMIT ?",
            [*parameters, limit + _TIE_MARGIN, limit],
        )
        return [ScoredDocument(_document(row[:6]), row[6], min(row[7], 1.0)) for row in rows]

    def _alternatives(self, words: list[QueryWord]) -> tuple[list[_Alternative], list[float]]:
        """Each query word as a group of weighted alternatives, and each group's credit
        (its idf: a rare word is more of the question than a common one)."""
        candidates = {w.joined for w in words} | {p for w in words for p in w.parts}
        known = self._frequencies(candidates)
        count = len(self)
        alternatives: list[_Alternative] = []
        credits: list[float] = []
        seen: set[tuple[str, ...]] = set()
        for word in words:
            # The joined form when a memory has it (one word, counted once), else parts.
            use_joined = word.joined and (word.joined in known or not word.parts)
            terms = (word.joined,) if use_joined else word.parts
            for term in terms:
                if (term,) in seen:
                    continue
                seen.add((term,))
                group = len(credits)
                # A word is one unit of the question however many parts it has (a CJK
                # run becomes many bigrams): its parts share its weight and credit.
                share = 1 / len(terms)
                credit = _credit(count, known.get(term, 0)) * share
                credits.append(credit if term in known else credit * UNKNOWN_CREDIT)
                alternatives.append(_Alternative(term, group, share, 1.0))
                for other, factor in self._expansions(term, term in known):
                    alternatives.append(_Alternative(other, group, factor * share, factor))
        return alternatives, credits

    def _expansions(self, term: str, known: bool) -> list[tuple[str, float]]:
        found: dict[str, float] = {}
        for (other,) in self._db.execute(
            "SELECT DISTINCT term FROM aliases WHERE short = ?", (term,)
        ):
            found[other] = ALIAS_FACTOR
        if term.isascii() and term.isalpha() and len(term) >= 2 and (not known or len(term) <= 3):
            for (other,) in self._db.execute(
                "SELECT term FROM vocabulary WHERE term > ? AND term < ?"
                " ORDER BY documents DESC LIMIT ?",
                (term, term + "\uffff", PREFIX_CANDIDATES),
            ):
                found.setdefault(other, PREFIX_FACTOR)
        if not known and term.isascii() and len(term) > 4:
            shorter = [term[:end] for end in range(4, len(term))]
            marks = ",".join("?" for _ in shorter)
            for (other,) in self._db.execute(
                f"SELECT term FROM vocabulary WHERE term IN ({marks})",  # noqa: S608
                shorter,
            ):
                found.setdefault(other, PREFIX_FACTOR)
        found.pop(term, None)
        return list(found.items())

    def _frequencies(self, terms: set[str]) -> dict[str, int]:
        if not terms:
            return {}
        marks = ",".join("?" for _ in terms)
        rows = self._db.execute(
            f"SELECT term, documents FROM vocabulary WHERE term IN ({marks})",  # noqa: S608
            list(terms),
        )
        return {term: documents for term, documents in rows if documents > 0}

    # -- bookkeeping ------------------------------------------------------------------

    def _meta(self, key: str, default: object) -> object:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return default if row is None else row[0]

    def _set_meta(self, key: str, value: object) -> None:
        self._db.execute(
            "INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def _length_sums(self) -> list[float]:
        stored = self._meta("lengths", None)
        return [float(x) for x in str(stored).split(",")] if stored else [0.0, 0.0, 0.0]

    def _averages(self) -> tuple[float, ...] | None:
        stored = self._meta("averages", None)
        return tuple(float(x) for x in str(stored).split(",")) if stored else None


def create_schema(connection: sqlite3.Connection) -> None:
    connection.executescript(_SCHEMA)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


# Only these constant columns and "?" placeholders are ever put into SQL text (S608).
_DOCUMENT_COLUMNS = "files.path, files.name, files.description, files.type, files.modified, NULL"


def _document(row: Sequence[object]) -> RecallDocument:
    path, name, description, kind, modified, _ = row
    return RecallDocument(
        path=str(path),
        name=str(name),
        description=str(description),
        body="",
        type=None if kind is None else str(kind),
        modified=datetime.fromtimestamp(float(modified), tz=UTC),  # type: ignore[arg-type]
    )


_BATCH = 2000
# Memories ranked past the limit that are still looked up, so that a tie at the limit
# is decided by type and freshness rather than by storage order.
_TIE_MARGIN = 200
_FILE_MARKS = ", ".join("?" for _ in range(13))
_Fields = tuple[Counter[str], Counter[str], Counter[str], set[tuple[str, str]]]


def _averages_of(lengths: list[float], count: int) -> tuple[float, ...]:
    return tuple(max(total / max(count, 1), 1.0) for total in lengths)


def _file_row(
    number: int,
    document: RecallDocument,
    fields: _Fields,
    stats: dict[str, tuple[int, int]],
    committed: dict[str, datetime],
) -> tuple[object, ...]:
    name, description, body, _ = fields
    mtime_ns, size = stats.get(document.path, (None, None))
    when = committed.get(document.path)
    return (
        number,
        document.path,
        mtime_ns,
        size,
        document.name,
        document.description,
        document.type,
        TYPE_ORDER.get(document.type or "", _UNTYPED),
        _timestamp(when or document.modified),
        None if when is None else _timestamp(when),
        name.total(),
        description.total(),
        body.total(),
    )


def _posting_rows(
    number: int, fields: _Fields, averages: tuple[float, ...]
) -> list[tuple[str, int, int, int, int, float]]:
    """Each term's BM25F weight in one memory: field frequencies scaled by the field's
    weight and by its length against the average, summed, then saturated once."""
    name, description, body, _ = fields
    scales = [
        weight / (1 - B + B * length / average)
        for weight, length, average in zip(
            (NAME_WEIGHT, DESCRIPTION_WEIGHT, BODY_WEIGHT),
            (name.total(), description.total(), body.total()),
            averages,
            strict=True,
        )
    ]
    rows = []
    for term in name.keys() | description.keys() | body.keys():
        n, d, b = name.get(term, 0), description.get(term, 0), body.get(term, 0)
        frequency = n * scales[0] + d * scales[1] + b * scales[2]
        rows.append((term, number, n, d, b, frequency * (K1 + 1) / (K1 + frequency)))
    return rows


class Analyses:
    """Each memory's terms, kept for the next index of the same memories. Keyed by all
    that `_analysed` reads, so a memory changed in between is analysed anew."""

    def __init__(self) -> None:
        self._known: dict[tuple[str, str, str, str], _Fields] = {}

    def of(self, document: RecallDocument) -> _Fields:
        key = (document.path, document.name, document.description, document.body)
        fields = self._known.get(key)
        if fields is None:
            fields = self._known[key] = _analysed(document)
        return fields


def _analysed(
    document: RecallDocument,
) -> tuple[Counter[str], Counter[str], Counter[str], set[tuple[str, str]]]:
    name = _name_text(document)
    return (
        Counter(index_terms(name, pairs=True)),
        Counter(index_terms(document.description, pairs=True)),
        Counter(index_terms(document.body)),
        abbreviations(f"{name}\n{document.description}", pairs=True) | abbreviations(document.body),
    )


def _idf(count: int, frequency: int) -> float:
    return math.log(1 + (count - frequency + 0.5) / (frequency + 0.5))


def _credit(count: int, frequency: int) -> float:
    # A word's share of the question, for the coverage. Smoothed so that it never falls
    # to nothing: BM25's idf of a word every memory has is ~0, so in a folder where all
    # memories are about checkout refunds, "how do checkout refunds work" would be all
    # "work" and answer nothing.
    return math.log((count + 1) / (frequency + 1)) + 1


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
