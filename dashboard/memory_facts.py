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

import fcntl
import json
import os
import re
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

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


@dataclass
class ScopeFacts:
    """A scope's memory at one commit; paths are relative to the scope."""

    commit: str
    scope: str  # "" for the root memory directory, "team" for its team scope
    scopes: tuple[str, ...]  # the scopes this commit has
    index_bytes: bytes | None
    paths: dict[str, tuple[str, float | None]]  # every path → (blob, age as a timestamp)
    files: dict[str, FileFacts]  # the topic files, by name
    links: list[Problem]  # problems across files: index, dead links, not indexed
    index: MemoryIndex | None = field(init=False)
    problems: list[Problem] = field(init=False)  # every problem, sorted
    errors: int = field(init=False)
    orphans: list[str] = field(init=False)  # topic files MEMORY.md does not link
    index_problems: list[Problem] = field(init=False)  # MEMORY.md's, for its lines

    def __post_init__(self) -> None:
        data = self.index_bytes
        self.index = MemoryIndex.parse_bytes(data) if data is not None else None
        every = [*self.links, *(p for facts in self.files.values() for p in facts.problems)]
        self.problems = sorted(every, key=Problem.sort_key)
        self.errors = sum(1 for problem in self.problems if problem.is_error)
        linked = self.index.linked_files() if self.index is not None else set()
        self.orphans = [name for name in self.files if name not in linked]
        self.index_problems = [p for p in self.problems if p.path == INDEX_FILENAME]

    @property
    def memories(self) -> int:
        return len(self.files)

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
        return [problem for problem in self.problems if problem.path == name]


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
    known = previous.files if previous is not None else {}
    kept = {n: known[n] for n in topics if n in known and known[n].blob == inside[n]}
    indexes = [n for n in inside if n == INDEX_FILENAME or is_subindex_path(n)]
    wanted = [n for n in topics if n not in kept] + indexes
    read = repo.read_many(commit, [prefix + name for name in wanted])
    blobs = {path.removeprefix(prefix): data for path, data in read.items()}
    parsed = {n: _file_facts(n, inside[n], blobs[n]) for n in topics if n in blobs}
    merged = {**kept, **parsed}
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
        files=files,
        links=link_problems(index, subindexes, paths.__contains__, list(files)),
    )


# --- the file ----------------------------------------------------------------------
# Tuples rather than objects: ten thousand files load through the C JSON codec in tens
# of milliseconds. Bytes that are not UTF-8 survive as surrogate escapes.


# Enum members by value through a dict: ProblemCode(value) and str(member) cost
# microseconds each, and twenty thousand problems are a common load.
_CODES = {code.value: code for code in ProblemCode}
_SEVERITIES = {severity.value: severity for severity in Severity}


def _problem_row(problem: Problem) -> list[Any]:
    # The members are str (StrEnum): the JSON encoder writes their values without the
    # Python-level ``.value`` descriptor, which cost more than the encoding itself.
    return [problem.code, problem.path, problem.line, problem.message, problem.severity]


def _problem(row: list[Any]) -> Problem:
    code, path, line, message, severity = row
    return Problem(_CODES[code], str(path), line, str(message), _SEVERITIES[severity])


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
            "files": {
                name: [f.blob, f.type, f.description, [_problem_row(p) for p in f.problems]]
                for name, f in facts.files.items()
            },
            "links": [_problem_row(problem) for problem in facts.links],
        }
    )


def _decoded(text: str, scope: str) -> ScopeFacts | None:
    try:
        data = json.loads(text)
        if data["version"] != CACHE_VERSION or data["scope"] != scope:
            return None
        index = data["index"]
        return ScopeFacts(
            commit=str(data["commit"]),
            scope=scope,
            scopes=tuple(str(s) for s in data["scopes"]),
            index_bytes=index.encode("utf-8", "surrogateescape") if index is not None else None,
            paths={
                str(p): (str(blob), None if when is None else float(when))
                for p, (blob, when) in data["paths"].items()
            },
            files={
                str(name): FileFacts(str(blob), kind, description, tuple(map(_problem, rows)))
                for name, (blob, kind, description, rows) in data["files"].items()
            },
            links=[_problem(row) for row in data["links"]],
        )
    except (ValueError, KeyError, TypeError, AttributeError, UnicodeError):
        return None


def cache_file(repo: MemoryRepo, scope: str) -> Path:
    git_dir = repo.path / ".git"
    if not git_dir.is_dir():  # a worktree's .git is a file naming its directory
        git_dir = repo.git_dir
    return git_dir / "memsync" / (f"facts-{scope}.json" if scope else "facts.json")


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


def _store(path: Path, facts: ScopeFacts) -> None:
    """Atomic: a reader sees the old file or the new one, never half of one."""
    text = _encoded(facts)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as out:
        out.write(text)
    Path(out.name).replace(path)


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
        # it for ``commit`` already (``dashboard.tasks.facts``). The file is left to the
        # worker, and to processes that start later: encoding ten thousand files costs
        # a request as much as computing them.
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
    if _stored_commit(path) != commit:
        with _computing(path):
            if _stored_commit(path) != commit:
                _store(path, found)
    return found
