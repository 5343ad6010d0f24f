"""The facts the index page and the project list serve: computed once per commit of
``main``, kept in ``.git/memsync/facts*.json``, moved on with ``main``, and never
trusted when the file is damaged."""

from __future__ import annotations

import gc
import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from dashboard import memory_facts
from dashboard.memory_facts import cache_file, compute, facts_at, main_facts, summary_file
from memsync.memory import MemoryDirectory
from memsync.store import MAIN
from tests.dashboard.world import commit_memories, entry, topic


@pytest.fixture(autouse=True)
def fresh_process():
    """Each test starts as a newly started web worker: nothing remembered in memory."""
    memory_facts.forget_all()
    yield
    memory_facts.forget_all()


@pytest.fixture
def memories(world):
    repo = world.repo()
    commit_memories(
        repo,
        {
            "deploy.md": topic("deploy", "Deploys go through the staging gate"),
            "broken.md": b"---\nname: [unclosed\n---\nbody\n",
            "orphan.md": topic("orphan", "Nobody links to me", "reference"),
            "indexes/tools.md": entry("Tools", "../tools.md", "the toolbox").encode(),
            "tools.md": topic("tools", "The tools we use", "reference"),
            "notes.txt": b"not a memory, but a link target\n",
            "team/shared.md": topic("shared", "Shared with the team", "project"),
            "team/MEMORY.md": entry("Shared", "shared.md", "for everyone").encode(),
            "MEMORY.md": (
                "# Memory\n"
                + entry("Deploys", "deploy.md", "staging gate first")
                + entry("Broken", "broken.md", "cannot be read")
                + entry("Tools", "indexes/tools.md", "the sub-index")
                + entry("Notes", "notes.txt", "plain text")
                + entry("Gone", "missing.md", "deleted long ago")
            ).encode(),
        },
    )
    return repo


def index_page(world, **query: str) -> str:
    url = reverse("dashboard:index", args=[world.acme.slug])
    if query:
        url += "?" + "&".join(f"{key}={value}" for key, value in query.items())
    response = world.client("carol").get(url)
    assert response.status_code == 200
    return response.content.decode()


def directory_at(repo, scope: str = "") -> MemoryDirectory:
    """The scope as ``MemoryDirectory`` reads it with every blob: what the facts must match."""
    prefix = f"{scope}/" if scope else ""
    paths = [p for p in repo.files(MAIN) if p.startswith(prefix)]
    blobs = repo.read_many(MAIN, paths)
    files = {p.removeprefix(prefix): blobs[p] for p in paths}
    return MemoryDirectory.from_files(None, files, scope=scope or None)


@pytest.mark.parametrize("scope", ["", "team"])
def test_the_facts_find_exactly_the_problems_memory_directory_finds(world, memories, scope):
    facts = main_facts(memories, scope)
    directory = directory_at(memories, scope)

    assert facts is not None
    assert facts.problems == directory.problems
    assert facts.errors == len(directory.errors)
    assert list(facts.files) == list(directory.files)
    for name, memory in directory.files.items():
        assert (facts.files[name].type, facts.files[name].description) == (
            memory.type,
            memory.description,
        )


def test_the_facts_are_written_beside_the_ages_cache_for_mains_commit(world, memories):
    commit = memories.rev_parse(MAIN)

    main_facts(memories)

    stored = json.loads(cache_file(memories, "").read_text())
    assert stored["commit"] == commit
    assert cache_file(memories, "").parent.name == "memsync"
    assert cache_file(memories, "team") != cache_file(memories, "")


def test_a_new_commit_on_main_shows_on_the_next_request(world, memories):
    assert "fresh.md" not in index_page(world)  # remembered for this commit now

    commit_memories(memories, {"fresh.md": topic("fresh", "Learned just now", "user")})

    page = index_page(world)
    assert "fresh.md" in page and "Learned just now" in page


def test_the_project_list_counts_follow_main(world, memories):
    before = main_facts(memories)
    assert before is not None
    client = world.client("carol")
    assert (
        f"<td>{before.memories}</td>" in client.get(reverse("dashboard:projects")).content.decode()
    )

    commit_memories(memories, {"fresh.md": topic("fresh", "Learned just now", "user")})
    page = client.get(reverse("dashboard:projects")).content.decode()

    assert f"<td>{before.memories + 1}</td>" in page


def test_a_fresh_process_counts_the_project_list_from_the_summary_alone(world, memories):
    facts = main_facts(memories)
    assert facts is not None
    summary = json.loads(summary_file(cache_file(memories, "")).read_text())
    assert (summary["commit"], summary["memories"]) == (facts.commit, facts.memories)
    assert (summary["problems"], summary["errors"]) == (len(facts.problems), facts.errors)
    # Damaged after the summary was written: a process that decoded it would rebuild it.
    cache_file(memories, "").write_text("{damaged")
    memory_facts.forget_all()

    page = world.client("carol").get(reverse("dashboard:projects")).content.decode()

    assert f"<td>{facts.memories}</td>" in page
    assert cache_file(memories, "").read_text() == "{damaged"


def test_decoded_facts_serve_what_computed_ones_do(world, memories):
    computed = main_facts(memories)
    assert computed is not None
    memory_facts.forget_all()

    decoded = main_facts(memories)

    assert decoded is not None and decoded is not computed
    assert list(decoded.problems) == list(computed.problems)
    assert decoded.problems[1:3] == computed.problems[1:3]
    assert decoded.errors == computed.errors and decoded.orphans == computed.orphans
    assert decoded.files["deploy.md"] == computed.files["deploy.md"]
    assert decoded.problems_for("broken.md") == computed.problems_for("broken.md")


def test_the_facts_a_process_holds_drop_out_of_the_cyclic_collector(world, memories):
    computed = main_facts(memories)
    memory_facts.forget_all()
    decoded = main_facts(memories)
    for _ in range(3):  # a tuple leaves after those it holds: a row's problems nest two deep
        gc.collect()

    for facts in (computed, decoded):
        assert facts is not None
        files = [facts.files.entry(name) for name in facts.files]
        rows = [*facts.paths.values(), *files, *facts.links]
        assert files and facts.links and not [row for row in rows if gc.is_tracked(row)]


def test_a_moved_main_reuses_the_parse_of_every_unchanged_blob(world, memories):
    before = main_facts(memories)
    assert before is not None
    commit_memories(
        memories,
        {"deploy.md": topic("deploy", "Deploys now skip the gate"), "orphan.md": None},
    )
    commit = memories.rev_parse(MAIN)
    assert commit is not None

    after = compute(memories, commit, "", previous=before)

    assert after.files.entry("tools.md") is before.files.entry("tools.md")
    assert after.files["deploy.md"].description == "Deploys now skip the gate"
    assert "orphan.md" not in after.files
    assert after.problems == directory_at(memories).problems


@pytest.mark.parametrize(
    "damage",
    [
        "{not json",
        '{"version": 1, "commit": "',  # cut short while written elsewhere
        '{"version": 999, "commit": "x", "scope": ""}',
        '{"version": 1, "commit": "x", "scope": "", "scopes": [], "index": null,'
        ' "paths": {"a.md": 5}, "files": {}, "links": []}',
        "",
    ],
)
def test_a_damaged_cache_file_is_rebuilt_not_trusted(world, memories, damage):
    path = cache_file(memories, "")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(damage)

    page = index_page(world)

    assert "staging gate first" in page and "Nobody links to me" in page
    stored = json.loads(path.read_text())
    assert stored["commit"] == memories.rev_parse(MAIN)


def test_a_cache_file_naming_another_commit_is_not_served_for_this_one(world, memories):
    old = memories.rev_parse(MAIN)
    assert old is not None
    main_facts(memories)
    commit_memories(memories, {"fresh.md": topic("fresh", "Learned just now", "user")})
    memory_facts.forget_all()

    facts = main_facts(memories)

    assert facts is not None and facts.commit != old and "fresh.md" in facts.files
    assert facts_at(memories, old).commit == old  # an older commit is still answered
    assert "fresh.md" not in facts_at(memories, old).files


def test_a_process_that_served_main_moves_on_from_what_it_remembers(world, memories):
    before = main_facts(memories)
    assert before is not None
    commit_memories(memories, {"fresh.md": topic("fresh", "Learned just now", "user")})
    commit = memories.rev_parse(MAIN)
    assert commit is not None
    # Another process wrote the file for the new commit; this one does not decode it.
    path = cache_file(memories, "")
    path.write_text(f'{{"version": 1, "commit": "{commit}", cut short')

    facts = main_facts(memories)

    assert facts is not None and facts.commit == commit
    assert facts.files.entry("tools.md") is before.files.entry("tools.md")  # parsed once, kept
    assert facts.problems == directory_at(memories).problems
    memory_facts.forget_all()  # a worker started later: the damaged file is rebuilt
    assert "fresh.md" in facts_at(memories, commit).files
    assert json.loads(path.read_text())["commit"] == commit


def test_warming_brings_the_file_up_even_in_a_process_that_moved_on(world, memories):
    main_facts(memories)  # remembered: the next commit's facts are moved on to in memory
    commit_memories(memories, {"fresh.md": topic("fresh", "Learned just now", "user")})
    main_facts(memories)
    assert json.loads(cache_file(memories, "").read_text())["commit"] != memories.rev_parse(MAIN)

    memory_facts.warm_main(memories)

    assert json.loads(cache_file(memories, "").read_text())["commit"] == memories.rev_parse(MAIN)


def test_warming_main_writes_the_facts_of_every_scope(world, memories):
    commit_memories(memories, {"fresh.md": topic("fresh", "Learned just now", "user")})

    warmed = memory_facts.warm_main(memories)

    commit = memories.rev_parse(MAIN)
    assert warmed is not None and warmed.commit == commit
    for scope in ("", "team"):
        stored = json.loads(cache_file(memories, scope).read_text())
        assert (stored["commit"], stored["scope"]) == (commit, scope)


def test_the_cache_file_is_replaced_whole_never_written_in_place(world, memories):
    main_facts(memories)
    path = cache_file(memories, "")
    inode = path.stat().st_ino
    commit_memories(memories, {"fresh.md": topic("fresh", "Learned just now", "user")})

    memory_facts.warm_main(memories)

    assert path.stat().st_ino != inode  # a new file renamed over the old one
    assert not list(path.parent.glob("*.tmp"))


def test_the_index_builds_only_one_page_of_unindexed_files(world, memories, monkeypatch):
    # orphan.md, tools.md (linked from a sub-index only), zebra.md
    monkeypatch.setattr("dashboard.views.memories.ORPHANS_PER_PAGE", 2)
    commit_memories(memories, {"zebra.md": topic("zebra", "The last orphan", "user")})

    first, second = index_page(world), index_page(world, page="2")

    assert "Nobody links to me" in first and "The last orphan" not in first
    assert "The last orphan" in second and "Nobody links to me" not in second


def test_filters_apply_to_the_unindexed_files_too(world, memories):
    page = index_page(world, type="user")

    assert "Nobody links to me" not in page  # a reference memory
    page = index_page(world, type="reference")
    assert "Nobody links to me" in page


def test_a_cached_part_of_the_page_moves_on_when_a_day_passes(world, memories, monkeypatch):
    lines = index_page(world).split('id="not-indexed"')[0]
    assert "3 days ago" not in lines and "today" in lines
    later = timezone.now() + timedelta(days=3, hours=1)
    monkeypatch.setattr(timezone, "now", lambda: later)

    lines = index_page(world).split('id="not-indexed"')[0]

    assert "3 days ago" in lines and ">today<" not in lines
