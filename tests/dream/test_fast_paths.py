"""The dream's shortcuts give what the plain way gives (issue 14 item 3, issue 15 item
6): each is checked against the slower reference it replaced, on text built to hit
its edge cases."""

from __future__ import annotations

import random

import pytest

from memsync.dream.index_edit import IndexLines
from memsync.dream.misspelling import one_edit, without_typos
from memsync.dream.profiles import (
    _WORD,
    CJK_START,
    _chinese_words,
    _content_words,
    canonical,
    normalise,
)
from memsync.dream.vocabulary import STOPWORDS
from memsync.memory import MemoryIndex
from memsync.memory.dates import DATE_HINT, has_date_hint
from memsync.memory.decoding import BOM
from memsync.memory.index import IndexEntry, _entry_at, _entry_parts, entry_titles
from tests.dream.corpus import build_corpus

TRICKY_DATES = [
    "Deployed today",
    "TODAY we ship",
    "three days ago",
    "agony is not a date",
    "last week's outage",
    "LAST   MONTH",
    "this Friday",
    "thıs friday",  # a dotless i: the pattern matches it case-insensitively
    "laſt week",  # a long s
    "next year",
    "next steps",
    "this is fine",
    "上周发布",
    "每天",
    "nothing relative here",
    "",
]


def _corpus_texts(tmp_path) -> list[str]:
    corpus = build_corpus(tmp_path / "memory", memories=120)
    return [path.read_text(encoding="utf-8") for path in sorted(corpus.root.glob("*.md"))]


def test_the_date_hint_shortcut_agrees_with_the_pattern(tmp_path):
    for text in TRICKY_DATES + _corpus_texts(tmp_path):
        assert has_date_hint(text) == (DATE_HINT.search(text) is not None), text


def _reference_content_words(folded: str) -> frozenset[str]:
    found: set[str] = set()
    for word in _WORD.findall(folded):
        if CJK_START.match(word):
            found.update(_chinese_words(word))
        elif word not in STOPWORDS:
            found.add(canonical(word))
    return frozenset(found)


def test_content_words_of_ascii_text_are_those_of_the_full_pattern(tmp_path):
    odd = ["v1.2.3 at 10:30, 1,000 rows; py311 and the_thing", "数据库 ok"]
    texts = [*_corpus_texts(tmp_path), *odd]
    assert any(not text.isascii() for text in texts)
    for text in texts:
        folded = normalise(text).casefold()
        assert _content_words(folded) == _reference_content_words(folded), text


def _reference_without_typos(one: frozenset[str], other: frozenset[str]):
    left, right = set(one), set(other)
    for word in sorted(one):
        twin = next((w for w in sorted(right) if one_edit(word, w)), None)
        if twin is not None:
            left.discard(word)
            right.discard(twin)
    return left, right


def test_the_typo_shortcut_discards_the_same_words():
    rng = random.Random(7)
    words = ["receive", "recieve", "recieved", "deploy", "deploys", "database", "databse"]
    words += ["databases", "migration", "migratoin", "kafka", "staging", "stagign", "py311"]
    for _ in range(3000):
        one = frozenset(rng.sample(words, rng.randint(0, 5)))
        other = frozenset(rng.sample(words, rng.randint(0, 5))) - one
        assert without_typos(one, other) == _reference_without_typos(one, other), (one, other)


@pytest.mark.parametrize(
    "lines",
    [
        [("# Memory", "\n"), ("- [A](a.md) — hook", "\n")],
        [("- [A](a.md) — hook", "\r\n"), ("", "\n"), ("```", "\n"), ("- [B](b.md)", "")],
        [("two\nlines", "\n"), ("- [A](a.md)", "\n")],  # an edit that put in a line break
        [("ends in a return\r", "\n"), ("- [A](a.md)", "\n")],
        [("- [A](a.md)", ""), ("- [B](b.md)", "\n")],  # an unterminated line, then more
        [(BOM + "# Memory", "\n")],
        [("- [A](a.md)", "\n"), ("", "")],
    ],
)
def test_an_index_parsed_from_its_lines_is_the_parse_of_its_text(lines):
    for bom in ("", BOM):
        index_lines = IndexLines(bom, list(lines))
        parsed = index_lines.index()
        expected = MemoryIndex.parse(index_lines.render())
        assert parsed.render() == expected.render()
        assert parsed.entries == expected.entries
        assert parsed.lines == expected.lines


LONG = "x" * 200


@pytest.mark.parametrize(
    "lines",
    [
        [("# Memory", "\n"), (f"- [A](a.md) — {LONG}", "\n"), ("- [B](b.md) — short", "\n")],
        # A long entry-like line in a fence, a long heading, a long line of text.
        [
            ("```", "\n"),
            (f"- [A](a.md) — {LONG}", "\n"),
            ("```", "\n"),
            (f"## {LONG}", "\n"),
            (f"Some prose {LONG}", "\n"),
            (f"  * [C](c.md): {LONG}", ""),
        ],
        # Lines that are not what splitting their text gives: the plain parse decides.
        [(f"two\nlines - [A](a.md) — {LONG}", "\n"), (f"- [B](b.md) — {LONG}", "\n")],
        [(f"ends in a return\r - [A](a.md) — {LONG}", "\n"), (f"- [B](b.md) {LONG}", "\n")],
    ],
)
def test_the_long_entries_of_an_index_are_those_of_its_full_parse(lines):
    for bom in ("", BOM):
        expected = [
            entry
            for entry in MemoryIndex.parse(IndexLines(bom, list(lines)).render()).entries
            if len(entry.raw) > 200
        ]
        fresh = IndexLines(bom, list(lines))
        parsed = IndexLines(bom, list(lines))
        parsed.index()

        assert fresh.long_entries(200) == expected
        assert (fresh._parsed is None) == fresh._as_split()  # parsed only when it must be
        assert parsed.long_entries(200) == expected


def test_entry_titles_are_the_titles_of_the_parsed_entries():
    text = (
        "# Memory overflow\n\n## Projects\n- [A \\[x\\]](../a.md) — one\n"
        "```\n- [In a fence](b.md)\n"
        "```\n### Deeper\n- [C](../c.md)\n~~~~\n- [Fenced too](d.md)\n~~~~~\n  * [E](e.md): five\n"
    )
    lines = IndexLines.parse(text)

    titles = entry_titles(lines.contents())

    assert titles == [entry.title for entry in MemoryIndex.parse(text).entries]
    assert titles == ["A \\[x\\]", "C", "E"]


def test_an_entry_built_without_its_init_is_the_entry_its_init_builds():
    for line in (
        "- [A](a.md) — hook",
        "  * **[B \\[x\\]](<b c.md> 'title')** - the hook",
        "12) [C](c.md):no gap",
        "- [D](d.md)",
    ):
        parts = _entry_parts(line)
        assert parts is not None, line

        built = _entry_at(parts, 7)

        expected = IndexEntry(*parts[:3], 7, *parts[3:])
        assert vars(built) == vars(expected)  # every field, a new one too
        assert built == expected and hash(built) == hash(expected)


def test_an_edited_index_has_its_own_text_and_entries_once_the_original_was_read():
    lines = IndexLines.parse("# Memory\n- [A](a.md) — one\n")
    before = lines.render()
    assert [entry.hook for entry in lines.index().entries] == ["one"]

    edited = lines.edited({2: ["- [A](a.md) — two"]}, ["- [B](b.md) — three"])

    assert edited.render() == "# Memory\n- [A](a.md) — two\n- [B](b.md) — three\n"
    assert [entry.hook for entry in edited.index().entries] == ["two", "three"]
    assert lines.render() == before
    assert [entry.hook for entry in lines.index().entries] == ["one"]
