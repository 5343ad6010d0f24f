"""``MemoryRepo.refs_stamp``: whether refs may have moved, told without starting git. It
must change with every way git moves a ref, stay the same while none moves, and not be
given out while a change could still hide in the file system's timestamp resolution."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from memsync.store import CommitKind, MemoryRepo
from memsync.store.refstamp import refs_stamp
from tests.support.refs import refs_written_long_ago

HOUR_NS = 3600 * 10**9


def git(repo: MemoryRepo, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo.path, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    """A repository with ``main``, a member's branch and a rejected dream's ref."""
    repo = MemoryRepo.init(tmp_path / "memory")
    repo.apply({"a.md": b"a\n"}, CommitKind.EXTRACT, "a")
    git(repo, "update-ref", "refs/heads/members/bob", "main")
    git(repo, "update-ref", "refs/memsync/rejected/d1", "main")
    repo.apply({"b.md": b"b\n"}, CommitKind.EXTRACT, "b")
    return repo


def stamp_later(repo: MemoryRepo, prefix: str = "refs/heads/") -> object:
    """The stamp as an hour from now sees the folders: no change is too fresh to show."""
    return refs_stamp(repo.path / ".git", prefix, now_ns=time.time_ns() + HOUR_NS)


MOVES: dict[str, Callable[[MemoryRepo], None]] = {
    "a branch moved": lambda repo: git(repo, "update-ref", "refs/heads/members/bob", "main"),
    "main moved": lambda repo: repo.apply({"c.md": b"c\n"}, CommitKind.EXTRACT, "c"),
    "a branch made in a new folder": lambda repo: git(
        repo, "update-ref", "refs/heads/dream/d2", "main"
    ),
    "a branch deleted": lambda repo: git(repo, "update-ref", "-d", "refs/heads/members/bob"),
    "the refs packed": lambda repo: git(repo, "pack-refs", "--all"),
}


@pytest.mark.parametrize("move", sorted(MOVES))
def test_it_changes_when_a_ref_under_the_folder_moves(repo: MemoryRepo, move: str) -> None:
    refs_written_long_ago(repo.path / ".git")
    before = stamp_later(repo)

    MOVES[move](repo)

    assert stamp_later(repo) != before


def test_it_changes_when_a_packed_ref_is_deleted(repo: MemoryRepo) -> None:
    git(repo, "pack-refs", "--all")
    refs_written_long_ago(repo.path / ".git")
    before = stamp_later(repo)

    git(repo, "update-ref", "-d", "refs/heads/members/bob")

    assert stamp_later(repo) != before


def test_it_stays_the_same_while_no_ref_under_the_folder_moves(repo: MemoryRepo) -> None:
    refs_written_long_ago(repo.path / ".git")
    before = stamp_later(repo)

    git(repo, "update-ref", "refs/memsync/rejected/d2", "main")  # outside refs/heads/
    (repo.path / "notes.md").write_text("not a ref\n")

    assert before is not None and stamp_later(repo) == before
    assert stamp_later(repo, "refs/") != stamp_later(repo, "refs/heads/")


def test_it_is_not_given_out_right_after_a_ref_moved(repo: MemoryRepo) -> None:
    refs_written_long_ago(repo.path / ".git")
    assert repo.refs_stamp("refs/heads/") is not None

    git(repo, "update-ref", "refs/heads/members/bob", "main~1")

    assert repo.refs_stamp("refs/heads/") is None


def test_it_is_not_given_out_for_a_prefix_that_is_not_a_folder(repo: MemoryRepo) -> None:
    refs_written_long_ago(repo.path / ".git")

    assert repo.refs_stamp("refs/heads/mem") is None
