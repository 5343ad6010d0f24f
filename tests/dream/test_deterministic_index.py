"""The deterministic dream keeps MEMORY.md within what an agent sees (SPEC F3, D8)."""

from __future__ import annotations

import posixpath
from datetime import timedelta
from pathlib import Path
from urllib.parse import unquote

import pytest

from memsync.dream.deterministic import DeterministicEngine
from memsync.dream.engine import DreamContext, EngineResult, Scope
from memsync.dream.visibility import utf16_units, visible_entries
from memsync.memory import MAX_ENTRY_CHARS, MemoryDirectory, MemoryIndex, ProblemCode
from tests.dream.corpus import NOW, Corpus, RecordingProgress, build_corpus

LIMIT_PROBLEMS = {ProblemCode.INDEX_TOO_MANY_LINES, ProblemCode.INDEX_TOO_LARGE}


def dream(corpus: Corpus) -> EngineResult:
    return DeterministicEngine().consolidate(corpus.context(), RecordingProgress())


def links(root: Path, index: str) -> list[str]:
    """The files an index's entries link, relative to the memory directory."""
    parsed = MemoryIndex.parse((root / index).read_text(encoding="utf-8"))
    folder = posixpath.dirname(index)
    return [
        posixpath.normpath(posixpath.join(folder, unquote(entry.target)))
        for entry in parsed.entries
    ]


def hops(root: Path) -> dict[str, int]:
    """Each file reached from MEMORY.md and the number of index files in between."""
    reached: dict[str, int] = {}
    for target in links(root, "MEMORY.md"):
        reached.setdefault(target, 0)
        if target.startswith("indexes/"):
            for inner in links(root, target):
                reached.setdefault(inner, 1)
    return reached


def within_limits(path: Path) -> bool:
    data = path.read_bytes()
    return len(data.decode("utf-8").splitlines()) <= 200 and len(data) <= 25_000


@pytest.mark.parametrize("grouped", [True, False], ids=["type-headings", "flat"])
def test_an_overlong_index_ends_within_limits_with_every_memory_one_link_away(
    tmp_path: Path, grouped: bool
) -> None:
    corpus = build_corpus(tmp_path / "memory", memories=340, grouped=grouped)
    index = corpus.root / "MEMORY.md"
    assert len(index.read_text(encoding="utf-8").splitlines()) > 300

    result = dream(corpus)

    assert within_limits(index)
    problems = MemoryIndex.parse(index.read_text(encoding="utf-8")).problems()
    assert not [p for p in problems if p.code in LIMIT_PROBLEMS]
    memories = {p.name for p in corpus.root.glob("*.md")} - {"MEMORY.md"}
    reached = hops(corpus.root)
    missing = sorted(memories - set(reached))
    assert missing == [], f"{len(missing)} memories not reachable, e.g. {missing[:3]}"
    assert max(reached[memory] for memory in memories) <= 1
    subindexes = sorted((corpus.root / "indexes").glob("*.md"))
    assert subindexes
    for path in subindexes:
        assert within_limits(path), path
        for entry in MemoryIndex.parse(path.read_text(encoding="utf-8")).entries:
            assert len(entry.raw) <= MAX_ENTRY_CHARS
            assert entry.target.startswith("../")
    assert "into a sub-index" in result.summary
    # As full as the limits allow: no moved entry would still fit.
    text = index.read_text(encoding="utf-8")
    assert len(text.splitlines()) == 200 or utf16_units(text) > 25_000 - 152
    assert dream(corpus).files_touched == []


def test_only_the_least_useful_entries_move_and_keep_their_heading(tmp_path: Path) -> None:
    corpus = build_corpus(tmp_path / "memory", memories=340, grouped=True)
    before = MemoryIndex.parse((corpus.root / "MEMORY.md").read_text(encoding="utf-8"))
    heading_of = {entry.target: before.heading_for(entry) for entry in before.entries}
    dream(corpus)
    index = MemoryIndex.parse((corpus.root / "MEMORY.md").read_text(encoding="utf-8"))
    pointers = [entry for entry in index.entries if entry.target.startswith("indexes/")]
    assert [p.target for p in pointers] == ["indexes/more.md"]
    moved: list[str] = []
    heading = None
    for line in (corpus.root / "indexes/more.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            heading = line
        elif line.startswith("- ["):
            target = MemoryIndex.parse(line).entries[0].target.removeprefix("../")
            assert heading_of.get(target, heading) == heading  # orphans had no entry
            moved.append(target)
    assert pointers[0].hook.startswith(f"{len(moved)} more entries: ")
    kept = {entry.target for entry in index.entries}
    weight = {"feedback": 3, "user": 3, "project": 2, "reference": 1}
    lowest_kept = min(weight[corpus.types[t]] for t in kept if t in corpus.types)
    highest_moved = max(weight[corpus.types[t]] for t in moved)
    assert highest_moved <= lowest_kept
    assert not {t for t in moved if corpus.types[t] in ("feedback", "user")}


def test_blank_lines_go_before_any_entry_moves(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    lines = ["# Memory"]
    for number in range(190):
        name = f"project_{number}.md"
        (root / name).write_text(
            f"---\nname: p{number}\ndescription: Fact {number}\ntype: project\n---\n\nFact.\n",
            encoding="utf-8",
        )
        lines += ["", f"- [Fact {number}]({name}) — fact {number}"]
    (root / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = visible_entries((root / "MEMORY.md").read_text(encoding="utf-8"))

    context = DreamContext(workdir=root, scope=Scope.PERSONAL, now=NOW, last_changed={})
    result = DeterministicEngine().consolidate(context, RecordingProgress())

    text = (root / "MEMORY.md").read_text(encoding="utf-8")
    assert before == 99  # line 1 is the title, then a blank line before each entry
    assert visible_entries(text) == 190
    assert not (root / "indexes").exists()
    assert any("removed 190 blank lines" in note for note in result.notes)


def test_a_grown_index_is_split_again_without_losing_or_doubling_entries(
    tmp_path: Path,
) -> None:
    corpus = build_corpus(tmp_path / "memory", memories=340, grouped=True)
    dream(corpus)
    index = corpus.root / "MEMORY.md"
    grown = index.read_text(encoding="utf-8").splitlines()
    heading = grown.index("## Projects")
    added = []
    for number in range(260):
        name = f"project_added_{number}.md"
        (corpus.root / name).write_text(
            f"---\nname: added-{number}\ndescription: Added fact {number} about the "
            f"rollout of service {number}\ntype: project\n---\n\nFact {number}.\n"
            "**Why:** asked.\n**How to apply:** as said.\n",
            encoding="utf-8",
        )
        added.append(f"- [Added {number}]({name}) — Added fact {number} about the rollout")
    grown[heading + 1 : heading + 1] = added
    index.write_text("\n".join(grown) + "\n", encoding="utf-8")

    dream(corpus)

    assert within_limits(index)
    reached = hops(corpus.root)
    memories = {p.name for p in corpus.root.glob("*.md")} - {"MEMORY.md"}
    assert memories <= set(reached)
    every_link = links(corpus.root, "MEMORY.md") + [
        target
        for sub in sorted((corpus.root / "indexes").glob("*.md"))
        for target in links(corpus.root, f"indexes/{sub.name}")
    ]
    doubled = sorted({t for t in every_link if every_link.count(t) > 1})
    assert doubled == []
    assert not dream(corpus).files_touched


def test_a_small_index_keeps_its_entries_where_people_put_them(tmp_path: Path) -> None:
    corpus = build_corpus(tmp_path / "memory", memories=40, grouped=True)
    dream(corpus)
    assert not (corpus.root / "indexes").exists()
    assert all(not t.startswith("indexes/") for t in links(corpus.root, "MEMORY.md"))


def test_the_memory_reader_counts_sub_index_entries_as_indexed(tmp_path: Path) -> None:
    """MemoryDirectory reports a memory only its sub-index links as not indexed until
    it follows sub-indexes; this pins the dream's side: every such memory is linked
    by a sub-index that MEMORY.md links, and no link of MEMORY.md is dead."""
    corpus = build_corpus(tmp_path / "memory", memories=340, grouped=False)
    dream(corpus)
    directory = MemoryDirectory.read(corpus.root)
    dead = [p for p in directory.problems if p.code is ProblemCode.INDEX_DEAD_LINK]
    assert dead == []
    not_indexed = {p.path for p in directory.problems if p.code is ProblemCode.NOT_INDEXED}
    assert not_indexed <= {t for t, n in hops(corpus.root).items() if n == 1}


def test_a_missing_index_is_created_with_every_memory(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    for number, kind in enumerate(("user", "feedback")):
        (root / f"{kind}_{number}.md").write_text(
            f"---\nname: {kind}-{number}\ndescription: The {kind} memory\ntype: {kind}\n---\n\n"
            "**Why:** x.\n**How to apply:** y.\n",
            encoding="utf-8",
        )
    context = DreamContext(
        workdir=root, scope=Scope.PERSONAL, now=NOW, last_changed={"user_0.md": NOW}
    )
    result = DeterministicEngine().consolidate(context, RecordingProgress())
    assert sorted(links(root, "MEMORY.md")) == ["feedback_1.md", "user_0.md"]
    assert "MEMORY.md" in result.files_touched
    assert any("there was none; created it" in note for note in result.notes)


def test_merging_points_the_old_entry_at_the_kept_file_when_it_had_none(
    tmp_path: Path,
) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    body = (
        "Integration tests for the Quillon ledger hit a real Postgres, never a mock of it.\n"
        "**Why:** a mocked Quillon migration passed while production broke.\n"
        "**How to apply:** use the Quillon database fixture in every integration test.\n"
    )
    for name, extra in (("feedback_quillon.md", ""), ("feedback_quillon_2.md", "Also CI.\n")):
        (root / name).write_text(
            f"---\nname: {name[:-3]}\ndescription: Quillon tests use a real database\n"
            f"type: feedback\n---\n\n{body}{extra}",
            encoding="utf-8",
        )
    (root / "notes.md").write_text(
        "---\nname: notes\ndescription: Pointers\ntype: reference\n---\n\n"
        "See [the rule](feedback_quillon.md#why) before touching Quillon.\n",
        encoding="utf-8",
    )
    (root / "MEMORY.md").write_text(
        "# Memory\n\n- [Quillon tests](feedback_quillon.md) — real database only\n"
        "- [Notes](notes.md) — pointers\n",
        encoding="utf-8",
    )
    changed = {"feedback_quillon.md": NOW - timedelta(days=30), "feedback_quillon_2.md": NOW}
    context = DreamContext(workdir=root, scope=Scope.PERSONAL, now=NOW, last_changed=changed)
    DeterministicEngine().consolidate(context, RecordingProgress())

    assert not (root / "feedback_quillon.md").exists()
    assert (root / "MEMORY.md").read_text(encoding="utf-8") == (
        "# Memory\n\n- [Quillon tests](feedback_quillon_2.md) — real database only\n"
        "- [Notes](notes.md) — pointers\n"
    )
    assert "[the rule](feedback_quillon_2.md#why)" in (root / "notes.md").read_text()


def test_it_writes_through_no_symbolic_link(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "MEMORY.md").write_text("- [Gone](gone.md) — a dead entry\n", encoding="utf-8")
    corpus = build_corpus(tmp_path / "memory", memories=340, grouped=False)
    (corpus.root / "indexes").symlink_to(outside, target_is_directory=True)
    small = tmp_path / "small"
    small.mkdir()
    (small / "MEMORY.md").symlink_to(outside / "MEMORY.md")
    (small / "orphan.md").write_text(
        "---\nname: orphan\ndescription: Not indexed\ntype: user\n---\n\nHi.\n"
    )
    before = sorted((p.name, p.read_bytes()) for p in outside.iterdir())

    big = dream(corpus)
    context = DreamContext(workdir=small, scope=Scope.PERSONAL, now=NOW, last_changed={})
    linked = DeterministicEngine().consolidate(context, RecordingProgress())

    assert sorted((p.name, p.read_bytes()) for p in outside.iterdir()) == before
    assert any("is not a plain folder" in note for note in big.notes)
    assert linked.files_touched == []
    assert any("MEMORY.md is a symbolic link" in note for note in linked.notes)


def test_each_pointer_counts_the_entries_its_file_holds_even_past_a_code_fence(
    tmp_path: Path,
) -> None:
    # The budget counts each overflow line's entry once; a fence in a carried overflow
    # file changes which lines are entries, so such a file is counted as a whole.
    corpus = build_corpus(tmp_path / "memory", memories=340, grouped=True)
    dream(corpus)
    more = corpus.root / "indexes" / "more.md"
    fenced = "```\n- [Not an entry](../nowhere.md) — inside a code block\n```\n"
    more.write_text(more.read_text(encoding="utf-8") + fenced, encoding="utf-8")
    index = corpus.root / "MEMORY.md"
    grown = index.read_text(encoding="utf-8").splitlines()
    for number in range(40):
        name = f"reference_added_{number}.md"
        (corpus.root / name).write_text(
            f"---\nname: added-{number}\ndescription: Dashboard {number} lives in "
            f"Grafana folder {number}\ntype: reference\n---\n\nSee folder {number}.\n",
            encoding="utf-8",
        )
        grown.append(f"- [Added {number}]({name}) — Dashboard {number} in Grafana")
    index.write_text("\n".join(grown) + "\n", encoding="utf-8")

    dream(corpus)

    pointers = [
        entry
        for entry in MemoryIndex.parse(index.read_text(encoding="utf-8")).entries
        if entry.target.startswith("indexes/")
    ]
    assert pointers
    texts = [(corpus.root / p.target).read_text(encoding="utf-8") for p in pointers]
    assert any("```" in text for text in texts)
    for pointer, text in zip(pointers, texts, strict=True):
        entries = MemoryIndex.parse(text).entries
        count = f"{len(entries)} more {'entry' if len(entries) == 1 else 'entries'}"
        assert pointer.hook.startswith(f"{count}:")
        if entries:
            assert pointer.hook.startswith(f"{count}: {entries[0].title}")
