"""A branch over time (memsync.store.overview) against real repositories and real git."""

from __future__ import annotations

import os
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memsync.store import CommitKind, Identity, MemoryRepo
from memsync.store.overview import CACHE_NAME, branch_overview, changes_since

BOB = Identity("bob", "bob@example.com")
ALICE = Identity("Alice Maintainer", "alice@example.com")
START = datetime(2026, 1, 1, tzinfo=UTC)


def is_memory(path: str) -> bool:
    return "/" not in path and path.endswith(".md") and path != "MEMORY.md"


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    """A bare ``git init``: memsync's own set-up commit would be dated today, after the
    dated history these tests write."""
    path = tmp_path / "memory"
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    return MemoryRepo(path)


def commit_on(
    repo: MemoryRepo, day: int, changes: dict[str, bytes | None], kind: str, author: Identity
) -> str:
    """A commit dated ``day`` days after START, as an imported history would have it."""
    for path, data in changes.items():
        target = repo.path / path
        if data is None:
            target.unlink()
        else:
            target.write_bytes(data)
    when = (START + timedelta(days=day)).isoformat()
    subprocess.run(["git", "add", "-A"], cwd=repo.path, check=True)
    subprocess.run(
        ["git", "commit", "-qm", f"{kind}: day {day}", "--author", str(author)],
        cwd=repo.path, check=True,
        env={**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when},
    )  # fmt: skip
    head = repo.head()
    assert head is not None
    return head


def test_it_counts_memories_index_size_and_median_age_at_each_sample(repo):
    commit_on(repo, 0, {"a.md": b"a\n", "MEMORY.md": b"- a\n"}, "extract", BOB)
    commit_on(repo, 10, {"b.md": b"b\n", "MEMORY.md": b"- a\n- b\n"}, "extract", BOB)
    commit_on(repo, 20, {"a.md": None, "c.md": b"c\n"}, "dream", ALICE)
    head = repo.head()
    assert head is not None

    overview = branch_overview(repo, head, is_memory, "MEMORY.md")

    last = overview.samples[-1]
    assert (last.commit, last.memories, last.index_lines, last.index_units) == (head, 2, 2, 8)
    assert last.median_age_days == 5.0  # b is 10 days old, c is new
    at_day_ten = [s for s in overview.samples if s.when == START + timedelta(days=10)]
    assert [(s.memories, s.index_lines) for s in at_day_ten] == [(2, 2)]
    assert overview.commits == 3


def test_it_names_the_author_of_each_memorys_last_change_and_forgets_deleted_ones(repo):
    commit_on(repo, 0, {"a.md": b"a\n", "b.md": b"b\n"}, "extract", BOB)
    commit_on(repo, 1, {"b.md": b"b2\n"}, "manual", ALICE)
    commit_on(repo, 2, {"a.md": None}, "dream", ALICE)
    head = repo.head()
    assert head is not None

    changes = branch_overview(repo, head, is_memory, "MEMORY.md").last_changes

    assert set(changes) == {"b.md"}
    assert (changes["b.md"].author_name, changes["b.md"].kind) == ("Alice Maintainer", "manual")


def test_a_merge_counts_as_the_change_it_made_to_main(repo):
    commit_on(repo, 0, {"a.md": b"a\n"}, "extract", ALICE)
    side = repo.add_worktree(repo.path.parent / "side", "members/bob")
    commit_on(side, 1, {"bob.md": b"bob\n"}, "sync", BOB)
    repo.merge("members/bob", kind=CommitKind.MERGE, summary="bob's push", author=BOB)
    head = repo.head()
    assert head is not None

    overview = branch_overview(repo, head, is_memory, "MEMORY.md")

    assert overview.samples[-1].memories == 2
    assert overview.last_changes["bob.md"].commit == head


def test_it_reads_the_cache_until_the_branch_moves(repo):
    first = commit_on(repo, 0, {"a.md": b"a\n"}, "extract", BOB)
    branch_overview(repo, first, is_memory, "MEMORY.md")
    cache = repo.path / ".git" / "memsync" / CACHE_NAME
    assert first in cache.read_text()

    cached = branch_overview(repo, first, is_memory, "MEMORY.md")
    second = commit_on(repo, 1, {"b.md": b"b\n"}, "extract", BOB)
    moved = branch_overview(repo, second, is_memory, "MEMORY.md")

    assert cached.samples[-1].memories == 1 and cached.samples[-1].when.tzinfo is not None
    assert moved.samples[-1].memories == 2
    assert second in cache.read_text()


def test_walking_on_from_the_cache_gives_what_a_whole_walk_gives(repo):
    for day in range(0, 60, 3):
        commit_on(
            repo,
            day,
            {f"m{day % 9}.md": f"{day}\n".encode(), "MEMORY.md": f"{day}\n".encode() * (day + 1)},
            "extract",
            BOB,
        )
        head = repo.head()
        assert head is not None
        step_by_step = branch_overview(repo, head, is_memory, "MEMORY.md")
    cache = repo.path / ".git" / "memsync" / CACHE_NAME
    cache.unlink()

    whole = branch_overview(repo, head, is_memory, "MEMORY.md")

    assert step_by_step == whole
    assert whole.samples[-1].index_lines == 58


def test_a_long_history_is_sampled_to_a_fixed_number_of_points(repo):
    for day in range(120):
        commit_on(repo, day, {f"m{day % 7}.md": f"{day}\n".encode()}, "extract", BOB)
    head = repo.head()
    assert head is not None

    samples = branch_overview(repo, head, is_memory, "MEMORY.md").samples

    assert 40 <= len(samples) <= 48
    assert samples[-1].commit == head and samples[-1].memories == 7
    assert [s.when for s in samples] == sorted(s.when for s in samples)


def test_changes_since_lists_main_first_parent_commits_after_a_moment(repo):
    commit_on(repo, 0, {"old.md": b"a\n"}, "extract", BOB)
    commit_on(repo, 30, {"new.md": b"b\n"}, "extract", ALICE)
    head = repo.head()
    assert head is not None

    recent = changes_since(repo, head, START + timedelta(days=20))

    assert [[f.path for f in c.files] for c in recent] == [["new.md"]]
    assert recent[0].author_email == "alice@example.com"


def test_a_commit_dated_after_the_history_that_follows_it_does_not_stretch_the_axis(tmp_path):
    repo = MemoryRepo.init(tmp_path / "memory")  # its set-up commit is dated today
    commit_on(repo, 0, {"a.md": b"a\n"}, "extract", BOB)
    commit_on(repo, 30, {"b.md": b"b\n"}, "extract", BOB)
    head = repo.head()
    assert head is not None

    samples = branch_overview(repo, head, is_memory, "MEMORY.md").samples

    assert samples[0].when == START and samples[-1].when == START + timedelta(days=30)
    assert [s.when for s in samples] == sorted(s.when for s in samples)
    assert samples[-1].median_age_days == 15.0
