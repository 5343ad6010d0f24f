"""Small Git reads and writes for callers that hold no :class:`MemoryRepo`: the server's
push hooks setup, recall over a directory that may not be a repository, the health
check. Each is one or two ``git`` processes through the store's one runner."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from .gitcmd import GitError, GitRunner


def ensure_config(git_dir: Path, settings: Mapping[str, str]) -> bool:
    """Set each ``key = value`` in the repository's config; only what differs is written,
    so a deploy over unchanged repositories rewrites no config file. True if any was."""
    git = GitRunner(git_dir, git_dir=git_dir)
    changed = False
    for key, value in settings.items():
        if git.run_status("config", "--get", key)[1].strip() != value:
            git.run("config", key, value)
            changed = True
    return changed


def head_commit(directory: Path) -> str:
    """The commit ``HEAD`` names in ``directory`` ("" before the first commit, or when
    it is no repository, or git is missing): one short process."""
    try:
        status, out, _ = GitRunner(directory).run_status("rev-parse", "--verify", "--quiet", "HEAD")
    except GitError:
        return ""
    return out.strip() if status == 0 else ""


def git_version(timeout: float = 5.0) -> str:
    """``git --version``; raises :class:`GitError` when git cannot run."""
    status, out, err = GitRunner(Path("/")).run_timed("--version", timeout=timeout)
    if status != 0:
        raise GitError(["--version"], status, err)
    return out
