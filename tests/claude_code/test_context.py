"""Team memory reaches the model, as the real Claude Code sends it (issue 11, items 2,
3 and 5): a member links and pulls with the real ``memsync`` against gunicorn running
memsync, then ``claude -p`` runs in the same HOME against the scripted Messages API,
and we read what it sent."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memsync.memory.limits import MAX_INDEX_LINES, MAX_INDEX_UNITS, utf16_len
from memsync.memory.managed import split_managed
from tests.claude_code.harness import ClaudeCode
from tests.client.test_team_context import commit_on_main
from tests.support.messages_server import tool_use
from tests.sync.conftest import GitServer, Team, topic

pytestmark = pytest.mark.slow
MEMSYNC = [sys.executable, "-m", "memsync.client.cli"]
PRIVATE = "".join(
    f"- [Private {n}](private-{n}.md) — PRIVATE_LINE_{n:02} my own note\n" for n in range(30)
)


class Member:
    """bob on the machine Claude Code runs on: same HOME, same settings."""

    def __init__(self, claude: ClaudeCode, server: GitServer, token: str, project: Path) -> None:
        self.claude, self.server, self.token, self.project = claude, server, token, project
        (claude.home / ".gitconfig").write_text(
            "[user]\n\tname = bob\n\temail = bob@example.com\n[init]\n\tdefaultBranch = main\n"
        )

    def memsync(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {**self.claude.env, "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0",
               "MEMSYNC_TOKEN": self.token}  # fmt: skip
        done = subprocess.run(
            [*MEMSYNC, *args], cwd=self.project, env=env, capture_output=True, text=True,
            timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, f"memsync {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
        return done

    def link(self, slug: str) -> subprocess.CompletedProcess[str]:
        self.memsync("login", self.server.url, "--user", "bob")
        return self.memsync("link", slug)


@pytest.fixture
def bob(claude_code: ClaudeCode, git_server: GitServer, team: Team) -> Member:
    return Member(claude_code, git_server, team.tokens["bob"], claude_code.project("shop"))


def test_a_team_memory_reaches_claude_codes_first_request_after_link_and_pull(
    claude_code: ClaudeCode, bob: Member, team: Team
):
    commit_on_main(team, {
        "deploy-freeze.md": topic("deploy-freeze", "No deploys on Fridays"),
        "MEMORY.md": "- [Deploy freeze](deploy-freeze.md) — TEAM_MARKER_LINK_5d1e\n",
    })  # fmt: skip
    bob.link(team.slug)
    before = claude_code.run("hi", cwd=bob.project)
    commit_on_main(team, {"on-call.md": topic("on-call", "TEAM_MARKER_PULL_8c2a pager rota")})
    bob.memsync("pull")

    after = claude_code.run("hi", cwd=bob.project)

    assert "TEAM_MARKER_LINK_5d1e" in before.context_text()
    context = after.context_text()
    assert "TEAM_MARKER_LINK_5d1e" in context and "TEAM_MARKER_PULL_8c2a" in context
    assert "(team/deploy-freeze.md)" in context and "(team/on-call.md)" in context


def test_claude_code_warns_in_context_when_the_index_is_over_its_limits(
    claude_code: ClaudeCode,
):
    # What the next test relies on: an index over 200 lines draws Claude Code's WARNING.
    project = claude_code.project()
    lines = "".join(f"- [N{n}](n{n}.md) — note {n}\n" for n in range(MAX_INDEX_LINES + 20))
    (claude_code.memory_dir(project) / "MEMORY.md").write_text(lines)

    run = claude_code.run("hi", cwd=project)

    assert "WARNING: MEMORY.md is 220 lines (limit: 200)" in run.context_text()


def test_500_team_memories_keep_the_index_within_claude_codes_limits(
    claude_code: ClaudeCode, bob: Member, team: Team
):
    rule = "团队规则 {n}: 发布前必须通过全部集成测试 TEAM_{n:03}"
    files = {f"rule-{n:03}.md": topic(f"rule-{n:03}", rule.format(n=n)) for n in range(500)}
    commit_on_main(team, files)
    memory = claude_code.memory_dir(bob.project)
    (memory / "MEMORY.md").write_text(PRIVATE)
    bob.link(team.slug)

    run = claude_code.run("hi", cwd=bob.project)

    text = (memory / "MEMORY.md").read_text()
    lines = text.splitlines()
    assert len(lines) <= MAX_INDEX_LINES and utf16_len(text) <= MAX_INDEX_UNITS
    assert text.startswith(PRIVATE)
    context = run.context_text()
    assert "WARNING" not in context
    for n in range(30):
        assert f"PRIVATE_LINE_{n:02}" in context
    block = split_managed(text).block or []
    shown = [line for line in block if "(team/rule-" in line]
    assert len(shown) > 100
    assert block[-1] == f"- {500 - len(shown)} more team memories — recall finds them"
    assert block[-1] in context and shown[-1] in context


def test_reading_a_100_day_old_team_memory_carries_claude_codes_age_note(
    claude_code: ClaudeCode, bob: Member, team: Team
):
    commit_on_main(team, {"legacy-api.md": topic("legacy-api", "The v1 API is frozen")},
                   days_ago=100)  # fmt: skip
    commit_on_main(team, {"fresh.md": topic("fresh", "Something from today")})
    bob.link(team.slug)
    team_dir = claude_code.memory_dir(bob.project) / "team"

    run = claude_code.run(
        "what about the legacy api?",
        cwd=bob.project,
        steps=[[tool_use("Read", {"file_path": str(team_dir / "legacy-api.md")})]],
    )

    seen = run.context_text(run.requests[-1])
    assert "The v1 API is frozen" in seen
    assert "This memory is 100 days old" in seen


def test_auto_memory_directory_in_the_projects_shared_settings_is_where_memsync_links(
    claude_code: ClaudeCode, bob: Member, team: Team
):
    commit_on_main(team, {"rule.md": topic("rule", "TEAM_MARKER_SETTINGS_41b7")})
    claude_code.settings({"autoMemoryDirectory": "~/shop-memory"}, scope="project",
                         cwd=bob.project)  # fmt: skip

    bob.link(team.slug)
    run = claude_code.run("hi", cwd=bob.project)

    assert run.stated_memory_dir() == claude_code.home / "shop-memory"
    assert (claude_code.home / "shop-memory" / "team" / ".git").is_dir()
    assert "TEAM_MARKER_SETTINGS_41b7" in run.context_text()
