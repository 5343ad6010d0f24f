"""The project's repository for a view, and its health at a glance (cached per commit).

The memory at ``main``'s commit is read through ``dashboard.memory_facts``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.http import Http404

from memsync.store import MemoryRepo, StoreError

from ..memory_facts import summary_at


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
    """A project at a glance, for the project list."""

    memories: int
    problems: int
    errors: int


def health_at(repo: MemoryRepo, commit: str) -> Health:
    """What the memory at ``commit`` (``main``'s) looks like, from the summary cached for
    that commit (``dashboard.memory_facts``): shared by every worker, computed once."""
    summary = summary_at(repo, commit)
    return Health(summary.memories, summary.problems, summary.errors)
