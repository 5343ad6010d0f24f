"""MemoryRepo against real repositories and the real git binary."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memsync.store import CommitKind, Identity, LineKind, MemoryRepo, StoreError

BOB = Identity("Bob Member", "bob@example.com")


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    import os

    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True,
        env={**os.environ, **(env or {})},
    ).stdout  # fmt: skip


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    return MemoryRepo.init(tmp_path / "memory")


def write(repo: MemoryRepo, path: str, text: str | bytes) -> None:
    full = repo.path / path
    full.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        full.write_bytes(text)
    else:
        full.write_text(text)


def test_it_initialises_a_new_directory_on_main_with_the_driver_and_ignore(tmp_path):
    repo = MemoryRepo.init(tmp_path / "memory")

    assert repo.current_branch() == "main"
    assert "MEMORY.md merge=memsync-index" in (repo.path / ".gitattributes").read_text()
    assert ".consolidate-lock" in (repo.path / ".gitignore").read_text()
    assert "-m memsync.memory.merge_driver %O %A %B" in git(
        repo.path, "config", "merge.memsync-index.driver"
    )
    assert [c.kind for c in repo.log()] == ["manual"]


def test_it_initialises_an_existing_memory_directory_keeping_its_files(tmp_path):
    directory = tmp_path / "memory"
    directory.mkdir()
    (directory / "MEMORY.md").write_text("- [Role](user_role.md) — who I am\n")
    (directory / "user_role.md").write_text("---\nname: role\n---\nbody\n")

    repo = MemoryRepo.init(directory)

    assert set(repo.files()) == {".gitattributes", ".gitignore", "MEMORY.md", "user_role.md"}
    assert (directory / "user_role.md").read_text() == "---\nname: role\n---\nbody\n"


def test_it_initialises_twice_without_a_second_commit(repo):
    again = MemoryRepo.init(repo.path)

    assert len(again.log()) == 1
    assert (repo.path / ".gitattributes").read_text().count("memsync-index") == 1


def test_it_ignores_the_consolidation_lock(repo):
    write(repo, ".consolidate-lock", "4242")

    assert repo.commit(CommitKind.MANUAL, "nothing but the lock") is None


def test_it_commits_with_kind_summary_and_trailers(repo):
    write(repo, "a.md", "alpha\n")

    sha = repo.commit(
        CommitKind.EXTRACT,
        "7f3c — saved 1 memory",
        [("Memsync-Session", "7f3c"), ("Memsync-Model", "claude-x"), ("Memsync-Tokens", "1200")],
        author=BOB,
    )

    message = git(repo.path, "log", "-1", "--format=%B")
    assert message.startswith("extract: 7f3c — saved 1 memory\n\n")
    assert "Memsync-Kind: extract\nMemsync-Session: 7f3c\n" in message
    commit = repo.log()[0]
    assert commit.sha == sha
    assert commit.kind == "extract"
    assert commit.trailer("memsync-tokens") == "1200"
    assert commit.author_name == "Bob Member"
    assert [(f.path, f.added, f.deleted) for f in commit.files] == [("a.md", 1, 0)]


def test_it_makes_no_commit_when_nothing_changed(repo):
    before = repo.head()

    assert repo.commit(CommitKind.SYNC, "nothing") is None
    assert repo.head() == before


def test_it_refuses_an_unknown_kind(repo):
    write(repo, "a.md", "alpha\n")

    with pytest.raises(ValueError, match="party"):
        repo.commit("party", "no such kind")


def test_it_keeps_trailer_values_on_one_line(repo):
    write(repo, "a.md", "alpha\n")

    repo.commit(CommitKind.MANUAL, "multi\nline summary", [("Memsync-Note", "one\ntwo")])

    commit = repo.log()[0]
    assert commit.subject == "manual: multi line summary"
    assert commit.trailer("Memsync-Note") == "one two"


def test_it_applies_writes_and_deletes_as_one_commit(repo):
    repo.apply({"a.md": b"a\n", "b.md": b"b\n"}, CommitKind.EXTRACT, "two")
    repo.apply({"a.md": None, "team/c.md": b"c\n"}, CommitKind.DREAM, "swap")

    assert sorted(repo.files()) == [".gitattributes", ".gitignore", "b.md", "team/c.md"]
    assert [c.kind for c in repo.log()] == ["dream", "extract", "manual"]


@pytest.mark.parametrize("path", ["../x.md", "/etc/passwd", "a/../../x.md", ".git/config", "a\\b"])
def test_it_refuses_paths_that_leave_the_repository(repo, path):
    with pytest.raises(StoreError, match="refusing path"):
        repo.apply({path: b"x"}, CommitKind.MANUAL, "escape")


def test_it_logs_with_paths_limit_and_skip(repo):
    for n in range(5):
        repo.apply({f"f{n}.md": b"x\n"}, CommitKind.EXTRACT, f"n{n}")

    assert [c.summary for c in repo.log(limit=2)] == ["n4", "n3"]
    assert [c.summary for c in repo.log(limit=2, skip=1)] == ["n3", "n2"]
    assert [c.summary for c in repo.log(paths=["f1.md"])] == ["n1"]


def test_it_diffs_as_data_with_the_index_first(repo):
    repo.apply(
        {"MEMORY.md": b"- [A](a.md) - a\n", "a.md": b"one\ntwo\nthree\n", "e.md": b"",
         "bin.dat": b"\x00\x01"},
        CommitKind.EXTRACT, "first",
    )  # fmt: skip
    repo.apply(
        {"MEMORY.md": b"- [A](a.md) - a\n- [B](b.md) - b\n", "a.md": b"one\n2\nthree",
         "e.md": None, "bin.dat": b"\x00\x02", "b.md": b"new\n"},
        CommitKind.EXTRACT, "second",
    )  # fmt: skip

    diff = repo.diff("HEAD")

    assert [f.path for f in diff.files] == ["MEMORY.md", "a.md", "b.md", "bin.dat", "e.md"]
    a = diff.file("a.md")
    assert a.status == "modified" and a.new_missing_newline and not a.old_missing_newline
    lines = [(ln.kind, ln.old_number, ln.new_number, ln.text) for ln in a.hunks[0].lines]
    assert (LineKind.DELETED, 2, None, "two") in lines
    assert (LineKind.ADDED, None, 2, "2") in lines
    assert (LineKind.CONTEXT, 1, 1, "one") in lines
    assert diff.file("bin.dat").binary
    empty = diff.file("e.md")
    assert empty.status == "deleted" and empty.empty
    assert diff.file("b.md").status == "added"


def test_it_diffs_the_first_commit_against_nothing(repo):
    diff = repo.diff(repo.log()[-1].sha)

    assert {f.status for f in diff.files} == {"added"}


def test_it_diffs_paths_with_spaces_quotes_and_unicode(repo):
    name = 'notes "quoted" 记忆.md'
    repo.apply({name: "内容\n".encode()}, CommitKind.EXTRACT, "unicode")

    diff = repo.diff("HEAD")

    assert diff.files[0].path == name
    assert diff.files[0].hunks[0].lines[0].text == "内容"


def test_it_knows_the_last_change_of_every_file_in_one_pass(repo):
    old = datetime(2026, 1, 1, tzinfo=UTC)
    env = {"GIT_COMMITTER_DATE": old.isoformat(), "GIT_AUTHOR_DATE": old.isoformat()}
    write(repo, "old.md", "old\n")
    write(repo, "touched.md", "v1\n")
    git(repo.path, "add", "-A")
    git(repo.path, "commit", "-qm", "manual: old", env=env)
    write(repo, "touched.md", "v2\n")
    repo.commit(CommitKind.EXTRACT, "touch")

    ages = repo.ages()

    assert ages["old.md"] == old
    assert datetime.now(UTC) - ages["touched.md"] < timedelta(minutes=5)
    assert "gone.md" not in ages


def test_it_reads_files_at_a_revision(repo):
    repo.apply({"a.md": b"one\n"}, CommitKind.EXTRACT, "one")
    first = repo.head()
    repo.apply({"a.md": b"two\n"}, CommitKind.EXTRACT, "two")

    assert repo.read(first, "a.md") == b"one\n"
    assert repo.read("HEAD", "missing.md") is None
    assert repo.read_many(first, ["a.md", "missing.md", ".gitignore"]) == {
        "a.md": b"one\n",
        ".gitignore": b".consolidate-lock\n",
    }


def test_it_reads_many_files_at_once_by_their_blob_ids(repo):
    # Past a few paths read_many lists the tree once instead of naming each path: the
    # same answer, with paths in subfolders, missing paths and odd names.
    files = {f"notes/n{i}.md": f"note {i}\n".encode() for i in range(40)}
    files["spaced name ü.md"] = b"odd\n"
    repo.apply(files, CommitKind.EXTRACT, "many")
    repo.apply({"notes/n0.md": b"changed\n"}, CommitKind.EXTRACT, "later")

    wanted = [*files, "missing.md", "notes"]
    found = repo.read_many("HEAD~1", wanted)

    assert found == files
    assert repo.read_many("HEAD", wanted)["notes/n0.md"] == b"changed\n"
    assert repo.read_many("no-such-rev", wanted) == {}


def test_it_merges_a_branch_with_a_merge_commit(repo):
    repo.create_branch("members/bob")
    worktree = repo.add_worktree(repo.path.parent / "wt", "dream/x")
    worktree.apply({"dream.md": b"d\n"}, CommitKind.DREAM, "dreamt")
    repo.apply({"main.md": b"m\n"}, CommitKind.EXTRACT, "on main")

    result = repo.merge("dream/x", summary="adopt dream x", trailers=[("Memsync-Dream", "x")])

    assert result.merged
    merge = repo.log(limit=1)[0]
    assert merge.is_merge and merge.kind == "merge" and merge.trailer("Memsync-Dream") == "x"
    assert {"dream.md", "main.md"} <= set(repo.files())
    assert repo.merge("dream/x").status == "up-to-date"


def test_it_reports_topic_conflicts_as_data_and_loses_nothing(repo):
    repo.apply({"a.md": b"base\n"}, CommitKind.EXTRACT, "base")
    repo.create_branch("members/bob")
    worktree = repo.add_worktree(repo.path.parent / "wt", "side", start="members/bob")
    worktree.apply({"a.md": b"theirs\n"}, CommitKind.SYNC, "theirs")
    repo.apply({"a.md": b"ours\n"}, CommitKind.EXTRACT, "ours")
    head = repo.head()

    result = repo.merge("side")

    assert result.status == "conflict"
    [conflict] = result.conflicts
    assert conflict.path == "a.md"
    assert git(repo.path, "cat-file", "blob", conflict.theirs_sha) == "theirs\n"
    assert git(repo.path, "cat-file", "blob", conflict.ours_sha) == "ours\n"
    assert repo.head() == head
    assert (repo.path / "a.md").read_text() == "ours\n"
    assert git(repo.path, "status", "--porcelain") == ""


def test_it_can_merge_the_rest_and_keep_our_side_of_a_conflict(repo):
    repo.apply({"a.md": b"base\n"}, CommitKind.EXTRACT, "base")
    worktree = repo.add_worktree(repo.path.parent / "wt", "side")
    worktree.apply({"a.md": b"theirs\n", "new.md": b"new\n"}, CommitKind.SYNC, "theirs")
    repo.apply({"a.md": b"ours\n"}, CommitKind.EXTRACT, "ours")

    result = repo.merge("side", keep_ours_on_conflict=True)

    assert result.merged and [c.path for c in result.conflicts] == ["a.md"]
    assert (repo.path / "a.md").read_text() == "ours\n"
    assert (repo.path / "new.md").read_text() == "new\n"


def test_it_merges_all_but_excluded_files(repo):
    repo.apply({"a.md": b"a\n", "b.md": b"b\n"}, CommitKind.EXTRACT, "base")
    worktree = repo.add_worktree(repo.path.parent / "wt", "dream/1")
    worktree.apply({"a.md": b"a2\n", "b.md": None, "c.md": b"c\n"}, CommitKind.DREAM, "dream")

    result = repo.merge("dream/1", exclude=["b.md", "c.md"])

    assert result.merged
    assert (repo.path / "a.md").read_text() == "a2\n"
    assert (repo.path / "b.md").read_text() == "b\n"
    assert not (repo.path / "c.md").exists()
    assert git(repo.path, "status", "--porcelain") == ""


def test_it_reverts_an_adopted_merge_and_keeps_later_edits(repo):
    repo.apply({"a.md": b"a\n", "b.md": b"b\n"}, CommitKind.EXTRACT, "base")
    worktree = repo.add_worktree(repo.path.parent / "wt", "dream/2")
    worktree.apply({"a.md": b"a dreamt\n", "d.md": b"d\n"}, CommitKind.DREAM, "dream")
    adopted = repo.merge("dream/2").commit
    repo.apply({"b.md": b"b later\n"}, CommitKind.EXTRACT, "later edit")

    result = repo.revert(adopted)

    assert result.merged
    assert (repo.path / "a.md").read_text() == "a\n"
    assert not (repo.path / "d.md").exists()
    assert (repo.path / "b.md").read_text() == "b later\n"
    commit = repo.log(limit=1)[0]
    assert commit.kind == "revert" and commit.trailer("Memsync-Reverts") == adopted


def test_it_refuses_to_merge_over_uncommitted_changes(repo):
    repo.apply({"a.md": b"a\n"}, CommitKind.EXTRACT, "base")
    repo.create_branch("side")
    write(repo, "a.md", "dirty\n")

    with pytest.raises(StoreError, match="uncommitted changes"):
        repo.merge("side")
    assert (repo.path / "a.md").read_text() == "dirty\n"


def test_it_counts_ahead_and_behind(repo):
    repo.create_branch("members/bob")
    repo.apply({"a.md": b"a\n"}, CommitKind.EXTRACT, "main moves")

    assert repo.ahead_behind("members/bob") == (0, 1)
    assert repo.branches("members/") == {"members/bob": repo.log()[1].sha}


def test_it_removes_a_worktree_and_its_files(repo):
    path = repo.path.parent / "wt"
    repo.add_worktree(path, "dream/gone")

    repo.remove_worktree(path)

    assert not path.exists()
    assert "dream/gone" in repo.branches("dream/")


def test_it_keeps_a_body_between_subject_and_trailers(repo):
    write(repo, "a.md", "alpha\n")

    repo.commit(
        CommitKind.DREAM,
        "consolidated 3 memories",
        [("Memsync-Dream", "d1")],
        body="Improved 3 memories:\n- a.md\n\nNote: this line looks like a trailer",
    )

    commit = repo.log()[0]
    assert commit.body.startswith("Improved 3 memories:\n- a.md")
    assert commit.trailer("Memsync-Dream") == "d1"
    assert commit.trailer("Note") is None


def test_it_previews_conflicts_without_touching_the_checkout(repo):
    repo.apply({"MEMORY.md": b"- [A](a.md) - a\n", "a.md": b"a\n"}, CommitKind.MANUAL, "base")
    side = repo.add_worktree(repo.path.parent / "wt", "side")
    side.apply(
        {"MEMORY.md": b"- [A](a.md) - a\n- [B](b.md) - b\n", "b.md": b"b\n", "a.md": b"side\n"},
        CommitKind.SYNC, "side",
    )  # fmt: skip
    repo.apply(
        {"MEMORY.md": b"- [A](a.md) - a\n- [C](c.md) - c\n", "c.md": b"c\n", "a.md": b"main\n"},
        CommitKind.EXTRACT, "main",
    )  # fmt: skip
    head = repo.head()

    assert repo.merge_preview("side") == ["a.md"]
    assert repo.head() == head and (repo.path / "a.md").read_text() == "main\n"
    assert repo.merge_preview("side", into="side") == []


def test_it_blames_each_line_on_the_commit_with_its_session(repo):
    repo.apply({"a.md": b"one\ntwo\n"}, CommitKind.EXTRACT, "first", [("Memsync-Session", "s1")])
    repo.apply({"a.md": b"one\n2\nthree\n"}, CommitKind.DREAM, "dreamt", [("Memsync-Dream", "d1")])

    lines = repo.blame("a.md")

    assert [(b.number, b.text) for b in lines] == [(1, "one"), (2, "2"), (3, "three")]
    assert lines[0].commit.trailer("Memsync-Session") == "s1"
    assert lines[1].commit.kind == "dream" and lines[1].commit.trailer("Memsync-Dream") == "d1"


def test_it_keeps_ages_right_as_history_grows_from_its_cache(repo):
    old = "2026-01-01T00:00:00+00:00"
    side_date = {"GIT_COMMITTER_DATE": old, "GIT_AUTHOR_DATE": old}
    repo.apply({"a.md": b"a\n", "b.md": b"b\n"}, CommitKind.EXTRACT, "first")
    first = repo.ages()  # fills the cache
    side = repo.add_worktree(repo.path.parent / "wt", "side")
    write(side, "c.md", "c\n")
    git(side.path, "add", "c.md")
    git(side.path, "commit", "-qm", "sync: old side commit", env=side_date)
    repo.apply({"b.md": b"b2\n", "a.md": None}, CommitKind.DREAM, "later")
    merge = repo.merge("side").commit
    assert merge is not None

    ages = repo.ages()

    assert ages == repo.ages(cached=False)
    assert set(ages) == {".gitattributes", ".gitignore", "b.md", "c.md"}
    # c.md reached main with the merge: the side commit's own date is not main's history.
    assert ages["c.md"] == repo.commit_info(merge).date.astimezone(UTC)
    assert ages["b.md"] >= first["b.md"]


def at(when: str) -> dict[str, str]:
    return {"GIT_COMMITTER_DATE": when, "GIT_AUTHOR_DATE": when}


OLD = datetime(2026, 1, 1, tzinfo=UTC)


def test_it_dates_a_file_left_out_of_an_adopted_and_reverted_merge_by_its_own_change(repo):
    write(repo, "payment-sandbox.md", "sandbox\n")
    git(repo.path, "add", "-A")
    git(repo.path, "commit", "-qm", "manual: old memory", env=at(OLD.isoformat()))
    dream = repo.add_worktree(repo.path.parent / "wt", "dream/d1")
    write(dream, "payment-sandbox.md", "sandbox, rewritten\n")
    write(dream, "other.md", "new\n")
    git(dream.path, "add", "-A")
    git(dream.path, "commit", "-qm", "dream: consolidate")
    adopted = repo.merge("dream/d1", kind=CommitKind.DREAM, exclude=["payment-sandbox.md"])
    assert adopted.commit is not None
    assert repo.ages()["payment-sandbox.md"] == OLD

    repo.revert(adopted.commit)

    assert repo.ages()["payment-sandbox.md"] == OLD
    assert repo.ages(cached=False)["payment-sandbox.md"] == OLD


def test_it_ignores_a_side_commit_that_main_did_not_take_in_a_conflict(repo):
    write(repo, "release-train.md", "train on mondays\n")
    git(repo.path, "add", "-A")
    git(repo.path, "commit", "-qm", "manual: first", env=at("2025-12-01T00:00:00+00:00"))
    member = repo.add_worktree(repo.path.parent / "wt", "members/bob")
    write(member, "release-train.md", "train on fridays\n")
    git(member.path, "commit", "-qam", "sync: bob", env=at("2026-02-01T00:00:00+00:00"))
    write(repo, "release-train.md", "train on tuesdays\n")
    git(repo.path, "commit", "-qam", "manual: main's change", env=at(OLD.isoformat()))

    result = repo.merge("members/bob", keep_ours_on_conflict=True)

    assert result.conflicts and result.commit is not None
    assert repo.ages()["release-train.md"] == OLD


def test_it_gives_content_a_revert_restores_back_its_age(repo):
    write(repo, "a.md", "one\n")
    git(repo.path, "add", "-A")
    git(repo.path, "commit", "-qm", "manual: old", env=at(OLD.isoformat()))
    changed = repo.apply({"a.md": b"two\n"}, CommitKind.DREAM, "rewrite")
    assert changed is not None
    assert repo.ages()["a.md"] > OLD

    repo.revert(changed)

    assert repo.ages()["a.md"] == OLD


def test_it_rebuilds_an_ages_cache_of_an_older_version(repo):
    repo.apply({"a.md": b"a\n"}, CommitKind.EXTRACT, "first")
    cache = repo.path / ".git" / "memsync" / "ages.json"
    head = repo.head()
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(f'{{"commit": "{head}", "ages": {{"a.md": 0}}}}')

    assert repo.ages()["a.md"] == repo.ages(cached=False)["a.md"] > OLD
    assert '"version": 2' in cache.read_text()


def test_it_walks_again_when_the_cache_describes_another_first_parent_line(repo):
    repo.apply({"a.md": b"a\n"}, CommitKind.EXTRACT, "first")
    side = repo.add_worktree(repo.path.parent / "wt", "side")
    write(side, "a.md", "side\n")
    git(side.path, "commit", "-qam", "sync: side", env=at(OLD.isoformat()))
    assert side.ages()["a.md"] == OLD  # the cache now describes the side's line
    merged = repo.merge("side").commit
    assert merged is not None

    assert repo.ages()["a.md"] == repo.commit_info(merged).date.astimezone(UTC)


def test_it_ignores_a_broken_ages_cache(repo):
    repo.apply({"a.md": b"a\n"}, CommitKind.EXTRACT, "first")
    cache = repo.path / ".git" / "memsync" / "ages.json"
    repo.ages()
    cache.write_text("{not json")

    assert repo.ages() == repo.ages(cached=False)
    assert '"commit"' in cache.read_text()
