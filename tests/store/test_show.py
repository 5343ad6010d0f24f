"""The commit page's reads: a commit with its diff from one ``git show``, and where
``main`` is when it holds a commit — each the same answer the longer way gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsync.store import CommitKind, GitError, MemoryRepo


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    repo = MemoryRepo.init(tmp_path / "memory")
    repo.apply({"a.md": b"one\ntwo\n", "MEMORY.md": b"- [A](a.md) - a\n"}, CommitKind.EXTRACT, "a")
    repo.apply({"a.md": b"one\n2\n", "b.md": b"bee\n"}, CommitKind.EXTRACT, "b and a")
    return repo


def the_long_way(repo: MemoryRepo, sha: str):
    commit = repo.commits([sha])[sha]
    return commit, repo.diff(sha)


def test_it_shows_a_commit_and_its_diff_as_log_and_diff_read_them(repo):
    sha = repo.rev_parse("main")
    assert sha is not None
    commit, diff = repo.show(sha)

    logged, diffed = the_long_way(repo, sha)
    assert diff == diffed
    assert (commit.sha, commit.parents, commit.message, commit.trailers, commit.date) == (
        logged.sha, logged.parents, logged.message, logged.trailers, logged.date,
    )  # fmt: skip
    assert [f.path for f in diff.files] == ["a.md", "b.md"]


def test_it_shows_the_first_commit_against_nothing(repo):
    first = repo.log()[-1]

    commit, diff = repo.show(first.sha)

    assert commit.parents == () and diff.base is None
    assert diff == repo.diff(first.sha)


def test_it_shows_a_merge_against_its_first_parent(repo):
    worktree = repo.add_worktree(repo.path.parent / "wt", "dream/x")
    worktree.apply({"dream.md": b"d\n"}, CommitKind.DREAM, "dreamt")
    repo.apply({"main.md": b"m\n"}, CommitKind.EXTRACT, "on main")
    assert repo.merge("dream/x", summary="adopt dream x").merged
    merge = repo.log(limit=1)[0]

    commit, diff = repo.show(merge.sha)

    assert commit.is_merge and diff.base == merge.parents[0]
    assert [f.path for f in diff.files] == ["dream.md"]
    assert diff == repo.diff(merge.sha)


def test_it_shows_by_a_short_id_and_refuses_what_is_no_commit(repo):
    sha = repo.rev_parse("main")
    assert sha is not None
    assert repo.show(sha[:10])[0].sha == sha

    blob = repo.blobs("main")["a.md"]
    with pytest.raises(GitError):
        repo.show(blob)
    with pytest.raises(GitError):
        repo.show("0" * 40)


def test_it_names_mains_commit_only_when_main_holds_the_commit(repo):
    head, older = repo.rev_parse("main"), repo.rev_parse("main~1")
    worktree = repo.add_worktree(repo.path.parent / "wt", "dream/y")
    elsewhere = worktree.apply({"y.md": b"y\n"}, CommitKind.DREAM, "not on main")
    assert head is not None and older is not None and elsewhere is not None

    assert repo.tip_containing(older) == head
    assert repo.tip_containing(head) == head
    assert repo.tip_containing(elsewhere) is None
    assert repo.tip_containing(elsewhere, "dream/y") == elsewhere
