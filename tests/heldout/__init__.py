"""A held-out corpus of Claude Code memories, written apart from memsync's dream and recall.

Issue 15: thresholds for duplicate detection, stale marking and recall are tuned on one
corpus and checked on another that nobody tuned on. This is the second one. It was written
without reading memsync/dream, memsync/recall, their tests or bench/, in the wording of
users' teams rather than from memsync's templates. Use it only to measure; if a threshold
is changed because of a result here, the corpus stops being held out.

The duplicates part is the second of its kind: the first (bilingual, services, webapp) was
tuned on once its figures were recorded, and is now ``tests/dream/tuning/first_heldout``.
This one (platform, mobile, dataeng, fintech) was written on 2026-12-04 by a hand that
read neither the dream's rules nor the first.

Layout (paths relative to this package)::

    duplicates/<dir>/             a memory directory (MEMORY.md + topic files) and labels.json:
                                  duplicate groups, distinct look-alike pairs, broken files;
                                  every memory not in a group is distinct from all others
    index/<dir>/                  directories whose MEMORY.md is at or over Claude Code's
                                  limits (200 lines, 25,000 UTF-16 units); index/labels.json
                                  gives the measured figures
    stale/<dir>/memory/           a memory directory with a team/ scope
    stale/<dir>/code/             the code checkout the memories talk about
    stale/<dir>/dates.json        commit date of each memory file
    stale/<dir>/labels.json       stale memories with evidence, and the ones that are not stale
    recall/memory/                over 600 memories
    recall/questions.json         questions with the file(s) that answer them (none for some)

The loaders below read the labels into typed objects and raise `CorpusError`, naming the
file and the field, when a label file is malformed.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parent

# Claude Code's own budget for MEMORY.md: what an agent sees. memsync's format layer counts
# UTF-8 bytes, which is stricter; the corpus records both.
CLAUDE_CODE_INDEX_LINES = 200
CLAUDE_CODE_INDEX_UTF16_UNITS = 25_000

STALE_AFTER_DAYS = 90


class CorpusError(ValueError):
    """A label file of the corpus is missing, unreadable or malformed."""


# -- reading label files -------------------------------------------------------------------


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CorpusError(f"{path}: label file is missing") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CorpusError(f"{path}: not valid UTF-8 JSON ({error})") from None
    if not isinstance(data, dict):
        raise CorpusError(f"{path}: expected a JSON object at the top level")
    return data


def _get(obj: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(obj, dict):
        raise CorpusError(f"{where}: expected an object, found {type(obj).__name__}")
    if key not in obj:
        raise CorpusError(f"{where}: missing key {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        expected = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise CorpusError(f"{where}: {key!r} should be {expected}, found {type(value).__name__}")
    return value


def _strings(obj: Any, key: str, where: str) -> tuple[str, ...]:
    values = _get(obj, key, list, where)
    for i, value in enumerate(values):
        if not isinstance(value, str):
            raise CorpusError(f"{where}: {key}[{i}] should be a string")
    return tuple(values)


def _objects(obj: Any, key: str, where: str) -> list[tuple[str, dict[str, Any]]]:
    return [(f"{where}: {key}[{i}]", item) for i, item in enumerate(_get(obj, key, list, where))]


def memory_files(root: Path) -> list[str]:
    """Topic files of a memory directory, relative to it (``team/x.md`` for the team
    scope); index files are left out."""
    return sorted(
        path.relative_to(root).as_posix() for path in root.rglob("*.md") if path.name != "MEMORY.md"
    )


# -- duplicates ----------------------------------------------------------------------------


@dataclass(frozen=True)
class DuplicateGroup:
    """Memories that say the same thing and should become one (keeping every fact)."""

    files: tuple[str, ...]
    kind: str
    note: str

    def pairs(self) -> list[frozenset[str]]:
        return [frozenset((a, b)) for i, a in enumerate(self.files) for b in self.files[i + 1 :]]


@dataclass(frozen=True)
class DistinctPair:
    """Two memories that look alike but differ in a fact: merging them loses it."""

    files: tuple[str, str]
    kind: str
    differs: str


@dataclass(frozen=True)
class BrokenFile:
    file: str
    problem: str
    note: str


@dataclass(frozen=True)
class DuplicateCorpus:
    name: str
    root: Path
    note: str
    memories: int
    duplicates: tuple[DuplicateGroup, ...]
    distinct: tuple[DistinctPair, ...]
    broken: tuple[BrokenFile, ...]

    def topic_files(self) -> list[str]:
        return memory_files(self.root)

    def duplicate_pairs(self) -> set[frozenset[str]]:
        return {pair for group in self.duplicates for pair in group.pairs()}

    def distinct_pairs(self) -> set[frozenset[str]]:
        return {frozenset(pair.files) for pair in self.distinct}

    def group_of(self, file: str) -> DuplicateGroup | None:
        return next((g for g in self.duplicates if file in g.files), None)

    def are_duplicates(self, a: str, b: str) -> bool:
        """The truth for any pair of files: duplicates only when one group holds both."""
        group = self.group_of(a)
        return group is not None and a != b and b in group.files


def load_duplicate_corpus(root: Path) -> DuplicateCorpus:
    path = root / "labels.json"
    where = str(path)
    data = _load(path)
    groups = []
    for at, item in _objects(data, "duplicates", where):
        files = _strings(item, "files", at)
        if len(files) < 2:
            raise CorpusError(f"{at}: a duplicate group needs at least two files")
        groups.append(
            DuplicateGroup(files, _get(item, "kind", str, at), _get(item, "note", str, at))
        )
    pairs = []
    for at, item in _objects(data, "distinct", where):
        files = _strings(item, "files", at)
        if len(files) != 2:
            raise CorpusError(f"{at}: a distinct pair needs exactly two files")
        pairs.append(
            DistinctPair(
                (files[0], files[1]), _get(item, "kind", str, at), _get(item, "differs", str, at)
            )
        )
    broken = [
        BrokenFile(
            _get(item, "file", str, at), _get(item, "problem", str, at), _get(item, "note", str, at)
        )
        for at, item in _objects(data, "broken", where)
    ]
    return DuplicateCorpus(
        name=_get(data, "directory", str, where),
        root=root,
        note=_get(data, "note", str, where),
        memories=_get(data, "memories", int, where),
        duplicates=tuple(groups),
        distinct=tuple(pairs),
        broken=tuple(broken),
    )


def duplicate_corpora(root: Path = ROOT / "duplicates") -> list[DuplicateCorpus]:
    return [load_duplicate_corpus(d) for d in sorted(root.iterdir()) if d.is_dir()]


# -- index budget --------------------------------------------------------------------------


@dataclass(frozen=True)
class IndexCorpus:
    name: str
    root: Path
    note: str
    memories: int
    lines: int
    utf16_units: int
    utf8_bytes: int
    entries: int
    # whole lines among the first 200 whose running size (newlines included) stays
    # within 25,000, counted in UTF-16 units as Claude Code does, and in UTF-8 bytes
    visible_lines_utf16: int
    visible_lines_utf8: int

    @property
    def over_line_limit(self) -> bool:
        return self.lines > CLAUDE_CODE_INDEX_LINES

    @property
    def over_size_limit(self) -> bool:
        return self.utf16_units > CLAUDE_CODE_INDEX_UTF16_UNITS


def index_corpora(root: Path = ROOT / "index") -> list[IndexCorpus]:
    path = root / "labels.json"
    where = str(path)
    directories = _get(_load(path), "directories", dict, where)
    corpora = []
    for name, item in sorted(directories.items()):
        at = f"{where}: directories[{name!r}]"
        corpora.append(
            IndexCorpus(
                name=name,
                root=root / name,
                note=_get(item, "note", str, at),
                memories=_get(item, "memories", int, at),
                lines=_get(item, "lines", int, at),
                utf16_units=_get(item, "utf16_units", int, at),
                utf8_bytes=_get(item, "utf8_bytes", int, at),
                entries=_get(item, "entries", int, at),
                visible_lines_utf16=_get(item, "lines_in_first_200_and_25000_utf16", int, at),
                visible_lines_utf8=_get(item, "lines_in_first_200_and_25000_utf8", int, at),
            )
        )
    return corpora


# -- stale ---------------------------------------------------------------------------------

EVIDENCE_KINDS = (
    "path",  # a file or directory path, relative to the checkout
    "npm-script",  # a script name in package.json
    "make-target",  # a Makefile target
    "symbol",  # an identifier or literal searched for in the checkout's files
    "env-var",  # an environment variable name, searched for the same way
    "console-script",  # a [project.scripts] entry of a pyproject.toml
    "value",  # the checkout's `file` holds `code_says` where the memory says `memory_says`
    "superseded",  # a newer memory (`by`) on the same subject replaces this one
    "contradicted",  # a teammate's newer memory (`by`, in team/) says otherwise
)


@dataclass(frozen=True)
class Evidence:
    kind: str
    value: str | None = None
    file: str | None = None
    memory_says: str | None = None
    code_says: str | None = None
    by: str | None = None


@dataclass(frozen=True)
class StaleLabel:
    file: str
    evidence: tuple[Evidence, ...]
    note: str


@dataclass(frozen=True)
class FreshLabel:
    """A memory that must not be flagged; `cites` lists what it refers to that does exist."""

    file: str
    cites: tuple[Evidence, ...]
    note: str


@dataclass(frozen=True)
class StaleCorpus:
    name: str
    root: Path
    memory: Path
    code: Path
    as_of: dt.date
    dates: dict[str, dt.datetime]
    stale: tuple[StaleLabel, ...]
    not_stale: tuple[FreshLabel, ...]

    def age_days(self, file: str) -> int:
        return (self.as_of - self.dates[file].date()).days

    def is_stale(self, file: str) -> bool:
        return any(label.file == file for label in self.stale)


def _evidence(item: Any, at: str) -> Evidence:
    kind = _get(item, "kind", str, at)
    if kind not in EVIDENCE_KINDS:
        raise CorpusError(
            f"{at}: unknown evidence kind {kind!r} (one of {', '.join(EVIDENCE_KINDS)})"
        )
    if kind == "value":
        return Evidence(
            kind,
            file=_get(item, "file", str, at),
            memory_says=_get(item, "memory_says", str, at),
            code_says=_get(item, "code_says", str, at),
        )
    if kind in ("superseded", "contradicted"):
        return Evidence(kind, by=_get(item, "by", str, at))
    return Evidence(kind, value=_get(item, "value", str, at))


def _timestamp(text: str, at: str) -> dt.datetime:
    try:
        return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise CorpusError(f"{at}: {text!r} is not an ISO 8601 timestamp") from None


def load_stale_corpus(root: Path) -> StaleCorpus:
    path = root / "labels.json"
    where = str(path)
    data = _load(path)
    stale = []
    for at, item in _objects(data, "stale", where):
        evidence = tuple(
            _evidence(e, f"{at}.evidence[{i}]")
            for i, e in enumerate(_get(item, "evidence", list, at))
        )
        if not evidence:
            raise CorpusError(f"{at}: a stale label needs evidence beyond age")
        stale.append(StaleLabel(_get(item, "file", str, at), evidence, _get(item, "note", str, at)))
    fresh = []
    for at, item in _objects(data, "not_stale", where):
        cites = tuple(
            _evidence(e, f"{at}.cites[{i}]") for i, e in enumerate(_get(item, "cites", list, at))
        )
        fresh.append(FreshLabel(_get(item, "file", str, at), cites, _get(item, "note", str, at)))
    as_of_text = _get(data, "as_of", str, where)
    try:
        as_of = dt.date.fromisoformat(as_of_text)
    except ValueError:
        raise CorpusError(f"{where}: as_of {as_of_text!r} is not a date") from None
    dates_path = root / "dates.json"
    raw_dates = _get(_load(dates_path), "dates", dict, str(dates_path))
    dates = {
        file: _timestamp(_get(raw_dates, file, str, str(dates_path)), f"{dates_path}: {file}")
        for file in raw_dates
    }
    return StaleCorpus(
        name=root.name,
        root=root,
        memory=root / _get(data, "memory", str, where),
        code=root / _get(data, "code", str, where),
        as_of=as_of,
        dates=dates,
        stale=tuple(stale),
        not_stale=tuple(fresh),
    )


def stale_corpora(root: Path = ROOT / "stale") -> list[StaleCorpus]:
    return [load_stale_corpus(d) for d in sorted(root.iterdir()) if d.is_dir()]


# -- recall --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecallQuestion:
    id: str
    question: str
    answers: tuple[str, ...]  # any one of them answers it; empty: nothing does
    tags: tuple[str, ...]
    lang: str
    distractors: tuple[str, ...]  # look-alikes that do not answer it
    note: str

    @property
    def answerable(self) -> bool:
        return bool(self.answers)


@dataclass(frozen=True)
class RecallCorpus:
    root: Path
    memory: Path
    questions: tuple[RecallQuestion, ...]

    def answerable(self) -> list[RecallQuestion]:
        return [q for q in self.questions if q.answerable]

    def unanswerable(self) -> list[RecallQuestion]:
        return [q for q in self.questions if not q.answerable]


def recall_corpus(root: Path = ROOT / "recall") -> RecallCorpus:
    path = root / "questions.json"
    where = str(path)
    data = _load(path)
    questions = tuple(
        RecallQuestion(
            id=_get(item, "id", str, at),
            question=_get(item, "question", str, at),
            answers=_strings(item, "answers", at),
            tags=_strings(item, "tags", at),
            lang=_get(item, "lang", str, at),
            distractors=_strings(item, "distractors", at),
            note=_get(item, "note", str, at),
        )
        for at, item in _objects(data, "questions", where)
    )
    return RecallCorpus(
        root=root, memory=root / _get(data, "memory", str, where), questions=questions
    )
