"""Housekeeping of one repository, done by the worker off every request path.

Two things accumulate in a served repository that nobody else removes:

- **Quarantine folders.** ``git receive-pack`` keeps a push's objects in
  ``objects/tmp_objdir-incoming-*`` until the pre-receive hook answers; a push killed
  mid-way (client gone, server restarted) leaves its folder behind, often megabytes.
  A folder older than any push could run is garbage.
- **History without a commit-graph.** ``git log -- path`` and ``git blame`` walk every
  commit; on a 10,000-commit project that is seconds per memory page. A commit-graph
  with changed-path Bloom filters lets git skip commits that did not touch the path
  (about 12x faster measured here). memsync turns off git's own auto-maintenance on its
  calls (one call, one process), so it writes the graph itself, incrementally
  (``--split``: only the new commits go into a new layer, merged with small ones).
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from .gitcmd import GitError, GitRunner

# Longer than any push could honestly take: the hook's own limits are minutes.
QUARANTINE_MAX_AGE_SECONDS = 3600
_QUARANTINE_GLOB = "tmp_objdir-incoming-*"


@dataclass(frozen=True)
class UpkeepReport:
    quarantines_removed: int
    bytes_freed: int
    commit_graph_error: str | None = None

    def __str__(self) -> str:
        graph = (
            "commit-graph up to date"
            if self.commit_graph_error is None
            else f"commit-graph not written: {self.commit_graph_error}"
        )
        removed = f"removed {self.quarantines_removed} stale quarantine folders"
        return f"{removed} ({self.bytes_freed:,} bytes); {graph}"


def keep_up(repo_dir: Path, *, now: float | None = None) -> UpkeepReport:
    """Remove stale push quarantines and bring the commit-graph up to date."""
    git_dir = repo_dir / ".git"
    removed, freed = remove_stale_quarantines(git_dir / "objects", now=now)
    error = None
    try:
        write_commit_graph(repo_dir)
    except GitError as failure:
        # A concurrent writer holds commit-graph.lock, or the disk is full: the graph is
        # an optimisation, and the next round writes it.
        error = failure.stderr
    return UpkeepReport(removed, freed, error)


def remove_stale_quarantines(objects_dir: Path, *, now: float | None = None) -> tuple[int, int]:
    """Delete quarantine folders untouched for an hour; (how many, bytes freed)."""
    cutoff = (time.time() if now is None else now) - QUARANTINE_MAX_AGE_SECONDS
    removed = freed = 0
    for folder in objects_dir.glob(_QUARANTINE_GLOB):
        if folder.is_symlink() or not folder.is_dir() or _newest_mtime(folder) > cutoff:
            continue
        size = sum(path.lstat().st_size for path in folder.rglob("*") if _is_plain_file(path))
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            removed += 1
            freed += size
    return removed, freed


def write_commit_graph(repo_dir: Path) -> None:
    """Add the commits not yet in the commit-graph, with changed-path filters."""
    GitRunner(repo_dir).run(
        "commit-graph", "write", "--reachable", "--changed-paths", "--split", "--no-progress"
    )


def _is_plain_file(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


def _newest_mtime(folder: Path) -> float:
    # A push still writing touches its folder's files, not always the folder itself.
    newest = folder.lstat().st_mtime
    for path in folder.rglob("*"):
        newest = max(newest, path.lstat().st_mtime)
    return newest
