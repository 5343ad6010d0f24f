"""A server repository recovers from whatever a killed writer left in its working tree.

Each state is made the way a dead process makes it: the real ``git`` stopped half-way
(``--no-commit``, a conflict), or a lock file nobody holds. The next memsync write must
clear it by itself; a member's own memory directory is never touched.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

from memsync.store import CommitKind, MemoryRepo, StoreError
from memsync.store.recovery import STALE_LOCK_SECONDS


def git(repo: MemoryRepo, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_EDITOR": "true", "GIT_SEQUENCE_EDITOR": "true"}
    return subprocess.run(
        ["git", *args], cwd=repo.path, capture_output=True, text=True, check=check, env=env
    )


def _two_sides(repo: MemoryRepo) -> None:
    """``main`` and ``side`` both changed a.md since their base; side also adds c.md."""
    repo.apply({"a.md": b"base\n", "b.md": b"b\n"}, CommitKind.MANUAL, "base")
    repo.create_branch("side")
    repo.apply({"a.md": b"main's\n"}, CommitKind.MANUAL, "main edits a")
    git(repo, "checkout", "-q", "side")
    repo.apply({"a.md": b"side's\n", "c.md": b"c\n"}, CommitKind.MANUAL, "side edits a")
    git(repo, "checkout", "-q", "main")


@pytest.fixture
def server(tmp_path: Path) -> MemoryRepo:
    repo = MemoryRepo.init(tmp_path / "server")
    repo.mark_server_owned()
    return repo


def _late_branch(repo: MemoryRepo) -> None:
    """A clean branch to merge after recovery: it adds d.md."""
    repo.create_branch("late")
    git(repo, "checkout", "-q", "late")
    repo.apply({"d.md": b"d\n"}, CommitKind.MANUAL, "late adds d")
    git(repo, "checkout", "-q", "main")


def test_a_merge_left_half_done_is_aborted_before_the_next_merge(server: MemoryRepo):
    repo = server
    repo.apply({"a.md": b"a\n"}, CommitKind.MANUAL, "base")
    repo.create_branch("member")
    git(repo, "checkout", "-q", "member")
    repo.apply({"m.md": b"member's\n"}, CommitKind.MANUAL, "member adds m")
    git(repo, "checkout", "-q", "main")
    _late_branch(repo)
    before = repo.head()
    # What a worker killed between `git merge --no-commit` and the commit leaves.
    git(repo, "merge", "--no-ff", "--no-commit", "member")
    assert (repo.path / ".git" / "MERGE_HEAD").exists()

    result = repo.merge("late")

    assert result.merged
    assert not (repo.path / ".git" / "MERGE_HEAD").exists()
    assert repo.rev_parse("HEAD^1") == before
    assert set(repo.files()) >= {"a.md", "d.md"} and "m.md" not in repo.files()
    # The interrupted merge is not lost: its branch still holds it and merges normally.
    assert repo.merge("member").merged and "m.md" in repo.files()


@pytest.mark.parametrize(
    ("operation", "marker"),
    [
        (("merge", "--no-ff", "side"), "MERGE_HEAD"),
        (("cherry-pick", "side"), "CHERRY_PICK_HEAD"),
        (("revert", "--no-edit", "HEAD"), "REVERT_HEAD"),
        (("rebase", "side"), "rebase-merge"),
        (("rebase", "--apply", "side"), "rebase-apply"),
    ],
)
def test_every_conflicted_operation_is_cleared_before_the_next_write(
    server: MemoryRepo, operation: tuple[str, ...], marker: str
):
    repo = server
    _two_sides(repo)
    if operation[0] == "revert":
        # main's last commit edited a.md; change it again so reverting it conflicts.
        repo.apply({"a.md": b"main's again\n"}, CommitKind.MANUAL, "main edits a again")
        operation = ("revert", "--no-edit", "HEAD~1")
    stopped = git(repo, *operation, check=False)
    assert stopped.returncode != 0, stopped.stdout + stopped.stderr
    assert (repo.path / ".git" / marker).exists()
    assert git(repo, "status", "--porcelain").stdout  # staged or conflicted files

    sha = repo.apply({"e.md": b"e\n"}, CommitKind.MANUAL, "the next write")

    assert sha is not None and repo.current_branch() == "main"
    assert not (repo.path / ".git" / marker).exists()
    assert git(repo, "status", "--porcelain", "--untracked-files=no").stdout == ""
    assert repo.read("HEAD", "e.md") == b"e\n"
    assert "c.md" not in repo.files()  # nothing of the interrupted operation was committed


def test_a_stale_index_lock_is_removed_and_a_live_one_waited_for(server: MemoryRepo):
    repo = server
    repo.apply({"a.md": b"a\n"}, CommitKind.MANUAL, "base")
    lock = repo.path / ".git" / "index.lock"
    lock.write_text("")
    old = time.time() - STALE_LOCK_SECONDS - 5
    os.utime(lock, (old, old))

    assert repo.apply({"b.md": b"b\n"}, CommitKind.MANUAL, "after a dead git") is not None
    assert not lock.exists()

    # A young lock is a git process still finishing: waited for, not removed under it.
    lock.write_text("")
    released = threading.Timer(0.5, lock.unlink)
    released.start()
    started = time.monotonic()
    assert repo.apply({"c.md": b"c\n"}, CommitKind.MANUAL, "after a live git") is not None
    released.join()
    assert time.monotonic() - started >= 0.4


def test_uncommitted_changes_before_a_server_merge_are_stashed_not_lost(server: MemoryRepo):
    repo = server
    repo.apply({"a.md": b"a\n"}, CommitKind.MANUAL, "base")
    _late_branch(repo)
    # A resolution whose request was killed between writing the file and committing it.
    (repo.path / "a.md").write_text("half-done\n")

    assert repo.merge("late").merged

    assert (repo.path / "a.md").read_text() == "a\n"
    stash = git(repo, "stash", "list").stdout
    assert "memsync: changes left by" in stash
    assert git(repo, "show", "stash@{0}:a.md").stdout == "half-done\n"


def test_a_members_own_repository_is_left_alone(tmp_path: Path):
    repo = MemoryRepo.init(tmp_path / "mine")
    _two_sides(repo)
    _late_branch(repo)
    git(repo, "merge", "--no-ff", "--no-commit", "late")

    assert repo.recover() == []
    with pytest.raises(StoreError, match="uncommitted changes"):
        repo.merge("side")
    assert (repo.path / ".git" / "MERGE_HEAD").exists()


def test_a_dream_worktree_of_a_server_repository_recovers_too(server: MemoryRepo, tmp_path):
    repo = server
    _two_sides(repo)
    worktree = repo.add_worktree(tmp_path / "dream", "dream/1")
    stopped = subprocess.run(
        ["git", "merge", "--no-ff", "side"], cwd=worktree.path, capture_output=True
    )
    assert stopped.returncode != 0
    assert worktree.recover() == ["MERGE_HEAD"]
    assert worktree.apply({"f.md": b"f\n"}, CommitKind.DREAM, "dream writes") is not None
