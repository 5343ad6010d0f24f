"""The deterministic dream on generated memory directories with planted problems (SPEC D8)."""

from __future__ import annotations

import gc
import posixpath
from datetime import timedelta
from pathlib import Path
from urllib.parse import unquote

import pytest

from memsync.dream.dedupe import Candidate, find_duplicates
from memsync.dream.deterministic import DeterministicEngine
from memsync.dream.engine import DreamCancelled, DreamContext, EngineResult, Scope
from memsync.memory import MAX_ENTRY_CHARS, MemoryDirectory, MemoryFile, MemoryIndex
from tests.dream.corpus import NOW, Corpus, RecordingProgress, build_corpus
from tests.dream.tuning import write_corpus


def dream(
    corpus: Corpus, scope: Scope = Scope.PERSONAL, progress: RecordingProgress | None = None
) -> EngineResult:
    return DeterministicEngine().consolidate(corpus.context(scope), progress or RecordingProgress())


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".git" not in path.parts
    }


def body_lines(data: bytes) -> list[str]:
    memory = MemoryFile.parse("x.md", data)
    return [line.strip() for line in memory.body.splitlines() if line.strip()]


def entries(root: Path, index: str = "MEMORY.md") -> list[tuple[str, str]]:
    """(file the entry links, relative to the memory directory; the whole line)."""
    parsed = MemoryIndex.parse((root / index).read_text(encoding="utf-8"))
    folder = posixpath.dirname(index)
    found = []
    for entry in parsed.entries:
        target = posixpath.normpath(posixpath.join(folder, unquote(entry.target)))
        found.append((target, entry.raw))
    return found


def reachable(root: Path) -> dict[str, int]:
    """Every file reached from MEMORY.md, with the number of links in between."""
    reached: dict[str, int] = {}
    for target, _ in entries(root):
        reached.setdefault(target, 0)
        if target.startswith("indexes/") and (root / target).is_file():
            for inner, _ in entries(root, target):
                reached.setdefault(inner, 1)
    return reached


@pytest.fixture
def corpus(tmp_path: Path) -> Corpus:
    return build_corpus(tmp_path / "memory", memories=80, team=True)


def test_every_merge_keeps_each_line_of_both_in_the_newer_file(tmp_path: Path) -> None:
    tuning = write_corpus(tmp_path / "memory")
    before = snapshot(tuning.root)
    context = DreamContext(tuning.root, Scope.PERSONAL, NOW, tuning.changed)
    result = DeterministicEngine().consolidate(context, RecordingProgress())

    merged = [note for note in result.notes if note.startswith("merged ")]
    assert len(merged) >= len(tuning.duplicates) * 0.8
    for pair in tuning.duplicates:
        newer, older = sorted(pair, key=lambda path: tuning.changed[path], reverse=True)
        if (tuning.root / older).exists():
            continue  # not merged: the tuning test counts these
        assert any(
            note.startswith(f"merged {older} into {newer} (")
            and f"kept {newer} as the newest" in note
            for note in merged
        )
        kept = set(body_lines((tuning.root / newer).read_bytes()))
        for line in body_lines(before[older]) + body_lines(before[newer]):
            assert line in kept, f"{newer} lost {line!r} from the merge"
        assert older not in {target for target, _ in entries(tuning.root)}


def test_which_copy_survives_does_not_depend_on_the_order_or_a_second_run(
    tmp_path: Path,
) -> None:
    tuning = write_corpus(tmp_path / "memory")
    candidates = []
    for path in sorted(tuning.changed):
        memory = MemoryFile.parse(path, (tuning.root / path).read_bytes())
        text = f"{memory.description or ''}\n{memory.body}"
        kind = memory.memory_type or path.partition("_")[0]  # a file without frontmatter
        candidates.append(Candidate(path, kind, memory.name, text, tuning.changed[path]))
    forward = find_duplicates(candidates)
    assert forward and find_duplicates(list(reversed(candidates))) == forward
    context = DreamContext(tuning.root, Scope.PERSONAL, NOW, tuning.changed)
    DeterministicEngine().consolidate(context, RecordingProgress())
    again = DeterministicEngine().consolidate(context, RecordingProgress())
    assert not [note for note in again.notes if note.startswith("merged ")]


def test_a_memory_rewritten_under_the_same_name_with_new_facts_is_not_merged(
    corpus: Corpus,
) -> None:
    dream(corpus)
    assert corpus.same_name_pairs
    for newer, older in corpus.same_name_pairs:
        assert (corpus.root / newer).exists() and (corpus.root / older).exists()


@pytest.mark.parametrize(("memories", "seed"), [(80, 8), (400, 3), (2000, 13)])
def test_generated_look_alikes_are_never_merged(tmp_path: Path, memories: int, seed: int) -> None:
    """The generator's templates make distinct memories that share most phrasing
    (look-alikes, two facts about one subject, a same-named memory with new facts):
    none of them may merge. Its re-worded copies swap words and add a sentence on
    both sides, so they are not counted: a pair each side of which says something
    the other does not stays apart by design (see memsync.dream.dedupe)."""
    corpus = build_corpus(tmp_path / "memory", memories=memories, seed=seed)
    candidates = []
    for path in corpus.topic_files:
        memory = MemoryFile.parse(path, (corpus.root / path).read_bytes())
        assert memory.memory_type is not None
        text = f"{memory.description}\n{memory.body}"
        changed = corpus.last_changed[path]
        candidates.append(Candidate(path, memory.memory_type, memory.name, text, changed))
    found = {
        frozenset((g.keep, older)) for g in find_duplicates(candidates) for older in g.absorbed
    }
    planted = {frozenset(pair) for pair in corpus.duplicate_pairs}
    assert found - planted == set()
    distinct = corpus.lookalike_pairs + corpus.same_subject_pairs + corpus.same_name_pairs
    assert not found & {frozenset(pair) for pair in distinct}
    assert find_duplicates(candidates, conservative=True) == []


def test_it_keeps_unknown_frontmatter_keys_and_valid_frontmatter(corpus: Corpus) -> None:
    dream(corpus)
    for newer, _ in corpus.duplicate_pairs[:-1]:  # the last pair is the Chinese one
        merged = MemoryFile.parse(newer, (corpus.root / newer).read_bytes())
        assert merged.errors == ()
        assert merged.metadata["originSessionId"].startswith("session-")
        assert merged.memory_type == corpus.types[newer]


def _write(root: Path, name: str, kind: str, body: str, description: str = "About it") -> None:
    text = f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n---\n\n{body}"
    (root / name).write_text(text, encoding="utf-8")


def _context(root: Path, scope: Scope = Scope.PERSONAL, ages: dict[str, int] | None = None):
    changed = {path: NOW - timedelta(days=days) for path, days in (ages or {}).items()}
    return DreamContext(workdir=root, scope=scope, now=NOW, last_changed=changed)


def test_it_never_merges_memories_of_different_types(tmp_path: Path) -> None:
    body = "Releases are cut from main every Tuesday by the release captain on duty.\n"
    _write(tmp_path, "project_release.md", "project", body)
    _write(tmp_path, "reference_release.md", "reference", body)
    (tmp_path / "MEMORY.md").write_text(
        "- [Release](project_release.md) — cut on Tuesdays\n"
        "- [Release ref](reference_release.md) — cut on Tuesdays\n",
        encoding="utf-8",
    )
    result = DeterministicEngine().consolidate(_context(tmp_path), RecordingProgress())
    assert (tmp_path / "project_release.md").exists()
    assert (tmp_path / "reference_release.md").exists()
    assert result.files_touched == []


def test_a_file_without_a_type_merges_with_its_copy_of_one_type_only(tmp_path: Path) -> None:
    body = "Releases are cut from main every Tuesday by the release captain on duty.\n"
    _write(tmp_path, "project_release.md", "project", body)
    (tmp_path / "release-notes.md").write_text(body, encoding="utf-8")
    (tmp_path / "MEMORY.md").write_text(
        "- [Release](project_release.md) — cut on Tuesdays\n"
        "- [Release notes](release-notes.md) — cut on Tuesdays\n",
        encoding="utf-8",
    )
    DeterministicEngine().consolidate(_context(tmp_path), RecordingProgress())
    kept = [
        name for name in ("project_release.md", "release-notes.md") if (tmp_path / name).exists()
    ]
    assert len(kept) == 1

    _write(tmp_path, "project_release.md", "project", body)
    _write(tmp_path, "reference_release.md", "reference", body)
    (tmp_path / "release-notes.md").write_text(body, encoding="utf-8")
    DeterministicEngine().consolidate(_context(tmp_path), RecordingProgress())
    # A copy of a project memory and of a reference one: which type is no clear answer.
    assert (tmp_path / "release-notes.md").exists()


def test_a_plain_file_kept_over_its_typed_copy_takes_the_copys_frontmatter(
    tmp_path: Path,
) -> None:
    body = "Releases are cut from main every Tuesday by the release captain on duty.\n"
    _write(tmp_path, "project_release.md", "project", body, description="Release day")
    (tmp_path / "release-notes.md").write_text(body, encoding="utf-8")
    (tmp_path / "MEMORY.md").write_text(
        "- [Release](project_release.md) — cut on Tuesdays\n"
        "- [Release notes](release-notes.md) — cut on Tuesdays\n",
        encoding="utf-8",
    )
    ages = {"project_release.md": 30, "release-notes.md": 1}  # the newer copy survives
    DeterministicEngine().consolidate(_context(tmp_path, ages=ages), RecordingProgress())

    assert not (tmp_path / "project_release.md").exists()
    kept = MemoryFile.parse("release-notes.md", (tmp_path / "release-notes.md").read_bytes())
    assert (kept.memory_type, kept.name, kept.description) == (
        "project",
        "project_release.md",
        "Release day",
    )
    assert kept.body.strip() == body.strip()


def test_a_personal_dream_leaves_team_memory_alone(corpus: Corpus) -> None:
    team_before = {p: d for p, d in snapshot(corpus.root).items() if p.startswith("team/")}
    result = dream(corpus)
    team_after = {p: d for p, d in snapshot(corpus.root).items() if p.startswith("team/")}
    assert team_after == team_before
    assert not any(path.startswith("team/") for path in result.files_touched)
    assert any("team/ is the team's memory" in note for note in result.notes)


def test_a_team_dream_merges_only_exact_copies_and_prunes_its_team_folder(
    corpus: Corpus,
) -> None:
    result = dream(corpus, Scope.TEAM)

    team = corpus.root / "team"
    assert sorted(p.name for p in team.glob("*.md")) == ["MEMORY.md", "project_release_train.md"]
    assert "project_gone.md" not in (team / "MEMORY.md").read_text(encoding="utf-8")
    train = (team / "project_release_train.md").read_text(encoding="utf-8")
    assert "yesterday" not in train
    # Same name but rewritten: a person must decide; re-worded copies stay too.
    for newer, older in corpus.same_name_pairs + corpus.duplicate_pairs:
        assert (corpus.root / newer).exists() and (corpus.root / older).exists()
    assert "team/project_release_train_copy.md into team/project_release_train.md" in (
        result.summary
    )


def test_it_makes_relative_dates_absolute_against_each_files_last_change(
    corpus: Corpus,
) -> None:
    dream(corpus)
    assert len(corpus.relative_dates) >= 6
    for path, plants in corpus.relative_dates.items():
        text = (corpus.root / path).read_text(encoding="utf-8")
        for phrase, expected in plants:
            assert phrase not in text, f"{path} still says {phrase!r}"
            assert expected in text, f"{path} should say {expected!r} for {phrase!r}"
        description = MemoryFile.parse(path, text.encode()).description or ""
        assert "yesterday" not in description
    index = (corpus.root / "MEMORY.md").read_text(encoding="utf-8")
    assert "(decided yesterday)" not in index


def test_it_removes_index_entries_that_point_nowhere(corpus: Corpus) -> None:
    result = dream(corpus)
    linked = {target for target, _ in entries(corpus.root)}
    for target in corpus.dead_targets:
        assert target not in linked
        assert any(target in note for note in result.notes)


def test_it_keeps_entries_that_link_files_outside_the_topic_list(tmp_path: Path) -> None:
    (tmp_path / "logs" / "2026" / "11").mkdir(parents=True)
    (tmp_path / "logs" / "2026" / "11" / "2026-11-30.md").write_text("- [10:00] hi\n")
    index = "- [Last log](logs/2026/11/2026-11-30.md) — the newest daily log\n"
    (tmp_path / "MEMORY.md").write_text(index, encoding="utf-8")
    DeterministicEngine().consolidate(_context(tmp_path), RecordingProgress())
    assert (tmp_path / "MEMORY.md").read_text(encoding="utf-8") == index


def test_it_indexes_orphans_under_the_heading_of_their_type(corpus: Corpus) -> None:
    dream(corpus)
    index = MemoryIndex.parse((corpus.root / "MEMORY.md").read_text(encoding="utf-8"))
    headings = {"user": "User", "feedback": "Feedback", "project": "Projects"}
    headings["reference"] = "References"
    assert corpus.orphans
    for path in corpus.orphans:
        entry = index.entry_for(path)
        assert entry is not None, f"{path} is still not indexed"
        memory = MemoryFile.parse(path, (corpus.root / path).read_bytes())
        assert entry.title == memory.name
        assert entry.hook == memory.description
        assert index.heading_for(entry) == f"## {headings[corpus.types[path]]}"


def test_it_shortens_long_entries_and_keeps_what_was_cut_in_the_file(corpus: Corpus) -> None:
    dream(corpus)
    assert corpus.long_entries
    for _target, line in entries(corpus.root):
        assert len(line) <= MAX_ENTRY_CHARS, line
    for path, detail in corpus.long_details.items():
        assert detail in (corpus.root / path).read_text(encoding="utf-8")


def test_no_memory_content_is_lost(corpus: Corpus) -> None:
    before = snapshot(corpus.root)
    dream(corpus)
    after = snapshot(corpus.root)
    kept = {
        line for path, data in after.items() if path.endswith(".md") for line in body_lines(data)
    }
    for path, data in before.items():
        if path == "MEMORY.md" or path.startswith("team/") or not path.endswith(".md"):
            continue
        for line in body_lines(data):
            for phrase, expected in corpus.relative_dates.get(path, []):
                line = line.replace(phrase, expected)
            assert line in kept, f"{path}: {line!r} is gone"


def test_a_second_dream_finds_nothing_to_do(corpus: Corpus) -> None:
    dream(corpus)
    settled = snapshot(corpus.root)
    again = dream(corpus)
    assert again.files_touched == []
    assert snapshot(corpus.root) == settled
    assert again.summary.startswith("Nothing to improve")


def test_age_alone_flags_nothing_and_a_renamed_update_supersedes(corpus: Corpus) -> None:
    before = snapshot(corpus.root)
    result = dream(corpus)
    flagged = {line.split(": ", 1)[0] for line in result.stale}
    superseded = {older for _, older in corpus.same_name_pairs}
    assert corpus.stale and not (set(corpus.stale) - superseded) & flagged
    assert flagged == superseded
    for path in flagged:
        assert (corpus.root / path).read_bytes() == before[path]
        assert any(
            note.startswith(f"{path}: possibly stale: superseded by") for note in result.notes
        )
    assert "days old" not in result.summary


def test_it_reports_its_phases_and_every_file_it_touched(corpus: Corpus) -> None:
    before = snapshot(corpus.root)
    progress = RecordingProgress()
    result = dream(corpus, progress=progress)
    after = snapshot(corpus.root)

    changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
    assert result.files_touched == changed
    assert sorted(progress.files) == changed
    assert progress.phases[:3] == ["orient", "gather", "consolidate"]
    assert progress.phases.index("updating") < progress.phases.index("prune")
    assert result.engine == "deterministic" and result.model is None


def test_it_stops_between_steps_when_cancelled(corpus: Corpus) -> None:
    progress = RecordingProgress(cancel_after=2)
    with pytest.raises(DreamCancelled):
        dream(corpus, progress=progress)
    assert "prune" not in progress.phases


def test_it_never_edits_claude_md_or_files_it_cannot_read(tmp_path: Path) -> None:
    claude = "# Project rules\n\nWe switched to uv yesterday.\n"
    broken = "---\nname: never closed\ndescription: x\n\nWe met yesterday.\n"
    (tmp_path / "CLAUDE.md").write_text(claude, encoding="utf-8")
    (tmp_path / "broken.md").write_text(broken, encoding="utf-8")
    (tmp_path / "binary.md").write_bytes(b"\x00\x01yesterday")
    (tmp_path / "MEMORY.md").write_text(
        "- [Broken](broken.md) — x\n- [Binary](binary.md) — y\n", encoding="utf-8"
    )
    result = DeterministicEngine().consolidate(_context(tmp_path), RecordingProgress())
    assert (tmp_path / "CLAUDE.md").read_text(encoding="utf-8") == claude
    assert (tmp_path / "broken.md").read_text(encoding="utf-8") == broken
    assert (tmp_path / "binary.md").read_bytes() == b"\x00\x01yesterday"
    assert result.files_touched == []
    assert any(note.startswith("broken.md: left as it is") for note in result.notes)


def test_the_summary_says_what_was_improved(corpus: Corpus) -> None:
    result = dream(corpus)
    assert result.summary.startswith("Improved ")
    for part in ("merged ", "relative date", "index entries that linked no file", "indexed "):
        assert part in result.summary


def test_a_later_step_reads_the_fields_an_earlier_step_wrote(tmp_path: Path) -> None:
    # The dates step rewrites the description; the index step then writes the entry of
    # this unindexed memory from the description it finds, so it must see the new one
    # (a memory's fields are worked out once per memory, never per path).
    _write(
        tmp_path,
        "project_launch.md",
        "project",
        "Launch plan.\n\n**Why:** x\n\n**How to apply:** y\n",
        description="Launch moved to the day after tomorrow",
    )
    (tmp_path / "MEMORY.md").write_text("# Memory Index\n", encoding="utf-8")

    DeterministicEngine().consolidate(
        _context(tmp_path, ages={"project_launch.md": 3}), RecordingProgress()
    )

    memory = MemoryFile.parse("project_launch.md", (tmp_path / "project_launch.md").read_bytes())
    assert "tomorrow" not in (memory.description or "")
    assert f"— {memory.description}" in (tmp_path / "MEMORY.md").read_text(encoding="utf-8")


def test_a_dream_makes_no_cyclic_garbage_so_the_collector_can_stay_off(corpus: Corpus) -> None:
    gc.collect()
    gc.disable()
    try:
        dream(corpus)
        assert gc.collect() == 0
    finally:
        gc.enable()


@pytest.mark.parametrize("enabled", [True, False])
def test_a_dream_runs_without_the_cyclic_collector_and_leaves_it_as_it_was(
    corpus: Corpus, enabled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    read = MemoryDirectory.read

    def reading(*args, **kwargs):  # the collector's state while the files are read
        seen.append(gc.isenabled())
        return read(*args, **kwargs)

    monkeypatch.setattr(MemoryDirectory, "read", reading)
    (gc.enable if enabled else gc.disable)()
    try:
        dream(corpus)
        assert gc.isenabled() is enabled
        assert seen and not any(seen)
        monkeypatch.setattr(MemoryDirectory, "read", lambda *a, **k: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            dream(corpus)
        assert gc.isenabled() is enabled
    finally:
        gc.enable()
