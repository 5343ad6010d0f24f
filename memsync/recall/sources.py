"""Where recall reads memories from: a directory on disk, or a branch of a repository.

A memory's age is its last change: when its content appeared on the first-parent line
if the directory is a Git repository (SPEC F4, `MemoryRepo.ages`), else the file's
mtime. On a developer machine the team scope (``team/``) is usually a clone of its own,
so its ages come from that clone.

On disk the index is kept between calls (`memsync.recall.disk`); a repository's
branch is indexed in memory once per commit by the caller (the API keeps it).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memsync.recall.disk import DiskIndex
from memsync.recall.manifest import directory_documents
from memsync.recall.rank import RecallDocument, RecallIndex
from memsync.recall.recall import Reader

if TYPE_CHECKING:  # the hook's warm path reads a directory on disk: no Git layer to import
    from memsync.store import MemoryRepo


class MemorySource:
    """The memories to recall from: an index over them and a reader of their bytes."""

    def __init__(
        self,
        read: Reader,
        documents: Sequence[RecallDocument] | None = None,
        index: RecallIndex | None = None,
    ) -> None:
        self.read = read
        self._documents = documents
        self._index = index

    @property
    def documents(self) -> Sequence[RecallDocument]:
        if self._documents is None:
            self._documents = self.index().documents
        return self._documents

    def index(self) -> RecallIndex:
        if self._index is None:
            self._index = RecallIndex(self._documents or ())
        return self._index


def disk_source(root: Path, location: Path | None = None) -> MemorySource:
    """The memories of a directory on disk (and its ``team/``), ages from Git if it has
    any; the index is kept at `location` (default: inside the Git directory, else in
    memory for this call only)."""
    disk = DiskIndex(Path(root), location)
    return MemorySource(disk.read, index=disk.index)


def repository_source(repo: MemoryRepo, rev: str | None = None) -> MemorySource:
    """The memories committed on `rev` (default ``main``: the server never reads a
    working tree), through the one reader of committed memory."""
    from memsync.recall.snapshot import MemorySnapshot
    from memsync.store import MAIN

    snapshot = MemorySnapshot.read(repo, "", rev or MAIN)
    if snapshot is None:
        nothing: dict[str, bytes] = {}
        return MemorySource(nothing.get, [])
    return MemorySource(snapshot.blobs.get, directory_documents(snapshot.directory, snapshot.ages))
