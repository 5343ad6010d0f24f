"""What the index page and the project list know about each memory at ``main``'s commit:
type, description, age, problems — computed once per commit, served from a cache.

Reading a 10,000-memory scope from Git and parsing every file takes about a second; a
request must not pay it. So the facts of one scope at one commit are kept:

- on disk in ``<git dir>/memsync/facts[-<scope>].json``, next to ``ages.json``. Not in
  Django's cache: that is per process unless configured otherwise, so every gunicorn
  worker would pay the second again, and again after each restart; the file is shared
  by every worker, outlives restarts and goes away with the repository.
- in each web process, the facts last served per repository and scope (a few), so a
  request on an unchanged ``main`` costs one ``rev-parse`` and no file read.

When ``main`` moves, the new commit's facts start from the cached ones: a file whose
blob is unchanged keeps its parse, and only the changed blobs are read and parsed (the
ages are incremental in ``MemoryRepo.ages``). The checks across files — dead index
links, files no entry links — are redone over the names, which is cheap.

Several workers and writers: the file is replaced atomically (written aside, then
renamed), so a reader sees the old facts or the new, never half; a computation holds an
``flock`` so two workers that see the same new commit compute it once. A file that
cannot be read (corrupt, cut short, another version) is treated as absent and rebuilt.
"""

from __future__ import annotations

import dataclasses
import fcntl
import json
import os
import re
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any, overload

from memsync.memory import (
    INDEX_FILENAME,
    TEAM_DIRNAME,
    IndexEntry,
    MemoryFile,
    MemoryIndex,
    Problem,
    age_days,
    is_topic_path,
)
from memsync.memory.directory import link_problems
from memsync.memory.problems import ProblemCode, Severity
from memsync.memory.subindex import is_subindex_path
from memsync.store import MAIN, MemoryRepo

CACHE_VERSION = 1
SCOPES = ("", TEAM_DIRNAME)
# A row of the facts file: a path's (blob, age), a file's (blob, type, description,
# problems), a problem's (code, path, line, message, severity).
Row = tuple[Any, ...]
# Facts kept in each web process: a project's two scopes, for a few projects at once.
MEMO_SIZE = 8


def scope_prefix(scope: str) -> str:
    return f"{scope}/" if scope else ""


@dataclass(frozen=True)
class FileFacts:
    """One topic file as its blob reads: what the index page shows of it."""

    blob: str
    type: str | None
    description: str | None
    problems: tuple[Problem, ...]  # the file's own, not those across files


class FileTable(Mapping[str, FileFacts]):
    """A scope's topic files by name. Each ``FileFacts`` is built when first asked for: a
    page shows a few hundred of ten thousand, and building them all cost a fresh web
    process more than reading the file. The problems' rows and the blobs are served
    without building a ``FileFacts`` or a ``Problem``."""

    def __init__(self, entries: dict[str, FileFacts | Row]) -> None:
        # name → its FileFacts, or its row: (blob, type, description, problem rows)
        self._entries = entries

    def __getitem__(self, name: str) -> FileFacts:
        found = self._entries[name]
        if isinstance(found, tuple):
            blob, kind, description, rows = found
            found = self._entries[name] = FileFacts(
                blob, kind, description, tuple(map(_problem, rows))
            )
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def entry(self, name: str) -> FileFacts | Row:
        """The file as this table holds it, built or not, to carry into another table."""
        return self._entries[name]

    def blob(self, name: str) -> str:
        found = self._entries[name]
        return found[0] if isinstance(found, tuple) else found.blob

    def rows(self) -> dict[str, Row]:
        """Every file as the facts file stores it."""
        return {name: _file_row(found) for name, found in self._entries.items()}

    def problem_rows(self) -> Iterator[Row]:
        for found in self._entries.values():
            if isinstance(found, tuple):
                yield from found[3]
            else:
                yield from map(_problem_row, found.problems)


class ProblemList(Sequence[Problem]):
    """Problems sorted as ``Problem.sort_key`` sorts them, built one page at a time from
    their rows: twenty thousand are common, and a page shows fifty."""

    def __init__(self, rows: list[Row]) -> None:
        rows.sort(key=_row_sort_key)
        self._rows = rows

    @overload
    def __getitem__(self, at: int) -> Problem: ...
    @overload
    def __getitem__(self, at: slice) -> list[Problem]: ...
    def __getitem__(self, at: int | slice) -> Problem | list[Problem]:
        if isinstance(at, slice):
            return [_problem(row) for row in self._rows[at]]
        return _problem(self._rows[at])

    def __len__(self) -> int:
        return len(self._rows)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def errors(self) -> int:
        return sum(1 for row in self._rows if row[4] == Severity.ERROR)

    def at_path(self, path: str) -> list[Problem]:
        return [_problem(row) for row in self._rows if row[1] == path]


@dataclass(frozen=True)
class Summary:
    """A scope at a glance, as the project list shows it."""

    commit: str
    memories: int
    problems: int
    errors: int


@dataclass
class ScopeFacts:
    """A scope's memory at one commit; paths are relative to the scope."""

    commit: str
    scope: str  # "" for the root memory directory, "team" for its team scope
    scopes: tuple[str, ...]  # the scopes this commit has
    index_bytes: bytes | None
    paths: Mapping[str, Row]  # every path → (blob, age as a timestamp)
    files: FileTable  # the topic files, by name
    links: list[Row]  # rows of the problems across files: index, dead links, not indexed

    @cached_property
    def index(self) -> MemoryIndex | None:
        data = self.index_bytes
        return MemoryIndex.parse_bytes(data) if data is not None else None

    @cached_property
    def problems(self) -> ProblemList:
        """Every problem, sorted."""
        return ProblemList([*self.links, *self.files.problem_rows()])

    @cached_property
    def errors(self) -> int:
        return self.problems.errors()

    @cached_property
    def orphans(self) -> list[str]:
        """Topic files MEMORY.md does not link."""
        linked = self.index.linked_files() if self.index is not None else set()
        return [name for name in self.files if name not in linked]

    @cached_property
    def index_problems(self) -> list[Problem]:
        """MEMORY.md's, for its lines."""
        return self.problems.at_path(INDEX_FILENAME)

    @property
    def memories(self) -> int:
        return len(self.files)

    def summary(self) -> Summary:
        return Summary(self.commit, self.memories, len(self.problems), self.errors)

    def path_of(self, name: str) -> str:
        """The repository path of a file named relative to this scope."""
        return scope_prefix(self.scope) + name

    def exists(self, name: str) -> bool:
        return name in self.paths

    def days_old(self, name: str, now: datetime) -> int | None:
        found = self.paths.get(name)
        if found is None or found[1] is None:
            return None
        return age_days(datetime.fromtimestamp(found[1], tz=UTC), now)

    def file_for(self, entry: IndexEntry) -> FileFacts | None:
        return self.files.get(entry.file) if entry.file is not None else None

    def problems_for(self, name: str) -> list[Problem]:
        if name == INDEX_FILENAME:
            return self.index_problems
        return self.problems.at_path(name)


# --- computing ---------------------------------------------------------------------


def _file_facts(name: str, blob: str, data: bytes) -> FileFacts:
    memory = MemoryFile.parse(name, data)
    return FileFacts(blob, memory.type, memory.description, tuple(memory.problems))


def compute(
    repo: MemoryRepo, commit: str, scope: str, previous: ScopeFacts | None = None
) -> ScopeFacts:
    """The scope's facts at ``commit``, reusing ``previous`` for every unchanged blob."""
    prefix = scope_prefix(scope)
    tree = repo.blobs(commit)
    inside = {p.removeprefix(prefix): blob for p, blob in tree.items() if p.startswith(prefix)}
    topics = sorted(name for name in inside if is_topic_path(name))
    known = previous.files if previous is not None else FileTable({})
    kept = {n: known.entry(n) for n in topics if n in known and known.blob(n) == inside[n]}
    indexes = [n for n in inside if n == INDEX_FILENAME or is_subindex_path(n)]
    wanted = [n for n in topics if n not in kept] + indexes
    read = repo.read_many(commit, [prefix + name for name in wanted])
    blobs = {path.removeprefix(prefix): data for path, data in read.items()}
    parsed = {n: _file_row(_file_facts(n, inside[n], blobs[n])) for n in topics if n in blobs}
    merged: dict[str, FileFacts | Row] = {**kept, **parsed}
    files = {name: merged[name] for name in topics if name in merged}
    index = MemoryIndex.parse_bytes(blobs[INDEX_FILENAME]) if INDEX_FILENAME in blobs else None
    subindexes = {
        n: MemoryIndex.parse_bytes(blobs[n], n)
        for n in sorted(indexes)
        if n in blobs and n != INDEX_FILENAME
    }
    ages = repo.ages(commit, blobs=tree)
    paths = {
        name: (blob, ages[prefix + name].timestamp() if prefix + name in ages else None)
        for name, blob in inside.items()
    }
    has_team = any(p.startswith(f"{TEAM_DIRNAME}/") for p in tree)
    return ScopeFacts(
        commit=commit,
        scope=scope,
        scopes=SCOPES if has_team else ("",),
        index_bytes=blobs.get(INDEX_FILENAME),
        paths=paths,
        files=FileTable(files),
        links=[
            _problem_row(problem)
            for problem in link_problems(index, subindexes, paths.__contains__, list(files))
        ],
    )


# --- the file ----------------------------------------------------------------------
# Tuples rather than objects: ten thousand files load through the C JSON codec in tens
# of milliseconds. Bytes that are not UTF-8 survive as surrogate escapes.
#
# Tuples rather than lists in memory too: a tuple of strings and numbers drops out of the
# cyclic collector after the first pass that meets it, a list never does. Held as lists,
# a 10,000-memory scope's 50,000 rows were walked by every full collection of each web
# process (4-35 ms each, on whichever request came then: the slow tail of every page).


# Enum members by value through a dict: ProblemCode(value) and str(member) cost
# microseconds each, and twenty thousand problems are a common load.
_CODES = {code.value: code for code in ProblemCode}
_SEVERITIES = {severity.value: severity for severity in Severity}


# And back, to plain strings: an enum member is an object the collector tracks, so a
# row holding one would stay in its passes; a dict lookup, not the ``.value`` descriptor,
# which cost more than encoding the row.
_CODE_VALUES = {code: code.value for code in ProblemCode}
_SEVERITY_VALUES = {severity: severity.value for severity in Severity}


def _problem_row(problem: Problem) -> Row:
    return (
        _CODE_VALUES[problem.code],
        problem.path,
        problem.line,
        problem.message,
        _SEVERITY_VALUES[problem.severity],
    )


def _problem(row: Row) -> Problem:
    code, path, line, message, severity = row
    return Problem(_CODES[code], str(path), line, str(message), _SEVERITIES[severity])


def _file_row(found: FileFacts | Row) -> Row:
    if isinstance(found, tuple):
        return found
    return (found.blob, found.type, found.description, tuple(map(_problem_row, found.problems)))


def _row_sort_key(row: Row) -> tuple[str, int, str]:
    """``Problem.sort_key`` of a row."""
    return (row[1], row[2] or 0, row[0])


def _encoded(facts: ScopeFacts) -> str:
    index = facts.index_bytes
    return json.dumps(
        {
            "version": CACHE_VERSION,
            "commit": facts.commit,
            "scope": facts.scope,
            "scopes": list(facts.scopes),
            "index": index.decode("utf-8", "surrogateescape") if index is not None else None,
            "paths": facts.paths,
            "files": facts.files.rows(),
            "links": facts.links,
        }
    )


def _decoded(text: str, scope: str) -> ScopeFacts | None:
    """The facts in ``text``; their objects are built as pages ask for them (``FileTable``,
    ``ProblemList``), so only the rows' shapes are checked here."""
    try:
        data = json.loads(text)
        if data["version"] != CACHE_VERSION or data["scope"] != scope:
            return None
        index = data["index"]
        paths, files, links = _rows(data["paths"], data["files"], data["links"])
        return ScopeFacts(
            commit=str(data["commit"]),
            scope=scope,
            scopes=tuple(str(s) for s in data["scopes"]),
            index_bytes=index.encode("utf-8", "surrogateescape") if index is not None else None,
            paths=paths,
            files=FileTable(files),
            links=links,
        )
    except (ValueError, KeyError, TypeError, AttributeError, UnicodeError):
        return None


def _rows(
    paths: Any, files: Any, links: Any
) -> tuple[dict[str, Row], dict[str, FileFacts | Row], list[Row]]:
    """The decoded rows as tuples. Raise ValueError unless every row has its fields (a
    file from another version, or damaged), so a page never meets a broken row later."""
    rows = [*links, *(row for file in files.values() for row in file[3])]
    if not (
        all(isinstance(path, list) and len(path) == 2 for path in paths.values())
        and all(isinstance(file, list) and len(file) == 4 for file in files.values())
        and all(isinstance(row, list) and len(row) == 5 for row in rows)
    ):
        raise ValueError("a row without its fields")
    return (
        {name: tuple(path) for name, path in paths.items()},
        {
            name: (blob, kind, description, tuple(map(tuple, problems)))
            for name, (blob, kind, description, problems) in files.items()
        },
        list(map(tuple, links)),
    )


def memsync_dir(repo: MemoryRepo) -> Path:
    """Where the dashboard keeps what it computed from the repository: in its git
    directory, which no push writes and which goes away with the repository."""
    git_dir = repo.path / ".git"
    if not git_dir.is_dir():  # a worktree's .git is a file naming its directory
        git_dir = repo.git_dir
    return git_dir / "memsync"


def cache_file(repo: MemoryRepo, scope: str) -> Path:
    return memsync_dir(repo) / (f"facts-{scope}.json" if scope else "facts.json")


def _load(path: Path, scope: str) -> tuple[ScopeFacts | None, tuple[int, int] | None]:
    """The facts in the file, and which file it was (inode and change time), so a second
    look under the lock re-reads only a file another process has replaced since."""
    try:
        with path.open() as file:
            stat = os.fstat(file.fileno())
            text = file.read()
    except (OSError, UnicodeError):
        return None, None
    return _decoded(text, scope), (stat.st_ino, stat.st_mtime_ns)


_STORED_COMMIT = re.compile(rb'"commit": "([0-9a-f]{40,64})"')


def _stored_commit(path: Path) -> str | None:
    """The commit the file holds facts for, from its first bytes (``_encoded`` writes the
    commit second), without decoding the rest."""
    try:
        with path.open("rb") as file:
            found = _STORED_COMMIT.search(file.read(160))
    except OSError:
        return None
    return found[1].decode() if found else None


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_ino, stat.st_mtime_ns


def summary_file(path: Path) -> Path:
    """Beside the facts file: the project list reads a few bytes, not five megabytes."""
    return path.with_suffix(".summary.json")


def _store(path: Path, facts: ScopeFacts) -> None:
    _replace(path, _encoded(facts))
    summary = {"version": CACHE_VERSION, **dataclasses.asdict(facts.summary())}
    _replace(summary_file(path), json.dumps(summary))


def _replace(path: Path, text: str) -> None:
    """Atomic: a reader sees the old file or the new one, never half of one."""
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as out:
        out.write(text)
    Path(out.name).replace(path)


def _stored_summary(path: Path) -> Summary | None:
    try:
        data = json.loads(summary_file(path).read_text())
        if data.pop("version") != CACHE_VERSION:
            return None
        return Summary(**data)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


@contextmanager
def _computing(path: Path) -> Iterator[None]:
    """One computation per repository and scope at a time, across processes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.with_suffix(".lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


# --- serving -----------------------------------------------------------------------

_memo: OrderedDict[tuple[str, str], ScopeFacts] = OrderedDict()
_memo_lock = threading.Lock()


def _remembered(key: tuple[str, str], commit: str | None = None) -> ScopeFacts | None:
    """The facts this process last served for ``key`` — only if they are ``commit``'s,
    when one is named."""
    with _memo_lock:
        found = _memo.get(key)
        if found is None or (commit is not None and found.commit != commit):
            return None
        _memo.move_to_end(key)
        return found


def _remember(key: tuple[str, str], facts: ScopeFacts) -> None:
    with _memo_lock:
        _memo[key] = facts
        _memo.move_to_end(key)
        while len(_memo) > MEMO_SIZE:
            _memo.popitem(last=False)


def forget_all() -> None:
    """Drop what this process remembers (tests: as a freshly started worker)."""
    with _memo_lock:
        _memo.clear()


def facts_at(repo: MemoryRepo, commit: str, scope: str = "") -> ScopeFacts:
    """The scope's facts at ``commit``: remembered, else moved on from the ones this
    process remembers for an earlier commit, else from the file, else computed (from the
    file's older facts where blobs did not change) and written back."""
    key = (str(repo.path), scope)
    found = _remembered(key, commit)
    if found is not None:
        return found
    path = cache_file(repo, scope)
    earlier = _remembered(key)
    if earlier is not None:
        # Main moved under a process that served it: only the changed blobs are read,
        # which costs less than decoding the whole file even when the worker has written
        # it for ``commit`` already (``dashboard.tasks.facts``): five megabytes of JSON
        # beside the facts still held cost several full garbage collections. The file is
        # left to the worker, and to processes that start later: encoding ten thousand
        # files costs a request as much as computing them.
        found = compute(repo, commit, scope, previous=earlier)
    else:
        found = _loaded_or_computed(repo, path, commit, scope)
    _remember(key, found)
    return found


def _loaded_or_computed(repo: MemoryRepo, path: Path, commit: str, scope: str) -> ScopeFacts:
    stored, seen = _load(path, scope)
    if stored is None or stored.commit != commit:
        with _computing(path):
            if _identity(path) != seen:  # another worker has just written it
                stored, seen = _load(path, scope)
            if stored is None or stored.commit != commit:
                stored = compute(repo, commit, scope, previous=stored)
                _store(path, stored)
    return stored


def summary_at(repo: MemoryRepo, commit: str, scope: str = "") -> Summary:
    """The scope at ``commit`` at a glance: from the facts this process remembers, else
    from the summary file when it names ``commit`` (a fresh process decodes nothing),
    else from ``facts_at``."""
    found = _remembered((str(repo.path), scope), commit)
    if found is not None:
        return found.summary()
    stored = _stored_summary(cache_file(repo, scope))
    if stored is not None and stored.commit == commit:
        return stored
    return facts_at(repo, commit, scope).summary()


def main_facts(repo: MemoryRepo, scope: str = "") -> ScopeFacts | None:
    """The scope's facts at ``main``; None when ``main`` has no commit yet."""
    commit = repo.rev_parse(MAIN)
    return facts_at(repo, commit, scope) if commit is not None else None


def warm_main(repo: MemoryRepo) -> ScopeFacts | None:
    """Bring the facts file of every scope up to ``main`` (the worker, once ``main``
    moved), so a web process that starts later loads them instead of computing; the root
    scope's facts, or None without a commit."""
    commit = repo.rev_parse(MAIN)
    if commit is None:
        return None
    root = _written(repo, commit, "")
    for scope in root.scopes[1:]:
        _written(repo, commit, scope)
    return root


def _written(repo: MemoryRepo, commit: str, scope: str) -> ScopeFacts:
    """``facts_at``, with the file brought up to them when it holds an older commit."""
    found = facts_at(repo, commit, scope)
    path = cache_file(repo, scope)
    if not _written_for(path, commit):
        with _computing(path):
            if not _written_for(path, commit):
                _store(path, found)
    return found


def _written_for(path: Path, commit: str) -> bool:
    """Whether the facts file and its summary both hold ``commit``'s."""
    summary = _stored_summary(path)
    return _stored_commit(path) == commit and summary is not None and summary.commit == commit
