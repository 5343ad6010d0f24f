"""The Git store: one memory directory as a repository, written only through memsync's verbs."""

from .diff import Diff, DiffLine, FileDiff, Hunk, LineKind
from .gitcmd import GitError
from .history import CommitInfo, CommitKind, FileStat
from .repo import (
    EMPTY_TREE,
    LOCK_FILE_NAME,
    MAIN,
    BlameLine,
    ConflictedFile,
    Identity,
    MemoryRepo,
    MergeResult,
    StoreError,
    TagInfo,
)

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
