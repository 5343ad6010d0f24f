"""A commit of what the index holds, through Git's plumbing (issue 14).

``git commit`` first refreshes the whole index: one ``lstat`` per tracked file, 10,000
of them in a large memory directory, for a commit of two files. ``write-tree``,
``commit-tree`` and ``update-ref`` record the same commit (the same tree, message,
author, committer and reflog line) without that pass: about a third less CPU per
extraction on the 10k repository, though they are four short processes, not one.

The caller holds the repository's write lock (`RepoLock`); ``update-ref`` is given the
``HEAD`` it read, so a git process outside memsync that committed in between makes
this one fail loudly instead of losing its commit (docs/git-notes.md#concurrency).

``HEAD`` and its tree are read from the repository's files when they are where the
last commit left them (a branch's loose ref or packed-refs line, a loose commit
object), which spares a ``rev-parse`` process per extraction; anything else (a
packed commit, an unborn branch, a detached ``HEAD``, reftable) is asked of git. A
stale read cannot lose a commit: the compare-and-swap above refuses it.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path

from .gitcmd import GitRunner
from .refs import HEADS

_COMMENT = "#"  # git's default core.commentChar
_GIT_SPACE = " \t\n\v\f\r"  # what git's stripspace trims: C isspace, not Unicode spaces


def commit_index(
    git: GitRunner,
    paragraphs: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    allow_empty: bool = False,
    dirs: tuple[Path, Path] | None = None,
) -> str | None:
    """Commit the index on top of ``HEAD`` and move ``HEAD`` (its branch) to it, as
    ``git commit --cleanup=strip -m P1 -m P2 …`` would; None when the index holds what
    ``HEAD`` does (unless `allow_empty`). Hooks do not run (memsync commits with
    ``--no-verify`` and installs none). `dirs`: the checkout's Git directory and the
    one it shares with its worktrees, to read ``HEAD`` from without a process."""
    tree = git.run("write-tree")
    parent, parent_tree = (head_from_files(*dirs) if dirs else None) or _head(git)
    if tree == parent_tree and not allow_empty:
        return None
    message = stripped_message(paragraphs)
    parents = ["-p", parent] if parent else []
    sha = git.run("commit-tree", tree, *parents, "-m", message, env=env).strip()
    subject = message.split("\n", 1)[0]
    reflog = f"commit: {subject}" if parent else f"commit (initial): {subject}"
    # The old value makes the move a compare-and-swap ("" = HEAD must not exist yet).
    git.run("update-ref", "-m", reflog, "HEAD", sha, parent or "")
    return sha


def stripped_message(paragraphs: Sequence[str]) -> str:
    """The message ``git commit --cleanup=strip`` records for ``-m`` paragraphs: lines
    starting with ``#`` dropped, trailing white space trimmed, runs of blank lines made
    one, none at either end, a final newline."""
    lines: list[str] = []
    blank = False
    for line in "\n\n".join(paragraphs).split("\n"):
        if line.startswith(_COMMENT):
            continue
        line = line.rstrip(_GIT_SPACE)
        if not line:
            blank = bool(lines)
            continue
        if blank:
            lines.append("")
            blank = False
        lines.append(line)
    return "\n".join(lines) + "\n" if lines else ""


def _head(git: GitRunner) -> tuple[str | None, str | None]:
    """``HEAD``'s commit and tree in one process; (None, None) before the first commit."""
    status, out, _ = git.run_status("rev-parse", "HEAD^{commit}", "HEAD^{tree}", "--")
    if status != 0:
        return None, None
    commit, tree = out.split()[:2]  # then the "--" that keeps a file named HEAD out
    return commit, tree


_HEX = frozenset("0123456789abcdef")


def head_from_files(git_dir: Path, common_dir: Path) -> tuple[str, str] | None:
    """``HEAD``'s commit and tree as git reads them, when ``HEAD`` names a branch whose
    ref is a loose file or a packed-refs line and whose commit is a loose object; None
    otherwise (the caller asks git)."""
    try:
        head = (git_dir / "HEAD").read_text(encoding="utf-8")
        if not head.startswith(f"ref: {HEADS}"):
            return None
        commit = _branch(common_dir, head.removeprefix("ref: ").strip())
        if commit is None:
            return None
        loose = common_dir / "objects" / commit[:2] / commit[2:]
        raw = zlib.decompress(loose.read_bytes())
    except (OSError, UnicodeDecodeError, zlib.error):
        return None
    header, _, body = raw.partition(b"\0")
    line = body.split(b"\n", 1)[0]
    if not header.startswith(b"commit ") or not line.startswith(b"tree "):
        return None
    tree = line.removeprefix(b"tree ").decode("ascii", errors="replace")
    return (commit, tree) if len(tree) == len(commit) and _HEX.issuperset(tree) else None


def _branch(common_dir: Path, ref: str) -> str | None:
    """The commit a branch's loose ref names, else its packed-refs line; None when
    neither holds a full object id (an unborn branch, a symbolic ref, reftable)."""
    try:
        value: str | None = (common_dir / ref).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        value = _packed(common_dir, ref)
    if value is None or len(value) not in (40, 64) or not _HEX.issuperset(value):
        return None
    return value


def _packed(common_dir: Path, ref: str) -> str | None:
    try:
        text = (common_dir / "packed-refs").read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    suffix = " " + ref
    for line in text.splitlines():
        if line.endswith(suffix) and not line.startswith(("#", "^")):
            return line.removesuffix(suffix)
    return None
