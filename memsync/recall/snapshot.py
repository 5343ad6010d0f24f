"""A memory directory as it stands at one commit, read from Git in a fixed number of calls.

The one reader of committed memory: the dashboard's index and project pages and recall
over a branch (``memsync.recall.sources.repository_source``) all go through it. A
project with thousands of memories must not spawn a process per file: one ``ls-tree``
for the paths, one ``cat-file --batch`` for the Markdown blobs of the scope, one
``git log`` walk for every file's age. Nothing is checked out.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from memsync.memory import TEAM_DIRNAME, MemoryDirectory, age_days
from memsync.store import MAIN, MemoryRepo

SCOPES = ("", TEAM_DIRNAME)


def scope_prefix(scope: str) -> str:
    return f"{scope}/" if scope else ""


@dataclass(frozen=True)
class MemorySnapshot:
    commit: str
    scope: str  # "" for the root memory directory, "team" for its team scope
    directory: MemoryDirectory
    blobs: dict[str, bytes]  # the Markdown files read, keyed by path inside the scope
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
        found = repo.read_many(commit, [prefix + p for p in wanted])
        blobs = {p.removeprefix(prefix): data for p, data in found.items()}
        # Other paths only need to exist (link targets, logs); their bytes are not read.
        files: dict[str, bytes] = {**dict.fromkeys(inside, b""), **blobs}
        directory = MemoryDirectory.from_files(None, files, scope=scope or None)
        every_age = repo.ages(commit)
        ages = {p.removeprefix(prefix): t for p, t in every_age.items() if p.startswith(prefix)}
        has_team = any(p.startswith(f"{TEAM_DIRNAME}/") for p in paths)
        scopes = SCOPES if has_team else ("",)
        return cls(commit, scope, directory, blobs, ages, scopes)

    def path_of(self, name: str) -> str:
        """The repository path of a file named relative to this scope."""
        return scope_prefix(self.scope) + name

    def days_old(self, name: str, now: datetime) -> int | None:
        changed = self.ages.get(name)
        return age_days(changed, now) if changed is not None else None
