"""A refused push names its actual cause (issue 11, item 8): which commits the server's
member branch has that this clone lacks, and where they came from."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from memsync.client.team import BranchMoved, TeamClone
from memsync.store import CommitKind, MemoryRepo
from tests.client.local_origin import bare_origin, linked_clone


def test_a_push_from_another_clone_is_named_with_its_commits(tmp_path: Path):
    laptop = TeamClone(linked_clone(tmp_path, tmp_path / "laptop" / "team"))
    desktop = TeamClone(linked_clone(tmp_path, tmp_path / "desktop" / "team"))
    (laptop.path / "release.md").write_text("---\nname: release\n---\n\nTrains at 10.\n")
    laptop.push()
    (desktop.path / "oncall.md").write_text("---\nname: oncall\n---\n\nPager rotates.\n")

    with pytest.raises(BranchMoved) as refused:
        desktop.push()

    message = str(refused.value)
    assert "members/bob on the server has 1 commit(s) this clone does not have" in message
    assert "sync: release.md (bob," in message
    assert "pushed as bob from another clone" in message
    assert "memsync pull" in message
    assert (desktop.path / "oncall.md").exists()  # the edit is kept for the next push


def test_an_extraction_an_older_server_committed_there_is_named_as_such(tmp_path: Path):
    origin = bare_origin(tmp_path)
    desktop = TeamClone(linked_clone(tmp_path, tmp_path / "desktop" / "team"))
    server = tmp_path / "server"
    subprocess.run(["git", "clone", "-q", str(origin), str(server)], check=True)
    for key, value in (("user.name", "bob"), ("user.email", "bob@example.com")):
        subprocess.run(["git", "-C", str(server), "config", key, value], check=True)
    repo = MemoryRepo(server)
    repo.apply(
        {"staging.md": b"---\nname: staging\n---\n\nStaging resets nightly.\n"},
        CommitKind.EXTRACT,
        "session 7f3a: saved 1 memory",
        [("Memsync-Session", "7f3a")],
    )
    subprocess.run(
        ["git", "-C", str(server), "push", "-q", "origin", "HEAD:refs/heads/members/bob"],
        check=True,
    )
    (desktop.path / "oncall.md").write_text("---\nname: oncall\n---\n\nPager rotates.\n")

    with pytest.raises(BranchMoved) as refused:
        desktop.push()

    assert "extract: session 7f3a: saved 1 memory" in str(refused.value)
    assert "the server's extraction of your uploaded sessions" in str(refused.value)
    assert "another clone" not in str(refused.value)
