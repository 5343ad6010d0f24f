"""Dream proposals for the dashboard's pages, cached per state of the refs they are read from.

``memsync.dream.proposals.list_proposals`` reads Git alone: the adoptions and reverts on
``main`` (one ``git log --grep`` over its whole first-parent line: 0.2 s at 10,000
commits), the ``dream/`` branches, the rejection tags and the conflict marks. All of it
is fixed by where those refs point, so one ``for-each-ref`` names the answer: while no
such ref moves, the proposals are the ones already read. A stale hit is impossible
because the key is the refs themselves.

Two places hold them: Django's cache (per web process unless a shared cache is
configured), and ``<git dir>/memsync/proposals.pickle`` (``dashboard.pickled``), shared
by every worker and outliving restarts, so a worker's first request does not read them
again. When only
``main`` moved, and its new commits adopt and revert nothing, the proposals read for the
old ``main`` still hold: a commit, a merge of a member or an edit costs one ``git log`` over
the new commits instead of the whole line.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from django.core.cache import cache

from memsync.dream.proposals import Proposal, decisions_between, list_proposals
from memsync.store import MemoryRepo, refs

from .. import pickled
from ..memory_facts import memsync_dir
from ..ref_memo import refs_now

# What list_proposals reads: main, the open dreams, the rejections, the conflict marks.
_READ_REFS = (refs.MAIN_REF, refs.HEADS + refs.DREAMS, refs.REJECTED, refs.CONFLICTED)
_TIMEOUT = 24 * 3600
_FILE_VERSION = 1


@dataclass(frozen=True)
class _Stored:
    """The proposals as read at one state of the refs, as the file keeps them."""

    version: int
    key: str
    main: str | None
    others: str  # the digest of every read ref but main
    proposals: list[Proposal]


def every_ref(repo: MemoryRepo) -> dict[str, str]:
    """Every ref → its object, from one ``for-each-ref``: ``main`` among them, so a page
    that needs both its commit and the proposals asks git once (and again only once a
    ref moved: ``dashboard.ref_memo``)."""
    return refs_now(repo, "refs/")


def _digest(state: dict[str, str]) -> str:
    lines = sorted(f"{name} {sha}" for name, sha in state.items())
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def _read_state(found: dict[str, str]) -> dict[str, str]:
    return {name: sha for name, sha in found.items() if name.startswith(_READ_REFS)}


def refs_key(repo: MemoryRepo, found: dict[str, str] | None = None) -> str:
    """A digest of where every ref ``list_proposals`` reads points (``found``: from
    ``every_ref``, else read now)."""
    found = every_ref(repo) if found is None else found
    return f"memsync:proposals:{repo.path}:{_digest(_read_state(found))}"


def proposals(repo: MemoryRepo, found: dict[str, str] | None = None) -> list[Proposal]:
    """Every proposal, newest first, as ``list_proposals`` reads them (``found``: the refs
    from ``every_ref``, when the caller has them)."""
    found = every_ref(repo) if found is None else found
    key = refs_key(repo, found)
    cached = cache.get(key)
    if isinstance(cached, list):
        return cached
    state = _read_state(found)
    main = state.pop(refs.MAIN_REF, None)
    stored = _load(_file(repo))
    if stored is not None and stored.key == key:
        listed = stored.proposals
    else:
        listed = (
            stored.proposals
            if stored is not None and _still_hold(repo, stored, main, state)
            else list_proposals(repo)
        )
        pickled.store(_file(repo), _Stored(_FILE_VERSION, key, main, _digest(state), listed))
    cache.set(key, listed, timeout=_TIMEOUT)
    return listed


def proposal(repo: MemoryRepo, dream_id: str) -> Proposal | None:
    return next((p for p in proposals(repo) if p.id == dream_id), None)


def _still_hold(
    repo: MemoryRepo, stored: _Stored, main: str | None, others: dict[str, str]
) -> bool:
    """Whether the proposals read at ``stored``'s refs are those of the refs now: only
    ``main`` moved (``others``: every other ref read), forward, adopting and reverting
    nothing, and no proposal is marked conflicted (whether it still conflicts is asked
    of ``main``)."""
    return (
        stored.others == _digest(others)
        and stored.main is not None
        and main is not None
        and not any(name.startswith(refs.CONFLICTED) for name in others)
        and repo.is_ancestor(stored.main, main)
        and not decisions_between(repo, stored.main, main)
    )


def _file(repo: MemoryRepo) -> Path:
    return memsync_dir(repo) / "proposals.pickle"


def _load(path: Path) -> _Stored | None:
    """The stored proposals; None for a file of another version."""
    stored = pickled.load(path)
    if not isinstance(stored, _Stored) or stored.version != _FILE_VERSION:
        return None
    return stored
