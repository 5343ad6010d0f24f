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


def every_ref(repo: MemoryRepo) -> dict[str, str]:
    """Every ref → its object, from one ``for-each-ref``: ``main`` among them, so a page
    that needs both its commit and the proposals asks git once."""
    return repo.refs("refs/")


def refs_key(repo: MemoryRepo, found: dict[str, str] | None = None) -> str:
    """A digest of where every ref ``list_proposals`` reads points (``found``: from
    ``every_ref``, else read now)."""
    found = every_ref(repo) if found is None else found
    state = sorted(f"{name} {sha}" for name, sha in found.items() if name.startswith(_READ_REFS))
    digest = hashlib.sha256("\n".join(state).encode()).hexdigest()
    return f"memsync:proposals:{repo.path}:{digest}"


def proposals(repo: MemoryRepo, found: dict[str, str] | None = None) -> list[Proposal]:
    """Every proposal, newest first, as ``list_proposals`` reads them (``found``: the refs
    from ``every_ref``, when the caller has them)."""
    key = refs_key(repo, found)
    cached = cache.get(key)
    if isinstance(cached, list):
        return cached
    listed = list_proposals(repo)
    cache.set(key, listed, timeout=_TIMEOUT)
    return listed


def proposal(repo: MemoryRepo, dream_id: str) -> Proposal | None:
    return next((p for p in proposals(repo) if p.id == dream_id), None)
