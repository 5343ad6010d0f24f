"""The recall index of a memory directory on disk, kept between calls (issue 14).

The hook runs before every prompt, so recall must not read and re-index every memory
each time. The index lives in SQLite at ``<git dir>/memsync/recall-index.sqlite`` (or
a file the caller names, for a directory that is no Git repository) and is brought up
to date on each open:

- each topic file is keyed by ``(path, mtime_ns, size)``: one ``scandir`` and ``stat``
  per file tells which are new, changed or gone, and only those are read and parsed;
- an extraction opens it without that ``stat`` of every file (``rescan=False``; 25 ms
  of each extraction at 10,000 memories): the listing alone (names and inode numbers,
  which ``scandir`` reads without a ``stat``) tells the files added, removed or replaced
  since the last update, and only those are looked at. Every write memsync makes
  replaces the file (a new inode), so it is always seen; a file edited in place is seen
  at the next full update, which recall runs before every prompt;
- a memory's age is its content's last change in Git (SPEC F4), else its mtime; ages
  are asked of Git (`MemoryRepo.ages`, itself incremental) only when ``HEAD`` moved
  since the last call.

A damaged or older-format index file is deleted and rebuilt: it holds nothing that
the memory files do not.
"""

from __future__ import annotations

import os
import sqlite3

# hashlib.blake2b itself: hashlib would first load OpenSSL, ~3 ms of each extraction
# and recall process, for a digest it takes from here anyway.
from _blake2 import blake2b
from array import array
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from stat import S_ISREG

from memsync.confined import ConfinedRoot, ConfinementError
from memsync.memory.folders import TEAM_DIRNAME
from memsync.recall.manifest import document_for
from memsync.recall.rank import SCHEMA_VERSION, RecallDocument, RecallIndex, create_schema
from memsync.store.plumbing import git_dir_of, head_commit

INDEX_NAME = "recall-index.sqlite"
_BUSY_TIMEOUT = 10.0  # seconds a second hook waits for the first one's update


def default_location(root: Path) -> Path | None:
    """``<git dir>/memsync/recall-index.sqlite`` when `root` is a Git repository."""
    git_dir = git_dir_of(root)
    return None if git_dir is None else git_dir / "memsync" / INDEX_NAME


class DiskIndex:
    """An up-to-date `RecallIndex` over `root` (and its ``team/``), and a confined reader."""

    def __init__(
        self,
        root: Path,
        location: Path | None = None,
        *,
        ages: bool = True,
        rescan: bool = True,
    ) -> None:
        """`ages=False` leaves the memories' ages as they were when ``HEAD`` moved (asking
        Git walks the commits since): for a caller that needs what the files say, not
        how old they are (extraction). The next call with ages brings them up to date.
        `rescan=False` looks only at the files the listing says were added, removed or
        replaced (module docstring): for extraction, which runs after every turn."""
        self.root = Path(root)
        self._with_ages = ages
        self._rescan = rescan
        self._confined = ConfinedRoot(self.root)
        self.location = location if location is not None else default_location(self.root)
        self._db = _connect(self.location)
        self.index = RecallIndex.on(self._db)
        self.changed = 0  # files read and indexed by the last `update`
        self.stated = 0  # files the last `update` took a stat of
        self.update()

    def close(self) -> None:
        self._db.close()

    def update(self) -> None:
        """Index what changed on disk since the last call; drop what is gone."""
        self.changed = 0
        if not self._rescan and self._update_from_listing():
            return
        scanned, inodes = self._scan()
        self.stated = len(scanned)
        # The common case is that nothing changed: one digest of every (path, mtime,
        # size, inode) says so without loading 50,000 rows back from the index. Built in
        # C (join, array) rather than per file in Python; kept, to tell what changed.
        names = "\0".join([path for path, _ in scanned]).encode()
        # One number per file for its (mtime, size): hashes of ints do not vary between
        # processes (another Python may read each file once more), and one number makes
        # the comparison with the last scan C work.
        stats = array("q", [hash(stat) for _, stat in scanned])
        signature = _signature(names, stats, inodes)
        ages = self._ages_if_head_moved() if self._with_ages else None
        if ages is None and self._meta("signature") == signature:
            return
        present = dict(scanned)
        before, gone = self._changes_since_last_scan(scanned, stats)
        indexed = {path for path, was_indexed in before.items() if was_indexed}
        self._index_changed({path: present[path] for path in before}, gone, indexed, ages)
        if ages is not None:
            self._set_ages(ages)
        self._keep_scan(names, stats, inodes, signature)

    def _keep_scan(
        self, names: bytes, stats: array[int], inodes: array[int], signature: str
    ) -> None:
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO meta VALUES (?, ?)",
                [
                    ("signature", signature),
                    ("scan-paths", names),
                    ("scan-stats", stats.tobytes()),
                    ("scan-inodes", inodes.tobytes()),
                ],
            )

    def _update_from_listing(self) -> bool:
        """`update` from the directory listing: a ``stat`` of only the files whose name
        or inode number is not in the last scan, the others taken as they were then
        (an in-place edit waits for the next full update). The scan kept is amended so
        that a full update finds it matching when nothing else changed. False when
        the index holds no scan with inode numbers (the caller scans)."""
        kept = self._kept_scan()
        if kept is None:
            return False
        paths, inodes = self._list()
        if "\0".join(paths).encode() == kept[0] and inodes == kept[2]:
            return True  # nothing added, removed or replaced: compared in C
        last = _listing(*kept)
        new = [
            path
            for path, inode in zip(paths, inodes, strict=True)
            if last.get(path, (0, 0))[1] != inode
        ]
        gone = last.keys() - set(paths)
        stats_of = self._stat_each(new)
        self.stated = len(new)
        replaced = {path for path in new if path in last}
        self._index_changed(stats_of, [*gone, *(replaced - stats_of.keys())], replaced)
        listed = [
            (path, inode, hash(stats_of[path]) if path in stats_of else last[path][0])
            for path, inode in zip(paths, inodes, strict=True)
            if path in stats_of or (path in last and path not in replaced)
        ]
        names = "\0".join([path for path, _, _ in listed]).encode()
        stats = array("q", [stat for _, _, stat in listed])
        numbers = array("Q", [inode for _, inode, _ in listed])
        self._keep_scan(names, stats, numbers, _signature(names, stats, numbers))
        return True

    def _index_changed(
        self,
        stats: dict[str, tuple[int, int]],
        removed: list[str],
        was: set[str],
        committed: dict[str, datetime] | None = None,
    ) -> None:
        """Read and index the files at `stats` (new or changed); drop `removed`, and
        those of `was` (indexed before) that no longer read as a memory. `committed`:
        the files' ages when already asked of Git, else those of `stats` are looked up."""
        changed = list(stats)
        if committed is None:
            committed = self._committed(changed)
        documents = []
        for path in changed:
            document = self._read_document(path, stats[path][0], committed.get(path))
            if document is not None:
                documents.append(document)
            elif path in was:
                removed.append(path)
        self.changed = len(documents)
        if removed:
            self.index.remove(removed)
        if documents:
            self.index.add(documents, stats, committed)

    def _kept_scan(self) -> tuple[bytes, array[int], array[int]] | None:
        """The last scan's paths (joined), stat numbers and inode numbers, when kept."""
        names, kept, inodes = (self._meta(k) for k in ("scan-paths", "scan-stats", "scan-inodes"))
        if not (isinstance(names, bytes) and isinstance(kept, bytes) and isinstance(inodes, bytes)):
            return None
        stats, numbers = array("q"), array("Q")
        stats.frombytes(kept)
        numbers.frombytes(inodes)
        return names, stats, numbers

    def _stat_each(self, paths: list[str]) -> dict[str, tuple[int, int]]:
        """(mtime_ns, size) of those of `paths` that are regular files (no link)."""
        found = {}
        for path in paths:
            try:
                stat = os.lstat(self.root / path)
            except OSError:
                continue
            if S_ISREG(stat.st_mode):
                found[path] = (stat.st_mtime_ns, stat.st_size)
        return found

    def _changes_since_last_scan(
        self, scanned: list[tuple[str, tuple[int, int]]], stats: array[int]
    ) -> tuple[dict[str, bool], list[str]]:
        """The files new or changed since the last scan (each mapped to whether it was
        there then), and those gone. Compared with that scan as kept in the index, two
        values, rather than with 50,000 rows read back (issue 14)."""
        before = self._last_scan()
        now = [path for path, _ in scanned]
        changed = {
            path: path in before
            for path, stat in zip(now, stats, strict=True)
            if before.get(path) != stat
        }
        return changed, list(before.keys() - set(now))

    def _last_scan(self) -> dict[str, int]:
        """Each file of the last scan and the number for its (mtime, size)."""
        names, kept = self._meta("scan-paths"), self._meta("scan-stats")
        if isinstance(names, bytes) and isinstance(kept, bytes):
            paths = names.decode().split("\0") if names else []
            previous = array("q")
            previous.frombytes(kept)
            if len(previous) == len(paths):
                return dict(zip(paths, previous, strict=True))
        # An index written before the scan was kept: its rows tell the same.
        rows = self._db.execute("SELECT path, mtime_ns, size FROM files")
        return {path: hash((mtime_ns, size)) for path, mtime_ns, size in rows}

    def _committed(self, paths: list[str]) -> dict[str, datetime]:
        """When Git last changed each of `paths`, as the index knows it."""
        found: dict[str, datetime] = {}
        for start in range(0, len(paths), 500):
            chunk = paths[start : start + 500]
            marks = ", ".join("?" for _ in chunk)
            query = f"SELECT path, committed FROM files WHERE path IN ({marks})"  # noqa: S608
            for path, when in self._db.execute(query, chunk):
                if when is None:
                    continue
                found[path] = datetime.fromtimestamp(when, tz=UTC)
        return found

    def _meta(self, key: str) -> object:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def read(self, path: str) -> bytes | None:
        """A memory's current bytes; None for a path outside the directory, through a
        link (even one that stays inside: issue 10) or unreadable."""
        try:
            return self._confined.read_bytes(path)
        except (OSError, ConfinementError):
            return None

    # -- scanning ---------------------------------------------------------------------

    def _scopes(self) -> list[tuple[Path, str]]:
        scopes = [(self.root, "")]
        if (self.root / TEAM_DIRNAME).is_dir():
            scopes.append((self.root / TEAM_DIRNAME, f"{TEAM_DIRNAME}/"))
        return scopes

    def _scan(self) -> tuple[list[tuple[str, tuple[int, int]]], array[int]]:
        """(path, (mtime_ns, size)) of every topic file, and its inode number: one stat
        each, no reads. The stats are taken relative to the open directory (no path walk
        per file) and their mode tells a link from a file; at 50,000 files each step
        counts."""
        found: list[tuple[str, tuple[int, int]]] = []
        inodes = array("Q")
        for prefix, entry in self._entries():
            try:
                stat = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            # A link may lead out of the directory: not a memory here.
            if S_ISREG(stat.st_mode):
                found.append((prefix + entry.name, (stat.st_mtime_ns, stat.st_size)))
                inodes.append(entry.inode())
        return found, inodes

    def _list(self) -> tuple[list[str], array[int]]:
        """The path and inode number of every topic file, from the listing alone: no
        stat (the entry's type as the directory gives it tells a link from a file)."""
        paths, inodes = [], array("Q")
        for prefix, entry in self._entries():
            if entry.is_file(follow_symlinks=False):
                paths.append(prefix + entry.name)
                inodes.append(entry.inode())
        return paths, inodes

    def _entries(self) -> Iterator[tuple[str, os.DirEntry[str]]]:
        """Each ``*.md`` entry but ``MEMORY.md`` of the directory and its ``team/``, with
        the prefix of its path."""
        from memsync.memory import INDEX_FILENAME

        for scope_root, prefix in self._scopes():
            try:
                directory = os.open(scope_root, os.O_RDONLY | os.O_DIRECTORY)
            except OSError:
                continue
            try:
                with os.scandir(directory) as entries:
                    for entry in entries:
                        if entry.name.endswith(".md") and entry.name != INDEX_FILENAME:
                            yield prefix, entry
            finally:
                os.close(directory)

    def _read_document(
        self, path: str, mtime_ns: int, committed: datetime | None
    ) -> RecallDocument | None:
        data = self.read(path)
        if data is None:
            return None
        from memsync.memory import MemoryFile

        modified = committed or datetime.fromtimestamp(mtime_ns / 1e9, tz=UTC)
        return document_for(path, MemoryFile.parse(path.rsplit("/", 1)[-1], data), modified)

    # -- ages -------------------------------------------------------------------------

    def _ages_if_head_moved(self) -> dict[str, datetime] | None:
        """Last-commit times of every file when some scope's HEAD moved, else None."""
        heads: dict[str, str] = {}
        for scope_root, prefix in self._scopes():
            if (scope_root / ".git").exists():
                heads[prefix] = head_commit(scope_root)
        stored = {
            key.removeprefix("head:"): value
            for key, value in self._db.execute(
                "SELECT key, value FROM meta WHERE key LIKE 'head:%'"
            )
        }
        if heads == stored:
            return None
        from memsync.store import MemoryRepo, StoreError

        ages: dict[str, datetime] = {}
        for scope_root, prefix in self._scopes():
            if heads.get(prefix):
                try:
                    found = MemoryRepo(scope_root).ages()
                except StoreError:
                    continue
                ages.update({prefix + path: when for path, when in found.items()})
        with self._db:
            self._db.execute("DELETE FROM meta WHERE key LIKE 'head:%'")
            self._db.executemany(
                "INSERT INTO meta VALUES (?, ?)", [(f"head:{k}", v) for k, v in heads.items()]
            )
        return ages

    def _set_ages(self, ages: dict[str, datetime]) -> None:
        with self._db:
            self._db.execute("UPDATE files SET committed = NULL, modified = mtime_ns / 1e9")
            self._db.executemany(
                "UPDATE files SET committed = ?1, modified = ?1 WHERE path = ?2",
                [(when.timestamp(), path) for path, when in ages.items()],
            )


def _listing(names: bytes, stats: array[int], inodes: array[int]) -> dict[str, tuple[int, int]]:
    """Each file of a kept scan: the number for its (mtime, size), and its inode."""
    paths = names.decode().split("\0") if names else []
    if not len(paths) == len(stats) == len(inodes):
        return {}  # a damaged scan: every file is looked at again
    return dict(zip(paths, zip(stats, inodes, strict=True), strict=True))


def _signature(names: bytes, stats: array[int], inodes: array[int]) -> str:
    digest = blake2b(names, digest_size=16)
    digest.update(stats.tobytes())
    digest.update(inodes.tobytes())
    return digest.hexdigest()


def _connect(location: Path | None) -> sqlite3.Connection:
    if location is None:
        connection = sqlite3.connect(":memory:")
        create_schema(connection)
        return connection
    location.parent.mkdir(parents=True, exist_ok=True)
    for attempt in range(2):
        try:
            connection = sqlite3.connect(location, timeout=_BUSY_TIMEOUT)
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, SCHEMA_VERSION):
                raise sqlite3.DatabaseError(f"index format {version}, not {SCHEMA_VERSION}")
            connection.execute("PRAGMA journal_mode = WAL")
            # No fsync: the index is a cache of files whose own commits git does not
            # fsync either, and a flush cost the hook and each extraction tens of
            # milliseconds whenever the disk was busy (issue 14).
            connection.execute("PRAGMA synchronous = OFF")
            connection.execute("PRAGMA cache_size = -32768")  # 32 MB while building
            if version == 0:
                create_schema(connection)
            return connection
        except sqlite3.DatabaseError:
            if attempt:
                raise
            # Damaged or from another version: it holds nothing the files do not.
            for suffix in ("", "-wal", "-shm"):
                Path(f"{location}{suffix}").unlink(missing_ok=True)
    raise AssertionError("unreachable")
