"""Where recall reads memories from: a directory on disk, or a branch of a repository.

A memory's age is its last change: the last commit that touched it when the directory
is a Git repository (SPEC F4), else the file's mtime. On a developer machine the team
scope (``team/``) is usually a clone of its own, so its ages come from that clone.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memsync.confined import ConfinedRoot, ConfinementError
from memsync.memory import INDEX_FILENAME, TEAM_DIRNAME, MemoryDirectory, is_topic_path
from memsync.recall.manifest import directory_documents, read_documents
from memsync.recall.rank import RecallDocument, RecallIndex
from memsync.recall.recall import Reader
from memsync.store import MAIN, MemoryRepo, StoreError


@dataclass
class MemorySource:
    documents: list[RecallDocument]
    read: Reader

    def index(self) -> RecallIndex:
        return RecallIndex(self.documents)


def disk_source(root: Path) -> MemorySource:
    """The memories of a directory on disk (and its ``team/``), ages from Git if it has any."""
    root = Path(root)
    ages = {}
    for scope_root, prefix in ((root, ""), (root / TEAM_DIRNAME, f"{TEAM_DIRNAME}/")):
        if (scope_root / ".git").exists():
            try:
                repo = MemoryRepo(scope_root)
            except StoreError:
                continue
            ages.update({prefix + path: when for path, when in repo.ages().items()})
    documents = read_documents(root, ages)
    confined = ConfinedRoot(root)

    def read(path: str) -> bytes | None:
        # Never through a link, even one that stays inside (issue 10).
        try:
            return confined.read_bytes(path)
        except (OSError, ConfinementError):
            return None

    return MemorySource(documents, read)


def repository_source(repo: MemoryRepo, rev: str = MAIN) -> MemorySource:
    """The memories committed on `rev` (the server reads ``main``, never a working tree)."""
    paths = [path for path in repo.files(rev) if is_topic_path(path) or path == INDEX_FILENAME]
    blobs = repo.read_many(rev, paths)
    directory = MemoryDirectory.from_files(None, blobs)
    documents = directory_documents(directory, repo.ages(rev))
    return MemorySource(documents, blobs.get)
