"""Clearing what a killed writer left in a server repository's working tree.

A worker killed mid-merge (SIGKILL, OOM, a host going down) leaves ``MERGE_HEAD`` and
the merge's staged files behind, or a ``git`` process's ``index.lock``; every later
merge then refuses with "has uncommitted changes" until someone runs ``git merge
--abort`` by hand. On the server nobody works in that tree but memsync, and memsync
changes it only under the repository lock, so whatever operation state is found while
holding the lock belongs to a writer that died: it is aborted before the next
operation. The work itself is not lost: the member's branch (or the dream's, or the
uploaded transcript) still holds it, and the run is retried.

Only repositories marked as the server's (:func:`mark_server_owned`, at creation or
migration) are recovered this way: in a member's own memory directory a rebase in
progress may be theirs, and memsync leaves it alone.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .repo import MemoryRepo


SERVER_MARKER = Path("memsync") / "server-repository"
# Git's own lock files are held for milliseconds on memory-sized repositories. One this
# old while memsync holds the repository lock was left by a process that died; a younger
# one may belong to a git process still finishing after its parent was killed, so it is
# waited for first.
STALE_LOCK_SECONDS = 10.0
# What each interrupted operation leaves in the git directory, and how git undoes it.
_OPERATIONS = (
    ("rebase-merge", ("rebase", "--abort")),
    ("rebase-apply", ("rebase", "--abort")),
    ("MERGE_HEAD", ("merge", "--abort")),
    ("CHERRY_PICK_HEAD", ("cherry-pick", "--abort")),
    ("REVERT_HEAD", ("revert", "--abort")),
    ("sequencer", ("cherry-pick", "--quit")),
)
# Left beside the markers above; harmless alone, but removed with them.
_LEFTOVERS = ("MERGE_MSG", "MERGE_MODE", "AUTO_MERGE", "MERGE_RR")


def mark_server_owned(common_dir: Path) -> None:
    """Record that this repository is the server's: interrupted operations get cleared."""
    marker = common_dir / SERVER_MARKER
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text("memsync clears interrupted operations in this repository\n")


def is_server_owned(common_dir: Path) -> bool:
    return (common_dir / SERVER_MARKER).is_file()


def git_dir_of(worktree: Path) -> Path:
    """The per-worktree git directory (``MERGE_HEAD`` and ``index.lock`` live there),
    found without running git: ``.git`` is the directory itself, or a file naming it."""
    dot_git = worktree / ".git"
    if dot_git.is_dir():
        return dot_git
    text = dot_git.read_text(encoding="utf-8", errors="replace").strip()
    target = Path(text.removeprefix("gitdir:").strip())
    return target if target.is_absolute() else (worktree / target).resolve()


def clear_interrupted(
    repo: MemoryRepo, *, clean: bool = False, wait: float = STALE_LOCK_SECONDS
) -> list[str]:
    """Abort whatever a dead writer left in ``repo``'s working tree; call holding its lock.

    Returns what was found (empty when the tree was clean, the usual case: a few
    ``stat`` calls and no process). Changes left in tracked files after an aborted
    operation — or, with ``clean`` (before a merge or revert, which need a clean tree),
    any uncommitted change, such as a resolution whose request was killed between
    writing the file and committing it — are stashed, not thrown away: ``git stash
    list`` in the server's repository shows them.
    """
    git_dir = git_dir_of(repo.path)
    found: list[str] = []
    if _clear_stale_lock(git_dir / "index.lock", wait):
        found.append("index.lock")
    for marker, abort in _OPERATIONS:
        if not (git_dir / marker).exists():
            continue
        found.append(marker)
        status, _, _ = repo._git.run_status(*abort)
        if status != 0 or (git_dir / marker).exists():
            # The state was too damaged for git's own abort: put the index back to HEAD
            # (keeping unrelated changes) and drop the operation's files.
            repo._git.run_status("reset", "--merge")
            _remove(git_dir / marker)
    for name in _LEFTOVERS if found else ():
        _remove(git_dir / name)
    if (found or clean) and repo._git.run("status", "--porcelain", "--untracked-files=no"):
        why = f"an interrupted operation ({', '.join(found)})" if found else "no memsync commit"
        repo._git.run("stash", "push", "--quiet", "--message", f"memsync: changes left by {why}")
        found.append("stash")
    if found:
        import logging  # only here: every commit imports this module

        logging.getLogger(__name__).warning(
            "%s: cleared what an interrupted writer left: %s", repo.path, found
        )
    return found


def _clear_stale_lock(lock: Path, wait: float) -> bool:
    deadline = time.monotonic() + wait
    while True:
        try:
            age = time.time() - lock.stat().st_mtime
        except FileNotFoundError:
            return False
        if age >= STALE_LOCK_SECONDS or time.monotonic() >= deadline:
            _remove(lock)
            return True
        time.sleep(0.05)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        import shutil

        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
