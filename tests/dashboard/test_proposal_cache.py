"""The dream proposals the dashboard shows are cached per state of the refs they are read
from: a new dream, an approval, a rejection or a moved ``main`` shows on the next request."""

from __future__ import annotations

from django.core.cache import cache
from django.urls import reverse

from dashboard.services.proposal_cache import proposals, refs_key
from memsync.store import MAIN
from tests.dashboard.world import commit_memories, dream, entry, topic


def seed(world):
    repo = world.repo()
    commit_memories(
        repo,
        {
            "MEMORY.md": entry("Deploy", "deploy.md", "deploys").encode(),
            "deploy.md": topic("deploy", "Deploy on Fridays"),
        },
    )
    return repo


def listed(world) -> str:
    return world.client("carol").get(reverse("dashboard:proposals", args=["acme"])).content.decode()


def test_a_new_dream_shows_although_the_list_was_read_before(world):
    repo = seed(world)
    assert proposals(repo) == []

    outcome = dream(world.acme, {"deploy.md": topic("deploy", "Never deploy on Fridays")})

    assert [p.id for p in proposals(repo)] == [outcome.dream_id]
    assert f"Dream {outcome.dream_id}" in listed(world)


def test_a_rejection_shows_on_the_next_request(world):
    repo = seed(world)
    outcome = dream(world.acme, {"deploy.md": topic("deploy", "Never deploy on Fridays")})
    [before] = proposals(repo)
    assert before.is_open

    world.client("alice").post(
        reverse("dashboard:proposal-reject", args=["acme", outcome.dream_id])
    )

    [after] = proposals(repo)
    assert not after.is_open


def test_the_key_moves_with_main_and_ignores_member_branches(world):
    repo = seed(world)
    key = refs_key(repo)
    repo.create_branch("members/bob", MAIN)
    assert refs_key(repo) == key

    commit_memories(repo, {"tabs.md": topic("tabs", "Use tabs", "feedback")})

    assert refs_key(repo) != key


def test_a_new_worker_finds_the_proposals_read_by_another_on_disk(world):
    repo = seed(world)
    outcome = dream(world.acme, {"deploy.md": topic("deploy", "Never deploy on Fridays")})
    [read] = proposals(repo)
    stored = repo.git_dir / "memsync" / "proposals.pickle"
    assert stored.exists()
    cache.clear()  # another web process: nothing in its own cache

    [found] = proposals(repo)

    assert found == read and found.id == outcome.dream_id and found.is_open


def test_a_commit_on_main_keeps_the_proposals_and_a_revert_on_main_shows(world):
    repo = seed(world)
    outcome = dream(world.acme, {"deploy.md": topic("deploy", "Never deploy on Fridays")})
    alice = world.client("alice")
    alice.post(
        reverse("dashboard:proposal-approve", args=["acme", outcome.dream_id]),
        {"keep": ["deploy.md"]},
    )
    adoption = repo.rev_parse(MAIN)
    [adopted] = proposals(repo)
    assert adopted.status == "adopted"
    commit_memories(repo, {"tabs.md": topic("tabs", "Use tabs", "feedback")})
    cache.clear()

    assert proposals(repo) == [adopted]  # main moved, adopting and reverting nothing

    alice.post(reverse("dashboard:commit-revert", args=["acme", adoption]))
    cache.clear()

    [reverted] = proposals(repo)
    assert reverted.status == "reverted" and reverted.id == outcome.dream_id
