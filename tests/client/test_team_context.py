"""Team memory where Claude Code looks for it: after ``memsync link`` and ``pull`` the
private ``MEMORY.md`` indexes the team's memories in a managed block, team files carry
their commit times as mtimes, and ``unlink`` takes it all away again. Real ``memsync``
and ``git`` processes against gunicorn running memsync."""

from __future__ import annotations

import os
import subprocess
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memsync.memory.managed import BEGIN, END, split_managed
from tests.client.conftest import Developer
from tests.sync.conftest import Team, topic

pytestmark = pytest.mark.slow
PRIVATE = "# My memory\n- [Role](user-role.md) — I review the payments code\n"


def commit_on_main(team: Team, files: dict[str, str], *, days_ago: int = 0) -> str:
    """Commit straight onto the server's main, dated ``days_ago``, as a merge would."""
    root = team.repo.path
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    when = (datetime.now(UTC) - timedelta(days=days_ago)).isoformat()
    env = {
        **os.environ,
        "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_DATE": when,
        "GIT_AUTHOR_NAME": "alice",
        "GIT_AUTHOR_EMAIL": "alice@example.com",
        "GIT_COMMITTER_NAME": "memsync",
        "GIT_COMMITTER_EMAIL": "memsync@example.com",
    }
    for args in (["add", "--all"], ["commit", "-q", "-m", f"manual: {', '.join(files)}"]):
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)
    return team.repo.head() or ""


def private_index(developer: Developer) -> str:
    return (developer.team_dir.parent / "MEMORY.md").read_text(encoding="utf-8")


def test_link_writes_team_entries_into_the_private_index_and_keeps_private_lines(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    commit_on_main(team, {
        "deploy-freeze.md": topic("deploy-freeze", "No deploys on Fridays TEAM_MARKER_1"),
        "MEMORY.md": "- [Deploy freeze](deploy-freeze.md) — no Friday deploys TEAM_MARKER_1\n",
    })  # fmt: skip
    memory = bob.team_dir.parent
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text(PRIVATE)

    linked = bob.link(team.slug)

    text = private_index(bob)
    assert text.startswith(PRIVATE)
    assert BEGIN in text and text.endswith(END + "\n")
    assert "- [Deploy freeze](team/deploy-freeze.md) — no Friday deploys TEAM_MARKER_1" in text
    assert "1 team memories in context" in linked.stdout


def test_pull_regenerates_the_block_and_keeps_what_the_agent_wrote(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    # A day apart: the block lists newest first, and commits in one second would tie.
    commit_on_main(team, {"first.md": topic("first", "The first team rule")}, days_ago=1)
    bob.link(team.slug)
    index = bob.team_dir.parent / "MEMORY.md"
    # Claude Code appends a private entry at the end, and the agent adds one inside.
    text = index.read_text().replace(END, "- [Inside](inside.md) — agent wrote this\n" + END)
    index.write_text(text + "- [After](after.md) — appended by Claude Code\n")
    commit_on_main(team, {"second.md": topic("second", "The second team rule")})

    pulled = bob.memsync("pull")

    assert pulled.returncode == 0, pulled.stderr
    parts = split_managed(index.read_text())
    assert "- [Inside](inside.md) — agent wrote this" in parts.private
    assert "- [After](after.md) — appended by Claude Code" in parts.private
    assert parts.block == [
        "- [second](team/second.md) — The second team rule",
        "- [first](team/first.md) — The first team rule",
    ]
    assert "kept your line from the team block" in pulled.stdout


def test_pull_sets_team_files_mtime_to_their_last_commit_on_main(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    commit_on_main(team, {"old.md": topic("old", "An old rule")}, days_ago=100)
    commit_on_main(team, {"recent.md": topic("recent", "A recent rule")}, days_ago=3)
    bob.link(team.slug)
    (bob.team_dir / "old.md").touch()  # as if checked out again today
    commit_on_main(team, {"newer.md": topic("newer", "A new rule")}, days_ago=1)

    pulled = bob.memsync("pull")

    assert pulled.returncode == 0, pulled.stderr
    now = time.time()
    age = {name: (now - (bob.team_dir / name).stat().st_mtime) / 86_400 for name in (
        "old.md", "recent.md", "newer.md")}  # fmt: skip
    assert 99.9 < age["old.md"] < 100.1
    assert 2.9 < age["recent.md"] < 3.1
    assert 0.9 < age["newer.md"] < 1.1


def test_a_locally_edited_team_file_keeps_its_own_mtime(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    commit_on_main(team, {"rule.md": topic("rule", "A rule")}, days_ago=50)
    bob.link(team.slug)
    (bob.team_dir / "rule.md").write_text(topic("rule", "A rule, edited here"))

    assert bob.memsync("pull").returncode == 0

    assert time.time() - (bob.team_dir / "rule.md").stat().st_mtime < 3_600


def test_link_refuses_a_team_folder_synced_by_claude_codes_own_team_memory(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    bob.team_dir.mkdir(parents=True)
    (bob.team_dir / ".memory-sync").write_text("{}")
    bob.login()

    refused = bob.memsync("link", team.slug)

    assert refused.returncode == 2
    assert "synced by Claude Code's own team memory" in refused.stderr
    assert sorted(p.name for p in bob.team_dir.iterdir()) == [".memory-sync"]


def test_link_follows_the_shared_project_settings_as_claude_code_does(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    (bob.project / ".claude").mkdir()
    (bob.project / ".claude" / "settings.json").write_text('{"autoMemoryDirectory": "~/shared"}')

    bob.link(team.slug)

    assert (bob.home / "shared" / "team" / ".git").is_dir()


def test_unlink_removes_the_block_and_the_clone_but_not_unpushed_work(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    commit_on_main(team, {"rule.md": topic("rule", "A rule")})
    memory = bob.team_dir.parent
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text(PRIVATE)
    bob.link(team.slug)
    (bob.team_dir / "mine.md").write_text(topic("mine", "not pushed yet"))

    refused = bob.memsync("unlink")
    (bob.team_dir / "mine.md").unlink()
    done = bob.memsync("unlink")

    assert refused.returncode == 2 and "memsync push" in refused.stderr
    assert done.returncode == 0, done.stderr
    assert (memory / "MEMORY.md").read_text() == PRIVATE
    assert not bob.team_dir.exists()
    assert bob.memsync("pull", "--quiet").returncode == 0  # the hook: nothing linked now
    assert (memory / "MEMORY.md").read_text() == PRIVATE


def test_init_on_a_linked_directory_keeps_the_team_clone_out(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    commit_on_main(team, {"rule.md": topic("rule", "A rule")})
    bob.link(team.slug)
    memory: Path = bob.team_dir.parent

    done = bob.memsync("init", memory)

    assert done.returncode == 0, done.stderr
    tree = bob.git("ls-files", "-s", cwd=memory).stdout
    assert "team" not in tree and "160000" not in tree
    assert "/team/" in (memory / ".git" / "info" / "exclude").read_text().splitlines()
    assert bob.git("status", "--porcelain", cwd=memory).stdout == ""
