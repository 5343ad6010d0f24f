"""Answers read from main's whole history (each member's last merge, what each revert
undid) grow with main from the commits since the head last read, and always equal a
read of the whole history."""

from __future__ import annotations

from django.core.cache import cache

from dashboard.memory_facts import memsync_dir
from dashboard.views.history import reverts_on_main
from dashboard.views.team import last_merges
from memsync.store import MAIN
from tests.dashboard.world import commit_memories, member_commit, merge_member


def read_in_full(repo, answer):
    cache.clear()
    for stored in memsync_dir(repo).glob("*.pickle"):  # what the web workers share
        stored.unlink()
    return answer(repo, repo.rev_parse(MAIN))


def test_the_last_merges_grow_with_main_and_equal_a_full_read(world):
    repo = world.repo()
    member_commit(world.acme, "bob", {"b.md": b"b\n"}, "bob adds b")
    merge_member(world.acme, "bob")
    first = last_merges(repo)
    member_commit(world.acme, "bob", {"c.md": b"c\n"}, "bob adds c")
    member_commit(world.acme, "carol", {"d.md": b"d\n"}, "carol adds d")
    merge_member(world.acme, "bob")
    merge_member(world.acme, "carol")

    grown = last_merges(repo)

    assert set(grown) == {"bob", "carol"} and grown["bob"] != first["bob"]
    assert grown == read_in_full(repo, last_merges)


def test_the_reverts_grow_with_main_and_equal_a_full_read(world):
    repo = world.repo()
    first = commit_memories(repo, {"a.md": b"a\n"})
    second = commit_memories(repo, {"b.md": b"b\n"})
    assert reverts_on_main(repo) == {}
    undo_first = repo.revert(first).commit
    assert reverts_on_main(repo) == {first: undo_first}
    undo_second = repo.revert(second).commit

    grown = reverts_on_main(repo)

    assert grown == {first: undo_first, second: undo_second}
    assert grown == read_in_full(repo, reverts_on_main)


def test_a_new_worker_grows_the_last_merges_another_worker_read(world):
    repo = world.repo()
    member_commit(world.acme, "bob", {"b.md": b"b\n"}, "bob adds b")
    merge_member(world.acme, "bob")
    first = last_merges(repo)
    assert (memsync_dir(repo) / "member-merges.pickle").exists()
    cache.clear()  # another web process: nothing in its own cache
    assert last_merges(repo) == first
    member_commit(world.acme, "carol", {"d.md": b"d\n"}, "carol adds d")
    merge_member(world.acme, "carol")
    cache.clear()

    grown = last_merges(repo)

    assert set(grown) == {"bob", "carol"} and grown["bob"] == first["bob"]
    assert grown == read_in_full(repo, last_merges)
