"""The project's repository for a view, and its health at a glance (cached per commit).

The memory at one commit is read by ``memsync.recall.snapshot.MemorySnapshot``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.core.cache import cache
from django.http import Http404

from memsync.recall.snapshot import MemorySnapshot
from memsync.store import MAIN, MemoryRepo, StoreError


def open_repo(repo_dir: Path) -> MemoryRepo | None:
    """The project's repository, or None when it has not been created yet."""
    try:
        return MemoryRepo(repo_dir)
    except StoreError:
        return None


def repo_or_404(repo_dir: Path) -> MemoryRepo:
    """The project's repository, for a view that cannot work without one."""
    repo = open_repo(repo_dir)
    if repo is None:
        raise Http404("this project has no repository yet")
    return repo


@dataclass(frozen=True)
class Health:
    """A project at a glance, for the project list; cached per commit of ``main``."""

    memories: int
    problems: int
    errors: int


def health_of(repo: MemoryRepo, slug: str) -> tuple[str | None, Health | None]:
    """``main``'s commit and what its memory looks like; computed once per commit."""
    commit = repo.rev_parse(MAIN)
    if commit is None:
        return None, None
    key = f"memsync:health:{slug}:{commit}"
    found = cache.get(key)
    if isinstance(found, Health):
        return commit, found
    snapshot = MemorySnapshot.read(repo, "", commit)
    if snapshot is None:
        return commit, None
    directory = snapshot.directory
    health = Health(
        memories=len(directory.files),
        problems=len(directory.problems),
        errors=len(directory.errors),
    )
    cache.set(key, health, timeout=24 * 3600)
    return commit, health
