"""Recall's ranking index of a project's ``main``, kept in memory per commit (a few
commits per process), so repeated queries against an unchanged ``main`` — the recall
API's and the dashboard's search — do not rebuild it."""

from __future__ import annotations

import threading
from collections import OrderedDict

from memsync.recall.rank import RecallIndex
from memsync.recall.sources import MemorySource, repository_source
from memsync.store import MemoryRepo

_CACHED_COMMITS = 8
_cache: OrderedDict[tuple[str, str], tuple[MemorySource, RecallIndex]] = OrderedDict()
_cache_lock = threading.Lock()


def indexed(repo: MemoryRepo, commit: str) -> tuple[MemorySource, RecallIndex]:
    """The memories at ``commit`` and their ranking index, built once per commit."""
    key = (str(repo.path), commit)
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    source = repository_source(repo, commit)
    entry = (source, source.index())
    with _cache_lock:
        _cache[key] = entry
        while len(_cache) > _CACHED_COMMITS:
            _cache.popitem(last=False)
    return entry
