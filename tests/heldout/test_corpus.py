"""The held-out corpus is whole: labels name real files, agree with each other and with the
checkout, files parse (or are labelled broken), and the sizes promised in issue 15 hold."""

from __future__ import annotations

import json
import re
import tomllib
import unicodedata
from pathlib import Path

import pytest

from memsync.memory import MemoryFile, MemoryIndex
from tests.heldout import (
    CLAUDE_CODE_INDEX_LINES,
    CLAUDE_CODE_INDEX_UTF16_UNITS,
    ROOT,
    STALE_AFTER_DAYS,
    CorpusError,
    Evidence,
    StaleCorpus,
    duplicate_corpora,
    index_corpora,
    load_duplicate_corpus,
    load_stale_corpus,
    memory_files,
    recall_corpus,
    stale_corpora,
)

DUPLICATES = duplicate_corpora()
INDEXES = index_corpora()
STALE = stale_corpora()
RECALL = recall_corpus()
CJK = re.compile(r"[\u3400-\u9fff]")


def memory_dirs() -> list[Path]:
    dirs = [c.root for c in DUPLICATES] + [c.root for c in INDEXES] + [RECALL.memory]
    for corpus in STALE:
        dirs += [corpus.memory, corpus.memory / "team"]
    return dirs


def parse(root: Path, file: str) -> MemoryFile:
    return MemoryFile.parse(file, (root / file).read_bytes())


def text_of(root: Path, file: str) -> str:
    return (root / file).read_text(encoding="utf-8")


def squeeze(text: str) -> str:
    """Letters and digits only, after folding full-width forms: what is left when
    punctuation, case and spacing are taken away."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if ch.isalnum())


# -- sizes ---------------------------------------------------------------------------------


def test_it_has_the_sizes_the_issue_asks_for() -> None:
    assert len(DUPLICATES) >= 3
    assert sum(len(c.topic_files()) for c in DUPLICATES) >= 300
    assert sum(len(c.duplicate_pairs()) for c in DUPLICATES) >= 30
    assert sum(len(c.distinct_pairs()) for c in DUPLICATES) >= 60
    assert len(INDEXES) >= 2
    assert len(STALE) >= 2
    assert len(memory_files(RECALL.memory)) >= 600
    assert len(RECALL.answerable()) >= 60
    assert len(RECALL.unanswerable()) >= 10


def test_it_covers_every_kind_of_duplicate_and_look_alike() -> None:
    dup_kinds = {g.kind for c in DUPLICATES for g in c.duplicates}
    assert {
        "reworded",
        "punctuation",
        "superset",
        "translated",
        "layout",
        "no-frontmatter",
    } <= dup_kinds
    distinct_kinds = {p.kind for c in DUPLICATES for p in c.distinct}
    assert {
        "other-service",
        "staging-vs-production",
        "version",
        "number",
        "port",
        "url",
        "day",
    } <= distinct_kinds


# -- every file reads ----------------------------------------------------------------------


def test_every_topic_file_parses_or_is_labelled_broken() -> None:
    broken = {(c.root, b.file): b.problem for c in DUPLICATES for b in c.broken}
    for root in memory_dirs():
        for file in memory_files(root):
            if file.startswith("team/"):
                continue  # read with its own scope
            errors = [str(p.code) for p in parse(root, file).errors]
            expected = broken.get((root, file))
            if expected is None:
                assert errors == [], f"{root / file}: {errors}"
            else:
                assert expected in errors, (
                    f"{root / file} is labelled {expected}, reads as {errors}"
                )


def test_every_index_links_existing_files_and_every_file_is_indexed() -> None:
    for root in memory_dirs():
        index = MemoryIndex.parse((root / "MEMORY.md").read_text(encoding="utf-8"))
        topics = {f for f in memory_files(root) if "/" not in f}
        assert index.linked_files() == topics, root


def test_the_corpus_uses_both_frontmatter_layouts_and_files_without_frontmatter() -> None:
    nested = flat = bare = extra = 0
    for root in memory_dirs():
        for file in memory_files(root):
            memory = parse(root, file)
            if not memory.has_frontmatter:
                bare += 1
            elif memory.has_nested_type:
                nested += 1
            elif memory.type is not None:
                flat += 1
            if memory.has_frontmatter and "originSessionId" in memory.frontmatter_text:
                extra += 1
    assert min(nested, flat, bare, extra) >= 20, (nested, flat, bare, extra)


# -- duplicates ----------------------------------------------------------------------------


@pytest.mark.parametrize("corpus", DUPLICATES, ids=lambda c: c.name)
def test_duplicate_labels_name_existing_files_and_never_contradict(corpus) -> None:
    topics = set(corpus.topic_files())
    assert corpus.memories == len(topics)
    labelled = [f for g in corpus.duplicates for f in g.files]
    labelled += [f for p in corpus.distinct for f in p.files]
    labelled += [b.file for b in corpus.broken]
    assert set(labelled) <= topics, sorted(set(labelled) - topics)
    in_groups = [f for g in corpus.duplicates for f in g.files]
    assert len(in_groups) == len(set(in_groups)), "a file sits in two duplicate groups"
    for pair in corpus.distinct:
        a, b = pair.files
        assert a != b
        assert not corpus.are_duplicates(a, b), (
            f"{a} and {b} are labelled both duplicate and distinct"
        )
    assert len(corpus.distinct_pairs()) == len(corpus.distinct), "a distinct pair is listed twice"


def test_translated_duplicates_are_in_two_languages() -> None:
    for corpus in DUPLICATES:
        for group in corpus.duplicates:
            if group.kind != "translated":
                continue
            chinese = [bool(CJK.search(parse(corpus.root, f).body)) for f in group.files]
            assert True in chinese and False in chinese, group


def test_punctuation_duplicates_differ_only_in_punctuation() -> None:
    for corpus in DUPLICATES:
        for group in corpus.duplicates:
            if group.kind != "punctuation":
                continue
            descriptions = [parse(corpus.root, f).description for f in group.files]
            assert len(set(descriptions)) > 1, group
            assert len({squeeze(d or "") for d in descriptions}) == 1, descriptions


def test_layout_duplicates_use_both_layouts() -> None:
    for corpus in DUPLICATES:
        for group in corpus.duplicates:
            if group.kind == "layout":
                nested = {parse(corpus.root, f).has_nested_type for f in group.files}
                assert nested == {True, False}, group


def test_distinct_pairs_never_say_the_same_thing() -> None:
    for corpus in DUPLICATES:
        for pair in corpus.distinct:
            a, b = (parse(corpus.root, f) for f in pair.files)
            assert squeeze((a.description or "") + a.body) != squeeze(
                (b.description or "") + b.body
            ), pair


def test_no_two_memories_outside_a_group_read_the_same() -> None:
    for corpus in DUPLICATES:
        seen: dict[str, str] = {}
        for file in corpus.topic_files():
            memory = parse(corpus.root, file)
            key = squeeze((memory.description or "") + memory.body)
            other = seen.setdefault(key, file)
            if other != file:
                assert corpus.are_duplicates(other, file), f"{other} and {file} read the same"


# -- index budget --------------------------------------------------------------------------


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def visible_lines(lines: list[str], measure) -> int:
    count = total = 0
    for number, line in enumerate(lines[:CLAUDE_CODE_INDEX_LINES], start=1):
        total += measure(line) + 1
        if total - 1 > CLAUDE_CODE_INDEX_UTF16_UNITS:
            break
        count = number
    return count


@pytest.mark.parametrize("corpus", INDEXES, ids=lambda c: c.name)
def test_index_figures_match_the_files(corpus) -> None:
    text = (corpus.root / "MEMORY.md").read_text(encoding="utf-8")
    lines = text.split("\n")[:-1]
    assert corpus.lines == len(lines)
    assert corpus.utf16_units == utf16(text)
    assert corpus.utf8_bytes == len(text.encode("utf-8"))
    assert corpus.entries == len(MemoryIndex.parse(text).entries)
    assert corpus.memories == len(memory_files(corpus.root))
    assert corpus.visible_lines_utf16 == visible_lines(lines, utf16)
    assert corpus.visible_lines_utf8 == visible_lines(lines, lambda line: len(line.encode("utf-8")))
    assert corpus.over_line_limit or corpus.over_size_limit


def test_index_corpora_reach_each_limit_and_one_is_mostly_chinese() -> None:
    assert any(c.over_line_limit for c in INDEXES)
    assert any(c.over_size_limit for c in INDEXES)
    chinese = []
    for corpus in INDEXES:
        text = (corpus.root / "MEMORY.md").read_text(encoding="utf-8")
        letters = [ch for ch in text if ch.isalpha()]
        chinese.append(sum(1 for ch in letters if CJK.match(ch)) > len(letters) / 2)
    assert any(chinese)


def test_the_issue_example_of_one_big_project_group_is_there() -> None:
    example = next(c for c in INDEXES if c.memories == 216)
    lines = (example.root / "MEMORY.md").read_text(encoding="utf-8").split("\n")[:-1]
    assert len(lines) == 218
    start = lines.index("## Project")
    assert all(line.startswith("- [") for line in lines[start + 1 :])
    assert len(lines) - start - 1 == 214


# -- stale ---------------------------------------------------------------------------------


def checkout_text(code: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(code.rglob("*")) if p.is_file())


def npm_scripts(code: Path) -> set[str]:
    return {
        name
        for package in code.rglob("package.json")
        for name in json.loads(package.read_text(encoding="utf-8")).get("scripts", {})
    }


def make_targets(code: Path) -> set[str]:
    target = re.compile(r"^([A-Za-z0-9_.-]+)\s*:(?!=)", re.MULTILINE)
    return {
        m[1] for f in code.rglob("Makefile") for m in target.finditer(f.read_text(encoding="utf-8"))
    }


def console_scripts(code: Path) -> set[str]:
    return {
        name
        for f in code.rglob("pyproject.toml")
        for name in tomllib.loads(f.read_text(encoding="utf-8"))
        .get("project", {})
        .get("scripts", {})
    }


def holds(corpus: StaleCorpus, evidence: Evidence) -> bool:
    """Whether what the evidence names is there in the checkout."""
    code = corpus.code
    value = evidence.value or ""
    if evidence.kind == "path":
        return (code / value).exists()
    if evidence.kind == "npm-script":
        return value in npm_scripts(code)
    if evidence.kind == "make-target":
        return value in make_targets(code)
    if evidence.kind == "console-script":
        return value in console_scripts(code)
    if evidence.kind in ("symbol", "env-var"):
        return re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", checkout_text(code)) is not None
    if evidence.kind == "value":
        assert evidence.file and evidence.code_says
        return evidence.code_says in (code / evidence.file).read_text(encoding="utf-8")
    raise AssertionError(f"no checkout test for {evidence.kind}")


@pytest.mark.parametrize("corpus", STALE, ids=lambda c: c.name)
def test_every_stale_memory_file_is_labelled_once_and_dated(corpus) -> None:
    files = memory_files(corpus.memory)
    stale = [label.file for label in corpus.stale]
    fresh = [label.file for label in corpus.not_stale]
    assert sorted(stale + fresh) == files
    assert set(corpus.dates) == set(files)
    for file in files:
        memory = parse(corpus.memory, file)
        nested = memory.metadata.get("metadata")
        stamps = [memory.metadata.get("modified")]
        stamps.append(nested.get("modified") if isinstance(nested, dict) else None)
        for stamp in filter(None, stamps):
            assert str(stamp) == corpus.dates[file].date().isoformat(), file


@pytest.mark.parametrize("corpus", STALE, ids=lambda c: c.name)
def test_stale_evidence_holds_against_the_checkout(corpus) -> None:
    for label in corpus.stale:
        text = text_of(corpus.memory, label.file)
        for evidence in label.evidence:
            if evidence.kind in ("superseded", "contradicted"):
                assert evidence.by is not None
                assert (corpus.memory / evidence.by).is_file(), evidence.by
                assert corpus.dates[evidence.by] > corpus.dates[label.file], label.file
                assert not corpus.is_stale(evidence.by), f"{evidence.by} is itself stale"
                if evidence.kind == "contradicted":
                    assert evidence.by.startswith("team/"), "a teammate's memory lives in team/"
                continue
            if evidence.kind == "value":
                assert evidence.memory_says and evidence.memory_says in text, label.file
            else:
                assert evidence.value and evidence.value in text, (
                    f"{label.file} does not cite {evidence.value}"
                )
            expected_there = evidence.kind == "value"
            assert holds(corpus, evidence) is expected_there, (label.file, evidence)


@pytest.mark.parametrize("corpus", STALE, ids=lambda c: c.name)
def test_what_fresh_memories_cite_exists(corpus) -> None:
    for label in corpus.not_stale:
        text = text_of(corpus.memory, label.file)
        for evidence in label.cites:
            cited = evidence.memory_says if evidence.kind == "value" else evidence.value
            assert cited and cited in text, f"{label.file} does not cite {cited}"
            assert holds(corpus, evidence), (label.file, evidence)


def test_stale_labels_cover_every_reason_and_many_old_true_memories() -> None:
    kinds = {e.kind for c in STALE for label in c.stale for e in label.evidence}
    assert kinds == {
        "path",
        "npm-script",
        "make-target",
        "symbol",
        "env-var",
        "console-script",
        "value",
        "superseded",
        "contradicted",
    }
    old_and_true = [
        label.file
        for c in STALE
        for label in c.not_stale
        if c.age_days(label.file) > STALE_AFTER_DAYS
    ]
    assert len(old_and_true) >= 30


# -- recall --------------------------------------------------------------------------------


def test_recall_labels_name_existing_files() -> None:
    files = set(memory_files(RECALL.memory))
    ids = [q.id for q in RECALL.questions]
    assert len(ids) == len(set(ids))
    assert len({q.question for q in RECALL.questions}) == len(RECALL.questions)
    for question in RECALL.questions:
        assert set(question.answers) <= files, question.id
        assert set(question.distractors) <= files, question.id
        assert not set(question.answers) & set(question.distractors), question.id
        assert question.answerable != ("unanswerable" in question.tags), question.id


def test_recall_questions_are_not_copies_of_their_answers() -> None:
    for question in RECALL.answerable():
        for file in question.answers:
            description = parse(RECALL.memory, file).description or ""
            assert squeeze(question.question) not in squeeze(description), question.id


def test_recall_questions_cover_the_hard_cases() -> None:
    tags = [t for q in RECALL.questions for t in q.tags]
    for tag, least in [
        ("identifier", 5),
        ("abbreviation", 5),
        ("alike", 10),
        ("cross-language", 4),
    ]:
        assert tags.count(tag) >= least, tag
    assert sum(1 for q in RECALL.questions if q.lang == "zh") >= 5
    assert sum(1 for q in RECALL.answerable() if q.distractors) >= 20


# -- the loader on bad input ---------------------------------------------------------------


def test_the_loader_names_the_label_file_and_key_that_is_wrong(tmp_path: Path) -> None:
    corpus = tmp_path / "broken-corpus"
    corpus.mkdir()
    labels = json.loads(
        (ROOT / "duplicates" / "platform" / "labels.json").read_text(encoding="utf-8")
    )
    del labels["distinct"]
    (corpus / "labels.json").write_text(json.dumps(labels), encoding="utf-8")
    with pytest.raises(CorpusError, match=r"labels\.json: missing key 'distinct'"):
        load_duplicate_corpus(corpus)
    labels["distinct"] = [{"files": ["a.md"], "kind": "number", "differs": "x"}]
    (corpus / "labels.json").write_text(json.dumps(labels), encoding="utf-8")
    with pytest.raises(
        CorpusError, match=r"distinct\[0\]: a distinct pair needs exactly two files"
    ):
        load_duplicate_corpus(corpus)


def test_the_loader_rejects_unknown_evidence(tmp_path: Path) -> None:
    source = ROOT / "stale" / "relay"
    target = tmp_path / "relay"
    target.mkdir()
    (target / "dates.json").write_bytes((source / "dates.json").read_bytes())
    labels = json.loads((source / "labels.json").read_text(encoding="utf-8"))
    labels["stale"][0]["evidence"] = [{"kind": "vibes", "value": "old"}]
    (target / "labels.json").write_text(json.dumps(labels), encoding="utf-8")
    with pytest.raises(
        CorpusError, match=r"stale\[0\]\.evidence\[0\]: unknown evidence kind 'vibes'"
    ):
        load_stale_corpus(target)
    (target / "labels.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(CorpusError, match="not valid UTF-8 JSON"):
        load_stale_corpus(target)
