"""Search (issue 13 item 3): recall's ranking over main, hits marked after escaping,
the empty and no-result states, and the query length limit."""

from __future__ import annotations

import threading

from django.urls import reverse

from dashboard.recall_index import indexed
from dashboard.search import MAX_QUERY_CHARS
from tests.dashboard.world import commit_memories, entry, topic


def search_url(query: str | None = None) -> str:
    url = reverse("dashboard:search", args=["acme"])
    return url if query is None else f"{url}?q={query}"


def seed(world) -> None:
    commit_memories(
        world.repo(),
        {
            "MEMORY.md": (entry("Deploys", "deploys.md", "Tuesdays")
                          + entry("Review", "review.md", "short comments")).encode(),
            "deploys.md": topic("deploy-process", "Releases go out on Tuesdays", body=(
                "Deploy to staging first.\n\nProduction deploys wait for the smoke suite.\n")),
            "review.md": topic("review-style", "Review comments are short"),
        },
    )  # fmt: skip


def test_it_finds_memories_and_marks_the_words_that_matched(world):
    seed(world)

    page = world.client("carol").get(search_url("deploys")).content.decode()

    title = '<a class="title" href="/p/acme/memory/deploys.md"><mark>deploy</mark>-process</a>'
    assert title in page
    assert '<p class="snippet"><mark>Deploy</mark> to staging first.</p>' in page
    assert "review-style" not in page


def test_a_memory_cannot_inject_markup_through_a_hit(world):
    commit_memories(
        world.repo(),
        {
            "evil.md": topic(
                "evil",
                "<script>alert('x')</script> deploy",
                body="<img src=x onerror=alert(1)> deploy\n",
            )
        },
    )

    page = world.client("carol").get(search_url("deploy")).content.decode()

    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; <mark>deploy</mark>" in page
    assert "&lt;img src=x onerror=alert(1)&gt; <mark>deploy</mark>" in page


def test_it_says_so_when_nothing_matches_and_when_nothing_was_asked(world):
    seed(world)
    carol = world.client("carol")

    assert 'id="search-none"' in carol.get(search_url("kafka")).text
    assert 'id="search-none"' in carol.get(search_url("how do we")).text  # stop words only
    assert 'id="search-empty"' in carol.get(search_url()).text
    assert 'id="search-empty"' in carol.get(search_url("   ")).text


def test_a_query_over_the_limit_is_refused_with_a_clear_error(world):
    seed(world)

    response = world.client("carol").get(search_url("x" * (MAX_QUERY_CHARS + 1)))

    assert response.status_code == 400
    assert f"A search is at most {MAX_QUERY_CHARS} characters (this one has 201)" in response.text


def test_every_project_page_has_the_search_box(world):
    seed(world)
    carol = world.client("carol")

    for name in ("index", "history", "overview", "team", "activity", "proposals"):
        page = carol.get(reverse(f"dashboard:{name}", args=["acme"])).text
        assert f'action="{search_url()}" class="nav-search" role="search"' in page, name


def test_a_project_without_memory_says_there_is_nothing_to_search(world):
    page = world.client("carol").get(search_url("anything")).text

    assert "no memory on <code>main</code> yet" in page


def test_each_thread_gets_its_own_index_of_a_commit(world):
    """The index is an in-memory SQLite database: a threaded server must not hand one
    thread's connection to another (SQLite refuses it)."""
    seed(world)
    repo = world.repo()
    commit = repo.rev_parse("main")
    assert commit is not None
    found_elsewhere: list[str] = []

    def search_in_a_thread() -> None:
        _, index = indexed(repo, commit)
        found_elsewhere.extend(hit.document.path for hit in index.search("deploys"))

    thread = threading.Thread(target=search_in_a_thread)
    thread.start()
    thread.join()
    _, index = indexed(repo, commit)

    assert [hit.document.path for hit in index.search("deploys")] == found_elsewhere
    assert found_elsewhere[:1] == ["deploys.md"]
