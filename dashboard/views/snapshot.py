"""A memory directory as it stands at one commit, read from Git in a fixed number of calls.

The index page of a project with thousands of memories must not spawn a process per
file: one ``ls-tree`` for the paths, one ``cat-file --batch`` for the Markdown blobs of
the scope, one ``git log`` walk for every file's age. Nothing is checked out.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.core.cache import cache
from django.http import Http404

from memsync.memory import TEAM_DIRNAME, MemoryDirectory, age_days
from memsync.store import MAIN, MemoryRepo, StoreError

SCOPES = ("", TEAM_DIRNAME)


def scope_prefix(scope: str) -> str:
    return f"{scope}/" if scope else ""


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
class MemorySnapshot:
    commit: str
    scope: str  # "" for the root memory directory, "team" for its team scope
    directory: MemoryDirectory
    ages: dict[str, datetime]  # keyed by path inside the scope
    scopes: tuple[str, ...]  # the scopes this commit has

    @classmethod
    def read(cls, repo: MemoryRepo, scope: str = "", rev: str = MAIN) -> MemorySnapshot | None:
        """The scope's memory at ``rev``; None when the branch has no commit yet."""
        commit = repo.rev_parse(rev)
        if commit is None:
            return None
        prefix = scope_prefix(scope)
        paths = repo.files(commit)
        inside = [p.removeprefix(prefix) for p in paths if p.startswith(prefix)]
        wanted = [p for p in inside if p.endswith(".md") and "/" not in p]
        blobs = repo.read_many(commit, [prefix + p for p in wanted])
        # Other paths only need to exist (link targets, logs); their bytes are not read.
        files: dict[str, bytes] = dict.fromkeys(inside, b"")
        files.update({p.removeprefix(prefix): data for p, data in blobs.items()})
        directory = MemoryDirectory.from_files(None, files, scope=scope or None)
        every_age = repo.ages(commit)
        ages = {p.removeprefix(prefix): t for p, t in every_age.items() if p.startswith(prefix)}
        has_team = any(p.startswith(f"{TEAM_DIRNAME}/") for p in paths)
        scopes = SCOPES if has_team else ("",)
        return cls(commit, scope, directory, ages, scopes)

    def path_of(self, name: str) -> str:
        """The repository path of a file named relative to this scope."""
        return scope_prefix(self.scope) + name

    def days_old(self, name: str, now: datetime) -> int | None:
        changed = self.ages.get(name)
        return age_days(changed, now) if changed is not None else None


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
