"""The verbs that replaced raw git calls outside the store, against real repositories."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsync.store import MAIN, CommitKind, GitError, Identity, MemoryRepo, trailers
from memsync.store.plumbing import ensure_config, git_version, head_commit

ALICE = Identity("Alice Maintainer", "alice@example.com")


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    return MemoryRepo.init(tmp_path / "memory")


def test_a_clone_pushes_its_commit_to_a_branch_of_the_source(repo, tmp_path):
    clone = MemoryRepo.clone(repo.path, tmp_path / "bob")
    tip = clone.apply({"bob.md": b"bob\n"}, CommitKind.SYNC, "bob.md")

    clone.push("refs/heads/members/bob")

    assert repo.rev_parse("members/bob") == tip
    assert repo.read("members/bob", "bob.md") == b"bob\n"


def test_a_refused_push_raises_with_what_the_remote_said(repo, tmp_path):
    clone = MemoryRepo.clone(repo.path, tmp_path / "bob")
    clone.apply({"bob.md": b"bob\n"}, CommitKind.SYNC, "bob.md")

    # main is checked out in the source: git refuses to move it under the working tree.
    with pytest.raises(GitError, match="checked out"):
        clone.push(f"refs/heads/{MAIN}")


def test_commits_with_trailers_finds_only_the_commits_carrying_one(repo):
    repo.apply({"a.md": b"a\n"}, CommitKind.MANUAL, "a", [trailers.MEMBER("bob")])
    repo.apply({"b.md": b"b\n"}, CommitKind.MANUAL, "b")
    repo.apply({"c.md": b"c\n"}, CommitKind.MANUAL, "c", [trailers.REVERTS("0" * 40)])

    found = repo.commits_with_trailers(trailers.MEMBER, trailers.REVERTS)

    assert [commit.summary for commit in found] == ["c", "a"]


def test_unmerged_refs_names_the_branches_main_lacks(repo):
    repo.create_branch("members/bob")
    repo.create_branch("members/carol")
    workspace = repo.add_worktree(repo.path.parent / "carol", "members/ahead")
    tip = workspace.apply({"c.md": b"c\n"}, CommitKind.SYNC, "c")

    assert repo.unmerged_refs("refs/heads/members/") == [("refs/heads/members/ahead", tip)]


def test_a_tag_object_records_who_and_when_and_read_tag_reads_it_back(repo):
    head = repo.head()
    assert head is not None
    tag = repo.tag_object(head, "rejected/7", tagger=ALICE, message="no\n")
    repo.update_ref("refs/memsync/rejected/7", tag)

    info = repo.read_tag("refs/memsync/rejected/7")

    assert info.commit == head and info.tagger == "Alice Maintainer" and info.when is not None
    repo.update_ref("refs/memsync/plain", head)
    assert repo.read_tag("refs/memsync/plain").tagger is None


def test_the_merge_driver_and_other_settings_are_written_only_when_they_differ(repo):
    repo.set_merge_driver("true %O %A %B")

    assert ensure_config(repo.git_dir, {"merge.memsync-index.driver": "true %O %A %B"}) is False
    assert ensure_config(repo.git_dir, {"receive.fsckObjects": "true"}) is True
    assert ensure_config(repo.git_dir, {"receive.fsckObjects": "true"}) is False


def test_head_commit_is_empty_outside_a_repository_and_git_has_a_version(repo, tmp_path):
    assert head_commit(repo.path) == repo.head()
    assert head_commit(tmp_path / "plain") == ""
    assert git_version().startswith("git version")
