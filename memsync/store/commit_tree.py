"""A commit of what the index holds, through Git's plumbing (issue 14).

``git commit`` first refreshes the whole index: one ``lstat`` per tracked file, 10,000
of them in a large memory directory, for a commit of two files. ``write-tree``,
``commit-tree`` and ``update-ref`` record the same commit (the same tree, message,
author, committer and reflog line) without that pass: about a third less CPU per
extraction on the 10k repository, though they are four short processes, not one.

The caller holds the repository's write lock (`RepoLock`); ``update-ref`` is given the
``HEAD`` it read, so a git process outside memsync that committed in between makes
this one fail loudly instead of losing its commit (docs/git-notes.md#concurrency).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .gitcmd import GitRunner

_COMMENT = "#"  # git's default core.commentChar
_GIT_SPACE = " \t\n\v\f\r"  # what git's stripspace trims: C isspace, not Unicode spaces


def commit_index(
    git: GitRunner,
    paragraphs: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    allow_empty: bool = False,
) -> str | None:
    """Commit the index on top of ``HEAD`` and move ``HEAD`` (its branch) to it, as
    ``git commit --cleanup=strip -m P1 -m P2 …`` would; None when the index holds what
    ``HEAD`` does (unless `allow_empty`). Hooks do not run (memsync commits with
    ``--no-verify`` and installs none)."""
    tree = git.run("write-tree")
    parent, parent_tree = _head(git)
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
