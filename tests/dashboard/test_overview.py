"""A project's overview (issue 13 item 6): this week's commits by kind with their
memories, who last changed each memory, and charts drawn as SVG on the server."""

from __future__ import annotations

from django.urls import reverse

from memsync.store import CommitKind, Identity
from memsync.store.overview import CACHE_NAME
from tests.dashboard.world import commit_days_ago, commit_memories, entry, topic

OVERVIEW = reverse("dashboard:overview", args=["acme"])
BOB = Identity("bob", "bob@example.com")


def seed(world) -> None:
    repo = world.repo()
    commit_days_ago(
        repo,
        {"MEMORY.md": entry("Old", "old.md", "old").encode(), "old.md": topic("old", "Old")},
        days=40,
        summary="s-old — saved 1 memory",
        author=Identity("Alice A", "alice@example.com"),
    )
    commit_memories(
        repo, {"fresh.md": topic("fresh", "Fresh")}, CommitKind.SYNC, "bob's push", author=BOB
    )


def test_it_lists_this_weeks_commits_by_kind_with_their_memories(world):
    seed(world)

    page = world.client("carol").get(OVERVIEW).text
    week = page.split('id="this-week"')[1].split('id="charts"')[0]

    assert '<span class="badge kind kind-sync">sync</span> 1 commit' in week
    assert '<a href="/p/acme/memory/fresh.md">fresh.md</a>' in week
    assert "by bob" in week
    assert "old.md" not in week  # 40 days ago


def test_it_names_who_last_changed_each_memory_once_per_user(world):
    world.users["bob"].first_name, world.users["bob"].last_name = "Bob", "Chen"
    world.users["bob"].save()
    seed(world)
    commit_memories(world.repo(), {"second.md": topic("second", "Second")},
                    author=Identity("Bob Chen", "bob@example.com"))  # fmt: skip

    page = world.client("carol").get(OVERVIEW).text
    authors = page.split('id="authors"')[1]

    assert authors.count('<tr class="author-row">') == 2
    assert 'Bob Chen<div class="muted">2 memories</div>' in authors
    assert 'alice<div class="muted">1 memory</div>' in authors  # alice@example.com is alice
    bobs = authors.split("Bob Chen")[1].split('<tr class="author-row">')[0]
    assert "second.md" in bobs and "fresh.md" in bobs


def test_it_draws_three_charts_as_inline_svg_and_caches_them_by_main(world):
    seed(world)

    page = world.client("carol").get(OVERVIEW).text

    assert page.count("<svg ") == 3 and "<script" not in page
    assert "Memories <strong>2</strong>" in page
    assert "Index size (lines of MEMORY.md) <strong>1</strong>" in page
    assert 'class="limit"' in page  # the 200-line limit on the index chart
    head = world.repo().rev_parse("main")
    cache = world.repo().path / ".git" / "memsync" / CACHE_NAME
    assert head is not None and head in cache.read_text()


def test_a_project_with_only_its_set_up_commit_has_an_empty_overview(world):
    page = world.client("carol").get(OVERVIEW).text

    assert "<strong>0</strong> memories" in page
    assert "No memories on <code>main</code>." in page
