"""A memory directory as a whole: index, topic files, daily logs (SPEC F1, F6).

Layout::

    MEMORY.md                       the index
    *.md                            topic files, directly in the root
    logs/YYYY/MM/YYYY-MM-DD.md      append-only daily logs
    indexes/<group>.md              sub-indexes linked from MEMORY.md (memory.subindex):
                                    their entries count as indexed
    team/                           the team scope: a memory directory of its own,
                                    read with MemoryDirectory.read(root / "team")

Reading never raises on a bad file and never writes anything; what is wrong is in
`problems`. Symlinks that resolve outside the root are reported and not followed,
so a memory directory cannot make a reader (or the dashboard) read other files.
The Git store and the dashboard build the same object from blobs with `from_files`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from memsync.confined import ConfinedRoot, ConfinementError
from memsync.memory.folders import LOGS_DIRNAME
from memsync.memory.index import INDEX_FILENAME, IndexEntry, MemoryIndex
from memsync.memory.problems import Problem, ProblemCode, Severity
from memsync.memory.subindex import SUBINDEX_DIRNAME, entry_path, is_subindex_path
from memsync.memory.topic import MemoryFile

_LOG_PATH = re.compile(r"^logs/(\d{4})/(\d{2})/(\d{4})-(\d{2})-(\d{2})\.md$")


def is_log_path(path: str) -> bool:
    """``logs/2026/12/2026-12-02.md``: the folders must agree with the file's date."""
    match = _LOG_PATH.match(path)
    return match is not None and match[1] == match[3] and match[2] == match[4]


def is_topic_path(path: str) -> bool:
    return "/" not in path and path.endswith(".md") and path != INDEX_FILENAME


def link_problems(
    index: MemoryIndex | None,
    subindexes: Mapping[str, MemoryIndex],
    exists: Callable[[str], bool],
    topics: list[str],
) -> list[Problem]:
    """What is wrong across files, from the indexes and the names alone: the index's own
    problems, entries that link nothing (``exists`` says whether a path is there), and
    the ``topics`` no entry links. Sub-indexes count when ``MEMORY.md`` links them."""
    found: list[Problem] = []
    linked: set[str] = set()

    def follow(index_path: str, entries: list[IndexEntry]) -> list[str]:
        """Record what `entries` link; report dead links; return linked sub-indexes."""
        nested = []
        for entry in entries:
            target = entry_path(index_path, entry.target)
            if target is None:
                continue
            linked.add(target)
            if index_path == INDEX_FILENAME and target in subindexes:
                nested.append(target)
            elif not exists(target):
                found.append(
                    Problem.at(
                        ProblemCode.INDEX_DEAD_LINK,
                        index_path,
                        entry.line,
                        f"entry '{entry.title}' links to {entry.target}, which does not exist",
                    )
                )
        return nested

    if index is not None:
        found.extend(index.problems(INDEX_FILENAME))
        for subindex in follow(INDEX_FILENAME, index.entries):
            follow(subindex, subindexes[subindex].entries)
    why = (
        f"no entry in {INDEX_FILENAME} links to this file"
        if index is not None
        else f"there is no {INDEX_FILENAME}, so nothing links to this file"
    )
    for path in topics:
        if path not in linked:
            found.append(
                Problem.at(
                    ProblemCode.NOT_INDEXED,
                    path,
                    None,
                    f"{why}; an agent only finds it by scanning",
                    Severity.WARNING,
                )
            )
    return found


@dataclass(frozen=True)
class MemoryDirectory:
    index: MemoryIndex | None
    files: dict[str, MemoryFile]
    problems: list[Problem]
    logs: list[str]
    scope: str | None = None
    root: Path | None = field(default=None, compare=False)
    subindexes: dict[str, MemoryIndex] = field(default_factory=dict)

    # -- building ------------------------------------------------------------------

    @classmethod
    def read(cls, root: Path, scope: str | None = None, *, links: bool = True) -> MemoryDirectory:
        """Read a memory directory from disk. Raises only when `root` is not a directory.

        `scope` is a label kept on the result ("personal", "team"); paths in files
        and problems stay relative to `root`. ``links=False`` leaves out the checks
        across files (`link_problems`), for a reader that needs only the files and
        each file's own problems.
        """
        root = Path(root)
        if not root.is_dir():
            raise NotADirectoryError(f"no memory directory at {root}")
        real_root = Path(os.path.realpath(root))
        reader = _DiskReader(root, real_root)
        index_bytes: bytes | None = None
        files: dict[str, bytes] = {}
        subindexes: dict[str, bytes] = {}
        present: set[str] = set()
        # One open of the root for the thousands of reads below.
        with reader.confined.held(), os.scandir(root) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                name = entry.name
                present.add(name)
                if entry.is_symlink():
                    # Any name, a folder's too: reported, and nothing read through it.
                    reader.is_file_inside(entry)
                    continue
                if name == LOGS_DIRNAME:
                    present.update(reader.logs())
                    continue
                if name == SUBINDEX_DIRNAME:
                    subindexes = reader.subindexes()
                    present.update(subindexes)
                    continue
                if not name.endswith(".md") or not reader.is_file_inside(entry):
                    continue
                data = reader.read(name)
                if data is None:
                    continue
                if name == INDEX_FILENAME:
                    index_bytes = data
                else:
                    files[name] = data

        def exists(path: str) -> bool:
            if path in present:
                return True
            if "/" not in path:
                return False
            try:
                return reader.confined.kind(path) is not None
            except ConfinementError:
                return False  # reached through a link: not a memory file

        return cls._build(
            index_bytes,
            files,
            # Only paths under logs/ can be logs: the pattern for those alone.
            sorted(p for p in present if p.startswith("logs/") and is_log_path(p)),
            exists if links else None,
            reader.problems,
            scope,
            root,
            subindexes,
        )

    @classmethod
    def from_files(
        cls,
        index_bytes: bytes | None,
        files: Mapping[str, bytes],
        scope: str | None = None,
    ) -> MemoryDirectory:
        """Build from blobs (POSIX paths relative to the memory directory).

        Topic files are the ``*.md`` paths without a slash; ``logs/…`` paths are
        daily logs; any other path only counts as an existing link target. A
        ``MEMORY.md`` in `files` is the index when `index_bytes` is None.
        """
        if index_bytes is None and INDEX_FILENAME in files:
            index_bytes = files[INDEX_FILENAME]
        topics = {path: data for path, data in files.items() if is_topic_path(path)}
        subindexes = {path: data for path, data in files.items() if is_subindex_path(path)}
        paths = set(files)
        logs = sorted(path for path in files if is_log_path(path))
        return cls._build(
            index_bytes, topics, logs, paths.__contains__, [], scope, None, subindexes
        )

    @classmethod
    def _build(
        cls,
        index_bytes: bytes | None,
        files: Mapping[str, bytes],
        logs: list[str],
        exists: Callable[[str], bool] | None,  # None: no checks across files
        problems: list[Problem],
        scope: str | None,
        root: Path | None,
        subindex_bytes: Mapping[str, bytes] | None = None,
    ) -> MemoryDirectory:
        found = list(problems)
        index = MemoryIndex.parse_bytes(index_bytes) if index_bytes is not None else None
        parsed = {path: MemoryFile.parse(path, files[path]) for path in sorted(files)}
        subindexes = {
            path: MemoryIndex.parse_bytes(data, path)
            for path, data in sorted((subindex_bytes or {}).items())
        }
        for memory in parsed.values():
            found.extend(memory.problems)

        if exists is not None:
            known = exists

            def present(path: str) -> bool:
                return path in parsed or known(path)

            found.extend(link_problems(index, subindexes, present, list(parsed)))
        found.sort(key=Problem.sort_key)
        return cls(index, parsed, found, logs, scope, root, subindexes)

    # -- reading -------------------------------------------------------------------

    @property
    def errors(self) -> list[Problem]:
        return [problem for problem in self.problems if problem.severity is Severity.ERROR]

    def problems_for(self, path: str) -> list[Problem]:
        return [problem for problem in self.problems if problem.path == path]

    def file_for(self, entry: IndexEntry) -> MemoryFile | None:
        return self.files.get(entry.file) if entry.file is not None else None


class _DiskReader:
    """Reads files under one root, reporting every symlink and following none (issue 10).

    Whether a link stays inside is told apart only for the message: even a link to a
    file inside can be part of a chain that leaves, so no link is ever read through.
    """

    def __init__(self, root: Path, real_root: Path) -> None:
        self.root = root
        self.real_root = real_root
        self.confined = ConfinedRoot(root)
        self.problems: list[Problem] = []

    def is_file_inside(self, entry: os.DirEntry[str], relative: str | None = None) -> bool:
        relative = relative or entry.name
        try:
            if entry.is_symlink():
                self._link(entry, relative)
                return False
            return entry.is_file(follow_symlinks=False)
        except OSError as error:
            self._unreadable(relative, error)
            return False

    def _link(self, entry: os.DirEntry[str], relative: str) -> None:
        link = Path(entry.path).readlink()
        target = Path(os.path.realpath(entry.path))
        if target.is_relative_to(self.real_root):
            code, where = ProblemCode.SYMLINK, "inside the memory directory"
        else:
            code, where = ProblemCode.SYMLINK_OUTSIDE, "outside the memory directory"
        message = f"symlink to {link}, {where}; not followed"
        self.problems.append(Problem.at(code, relative, None, message))

    def read(self, relative: str) -> bytes | None:
        try:
            return self.confined.read_bytes(relative)
        except ConfinementError as error:
            # A link that appeared since the directory was listed.
            self.problems.append(Problem.at(ProblemCode.SYMLINK, relative, None, error.reason))
            return None
        except OSError as error:
            self._unreadable(relative, error)
            return None

    def _unreadable(self, relative: str, error: OSError) -> None:
        self.problems.append(
            Problem.at(
                ProblemCode.UNREADABLE,
                relative,
                None,
                f"cannot be read: {error.strerror or error}",
            )
        )

    def subindexes(self) -> dict[str, bytes]:
        """``indexes/*.md`` files directly in the folder, read (symlinks leaving refused)."""
        found: dict[str, bytes] = {}
        folder = self.root / SUBINDEX_DIRNAME
        if folder.is_symlink() or not folder.is_dir():
            return found
        try:
            with os.scandir(folder) as entries:
                for entry in sorted(entries, key=lambda e: e.name):
                    relative = f"{SUBINDEX_DIRNAME}/{entry.name}"
                    if is_subindex_path(relative) and self.is_file_inside(entry, relative):
                        data = self.read(relative)
                        if data is not None:
                            found[relative] = data
        except OSError as error:
            self._unreadable(SUBINDEX_DIRNAME, error)
        return found

    def logs(self) -> list[str]:
        """Relative paths of every file under logs/ (not following directory links)."""
        found: list[str] = []
        logs_root = self.root / LOGS_DIRNAME
        if logs_root.is_symlink() or not logs_root.is_dir():
            return found
        pending = [LOGS_DIRNAME]
        while pending:
            relative_dir = pending.pop()
            try:
                with os.scandir(self.root / relative_dir) as entries:
                    for entry in entries:
                        relative = f"{relative_dir}/{entry.name}"
                        if entry.is_dir(follow_symlinks=False):
                            pending.append(relative)
                        elif self.is_file_inside(entry, relative):
                            found.append(relative)
            except OSError as error:
                self._unreadable(relative_dir, error)
        return found
