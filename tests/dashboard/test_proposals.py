"""Dream proposals (SPEC W3): review like a pull request, approve (whole or in part),
reject, and the warning when main moved since the dream started."""

from __future__ import annotations

from django.urls import reverse

from dashboard.models import Run, RunKind, RunStatus
from memsync.store import MAIN
from tests.dashboard.world import commit_memories, dream, entry, topic
from tests.support.refs import refs_written_long_ago

INDEX = entry("Deploy", "deploy.md", "deploys") + entry("Tabs", "tabs.md", "tabs")


def seed(world):
    repo = world.repo()
    commit_memories(
        repo,
        {
            "MEMORY.md": INDEX.encode(),
            "deploy.md": topic("deploy", "Deploy on Fridays"),
            "tabs.md": topic("tabs", "Use tabs", "feedback"),
        },
    )
    return repo


def url(name: str, dream_id: str | None = None) -> str:
    return reverse(f"dashboard:{name}", args=["acme", dream_id] if dream_id else ["acme"])


def test_the_list_shows_open_dreams_and_runs(world):
    seed(world)
    outcome = dream(world.acme, {"deploy.md": topic("deploy", "Never deploy on Fridays")},
                    summary="Improved 1 memory: deploy.md")  # fmt: skip
    Run.objects.create(project=world.acme, kind=RunKind.DREAM, status=RunStatus.RUNNING,
                       trigger="manual", progress={"phase": "updating"})  # fmt: skip

    page = world.client("carol").get(url("proposals")).content.decode()

    assert f"Dream {outcome.dream_id}" in page
    assert "Improved 1 memory: deploy.md" in page
    assert "2 sessions reviewed" in page
    assert 'class="status status-running">running<' in page and "updating" in page


def test_the_page_shows_summary_sessions_counts_and_the_diff_against_main(world):
    seed(world)
    outcome = dream(
        world.acme,
        {"deploy.md": topic("deploy", "Never deploy on Fridays"), "tabs.md": None,
         "MEMORY.md": entry("Deploy", "deploy.md", "deploys").encode()},
        summary="Improved 2 memories: merged tabs into deploy.",
    )  # fmt: skip

    page = world.client("carol").get(url("proposal", outcome.dream_id)).content.decode()

    assert "Improved 2 memories: merged tabs into deploy." in page
    assert "<dt>Sessions reviewed</dt><dd>2</dd>" in page
    assert "<dt>Engine</dt><dd>scripted (test-model)</dd>" in page
    assert '<th scope="row">Before</th><td>2</td><td>2</td>' in page
    assert '<th scope="row">After</th><td>1</td><td>1</td>' in page
    assert '<td id="visible-before">2</td>' in page and '<td id="visible-after">1</td>' in page
    assert 'id="visible-lowered"' not in page  # one entry fewer: tabs.md was merged away
    assert 'id="check-canaries"' in page
    assert page.index('data-path="MEMORY.md"') < page.index('data-path="deploy.md"')
    assert "Never deploy on Fridays" in page
    assert 'class="badge st-deleted">deleted<' in page
    assert "Approve" not in page  # carol is a viewer


def test_a_dream_hiding_entries_from_the_agent_is_flagged_above_the_diff(world):
    seed(world)
    outcome = dream(
        world.acme,
        {"indexes/all.md": ("# All\n\n" + INDEX.replace("](", "](../")).encode(),
         "MEMORY.md": entry("All", "indexes/all.md", "2 entries").encode()},
    )  # fmt: skip

    page = world.client("carol").get(url("proposal", outcome.dream_id)).content.decode()

    assert 'id="visible-lowered"' in page
    assert "Claude Code would see 1 entries of <code>MEMORY.md</code> instead of 2" in page
    assert page.index('id="visible-lowered"') < page.index('data-path="MEMORY.md"')


def test_a_dream_losing_a_fact_is_at_risk_with_the_canaries_above_the_diff(world):
    seed(world)
    index = entry("Tabs", "tabs.md", "tabs").encode()
    outcome = dream(world.acme, {"deploy.md": None, "MEMORY.md": index})

    page = world.client("carol").get(url("proposal", outcome.dream_id)).content.decode()

    assert '<span class="badge at-risk" id="at-risk">at risk</span>' in page
    assert "are no longer found: " in page and "friday (deploy.md)" in page
    assert page.index('id="check-canaries"') < page.index('data-path="MEMORY.md"')
    listed = world.client("carol").get(url("proposals")).content.decode()
    assert f"Dream {outcome.dream_id}" in listed


def test_approving_merges_the_dream_into_main(world):
    repo = seed(world)
    outcome = dream(world.acme, {"deploy.md": topic("deploy", "Never deploy on Fridays")})

    response = world.client("alice").post(
        url("proposal-approve", outcome.dream_id), {"keep": ["deploy.md"]}, follow=True
    )

    assert b"Never deploy on Fridays" in repo.read(MAIN, "deploy.md")
    head = repo.commit_info(MAIN)
    assert head.is_merge and head.trailer("Memsync-Dream") == outcome.dream_id
    assert head.trailer("Memsync-Approved-By").startswith("alice")
    page = response.content.decode()
    assert f"Adopted dream {outcome.dream_id} into main" in page
    assert 'id="proposal-status">adopted<' in page


def test_rejecting_keeps_main_and_the_dream_commit(world):
    repo = seed(world)
    main = repo.rev_parse(MAIN)
    outcome = dream(world.acme, {"deploy.md": topic("deploy", "Never deploy on Fridays")})

    response = world.client("alice").post(url("proposal-reject", outcome.dream_id), follow=True)

    assert repo.rev_parse(MAIN) == main
    assert repo.rev_parse(f"refs/memsync/rejected/{outcome.dream_id}") == outcome.commit
    assert repo.rev_parse(f"dream/{outcome.dream_id}") is None
    assert 'id="proposal-status">rejected<' in response.content.decode()


def test_a_maintainer_drops_a_file_and_approves_the_rest(world):
    repo = seed(world)
    outcome = dream(
        world.acme,
        {"deploy.md": topic("deploy", "Never deploy on Fridays"),
         "tabs.md": topic("tabs", "Tabs, width 4", "feedback"),
         "new.md": topic("new", "A new memory"),
         "MEMORY.md": (INDEX + entry("New", "new.md", "new")).encode()},
    )  # fmt: skip
    page = world.client("alice").get(url("proposal", outcome.dream_id)).content.decode()
    assert 'name="keep" value="tabs.md" checked' in page
    assert 'name="keep" value="MEMORY.md"' not in page

    world.client("alice").post(
        url("proposal-approve", outcome.dream_id), {"keep": ["deploy.md", "tabs.md"]}
    )

    assert b"Never deploy on Fridays" in repo.read(MAIN, "deploy.md")
    assert b"Tabs, width 4" in repo.read(MAIN, "tabs.md")
    assert repo.read(MAIN, "new.md") is None
    assert b"new.md" not in repo.read(MAIN, "MEMORY.md")
    assert repo.commit_info(MAIN).trailer_values("Memsync-Dropped") == ["new.md"]
    detail = world.client("carol").get(url("proposal", outcome.dream_id)).content.decode()
    assert "<dt>Left out</dt><dd><code>new.md</code>" in detail


def test_it_says_when_main_moved_and_which_files_would_conflict(world):
    repo = seed(world)
    outcome = dream(world.acme, {"deploy.md": topic("deploy", "The dream's version")})
    commit_memories(repo, {"deploy.md": topic("deploy", "Main's newer version")})
    main = repo.rev_parse(MAIN)

    page = world.client("alice").get(url("proposal", outcome.dream_id)).content.decode()
    response = world.client("alice").post(
        url("proposal-approve", outcome.dream_id), {"keep": ["deploy.md"]}, follow=True
    )

    assert "Main has moved" in page and "1 commit since this dream started" in page
    assert "would conflict: <code>deploy.md</code>" in page
    assert repo.rev_parse(MAIN) == main
    assert "Not approved: main changed the same files since this dream" in (
        response.content.decode()
    )


def test_main_moved_without_conflicts_is_a_real_merge(world):
    repo = seed(world)
    outcome = dream(world.acme, {"deploy.md": topic("deploy", "The dream's version")})
    commit_memories(repo, {"tabs.md": topic("tabs", "Tabs changed on main", "feedback")})

    page = world.client("alice").get(url("proposal", outcome.dream_id)).content.decode()
    world.client("alice").post(url("proposal-approve", outcome.dream_id), {"keep": ["deploy.md"]})

    assert "No file conflicts." in page
    assert b"The dream's version" in repo.read(MAIN, "deploy.md")
    assert b"Tabs changed on main" in repo.read(MAIN, "tabs.md")


def test_members_and_viewers_cannot_approve_or_reject(world):
    repo = seed(world)
    main = repo.rev_parse(MAIN)
    outcome = dream(world.acme, {"deploy.md": topic("deploy", "x")})

    for name in ("bob", "carol"):
        client = world.client(name)
        assert client.post(url("proposal-approve", outcome.dream_id)).status_code == 403
        assert client.post(url("proposal-reject", outcome.dream_id)).status_code == 403
    assert repo.rev_parse(MAIN) == main
    assert repo.rev_parse(f"dream/{outcome.dream_id}") == outcome.commit


def test_approving_a_decided_dream_again_changes_nothing(world):
    repo = seed(world)
    outcome = dream(world.acme, {"deploy.md": topic("deploy", "x")})
    alice = world.client("alice")
    alice.post(url("proposal-reject", outcome.dream_id))
    main = repo.rev_parse(MAIN)

    response = alice.post(url("proposal-approve", outcome.dream_id), follow=True)

    assert repo.rev_parse(MAIN) == main
    assert "This dream is rejected already." in response.content.decode()


def test_an_unknown_dream_is_404(world):
    assert world.client("carol").get(url("proposal", "20990101-0000-abcd")).status_code == 404


def test_the_list_starts_no_git_while_no_ref_moves(world, tmp_path, monkeypatch):
    seed(world)
    outcome = dream(world.acme, {"deploy.md": topic("deploy", "Never deploy on Fridays")})
    refs_written_long_ago(world.repo().path / ".git")
    client = world.client("carol")
    client.get(url("proposals"))  # reads the refs and the proposals
    trace = tmp_path / "git-trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))

    pages = [client.get(url("proposals")).content.decode() for _ in range(3)]

    assert all(f"Dream {outcome.dream_id}" in page for page in pages)
    assert not trace.exists(), trace.read_text()


def test_the_list_shows_a_dream_proposed_after_it_read_the_refs(world):
    seed(world)
    first = dream(world.acme, {"deploy.md": topic("deploy", "Never deploy on Fridays")})
    refs_written_long_ago(world.repo().path / ".git")
    client = world.client("carol")
    assert f"Dream {first.dream_id}" in client.get(url("proposals")).content.decode()

    second = dream(world.acme, {"tabs.md": topic("tabs", "Use spaces", "feedback")})
    refs_written_long_ago(world.repo().path / ".git")
    page = client.get(url("proposals")).content.decode()

    assert f"Dream {first.dream_id}" in page and f"Dream {second.dream_id}" in page
