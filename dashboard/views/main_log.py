"""Answers read from ``main``'s whole history — each member's last merge, what each
revert undid — cached per head of ``main`` and grown, when ``main`` moves, from the
commits since the head last read rather than from the whole history again.

``main`` only moves forward (history is never rewritten), so the answer at a new head is
the one at an earlier head with the newer commits' answers over it; a head that does not
descend from the remembered one (which memsync never makes) is read in full. Django's
cache holds both (per web process unless a shared cache is configured), and the latest
answer is also kept in ``<git dir>/memsync/<name>.pickle`` (``dashboard.pickled``), so a
web worker's first request grows it from the commits since another worker read it
instead of reading the whole history again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache

from memsync.store import MemoryRepo

from .. import pickled
from ..memory_facts import memsync_dir

Value = TypeVar("Value")
_TIMEOUT = 24 * 3600


def grown_with_main(
    repo: MemoryRepo, name: str, head: str, read: Callable[[str], dict[str, Value]]
) -> dict[str, Value]:
    """``read(revisions)`` answers from the commits of a ``git log`` range, newest
    first; the answer at ``head``, from the cache or from the commits since the head
    ``name`` was last read at."""
    key = f"memsync:{name}:{repo.path}:{head}"
    found = cache.get(key)
    if isinstance(found, dict):
        return found
    latest_key = f"memsync:{name}:{repo.path}:latest"
    latest = cache.get(latest_key)
    on_disk = memsync_dir(repo) / f"{name}.pickle"
    if not isinstance(latest, tuple):
        latest = pickled.load(on_disk)
    if isinstance(latest, tuple) and latest[0] == head:
        answer = latest[1]  # another worker read it
    else:
        if isinstance(latest, tuple) and repo.is_ancestor(latest[0], head):
            answer = {**latest[1], **read(f"{latest[0]}..{head}")}
        else:
            answer = read(head)
        pickled.store(on_disk, (head, answer))
    cache.set(key, answer, timeout=_TIMEOUT)
    cache.set(latest_key, (head, answer), timeout=_TIMEOUT)
    return answer
