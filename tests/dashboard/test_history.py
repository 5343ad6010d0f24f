"""History (SPEC W2): kinds, authors, sessions; a commit's diff as data laid out; revert."""

from __future__ import annotations

import re

from django.urls import reverse

from memsync.store import MAIN, CommitKind, Identity
from tests.dashboard.world import commit_memories, dream, entry, topic


def history_url(page: int | None = None) -> str:
    url = reverse("dashboard:history", args=["acme"])
    return url + (f"?page={page}" if page else "")


def commit_url(sha: str) -> str:
    return reverse("dashboard:commit", args=["acme", sha])


def revert_url(sha: str) -> str:
    return reverse("dashboard:commit-revert", args=["acme", sha])


def test_it_lists_commits_with_kind_memory_names_author_session_model_and_tokens(world):
    commit_memories(
        world.repo(),
        {"a.md": topic("a", "A fact")},
        summary="3f9c2a — saved 1 memory",
        trailers=(
            ("Memsync-Session", "3f9c2a"),
            ("Memsync-Model", "claude-sonnet-4-5"),
            ("Memsync-Tokens", "in=812 out=96 cache_read=0 cache_write=0"),
        ),
        author=Identity("Bob Member", "bob@example.com"),
    )
    commit_memories(world.repo(), {"b.md": topic("b", "B")}, kind=CommitKind.SYNC, summary="push")

    page = world.client("carol").get(history_url()).content.decode()

    assert 'class="badge kind kind-extract">extract<' in page
    assert 'class="badge kind kind-sync">sync<' in page
    assert '<a href="/p/acme/memory/a.md">a.md</a>' in page
    assert '<span class="headline">saved 1 memory</span>' in page  # not the session id
    assert "3f9c2a" in page and "claude-sonnet-4-5" in page
    assert "<code>in=812 out=96</code>" in page  # the zero cache counts left out


def test_it_shows_only_the_trailers_that_say_something(world):
    commit_memories(
        world.repo(),
        {"a.md": topic("a", "A fact")},
        summary="s-9 — saved 1 memory",
        trailers=(("Memsync-Session", "s-9"), ("Memsync-Model", "none"),
                  ("Memsync-Tokens", "in=0 out=0 cache_read=0 cache_write=0")),
    )  # fmt: skip

    page = world.client("carol").get(history_url()).content.decode()

    assert "model" not in page.split("<tbody>")[1]
    assert "tokens" not in page.split("<tbody>")[1] and "in=0" not in page


def test_one_user_is_one_author_whatever_name_git_wrote(world):
    world.users["bob"].first_name, world.users["bob"].last_name = "Bob", "Chen"
    world.users["bob"].save()
    repo = world.repo()
    commit_memories(repo, {"a.md": b"a\n"}, author=Identity("bob", "bob@example.com"))
    commit_memories(repo, {"b.md": b"b\n"}, author=Identity("Bob Chen", "bob@example.com"))

    page = world.client("carol").get(history_url()).content.decode()

    assert page.count('<td class="author">Bob Chen</td>') == 2
    assert '<td class="author">bob</td>' not in page


def test_a_revert_of_a_revert_reads_once(world):
    repo = world.repo()
    sha = commit_memories(repo, {"a.md": b"a\n"}, summary="saved a")
    first = repo.revert(sha)
    assert first.commit is not None
    repo.revert(first.commit)

    page = world.client("carol").get(history_url()).content.decode()

    assert "revert revert" not in page and 'revert "' not in page
    assert "undid “undid “saved a””" in page
    top = repo.rev_parse("main")
    assert top is not None
    commit_page = world.client("carol").get(commit_url(top)).content.decode()
    assert "</span> undid “undid “saved a””</h1>" in commit_page


def test_it_filters_by_kind_author_and_file(world):
    repo = world.repo()
    bob = Identity("bob", "bob@example.com")
    commit_memories(repo, {"a.md": b"a\n"}, CommitKind.EXTRACT, "alpha by bob", author=bob)
    commit_memories(repo, {"b.md": b"b\n"}, CommitKind.SYNC, "beta by bob", author=bob)
    commit_memories(repo, {"a.md": b"a2\n"}, CommitKind.EXTRACT, "gamma by alice",
                    author=Identity("Alice A", "alice@example.com"))  # fmt: skip
    carol = world.client("carol")

    def shown(query: str) -> set[str]:
        page = carol.get(f"{history_url()}?{query}").content.decode()
        return {word for word in ("alpha", "beta", "gamma") if f"{word} by" in page}

    assert shown("kind=extract") == {"alpha", "gamma"}
    assert shown("author=bob") == {"alpha", "beta"}
    assert shown("file=a.md") == {"alpha", "gamma"}
    assert shown("kind=extract&author=bob&file=a.md") == {"alpha"}
    assert shown("kind=dream") == set()
    assert "No commit matches these filters" in carol.get(f"{history_url()}?kind=dream").text


def test_a_filtered_history_pages_with_its_filters(world):
    repo = world.repo()
    for number in range(33):
        commit_memories(repo, {"n.md": f"{number}\n".encode()}, CommitKind.SYNC, f"change {number}")

    page = world.client("carol").get(f"{history_url()}?kind=sync").content.decode()

    assert '<a href="?kind=sync&amp;page=2" rel="next">' in page


def test_it_pages_through_a_long_history(world):
    repo = world.repo()
    for number in range(35):
        commit_memories(repo, {"n.md": f"note {number}\n".encode()}, summary=f"change {number}")

    first = world.client("carol").get(history_url()).content.decode()
    second = world.client("carol").get(history_url(2)).content.decode()

    assert "change 34" in first and "change 5<" in first and "change 4<" not in first
    assert "change 4<" in second and "change 34" not in second
    assert 'rel="next"' in first and 'rel="prev"' in second


def test_a_commit_page_shows_the_index_first_then_files_with_numbered_coloured_lines(world):
    repo = world.repo()
    commit_memories(repo, {"a.md": b"one\ntwo\nthree\n", "z.md": b"zed\n"})
    sha = commit_memories(
        repo,
        {
            "a.md": b"one\n2\nthree\n",
            "MEMORY.md": entry("A", "a.md", "<b>hook</b>").encode(),
            "b.md": b"<script>alert(1)</script>\n",
        },
    )

    page = world.client("carol").get(commit_url(sha)).content.decode()

    positions = [page.index(f'data-path="{path}"') for path in ("MEMORY.md", "a.md", "b.md")]
    assert positions == sorted(positions)
    assert re.search(r'<tr class="dl deleted"><td class="num">2</td><td class="num"></td>'
                     r'<td class="mark">−</td><td class="code"><code>two</code>', page)  # fmt: skip
    assert re.search(r'<tr class="dl added"><td class="num"></td><td class="num">2</td>'
                     r'<td class="mark">\+</td><td class="code"><code>2</code>', page)  # fmt: skip
    assert '<tr class="dl context"><td class="num">1</td><td class="num">1</td>' in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page
    assert "&lt;b&gt;hook&lt;/b&gt;" in page


def test_a_commit_page_handles_binary_empty_and_no_final_newline_files(world):
    repo = world.repo()
    sha = commit_memories(
        repo,
        {"pic.png": b"\x89PNG\r\n\x1a\n\x00\x00binary", "empty.md": b"", "tail.md": b"no newline"},
    )

    page = world.client("carol").get(commit_url(sha)).content.decode()

    assert "Binary file added" in page
    assert "Empty file added." in page
    assert "The new version has no newline at the end of the file." in page


def test_a_merge_commit_shows_what_it_brought_into_main(world):
    repo = world.repo()
    commit_memories(repo, {"a.md": topic("a", "Before")})
    outcome = dream(world.acme, {"a.md": topic("a", "After the dream")})
    world.client("alice").post(
        reverse("dashboard:proposal-approve", args=["acme", outcome.dream_id]), {"keep": ["a.md"]}
    )
    merge = repo.commit_info(MAIN)

    page = world.client("carol").get(commit_url(merge.sha)).content.decode()

    assert merge.is_merge
    assert "what this merge brought into main" in page
    assert "After the dream" in page and 'class="dl added"' in page


def test_a_maintainer_reverts_an_extraction_and_later_edits_stay(world):
    repo = world.repo()
    commit_memories(repo, {"a.md": b"base\n"}, summary="base")
    extraction = commit_memories(
        repo, {"wrong.md": b"a wrong fact\n"}, summary="s9 — saved 1 memory"
    )
    commit_memories(repo, {"a.md": b"base, edited later\n"}, kind=CommitKind.SYNC)
    alice = world.client("alice")

    confirm = alice.get(revert_url(extraction)).content.decode()
    response = alice.post(revert_url(extraction))

    assert "A new commit on <code>main</code> will undo the changes below" in confirm
    assert response.status_code == 302
    head = repo.commit_info(MAIN)
    assert head.kind == "revert" and head.trailer("Memsync-Reverts") == extraction
    assert head.author_name == "alice"
    assert repo.read(MAIN, "wrong.md") is None
    assert repo.read(MAIN, "a.md") == b"base, edited later\n"
    assert response["Location"] == commit_url(head.sha)
    page = alice.get(commit_url(extraction)).content.decode()
    assert "This commit was reverted by" in page and "Revert…" not in page


def test_a_maintainer_reverts_an_adopted_dream_keeping_later_edits(world):
    repo = world.repo()
    commit_memories(repo, {"a.md": b"a\n", "b.md": b"b\n"})
    outcome = dream(world.acme, {"a.md": b"a, by the dream\n"})
    alice = world.client("alice")
    alice.post(
        reverse("dashboard:proposal-approve", args=["acme", outcome.dream_id]), {"keep": ["a.md"]}
    )
    adoption = repo.rev_parse(MAIN)
    commit_memories(repo, {"b.md": b"b, edited after the dream\n"})

    alice.post(revert_url(adoption))

    assert repo.read(MAIN, "a.md") == b"a\n"
    assert repo.read(MAIN, "b.md") == b"b, edited after the dream\n"
    proposal = alice.get(reverse("dashboard:proposal", args=["acme", outcome.dream_id]))
    assert 'id="proposal-status">reverted<' in proposal.content.decode()


def test_a_revert_that_conflicts_with_later_edits_changes_nothing_and_says_why(world):
    repo = world.repo()
    commit_memories(repo, {"a.md": b"one\n"})
    extraction = commit_memories(repo, {"a.md": b"two\n"})
    commit_memories(repo, {"a.md": b"three\n"})
    head = repo.rev_parse(MAIN)

    response = world.client("alice").post(revert_url(extraction), follow=True)

    assert repo.rev_parse(MAIN) == head
    assert "later edits to a.md conflict with undoing this commit" in response.content.decode()


def test_every_commit_on_main_offers_a_revert_with_one_confirmation(world):
    commit_memories(world.repo(), {"a.md": b"x\n"})
    sync = commit_memories(world.repo(), {"a.md": b"y\n"}, kind=CommitKind.SYNC)
    alice = world.client("alice")

    page = alice.get(commit_url(sync)).content.decode()
    confirm = alice.get(revert_url(sync)).content.decode()
    response = alice.post(revert_url(sync), follow=True)

    assert "Revert…" in page and "Revert this sync" in confirm
    assert "Reverted" in response.content.decode()
    assert world.repo().read(MAIN, "a.md") == b"x\n"
    assert world.repo().log(MAIN, limit=1)[0].kind == CommitKind.REVERT


def test_a_commit_already_reverted_offers_no_second_revert(world):
    commit_memories(world.repo(), {"a.md": b"x\n"})
    sync = commit_memories(world.repo(), {"a.md": b"y\n"}, kind=CommitKind.SYNC)
    alice = world.client("alice")
    alice.post(revert_url(sync))
    head = world.repo().rev_parse(MAIN)

    response = alice.post(revert_url(sync), follow=True)

    assert "Already reverted by" in response.content.decode()
    assert "Revert…" not in alice.get(commit_url(sync)).content.decode()
    assert world.repo().rev_parse(MAIN) == head


def test_members_and_viewers_cannot_revert(world):
    extraction = commit_memories(world.repo(), {"a.md": b"x\n"})

    assert world.client("bob").post(revert_url(extraction)).status_code == 403
    assert world.client("carol").get(revert_url(extraction)).status_code == 403
    assert "Revert…" not in world.client("bob").get(commit_url(extraction)).content.decode()
    assert world.repo().rev_parse(MAIN) == extraction


def test_an_unknown_commit_is_404(world):
    assert world.client("carol").get(commit_url("0" * 40)).status_code == 404


def test_a_full_id_that_names_no_commit_is_404(world):
    repo = world.repo()
    commit_memories(repo, {"a.md": b"x\n"})
    blob = repo.blobs(MAIN)["a.md"]

    for sha in (blob, "a" * 40):
        assert world.client("carol").get(commit_url(sha)).status_code == 404
