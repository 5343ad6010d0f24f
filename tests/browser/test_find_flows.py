"""Finding things in a real browser (issue 13 items 3, 6, 7): the search box on every
project page with marked hits and its limit, the overview's charts, and the history's
filters — with screenshots of each for the README's tour."""

from __future__ import annotations

import pytest

from dashboard.search import MAX_QUERY_CHARS
from memsync.store import CommitKind, Identity
from tests.browser.scene import ROLE, build_team_scene
from tests.dashboard.world import commit_memories

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def scene(live_world):
    scene = build_team_scene(live_world)
    # alice fixes a memory in the dashboard: a second author on main.
    commit_memories(
        scene.repo,
        {"user_role.md": ROLE.replace(b"keeps the calendar", b"keeps the shared calendar")},
        CommitKind.MANUAL,
        "user_role.md: the calendar is shared",
        author=Identity("alice", "alice@example.com"),
    )
    return scene


def test_a_viewer_searches_from_the_nav_and_opens_a_hit(scene, open_session):
    carol = open_session("carol")
    page = carol.page

    page.goto("/p/acme/history/")
    page.fill("nav .nav-search input[name=q]", "deploy tuesdays")
    page.press("nav .nav-search input[name=q]", "Enter")
    page.wait_for_selector("ol.search-hits")

    first = page.locator(".search-hit").first
    assert first.locator("a.title").inner_text() == "deploy-process"
    marked = {text.lower() for text in page.locator(".search-hit mark").all_inner_texts()}
    assert {"deploy", "tuesdays"} <= marked
    carol.screenshot("search")
    first.locator("a.title").click()
    page.wait_for_url("**/memory/deploy_process.md")


def test_a_search_with_no_hit_and_one_too_long_say_so(scene, open_session):
    page = open_session("carol").page

    page.goto("/p/acme/search/?q=kafka+certificates")
    assert "No memory matches" in page.inner_text("#search-none")
    page.fill("#search-q", "x" * (MAX_QUERY_CHARS + 1))
    page.click("form.search-page button[type=submit]")
    page.wait_for_selector("#search-error")
    assert f"at most {MAX_QUERY_CHARS} characters" in page.inner_text("#search-error")


def test_the_overview_shows_the_week_the_authors_and_three_charts(scene, open_session):
    alice = open_session("alice")
    page = alice.page

    page.goto("/p/acme/")
    page.click("nav.tabs >> text=Overview")
    page.wait_for_selector("figure.chart svg polyline")

    assert page.locator("figure.chart").count() == 3
    week = page.inner_text(".week-kind:has(.kind-extract)")
    assert "testing_rules.md" in week and "review_style.md" in week
    authors = page.inner_text("table.authors")
    assert "alice\n1 memory" in authors and "memsync extract\n4 memories" in authors
    alice.screenshot("overview")


def test_the_history_filters_by_kind_author_and_file(scene, open_session):
    carol = open_session("carol")
    page = carol.page

    page.goto("/p/acme/history/")
    carol.screenshot("history")
    page.select_option("#history-filters select[name=kind]", "extract")
    page.click("#history-filters button[type=submit]")
    page.wait_for_url("**kind=extract**")
    kinds = page.locator("tr.commit-row .badge.kind").all_inner_texts()
    assert kinds and set(kinds) == {"extract"}

    page.select_option("#history-filters select[name=kind]", "")
    page.select_option("#history-filters select[name=author]", "bob")
    page.click("#history-filters button[type=submit]")
    page.wait_for_url("**author=bob**")
    assert set(page.locator("tr.commit-row td.author").all_inner_texts()) == {"bob"}

    page.select_option("#history-filters select[name=author]", "")
    page.fill("#history-filters input[name=file]", "testing_rules.md")
    page.click("#history-filters button[type=submit]")
    page.wait_for_url("**file=testing_rules.md**")
    rows = page.locator("tr.commit-row")
    assert rows.count() == 1 and "testing_rules.md" in rows.first.inner_text()
    carol.screenshot("history-filtered")
