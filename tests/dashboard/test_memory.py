"""A memory's page: the sanitized body, the frontmatter, history and blame."""

from __future__ import annotations

from html.parser import HTMLParser

from django.urls import reverse

from dashboard.markdown import RENDER_LIMIT_CHARS, render_markdown
from memsync.store import CommitKind, Identity
from tests.dashboard.world import commit_memories, dream, entry, topic

HOSTILE = b"""---
name: <script>alert('name')</script>
description: "<img src=x onerror=alert('desc')>"
type: project
metadata:
  note: "<svg onload=alert('nested')>"
---

# Deploy notes

<script>alert('body')</script>
<img src="x" onerror="alert('img')">
<a href="https://example.com" onclick="alert('click')">click</a>
[js link](javascript:alert('link'))
[spaced](  javascript:alert('spaced'))
[entity](jav&#x61;script:alert('entity'))
[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)
<iframe src="https://evil.example"></iframe>
<style>body { display: none }</style>
[fine](https://example.com/docs) and `code <b>`

**Why:** hostile on purpose.
**How to apply:** render it inert.
"""


class Elements(HTMLParser):
    """Every element a browser would build from the HTML, with its attributes."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str | None]]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, dict(attrs)))


def memory_url(path: str) -> str:
    return reverse("dashboard:memory", args=["acme", path])


def test_a_hostile_memory_renders_inert(world):
    commit_memories(world.repo(), {"hostile.md": HOSTILE})

    response = world.client("carol").get(memory_url("hostile.md"))
    page = response.content.decode()

    assert response.status_code == 200
    body = page.split('<article class="markdown">', 1)[1].split("</article>", 1)[0]
    elements = Elements(body).found
    tags = {tag for tag, _ in elements}
    assert tags <= {"h1", "p", "a", "code", "strong", "br"}, tags
    for tag, attrs in elements:
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)
        if tag == "a":
            assert (attrs["href"] or "").startswith("https://"), attrs
    assert not {tag for tag, _ in Elements(page).found} & {"script", "iframe", "style", "svg"}
    assert "&lt;script&gt;alert('body')&lt;/script&gt;" in body  # shown as text
    assert '<a href="https://example.com/docs" rel="noopener noreferrer nofollow">fine</a>' in body
    assert "<code>code &lt;b&gt;</code>" in body
    # Frontmatter values are shown, escaped, in the table.
    assert "&lt;script&gt;alert(&#x27;name&#x27;)&lt;/script&gt;" in page
    assert "&lt;svg onload=alert(&#x27;nested&#x27;)&gt;" in page


def test_the_sanitizer_allows_only_safe_link_schemes():
    html = render_markdown(
        "[a](https://ok.example) [b](mailto:x@example.com) [c](vbscript:x) [d](file:///etc/passwd)"
    )

    assert 'href="https://ok.example"' in html and 'href="mailto:x@example.com"' in html
    assert "vbscript" not in html.replace("[c](vbscript:x)", "")
    assert 'href="vbscript' not in html and 'href="file' not in html


def test_a_huge_hostile_body_is_shown_as_escaped_plain_text(world):
    # 240 KB of "[" kept markdown-it busy for 6 s a view; past the limit the page shows
    # the text itself, escaped, and says why.
    body = "<script>alert(1)</script>" + "[" * 240_000
    data = f"---\nname: brackets\ndescription: hostile\ntype: project\n---\n{body}\n"
    commit_memories(world.repo(), {"brackets.md": data.encode()})

    page = world.client("carol").get(memory_url("brackets.md")).content.decode()

    article = page.split('<article class="markdown">', 1)[1].split("</article>", 1)[0]
    assert "over the 20,000-character limit for rendering Markdown" in article
    assert '<pre class="memory-plain">&lt;script&gt;alert(1)&lt;/script&gt;[[[' in article
    assert {tag for tag, _ in Elements(article).found} == {"p", "pre"}


def test_a_body_at_the_limit_is_still_rendered_as_markdown():
    text = "**bold** " + "x" * (RENDER_LIMIT_CHARS - 9)

    assert render_markdown(text).startswith("<p><strong>bold</strong>")
    assert "memory-plain" in render_markdown(text + "x")


def test_it_shows_the_frontmatter_as_a_table_keeping_unknown_keys(world):
    data = (
        b"---\nname: tabs\ndescription: Tabs not spaces\nmetadata:\n  type: feedback\n"
        b"originSessionId: 1af7fc5e\n---\n\nUse tabs.\n\n**Why:** team rule.\n"
        b"**How to apply:** in every file.\n"
    )
    commit_memories(
        world.repo(), {"tabs.md": data, "MEMORY.md": entry("Tabs", "tabs.md", "t").encode()}
    )

    page = world.client("carol").get(memory_url("tabs.md")).content.decode()

    assert "<code>originSessionId</code>" in page and "1af7fc5e" in page
    assert "type: feedback" in page  # the nested mapping, shown as YAML
    assert 'class="badge type type-feedback"' in page
    assert "<p>Use tabs.</p>" in page


def test_it_shows_the_memorys_problems(world):
    commit_memories(world.repo(), {"broken.md": b"---\nname: never closed\nbody\n"})

    page = world.client("carol").get(memory_url("broken.md")).content.decode()

    assert "frontmatter-broken" in page
    assert "not-indexed" in page


def test_it_lists_the_commits_that_changed_the_memory(world):
    repo = world.repo()
    commit_memories(
        repo,
        {"a.md": topic("a", "First version")},
        summary="s1 — saved 1 memory",
        trailers=(("Memsync-Session", "session-one"), ("Memsync-Model", "claude-x")),
    )
    commit_memories(repo, {"b.md": topic("b", "Unrelated")}, summary="other file")
    commit_memories(
        repo, {"a.md": topic("a", "Second version")}, kind=CommitKind.SYNC, summary="bob's push"
    )

    page = world.client("carol").get(memory_url("a.md")).content.decode()

    assert "saved 1 memory" in page and "bob&#x27;s push" in page
    assert "other file" not in page
    assert "session-one" in page and "claude-x" in page
    assert 'class="badge kind kind-sync"' in page


def test_blame_names_the_commit_session_and_dream_of_each_line(world):
    repo = world.repo()
    commit_memories(
        repo,
        {"a.md": b"line one\nline two\n", "MEMORY.md": entry("A", "a.md", "a").encode()},
        summary="first",
        trailers=(("Memsync-Session", "sess-42"),),
        author=Identity("Bob", "bob@example.com"),
    )
    outcome = dream(world.acme, {"a.md": b"line one\nline two, consolidated\n"})
    world.client("alice").post(
        reverse("dashboard:proposal-approve", args=["acme", outcome.dream_id]),
        {"keep": ["a.md"]},
    )

    page = world.client("carol").get(reverse("dashboard:blame", args=["acme", "a.md"])).content
    page = page.decode()

    first, second = page.split("line two, consolidated", 1)[0].rsplit('class="block-start"', 1)
    assert "sess-42" in first
    assert f"dream <code>{outcome.dream_id}</code>" in second
    assert 'class="badge kind kind-dream"' in second


def test_it_answers_404_for_a_memory_that_is_not_on_main(world):
    client = world.client("carol")

    assert client.get(memory_url("nope.md")).status_code == 404
    assert client.get(memory_url("../../etc/passwd")).status_code == 404
    assert client.get(memory_url(".git/config")).status_code == 404


def test_wiki_links_between_memories_link_to_their_pages(world):
    body = (
        "Freeze deploys on Fridays; see [[release-train]] and [[Release Train|the train]], "
        "not [[no-such-memory]].\n"
    )
    commit_memories(world.repo(), {
        "deploy-freeze.md": topic("deploy-freeze", "No Friday deploys", body=body),
        "release-train.md": topic("release-train", "Releases go out on Tuesdays"),
    })  # fmt: skip

    page = world.client("carol").get(memory_url("deploy-freeze.md")).content.decode()

    target = memory_url("release-train.md")
    assert f'<a href="{target}" rel="noopener noreferrer nofollow">release-train</a>' in page
    assert f'<a href="{target}" rel="noopener noreferrer nofollow">the train</a>' in page
    assert "[[no-such-memory]]" in page


def test_its_history_names_each_author_once_per_user(world):
    world.users["bob"].first_name, world.users["bob"].last_name = "Bob", "Chen"
    world.users["bob"].save()
    repo = world.repo()
    commit_memories(repo, {"a.md": topic("a", "A")}, author=Identity("bob", "bob@example.com"))
    commit_memories(
        repo, {"a.md": topic("a", "A2")}, author=Identity("Bob Chen", "bob@example.com")
    )

    page = world.client("carol").get(memory_url("a.md")).content.decode()

    assert page.count('<td class="author">Bob Chen</td>') == 2
