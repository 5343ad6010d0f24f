"""The dream's reading shortcuts outside duplicate and stale detection give what the
plain way gives: word sets kept as one string read back as the sets they were,
a text's dates rewritten without asking again whether it may hold one, a hint asked
once per text, a memory's fields worked out once without a lock. Each is checked
against the plain way on the generated corpus, the tuning batches, the real sample
files and text built to hit its edges."""

from __future__ import annotations

import dataclasses
import json
import random
from datetime import date
from pathlib import Path

import pytest

from memsync.dream import readings
from memsync.dream.deterministic import DeterministicEngine
from memsync.dream.engine import Scope
from memsync.dream.profiles import content_words, profile_of
from memsync.dream.supersession import claims
from memsync.dream.workspace import DreamDirectory
from memsync.memory import MemoryDirectory, MemoryFile, MemoryIndex
from memsync.memory.dates import (
    RelativeDate,
    find_relative_dates,
    has_date_hint,
    rewrite_hinted_dates,
    rewrite_relative_dates,
)
from memsync.memory.decoding import BOM, decode_memory_bytes
from memsync.memory.entry_line import canonical_parts, matched_parts
from memsync.memory.index import link_file
from memsync.memory.topic import _scalar_text
from tests.dream.corpus import RecordingProgress, build_corpus
from tests.dream.tuning import write_corpus

MEMORY_SAMPLES = Path(__file__).parents[1] / "memory" / "samples"
SECRET_SAMPLES = Path(__file__).parents[1] / "secrets" / "samples"
WEDNESDAY = date(2026, 12, 2)

DATED = [
    "We moved to Postgres yesterday.",
    "Deployed 3 days ago; next Friday the freeze starts.",
    "last week, this month, next year",
    "`yesterday` in code, [today](today.md), https://x.dev/yesterday",
    '2026-12-01 (yesterday) and "today" and today\'s',
    "the last week was long",
    "昨天上线；上周五回滚；说明天数；3天前",
    "Laſt week we rotated keys",
    "TODAY and Tomorrow",
    "ago",
    "",
]


def _memories(tmp_path: Path) -> list[MemoryFile]:
    corpus = build_corpus(tmp_path / "memory", memories=300)
    tuning = write_corpus(tmp_path / "tuning")
    found: list[MemoryFile] = []
    for root in (corpus.root, tuning.root, MEMORY_SAMPLES, SECRET_SAMPLES):
        found += MemoryDirectory.read(root, links=False).files.values()
    return found


def _texts(memories: list[MemoryFile]) -> list[str]:
    texts = [*DATED]
    for memory in memories:
        texts += [memory.body, memory.description or "", f"{memory.description}\n{memory.body}"]
    return texts


# -- word sets in the kept readings ---------------------------------------------------


def _kept(words: frozenset[str]) -> frozenset[str]:
    """`words` through the file: written, saved as JSON, read back."""
    return readings._strings(json.loads(json.dumps(readings._words_form(words))))


@pytest.mark.parametrize(
    "words",
    [
        frozenset(),
        frozenset({"one"}),
        frozenset({"deploy", "friday", "2"}),
        frozenset({"two words", "one"}),
        frozenset({"", "one"}),
        frozenset({""}),
        frozenset({"a\tb", "c\nd", "周五"}),
    ],
)
def test_a_word_set_reads_back_as_it_was(words):
    assert _kept(words) == words


def test_every_word_set_of_real_memories_reads_back_as_it_was(tmp_path):
    memories = _memories(tmp_path)
    for text in _texts(memories):
        words = content_words(text)
        assert _kept(words) == words, text
        profiled = profile_of(text, words).words
        assert _kept(profiled) == profiled, text
    for memory in memories:
        read = claims(memory)
        kept = json.loads(json.dumps(readings._claims_form(read)))
        assert readings._claims_from(kept) == read, memory.path


@pytest.mark.parametrize(
    "saved",
    [["a", 1], [None], {"a": 1}, 3, None, [["a"]], [True]],
)
def test_words_of_another_shape_are_a_miss(saved):
    assert readings._words_from(saved) is None


def test_a_list_of_words_is_still_read():
    assert readings._strings(["b", "a", "b"]) == frozenset({"a", "b"})
    assert readings._strings([]) == frozenset()


# -- relative dates ---------------------------------------------------------------------


def _plain_rewrite(text: str, reference: date) -> tuple[str, list[RelativeDate]]:
    """`rewrite_relative_dates` as it was written before its shortcut."""
    found = find_relative_dates(text, reference)
    pieces: list[str] = []
    position = 0
    for item in found:
        pieces += [text[position : item.start], item.text]
        position = item.end
    return "".join([*pieces, text[position:]]), found


def test_a_text_is_rewritten_as_the_plain_rewrite_does(tmp_path):
    texts = _texts(_memories(tmp_path))
    hinted = [text for text in texts if has_date_hint(text)]
    assert len(hinted) > 50
    assert sum(len(find_relative_dates(text, WEDNESDAY)) > 1 for text in hinted) > 5
    for text in hinted:
        assert rewrite_hinted_dates(text, WEDNESDAY) == _plain_rewrite(text, WEDNESDAY), text
    for text in texts:
        assert rewrite_relative_dates(text, WEDNESDAY) == _plain_rewrite(text, WEDNESDAY), text


def test_a_text_without_a_hint_is_left_as_it_is():
    assert rewrite_relative_dates("Nothing dated here.", WEDNESDAY) == ("Nothing dated here.", [])


def test_a_directory_asks_for_each_text_what_the_hint_says(tmp_path):
    corpus = build_corpus(tmp_path / "memory", memories=300)
    directory = DreamDirectory(corpus.context(Scope.PERSONAL), "", conservative=False)
    texts = _texts(list(directory.memories.values()))
    for _ in range(2):  # the second time from what the first kept
        assert [directory.has_date_hint(text) for text in texts] == [
            has_date_hint(text) for text in texts
        ]


# -- a memory's fields -------------------------------------------------------------------


def test_a_memorys_fields_are_what_its_metadata_says(tmp_path):
    for memory in _memories(tmp_path):
        metadata = memory.metadata
        nested = metadata.get("metadata")
        declared = (
            _scalar_text(metadata["type"])
            if "type" in metadata
            else _scalar_text(nested.get("type"))
            if isinstance(nested, dict)
            else None
        )
        assert memory.name == _plain_scalar(metadata.get("name")), memory.path
        assert memory.description == _plain_scalar(metadata.get("description")), memory.path
        assert memory.type == declared, memory.path
        assert memory.memory_type == (
            declared if declared in ("user", "feedback", "project", "reference") else None
        )


def _plain_scalar(value: object) -> str | None:
    """`_scalar_text` as it was written before its shortcut for text."""
    if value is None or isinstance(value, dict | list):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@pytest.mark.parametrize(
    "value", ["x", "", " padded ", "12", 12, 1.5, True, False, None, [1], {"a": 1}]
)
def test_a_scalar_reads_as_it_did(value):
    assert _scalar_text(value) == _plain_scalar(value)


def test_a_field_is_worked_out_once_and_kept():
    memory = MemoryFile.parse("a.md", b"---\nname: n\ndescription: d\ntype: user\n---\n\nBody.\n")
    assert "name" not in vars(memory)
    assert memory.name == "n"
    assert vars(memory)["name"] == "n"
    vars(memory)["name"] = "kept"
    assert memory.name == "kept"  # read from the record, not worked out again


# -- link targets ---------------------------------------------------------------------


TARGETS = [
    "a.md", "A_b-1.md", " a.md", "a.md ", "<a.md>", "./a.md", "../a.md", "a.md#why",
    "a.md?x", "my%20notes.md", "http:a.md", "https://x.dev/a.md", "/a.md", "#a",
    ".md", "..md", "a..md", "-.md", "a.MD", "indexes/a.md", "é.md", "a.md\n", "",
]  # fmt: skip


def test_a_link_target_reads_as_the_plain_reading_does(tmp_path):
    targets = [*TARGETS]
    for root in (build_corpus(tmp_path / "memory", memories=300).root, MEMORY_SAMPLES):
        index = MemoryDirectory.read(root, links=False).index
        if index is not None:
            targets += [entry.target for entry in index.entries]
    for root in MEMORY_SAMPLES.glob("*MEMORY.md"):
        targets += [entry.target for entry in MemoryIndex.parse_bytes(root.read_bytes()).entries]
    assert len(targets) > 300
    for target in targets:
        # A space first is stripped before anything else, and no file name starts
        # with one: the whole reading, which the plain file name skips.
        assert link_file(target) == link_file(" " + target), target


# -- index entries --------------------------------------------------------------------

_ENTRY_PIECES = [
    "- [", "[", "]", "](", ")", "(", "a.md", "../b.md", "<c.md>", " — ", " – ", ": ", " - ",
    "—", " ", "\t", "**", "\\", "\\]", "Title", "标题", "\r", "\n", "x y", "'t'", '"t"',
    "#why", "%20", "\u3000", "\x0b", "\xa0", "* [", "1. [",
]  # fmt: skip


def _index_lines(tmp_path: Path) -> list[str]:
    """Every line of the generated corpus's indexes after a dream (entries moved to
    sub-indexes included), of the sample indexes, and lines built to hit the edges."""
    corpus = build_corpus(tmp_path / "memory", memories=600)
    DeterministicEngine(cache=None).consolidate(corpus.context(Scope.PERSONAL), RecordingProgress())
    files = [*corpus.root.glob("*.md"), *corpus.root.glob("indexes/*.md")]
    files += [*MEMORY_SAMPLES.glob("*.md"), *SECRET_SAMPLES.glob("*.md")]
    lines = [line for path in files for line in path.read_text(encoding="utf-8").split("\n")]
    rng = random.Random(7)
    for _ in range(20_000):
        pieces = rng.choices(_ENTRY_PIECES, k=rng.randint(1, 10))
        lines.append("".join(["- [", *pieces] if rng.random() < 0.7 else pieces))

    def some(most: int) -> str:
        return "".join(rng.choices(_ENTRY_PIECES, k=rng.randint(0, most)))

    # Near the canonical form: each part of it written with odd pieces.
    lines += [f"- [{some(3)}]({some(2)}){rng.choice(['', ' — '])}{some(3)}" for _ in range(20_000)]
    return lines


def test_a_canonical_entry_reads_as_the_patterns_read_it(tmp_path):
    lines = _index_lines(tmp_path)
    read = 0
    for line in lines:
        canonical = canonical_parts(line)
        if canonical is not None:
            read += 1
            assert canonical == matched_parts(line), line
    assert read > 1_500


def test_decoded_text_is_what_its_init_builds():
    for data in [b"plain", BOM.encode() + b"with a BOM", b"", b"\xff", b"a\x00b"]:
        decoded = decode_memory_bytes("a.md", data)
        assert vars(decoded) == vars(dataclasses.replace(decoded)), data
    for path in [*MEMORY_SAMPLES.glob("*.md"), *SECRET_SAMPLES.glob("*.md")]:
        decoded = decode_memory_bytes(path.name, path.read_bytes())
        assert vars(decoded) == vars(dataclasses.replace(decoded)), path
