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


def git_dir_of(root: Path) -> Path | None:
    """The Git directory of the working tree at `root`, read from ``root/.git`` (a
    directory, or a worktree's ``gitdir:`` file) without starting git; None when there
    is none. Each process spent on this cost every extraction a few milliseconds."""
    dot_git = root / ".git"
    if dot_git.is_dir():
        return dot_git
    if not dot_git.is_file():
        return None
    text = dot_git.read_text(encoding="utf-8", errors="replace").strip()
    if not text.startswith("gitdir:"):
        return None
    target = Path(text.removeprefix("gitdir:").strip())
    return target if target.is_absolute() else (root / target).resolve()


def common_dir_of(git_dir: Path) -> Path:
    """The directory `git_dir` shares with its worktrees: what its ``commondir`` file
    names (a linked worktree's), else itself (gitrepository-layout(5))."""
    try:
        shared = Path((git_dir / "commondir").read_text(encoding="utf-8").strip())
    except FileNotFoundError:
        return git_dir
    return shared if shared.is_absolute() else (git_dir / shared).resolve()


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
