"""The refs a page lists, asked of git only when they may have moved.

The team and dreams pages start from where the branches point: one ``git for-each-ref``,
which cost them as much as the rest of the page (issue 14: team p95 5.8x and dreams 5.3x
that command). Between two requests the refs almost never moved, and the store tells that
from the status of a few folders (``MemoryRepo.refs_stamp``) in microseconds. So each web
process keeps the refs it last read per repository and folder, with the stamp taken just
before reading them, and reads again whenever the stamp differs or the store cannot give
one (a ref moved within the last two seconds, or a ref store it cannot read).
"""

from __future__ import annotations

from pathlib import Path

from memsync.store import MemoryRepo
from memsync.store.refstamp import RefsStamp

# (repository, folder) → (stamp taken before the read, refs read). Few projects per
# server and two folders per project: no eviction needed. Threads of a web process share it;
# each entry is replaced whole, so a reader never sees a stamp with another read's refs.
_SEEN: dict[tuple[Path, str], tuple[RefsStamp, dict[str, str]]] = {}


def refs_now(repo: MemoryRepo, prefix: str) -> dict[str, str]:
    """``repo.refs(prefix)`` as it is now: remembered while no ref under ``prefix`` moved."""
    key = (repo.path, prefix)
    stamp = repo.refs_stamp(prefix)
    seen = _SEEN.get(key)
    if stamp is not None and seen is not None and seen[0] == stamp:
        return dict(seen[1])
    found = repo.refs(prefix)
    if stamp is not None:
        _SEEN[key] = (stamp, found)
    return dict(found)
