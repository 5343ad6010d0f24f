"""Recall's ranking index of a project's ``main``, kept in memory per commit (a few
commits per thread), so repeated queries against an unchanged ``main`` — the recall
API's and the dashboard's search — do not rebuild it.

Per thread: the index is an in-memory SQLite database, and a SQLite connection may
only be used by the thread that opened it (a threaded server answered the second
thread's query with ``ProgrammingError``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from memsync.recall.rank import RecallIndex
from memsync.recall.sources import MemorySource, repository_source
from memsync.store import MemoryRepo

_CACHED_COMMITS = 8
_local = threading.local()


def indexed(repo: MemoryRepo, commit: str) -> tuple[MemorySource, RecallIndex]:
    """The memories at ``commit`` and their ranking index, built once per commit."""
    if not hasattr(_local, "cache"):
        _local.cache = OrderedDict()
    cache: OrderedDict[tuple[str, str], tuple[MemorySource, RecallIndex]] = _local.cache
    key = (str(repo.path), commit)
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    source = repository_source(repo, commit)
    entry = (source, source.index())
    cache[key] = entry
    while len(cache) > _CACHED_COMMITS:
        cache.popitem(last=False)
    return entry
