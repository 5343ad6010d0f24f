"""Dream proposals for the dashboard's pages, cached per state of the refs they are read from.

``memsync.dream.proposals.list_proposals`` reads Git alone: the adoptions and reverts on
``main`` (one ``git log --grep`` over its whole first-parent line: 0.2 s at 10,000
commits), the ``dream/`` branches, the rejection tags and the conflict marks. All of it
is fixed by where those refs point, so one ``for-each-ref`` names the answer: while no
such ref moves, the proposals are the ones already read. Django's cache holds them (per
web process unless a shared cache is configured): a miss costs one read, and a stale
hit is impossible because the key is the refs themselves.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache

from memsync.dream.proposals import Proposal, list_proposals
from memsync.store import MemoryRepo, refs

# What list_proposals reads: main, the open dreams, the rejections, the conflict marks.
_READ_REFS = (refs.MAIN_REF, refs.HEADS + refs.DREAMS, refs.REJECTED, refs.CONFLICTED)
_TIMEOUT = 24 * 3600


def refs_key(repo: MemoryRepo) -> str:
    """A digest of where every ref ``list_proposals`` reads points; one ``for-each-ref``."""
    found = repo.refs("refs/")
    state = sorted(f"{name} {sha}" for name, sha in found.items() if name.startswith(_READ_REFS))
    digest = hashlib.sha256("\n".join(state).encode()).hexdigest()
    return f"memsync:proposals:{repo.path}:{digest}"


def proposals(repo: MemoryRepo) -> list[Proposal]:
    """Every proposal, newest first, as ``list_proposals`` reads them."""
    key = refs_key(repo)
    found = cache.get(key)
    if isinstance(found, list):
        return found
    listed = list_proposals(repo)
    cache.set(key, listed, timeout=_TIMEOUT)
    return listed


def proposal(repo: MemoryRepo, dream_id: str) -> Proposal | None:
    return next((p for p in proposals(repo) if p.id == dream_id), None)
