"""Member merges into main and conflict resolution, on real repositories (no HTTP)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from dashboard.models import ConflictItem, ConflictStatus, Run, RunStatus
from dashboard.services.merges import MERGE_NICENESS
from dashboard.sync import merge_member_branch, resolve_conflict
from dashboard.tasks.sync import merge_member_branch_task as merge_task
from memsync.sync.merge import ResolutionRefused
from tests.sync.conftest import Team, make_team, topic

pytestmark = pytest.mark.django_db

BASE_FACT = topic("shared", "How we release", "We release on Tuesdays.")


@pytest.fixture
def team(tmp_path: Path) -> Team:
    team = make_team(f"merge-{tmp_path.name[-12:]}", {"alice": "maintainer", "bob": "member"})
    (team.project.repo_dir / "shared.md").write_text(BASE_FACT)
    (team.project.repo_dir / "MEMORY.md").write_text(
        "# Team memory\n\n- [Releases](shared.md) — how we release\n"
    )
    team.repo.commit("manual", "seed the team memory")
    return team


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd, check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip


def member_commit(team: Team, tmp_path: Path, member: str, files: dict[str, str | None]) -> str:
    """Commit on a clone of main and land it on ``members/<member>`` (as a push would)."""
    clone = tmp_path / f"clone-{member}-{len(list(tmp_path.iterdir()))}"
    git(tmp_path, "clone", "-q", str(team.project.repo_dir), str(clone))
    if team.repo.rev_parse(f"members/{member}"):
        git(clone, "fetch", "-q", "origin", f"members/{member}")
        git(clone, "checkout", "-q", "FETCH_HEAD")
    for path, content in files.items():
        if content is None:
            (clone / path).unlink()
        else:
            (clone / path).write_text(content)
    git(clone, "add", "--all")
    git(clone, "commit", "-q", "-m", f"{member}'s change")
    sha = git(clone, "rev-parse", "HEAD")
    git(team.project.repo_dir, "fetch", "-q", str(clone), f"+HEAD:refs/heads/members/{member}")
    return sha


def index_line(target: str, hook: str) -> str:
    return f"- [{target}]({target}) — {hook}\n"


def test_it_merges_both_members_index_entries_without_conflict_markers(team: Team, tmp_path):
    index = (team.project.repo_dir / "MEMORY.md").read_text()
    member_commit(
        team, tmp_path, "bob",
        {"bob.md": topic("bob", "Bob's fact"), "MEMORY.md": index + index_line("bob.md", "bob")},
    )  # fmt: skip
    member_commit(
        team, tmp_path, "alice",
        {"al.md": topic("al", "Alice's fact"), "MEMORY.md": index + index_line("al.md", "alice")},
    )  # fmt: skip

    first, _ = merge_member_branch(team.project, "bob")
    second, conflicts = merge_member_branch(team.project, "alice")

    assert first.merged and second.merged and conflicts == []
    merged = team.repo.read("main", "MEMORY.md").decode()
    assert "(bob.md)" in merged and "(al.md)" in merged and "<<<<<<<" not in merged
    assert merged.startswith("# Team memory\n")
    assert set(team.repo.files("main")) >= {"bob.md", "al.md", "shared.md"}


def test_it_keeps_mains_side_merges_the_rest_and_pins_both_sides_of_a_conflict(
    team: Team, tmp_path
):
    alice_side = topic("shared", "How we release", "We release on Wednesdays.")
    bob_side = topic("shared", "How we release", "We release on Thursdays.")
    member_commit(team, tmp_path, "alice", {"shared.md": alice_side})
    bob_tip = member_commit(
        team, tmp_path, "bob", {"shared.md": bob_side, "extra.md": topic("extra", "More")}
    )
    merge_member_branch(team.project, "alice")
    main_before = team.repo.rev_parse("main")

    merge, items = merge_member_branch(team.project, "bob")

    assert merge.merged
    assert team.repo.read("main", "shared.md").decode() == alice_side
    assert team.repo.read("main", "extra.md") is not None  # the rest went in
    [item] = items
    assert item.path == "shared.md" and item.member == "bob"
    assert item.status == ConflictStatus.OPEN
    assert item.ref == f"refs/memsync/conflicts/{item.pk}"
    assert team.repo.rev_parse(f"{item.ref}/main") == main_before
    assert team.repo.rev_parse(f"{item.ref}/member") == bob_tip
    assert team.repo.read(f"{item.ref}/member", "shared.md").decode() == bob_side
    assert team.repo.read(f"{item.ref}/main", "shared.md").decode() == alice_side
    commit = team.repo.commit_info("main")
    assert commit.kind == "merge" and commit.trailer("Memsync-Conflict") == "shared.md"
    assert "Kept main's side of shared.md" in commit.body


def test_it_resolves_a_conflict_with_the_members_side(team: Team, tmp_path):
    item = _conflict(team, tmp_path)
    alice = User.objects.get(username="alice")

    sha = resolve_conflict(item, "theirs", by=alice)

    assert (
        team.repo.read("main", "shared.md")
        .decode()
        .endswith(
            "We release on Thursdays.\n\n**Why:** it came up.\n**How to apply:** remember it.\n"
        )
    )
    commit = team.repo.commit_info("main")
    assert commit.sha == sha and commit.kind == "merge"
    assert commit.author_name == "alice"
    assert commit.trailer("Memsync-Resolution") == "theirs"
    assert commit.trailer("Co-authored-by") == "bob <bob@example.com>"
    item.refresh_from_db()
    assert item.status == ConflictStatus.RESOLVED and item.resolution == "theirs"
    assert item.resolved_by == alice and item.resolution_commit == sha


def test_it_records_keeping_mains_side_as_a_commit_of_its_own(team: Team, tmp_path):
    item = _conflict(team, tmp_path)
    before = team.repo.read("main", "shared.md")

    sha = resolve_conflict(item, "mine", by=User.objects.get(username="alice"))

    assert team.repo.read("main", "shared.md") == before
    assert team.repo.commit_info(sha).trailer("Memsync-Resolution") == "mine"
    assert team.repo.rev_parse("main") == sha


def test_it_writes_an_edited_resolution_with_unix_line_ends(team: Team, tmp_path):
    item = _conflict(team, tmp_path)
    edited = "---\r\nname: shared\r\n---\r\n\r\nWe release on Tuesdays and Thursdays.\r\n"

    resolve_conflict(item, "edit", edited, by=User.objects.get(username="alice"))

    assert team.repo.read("main", "shared.md") == edited.replace("\r\n", "\n").encode()


def test_it_refuses_an_edited_resolution_holding_a_secret(team: Team, tmp_path):
    item = _conflict(team, tmp_path)
    main_before = team.repo.rev_parse("main")
    key = "sk-ant-api03-" + "x1Y2z3" * 15 + "q7W" + "AA"

    with pytest.raises(ResolutionRefused) as refused:
        resolve_conflict(item, "edit", f"use {key}\n", by=User.objects.get(username="alice"))

    assert "secret (anthropic-api-key)" in str(refused.value)
    assert key not in str(refused.value)
    assert team.repo.rev_parse("main") == main_before
    item.refresh_from_db()
    assert item.status == ConflictStatus.OPEN


def test_it_resolves_a_conflict_only_once(team: Team, tmp_path):
    item = _conflict(team, tmp_path)
    alice = User.objects.get(username="alice")
    resolve_conflict(item, "theirs", by=alice)
    main_after = team.repo.rev_parse("main")

    with pytest.raises(ResolutionRefused, match="already resolved"):
        resolve_conflict(ConflictItem.objects.get(pk=item.pk), "mine", by=alice)

    assert team.repo.rev_parse("main") == main_after


def test_it_resolves_a_delete_against_an_edit_by_deleting(team: Team, tmp_path):
    member_commit(team, tmp_path, "alice", {"shared.md": topic("shared", "How", "Edited.")})
    member_commit(team, tmp_path, "bob", {"shared.md": None})
    merge_member_branch(team.project, "alice")
    _, [item] = merge_member_branch(team.project, "bob")
    assert team.repo.read("main", "shared.md") is not None

    resolve_conflict(item, "theirs", by=User.objects.get(username="alice"))

    assert team.repo.read("main", "shared.md") is None


def _conflict(team: Team, tmp_path: Path) -> ConflictItem:
    member_commit(
        team, tmp_path, "alice", {"shared.md": topic("shared", "How", "We release on Wednesdays.")}
    )
    member_commit(
        team, tmp_path, "bob", {"shared.md": topic("shared", "How", "We release on Thursdays.")}
    )
    merge_member_branch(team.project, "alice")
    _, [item] = merge_member_branch(team.project, "bob")
    return item


# --- the task --------------------------------------------------------------------------------


def test_the_task_writes_a_merge_run_with_its_conflicts(team: Team, tmp_path):
    item_count = ConflictItem.objects.count()
    member_commit(team, tmp_path, "alice", {"shared.md": topic("shared", "How", "Wednesdays.")})
    # Bob's change starts from main before Alice's, and reaches the server after her merge
    # (a branch already waiting would be merged by Alice's task).
    tip = member_commit(team, tmp_path, "bob", {"shared.md": topic("shared", "How", "Fridays.")})
    git(team.project.repo_dir, "update-ref", "-d", "refs/heads/members/bob")
    merge_task.apply(args=[team.project.pk, "alice", ""]).get()
    git(team.project.repo_dir, "update-ref", "refs/heads/members/bob", tip)

    summary = merge_task.apply(args=[team.project.pk, "bob", tip]).get()

    run = Run.objects.filter(project=team.project, kind="merge").order_by("-pk").first()
    assert summary == "merged members/bob into main; kept for review: shared.md"
    assert run.status == RunStatus.CONFLICT and run.summary == summary
    assert run.requested_by == User.objects.get(username="bob")
    assert run.finished_at is not None and run.trigger == "push"
    assert run.detail["pushed"] == tip and run.detail["conflicts"][0]["path"] == "shared.md"
    assert ConflictItem.objects.count() == item_count + 1


def test_the_first_task_merges_every_waiting_member_and_the_later_ones_find_nothing(
    team: Team, tmp_path
):
    alice_tip = member_commit(team, tmp_path, "alice", {"alice.md": topic("alice", "A")})
    bob_tip = member_commit(team, tmp_path, "bob", {"bob.md": topic("bob", "B")})

    first = merge_task.apply(args=[team.project.pk, "alice", alice_tip]).get()
    later = merge_task.apply(args=[team.project.pk, "bob", bob_tip]).get()

    assert first == "merged members/alice into main"
    assert later == "members/bob is already in main"
    assert {"alice.md", "bob.md"} <= set(team.repo.files("main"))
    bob = User.objects.get(username="bob")
    batched, queued = Run.objects.filter(project=team.project, requested_by=bob).order_by("pk")
    assert (batched.status, batched.summary) == (RunStatus.MERGED, "merged members/bob into main")
    assert batched.detail["pushed"] == bob_tip and batched.trigger == "push"
    assert queued.status == RunStatus.NO_CHANGES
    assert team.repo.is_ancestor(bob_tip, "main") and team.repo.is_ancestor(alice_tip, "main")


def test_a_merge_runs_its_git_behind_pushes_and_starts_the_index_driver_once(team: Team, tmp_path):
    # The driver says at which niceness git started it, then merges as memsync's does.
    seen = tmp_path / "niceness"
    driver = tmp_path / "driver.sh"
    driver.write_text(
        f"#!/bin/sh\ncut -d' ' -f19 /proc/$$/stat >> {seen}\n"
        f'exec {sys.executable} -m memsync.memory.merge_driver "$@"\n'
    )
    driver.chmod(0o755)
    team.repo.set_merge_driver(f"{driver} %O %A %B")
    index = (team.project.repo_dir / "MEMORY.md").read_text()
    tip = member_commit(
        team, tmp_path, "alice",
        {"alice.md": topic("alice", "A"), "MEMORY.md": index + index_line("alice.md", "A")},
    )  # fmt: skip
    (team.project.repo_dir / "main.md").write_text(topic("main", "M"))
    (team.project.repo_dir / "MEMORY.md").write_text(index + index_line("main.md", "M"))
    team.repo.commit("manual", "main moves on")
    niceness = os.getpriority(os.PRIO_PROCESS, 0)

    summary = merge_task.apply(args=[team.project.pk, "alice", tip]).get()

    assert summary == "merged members/alice into main"
    # Once: the preview of conflicts does not start the driver, the merge does.
    assert seen.read_text().split() == [str(max(niceness, MERGE_NICENESS))]
    merged = team.repo.read("main", "MEMORY.md").decode()
    assert "(alice.md)" in merged and "(main.md)" in merged


def test_the_task_records_a_branch_already_in_main_as_no_change(team: Team, tmp_path):
    member_commit(team, tmp_path, "bob", {"new.md": topic("new", "New")})
    merge_task.apply(args=[team.project.pk, "bob", ""]).get()

    summary = merge_task.apply(args=[team.project.pk, "bob", ""]).get()

    assert summary == "members/bob is already in main"
    assert Run.objects.filter(project=team.project, status=RunStatus.NO_CHANGES).count() == 1


def test_the_task_skips_a_branch_deleted_after_its_push(team: Team):
    summary = merge_task.apply(args=[team.project.pk, "bob", ""]).get()

    assert "members/bob does not exist" in summary
    assert Run.objects.get(project=team.project).status == RunStatus.SKIPPED
