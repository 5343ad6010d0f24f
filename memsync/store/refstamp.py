"""Whether a repository's refs may have moved, told without starting git.

A page that lists branches asked ``git for-each-ref`` on every request: a process (2-3 ms,
as long as the rest of the page) to learn, nearly always, that nothing moved. Git's files
ref store (the default; gitrepository-layout(5)) changes a ref in one of three ways: a
loose ref is written to ``<name>.lock`` and renamed over ``<name>``; a deleted one is
unlinked, with its emptied directories; ``git pack-refs`` and the deletion of a packed ref
rename a new ``packed-refs`` into place. The first two change the modification time of
the directory holding the name, the third replaces ``packed-refs`` (a new inode). So the
status of ``packed-refs`` and of every directory under a prefix changes whenever a ref
under that prefix moves.

One caveat: a file system stamps times at its own resolution (a clock tick; a second or
two on some), so a change made within the tick of the one before may leave the times as
they were. A stamp whose newest time is that close to now is not given out; its caller
reads the refs from git, as it always did.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

# One entry's (name, inode, size, modification time in ns); inode 0 for a missing one.
Entry = tuple[str, int, int, int]
RefsStamp = tuple[Entry, ...]
# A stamp whose newest modification is younger than this may not show the next change.
RACY_NS = 2_000_000_000


def refs_stamp(common_dir: Path, prefix: str, *, now_ns: int | None = None) -> RefsStamp | None:
    """The status of ``packed-refs`` and of every directory under ``prefix`` (a folder of
    refs such as ``refs/heads/``) in the repository whose shared git directory is
    ``common_dir``; None when it cannot tell whether a ref moved: a prefix that is not a
    folder, a reftable ref store, or a modification younger than ``RACY_NS`` before
    ``now_ns`` (the current time unless given)."""
    if not prefix.endswith("/") or (common_dir / "reftable").exists():
        return None
    now = time.time_ns() if now_ns is None else now_ns
    stamp = (_entry(common_dir, Path("packed-refs")), *_folders(common_dir, Path(prefix)))
    if any(modified > now - RACY_NS for _, _, _, modified in stamp):
        return None
    return tuple(sorted(stamp))


def _entry(common_dir: Path, name: Path) -> Entry:
    try:
        status = (common_dir / name).stat()
    except FileNotFoundError:
        return (name.as_posix(), 0, 0, 0)
    return (name.as_posix(), status.st_ino, status.st_size, status.st_mtime_ns)


def _folders(common_dir: Path, top: Path) -> Iterator[Entry]:
    """``top`` and every folder under it, each as an ``Entry``."""
    pending = [top]
    while pending:
        folder = pending.pop()
        found = _entry(common_dir, folder)
        yield found
        if not found[1]:
            continue
        try:
            with os.scandir(common_dir / folder) as entries:
                names = [entry.name for entry in entries if entry.is_dir(follow_symlinks=False)]
        except FileNotFoundError:  # removed since its status was read: the next stamp shows it
            continue
        pending.extend(folder / name for name in names)
