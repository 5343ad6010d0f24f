"""The Git store: one memory directory as a repository, written only through memsync's verbs.

The Git naming contract lives here too: ref names in `memsync.store.refs`, commit
trailers in `memsync.store.trailers`. Nothing outside this package runs ``git``
(tests/test_git_boundary.py), with the exceptions that test names and explains.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memsync.lazy import lazy_exports

if TYPE_CHECKING:
    from memsync.store.diff import Diff, DiffLine, FileDiff, Hunk, LineKind
    from memsync.store.gitcmd import GitError
    from memsync.store.history import CommitInfo, CommitKind, FileStat
    from memsync.store.refs import MAIN
    from memsync.store.repo import (
        EMPTY_TREE,
        LOCK_FILE_NAME,
        BlameLine,
        ConflictedFile,
        Identity,
        MemoryRepo,
        MergeResult,
        StoreError,
    )
    from memsync.store.tags import TagInfo

# Loaded on first use: a Claude Code hook that only needs a ref name from
# `memsync.store.refs`, or the runner, and a push hook reading its objects must not pay
# for the repository class and its imports.
_SOURCES = {
    "Diff": "memsync.store.diff",
    "DiffLine": "memsync.store.diff",
    "FileDiff": "memsync.store.diff",
    "Hunk": "memsync.store.diff",
    "LineKind": "memsync.store.diff",
    "GitError": "memsync.store.gitcmd",
    "CommitInfo": "memsync.store.history",
    "CommitKind": "memsync.store.history",
    "FileStat": "memsync.store.history",
    "MAIN": "memsync.store.refs",
    "EMPTY_TREE": "memsync.store.repo",
    "LOCK_FILE_NAME": "memsync.store.repo",
    "BlameLine": "memsync.store.repo",
    "ConflictedFile": "memsync.store.repo",
    "Identity": "memsync.store.repo",
    "MemoryRepo": "memsync.store.repo",
    "MergeResult": "memsync.store.repo",
    "StoreError": "memsync.store.repo",
    "TagInfo": "memsync.store.tags",
}


__getattr__ = lazy_exports(__name__, _SOURCES)


__all__ = [
    "EMPTY_TREE",
    "LOCK_FILE_NAME",
    "MAIN",
    "BlameLine",
    "CommitInfo",
    "CommitKind",
    "ConflictedFile",
    "Diff",
    "DiffLine",
    "FileDiff",
    "FileStat",
    "GitError",
    "Hunk",
    "Identity",
    "LineKind",
    "MemoryRepo",
    "MergeResult",
    "StoreError",
    "TagInfo",
]
