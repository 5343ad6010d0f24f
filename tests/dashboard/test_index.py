"""The index page (SPEC W1): MEMORY.md as the agent sees it, with type, age, freshness,
problems and limit breaches, filters, and no per-file Git calls."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from django.urls import reverse

from memsync.memory import FRESHNESS_NOTE
from memsync.store import CommitKind
from tests.dashboard.world import commit_days_ago, commit_memories, entry, topic


def commit_at(repo, files: dict[str, bytes], days_ago: int, summary: str = "saved") -> None:
    commit_days_ago(repo, files, days_ago, summary)


def index_url(world, **query: str) -> str:
    url = reverse("dashboard:index", args=[world.acme.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.fixture
def memories(world):
    repo = world.repo()
    commit_at(
        repo,
        {"old_deploy.md": topic("deploy", "Deploys go through the staging gate", "project")},
        days_ago=12,
    )
    commit_at(
        repo,
        {
            "user_role.md": topic("role", "Alice is the release manager", "user", "Alice.\n"),
            "terse.md": topic("terse", "Answer tersely in reviews", "feedback"),
            "MEMORY.md": (
                "# Memory\n\n## Team\n"
                + entry("Deploys", "old_deploy.md", "staging gate first")
                + entry("Role", "user_role.md", "who runs releases")
                + entry("Terse", "terse.md", "short review answers")
                + entry("Gone", "missing.md", "this file was deleted")
            ).encode(),
        },
        days_ago=0,
    )
    commit_memories(repo, {"orphan.md": topic("orphan", "Nobody links to me", "reference")})
    return repo


def test_it_shows_each_entry_with_its_type_description_and_age(world, memories):
    page = world.client("carol").get(index_url(world)).content.decode()

    assert "Deploys" in page and "staging gate first" in page
    assert "Alice is the release manager" in page  # the file's description
    assert 'class="badge type type-project"' in page
    assert 'class="badge type type-user"' in page
    assert "12 days ago" in page
    assert "today" in page


def test_it_shows_the_exact_freshness_note_for_memories_older_than_a_day(world, memories):
    page = world.client("carol").get(index_url(world)).content.decode()

    note = FRESHNESS_NOTE.format(days=12)
    assert note.replace("—", "&mdash;") in page or note in page
    assert page.count("Memories are point-in-time observations") == 1


def test_freshness_is_a_compact_badge_with_the_full_sentence_on_hover(world, memories):
    page = world.client("carol").get(index_url(world)).content.decode()

    note = FRESHNESS_NOTE.format(days=12).replace("'", "&#x27;").replace('"', "&quot;")
    assert f'<span class="badge age stale" title="{note}">12 days ago</span>' in page
    assert '<p class="note">' not in page


def test_a_description_the_entry_already_says_is_not_repeated(world):
    repeated = "When releases go out and who signs them off"
    new = "Payment sandbox keys for staging"
    commit_memories(
        world.repo(),
        {
            "train.md": topic("train", repeated),
            "pay.md": topic("pay", new),
            "MEMORY.md": (
                entry("Release train", "train.md", "when releases go out, who signs off")
                + entry("Payments", "pay.md", "which Stripe account")
            ).encode(),
        },
    )

    page = world.client("carol").get(index_url(world)).content.decode()

    assert repeated not in page
    assert page.count(new) == 1


def test_it_reports_a_dead_link_and_a_memory_missing_from_the_index(world, memories):
    page = world.client("carol").get(index_url(world)).content.decode()

    assert "links to missing.md, which does not exist" in page
    assert "Not in the index" in page and "orphan.md" in page
    assert "index-dead-link" in page and "not-indexed" in page


def test_it_marks_lines_past_the_200_line_limit_as_invisible_to_the_agent(world):
    repo = world.repo()
    lines = "".join(entry(f"Note {n}", f"note{n}.md", f"hook {n}") for n in range(1, 211))
    files = {f"note{n}.md": topic(f"note{n}", f"Note number {n}") for n in range(1, 211)}
    commit_memories(repo, {"MEMORY.md": lines.encode(), **files})

    page = world.client("carol").get(index_url(world)).content.decode()

    assert "lines 201–210 are past the limit" in page
    assert "The agent stops reading here" in page
    before_cut, after_cut = page.split("The agent stops reading here", 1)
    assert "Note 200<" in before_cut and "Note 201<" in after_cut
    assert after_cut.count("invisible to the agent") >= 10
    assert "index-too-many-lines" in page


def test_it_marks_lines_past_25000_bytes_as_invisible_to_the_agent(world):
    repo = world.repo()
    hook = "x" * 140
    lines = "".join(entry(f"Big {n}", f"big{n}.md", hook) for n in range(1, 181))
    commit_memories(repo, {"MEMORY.md": lines.encode()})

    page = world.client("carol").get(index_url(world)).content.decode()

    assert "index-too-large" in page
    _, after_cut = page.split("The agent stops reading here", 1)
    assert "Big 180<" in after_cut
    assert 'class="line entry invisible"' in page


def test_it_counts_the_index_size_in_utf16_units_as_claude_code_does(world):
    hook = "发布前必须通过全部集成测试并由值班同学确认" * 3
    lines = "".join(entry(f"规则 {n}", f"rule{n}.md", hook) for n in range(1, 181))
    assert len(lines.encode()) > 25_000
    commit_memories(world.repo(), {"MEMORY.md": lines.encode()})

    page = world.client("carol").get(index_url(world)).content.decode()

    assert "index-too-large" not in page and "The agent stops reading here" not in page
    assert "/ 25,000 characters" in page


def test_it_filters_entries_by_type(world, memories):
    page = world.client("carol").get(index_url(world, type="feedback")).content.decode()

    assert "Terse" in page
    assert "Deploys" not in page and "Role<" not in page
    assert "1 of 4 entries" in page


def test_it_filters_entries_by_staleness(world, memories):
    stale = world.client("carol").get(index_url(world, age="stale")).content.decode()
    fresh = world.client("carol").get(index_url(world, age="fresh")).content.decode()

    assert "Deploys" in stale and ">Terse<" not in stale
    assert "Deploys" not in fresh and ">Terse<" in fresh


def test_it_ignores_unknown_filter_values(world, memories):
    response = world.client("carol").get(index_url(world, type="<script>", age="forever"))

    assert response.status_code == 200
    assert "<script>" not in response.content.decode()
    assert ">Terse<" in response.content.decode()


def test_it_shows_the_team_scope_when_the_repository_has_one(world):
    repo = world.repo()
    commit_memories(
        repo,
        {
            "team/MEMORY.md": entry("Shared", "shared.md", "conventions").encode(),
            "team/shared.md": topic("shared", "Shared by the whole team", "reference"),
        },
    )

    page = world.client("carol").get(index_url(world, scope="team")).content.decode()

    assert "team/MEMORY.md" in page
    assert "Shared by the whole team" in page
    assert reverse("dashboard:memory", args=["acme", "team/shared.md"]) in page


def test_it_says_so_when_the_project_has_no_memory_yet(world):
    page = world.client("carol").get(index_url(world)).content.decode()

    assert "There is no <code>MEMORY.md</code>" in page


def test_it_reads_a_2000_memory_project_without_a_git_call_per_file(world, tmp_path, monkeypatch):
    repo = world.repo()
    count = 2000
    files = {f"m{n:04d}.md": topic(f"m{n}", f"Memory number {n}") for n in range(count)}
    index = "".join(entry(f"M {n}", f"m{n:04d}.md", f"hook {n}") for n in range(150))
    files["MEMORY.md"] = index.encode()
    commit_memories(repo, files)
    commit_memories(repo, {"m0001.md": topic("m1", "Changed later")})

    # A real git in front of the real one, counting every process the page starts.
    log = tmp_path / "git-calls.log"
    wrapper_dir = tmp_path / "bin"
    wrapper_dir.mkdir()
    real_git = next(
        Path(d) / "git" for d in os.environ["PATH"].split(os.pathsep) if (Path(d) / "git").exists()
    )
    wrapper = wrapper_dir / "git"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> "{log}"\nexec "{real_git}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{wrapper_dir}{os.pathsep}{os.environ['PATH']}")

    response = world.client("carol").get(index_url(world))

    assert response.status_code == 200
    assert "Memory number 149" in response.content.decode()
    calls = log.read_text().splitlines()
    assert len(calls) <= 8, calls
    assert sum("cat-file --batch" in call for call in calls) == 1


def test_it_renders_index_text_as_text_not_markup(world):
    repo = world.repo()
    commit_memories(
        repo,
        {
            "MEMORY.md": (
                "<script>alert('index')</script>\n"
                + entry("<img src=x onerror=alert(1)>", "a.md", "<b>bold</b> hook")
            ).encode(),
            "a.md": topic("a", "<script>alert('desc')</script>"),
        },
        kind=CommitKind.SYNC,
    )

    page = world.client("carol").get(index_url(world)).content.decode()

    assert "<script>alert" not in page
    assert "<img src=x" not in page and "<b>bold</b>" not in page
    assert "&lt;script&gt;alert(&#x27;index&#x27;)&lt;/script&gt;" in page


def test_files_missing_from_the_index_come_a_page_at_a_time_with_the_filters_kept(world):
    repo = world.repo()
    commit_memories(
        repo, {f"note_{n:03d}.md": topic(f"n{n}", f"Note {n}", "project") for n in range(250)}
    )

    first = world.client("carol").get(index_url(world)).content.decode()
    last = world.client("carol").get(index_url(world, type="project", page="3")).content.decode()
    first, last = (
        page.split('id="not-indexed"')[1].split('id="problems"')[0] for page in (first, last)
    )

    assert first.startswith('>Not in the index <span class="muted">(250)</span>')
    assert "note_000.md" in first and "note_099.md" in first and "note_100.md" not in first
    assert "1–100 of 250" in first and "page=2#not-indexed" in first
    assert "note_249.md" in last and "note_199.md" not in last
    assert "type=project&amp;page=2#not-indexed" in last  # the filter stays on every page


def test_the_problems_table_comes_a_page_at_a_time(world):
    repo = world.repo()
    commit_memories(repo, {f"n{n:03d}.md": topic(f"n{n}", f"N {n}", "project") for n in range(80)})

    first, last = (
        world.client("carol").get(url).content.decode().split('id="problems"')[1]
        for url in (index_url(world), index_url(world, type="user", problems="2"))
    )

    # 80 files nobody indexes, and no MEMORY.md: 80 problems, 50 on the first page
    assert first.count('class="problem-row') == 50
    assert "1–50 of 80; <code>memsync check</code> lists every one" in first
    assert "problems=2#problems" in first and ">n049.md<" in first and ">n050.md<" not in first
    assert last.count('class="problem-row') == 30 and ">n079.md<" in last
    assert "type=user&amp;problems=1#problems" in last  # the filters stay on every page
