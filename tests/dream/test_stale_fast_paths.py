"""Stale marking's shortcuts give what the plain way gives (issue 14 item 3, issue 15
item 6): sentence splitting, the cues that gate a pattern, and the pairs `candidates`
compares, each checked against the slower reference it replaced, on the generated
corpus, the stale tuning material and text built to hit their edge cases."""

from __future__ import annotations

import importlib
import itertools
import pkgutil
import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from memsync.dream import staleness, stated_values, supersession
from memsync.dream.stale_pairs import MAX_BLOCK, RARE_SHARE, candidates
from memsync.dream.supersession import Claims, claims
from memsync.memory import MemoryDirectory, MemoryFile
from tests.dream import tuning
from tests.dream.corpus import build_corpus
from tests.dream.tuning.stale_variants import CONTRADICTED, NEAR_MISSES, SUPERSEDED

# Pieces whose joins (every pair, in order) hit the edges: white space of every kind
# after a sentence's end, cues inside words ("nothing", "notice"), weekdays in capitals
# and a long s, Chinese.
EDGES = [
    "Moved from 8443.  \n\n", "The port is 9443. ", "(New.) `make x` now!\t", "Done?\n  \n",
    "NOT on TUESDAYS; nothing noticed. ", "Ana Ruiz leads, ſunday ", "周二部署 3.11 at 10:30",
    "no longer use yarn.\n\n\n", "Rollbar was replaced with Sentry… ", "\u2028 \x85 'Quoted' ",
    "",
]  # fmt: skip


def _texts(tmp_path: Path) -> list[str]:
    corpus = build_corpus(tmp_path / "memory", memories=300)
    memories = MemoryDirectory.read(corpus.root, links=False).files.values()
    tuning = [text for _, *pair in [*SUPERSEDED, *CONTRADICTED, *NEAR_MISSES] for text in pair]
    joined = ["".join(pair) for pair in itertools.product(EDGES, repeat=2)]
    return [f"{m.description or ''}\n{m.body}" for m in memories] + tuning + joined


# `supersession._SENTENCE` as it was written first, its look-behind tried at every character.
_PLAIN_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`\"'(])|\n+")


def test_it_splits_sentences_as_the_look_behind_pattern_did(tmp_path: Path) -> None:
    for text in _texts(tmp_path):
        assert supersession._SENTENCE.split(text) == _PLAIN_SENTENCE.split(text), text


def test_its_cues_gate_no_match_away(tmp_path: Path) -> None:
    for text in _texts(tmp_path):
        for sentence in _PLAIN_SENTENCE.split(text):
            cued = any(cue in sentence for cue in supersession._RETIRED_CUES)
            assert bool(supersession._RETIRED_CUE.search(sentence)) == cued
            cued = any(cue in sentence for cue in supersession._RETIRED_BEFORE_CUES)
            assert bool(supersession._RETIRED_BEFORE_CUE.search(sentence)) == cued
        if staleness._MASK.search(text):
            assert staleness._may_mask(text), text
        if text.isascii():
            folded = text.lower()
            changed = not supersession._CHANGED_WORDS.isdisjoint(re.findall(r"\w+", folded))
            now = any(cue in folded for cue in supersession._NOW_CUES)
            assert supersession._says_changed(text) == (
                changed or (now and bool(supersession._LOWER_NOW.search(folded)))
            )


def _reference_candidates(
    mine: Mapping[str, Claims], theirs: Mapping[str, Claims] | None = None
) -> set[tuple[str, str]]:
    """`candidates` by its definition, pair by pair: two memories holding one key that at
    most `MAX_BLOCK` memories hold (a word only where one of them says something changed)
    and sharing a rare word neither leaves behind."""
    every = [*mine.values(), *(theirs or {}).values()]
    left_behind = frozenset().union(*(found.retired for found in every))
    spread = Counter(word for found in every for word in found.words)
    limit = max(RARE_SHARE, len(every) // 100)
    rare = {word for word, count in spread.items() if count <= limit}

    def keys_of(found: Claims) -> set[tuple[str, str]]:
        terms = (found.words | found.retired) & left_behind
        return {
            *found.keys(),
            *(("term", word) for word in terms),
            *(("word", word) for word in found.words & rare),
        }

    holders = Counter(key for found in every for key in keys_of(found))
    changing = {key for found in every if found.changes for key in keys_of(found)}
    paired = theirs if theirs is not None else mine
    keys = {id(found): keys_of(found) for found in every}
    found_pairs: set[tuple[str, str]] = set()
    for a, older in mine.items():
        for b, newer in paired.items():
            if theirs is None and not a < b:
                continue
            common = keys[id(older)] & keys[id(newer)]
            small = [key for key in common if holders[key] <= MAX_BLOCK]
            if not any(key[0] != "word" or key in changing for key in small):
                continue
            if (older.words & newer.words & rare) - older.retired - newer.retired:
                found_pairs.add((a, b))
    return found_pairs


def test_it_pairs_the_memories_the_plain_way_pairs(tmp_path: Path) -> None:
    read = {
        f"m{number}.md": claims(MemoryFile.parse("m.md", f"---\ntype: project\n---\n{t}".encode()))
        for number, t in enumerate(_texts(tmp_path))
    }
    paths = sorted(read)
    mine = {path: read[path] for path in paths[::2]}
    theirs = {path: read[path] for path in paths[1::2]}
    found = candidates(mine)
    assert found == _reference_candidates(mine)
    assert len(found) > 20  # enough pairs to tell
    assert candidates(mine, theirs) == _reference_candidates(mine, theirs)
    assert candidates(mine, {}) == _reference_candidates(mine, {}) == set()


def _plain_slot(blanked: str, start: int, end: int) -> frozenset[str]:
    """`supersession._slot` as it was written first: the words after the value up to a
    break split off, and each of them read as a text; before it, those of its clause when
    that names any."""
    before = supersession._words(blanked[:start])[-supersession._BEFORE :]
    joins = [m.end() for m in supersession._CLAUSE_JOIN.finditer(blanked[:start])]
    if joins and (own := supersession._words(blanked[joins[-1] : start])):
        before = own[-supersession._BEFORE :]
    after: list[str] = []
    for piece in supersession._WORD.finditer(supersession._BREAK.split(blanked[end:], 1)[0]):
        word = piece.group(0).casefold()
        if word in supersession._STOP_AFTER:
            break
        after += supersession._words(word)
        if len(after) >= supersession._AFTER:
            break
    return frozenset(before + after[: supersession._AFTER])


def test_it_reads_the_words_around_a_value_as_the_plain_way_did(tmp_path: Path) -> None:
    # Letters that change in lower case ("İ" gains a combining dot, which splits a word
    # in pieces; "ß" doubles), and values right after a word and before a break.
    odd = [
        "The request timeout is 30s BİLLİNG-ŞERVİCE wide.",
        "Der Port ist 8443 für İSTANBUL-Prod — früher 9443 STRAßE; der Timeout 30s, done.",
        "端口8080 für die API, the retention window is 14 days (was 7) - per team.",
        "The request timeout is 30s when busy, 45s otherwise: see the Ledger team runbook.",
    ]
    checked = 0
    for text in _texts(tmp_path) + odd:
        for sentence in supersession._SENTENCE.split(supersession.normalise(text)):
            found = list(stated_values.values(sentence))
            blanked = supersession._blank(sentence, found)
            for start, end, _, _ in found:
                slot = supersession._slot(blanked, start, end)
                assert slot == _plain_slot(blanked, start, end), (sentence, start)
                checked += 1
    assert checked > 500  # enough values to tell


def _strings(value: Any) -> list[str]:
    """Every string held in `value`, however deep in lists, tuples and dicts."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return _strings(list(value.items()))
    if isinstance(value, list | tuple | set | frozenset):
        return [text for item in value for text in _strings(item)]
    return []


def _every_tuning_text() -> list[str]:
    """Every string of every tuning module (memories, pairs of them, code files) and every
    memory file under ``tests/dream/tuning``: text written by many hands."""
    texts: list[str] = []
    for module in pkgutil.iter_modules(tuning.__path__, f"{tuning.__name__}."):
        texts += _strings(list(vars(importlib.import_module(module.name)).values()))
    for file in sorted(Path(tuning.__path__[0]).rglob("*.md")):
        memory = MemoryFile.parse(file.name, file.read_bytes())
        texts.append(f"{memory.description or ''}\n{memory.body}")
    return texts


# One sentence for each way a value is written, each holding no other value, so that a
# mark or a word missing from `stated_values._may_state_value` keeps one from being found.
ONE_VALUE_EACH = [
    "Deploys run daily.", "Backups are taken nightly.", "The sync runs hourly.",
    "Retros happen biweekly.", "Planning is fortnightly.", "Reviews are weekly here.",
    "Audits are monthly.", "Reports go out quarterly.", "Keys are rotated yearly.",
    "Licences renew annually.", "The flag is enabled.", "The flag is disabled.",
    "Review is required.", "Review is optional.", "Force pushes are allowed.",
    "Force pushes are forbidden.", "Force pushes are blocked.", "Review is mandatory.",
    "Tracing is on by default.", "Tracing is off by default.", "We deploy on Mondays.",
    "We deploy on Tuesday.", "We deploy on WEDNESDAYS.", "We deploy on thursday.",
    "Freeze on Friday.", "Nothing on Saturdays.", "Nothing on Sunday.",
    "The docs are at https://docs.example/x and http://localhost/y.",
    "The freeze starts in January.", "The freeze starts in February.",
    "The freeze starts in March.", "The freeze starts in April.", "Audit in June.",
    "Audit in July.", "Audit in August.", "Audit in September.", "Audit in October.",
    "Audit in November.", "Audit in December.", "Ask in #ops about it.",
    "Mail ops@example.org about it.", "Run `make ship` for it.", "The host is db-prod-eu.",
    "The bucket is acme_logs.v.", "The queue is courier-dlq.", "Port 8443.", "At 10:30.",
    "Node v20 now.", "Python 3.12 now.", "The cap is 25 MB.", "Keep 14 days.",
    "Sample 5% of it.", "The API is v2.", "From 2026-03-04 on.", "Since March 4th.",
]  # fmt: skip


def test_it_searches_for_values_only_where_one_may_be(tmp_path: Path) -> None:
    """`stated_values.values` skips the value pattern in an ASCII sentence holding none of
    `_may_state_value`'s marks and words: the pattern finds nothing in any such sentence."""
    for sentence in ONE_VALUE_EACH:
        assert list(stated_values.values(sentence)), sentence
    texts = _texts(tmp_path) + _every_tuning_text() + ONE_VALUE_EACH
    skipped = searched = 0
    for text in texts:
        for sentence in supersession._SENTENCE.split(supersession.normalise(text)):
            for piece in (sentence, sentence.upper(), sentence.title()):
                if not piece.isascii():
                    continue
                lower = piece.lower()
                if stated_values._may_state_value(lower):
                    searched += 1
                else:
                    assert not list(stated_values._LOWER_VALUE.finditer(lower)), piece
                    skipped += 1
    assert skipped > 1000 and searched > 1000  # enough of each to tell


# Memories leaving a tool behind, each found through one cue of `_may_retire` alone.
LEFT_BEHIND_EACH = [
    "We used pip-tools before uv.", "Mixpanel was deprecated last year.",
    "构建不再用 Jenkins。", "Jenkins 已停用", "We moved the wiki off Confluence.",
    "Rollbar was replaced with Sentry.",
]  # fmt: skip


def test_it_tries_the_patterns_for_what_is_left_behind_only_where_a_cue_is(
    tmp_path: Path,
) -> None:
    for text in LEFT_BEHIND_EACH:
        assert supersession._retired_terms(text), text
    texts = _texts(tmp_path) + _every_tuning_text() + LEFT_BEHIND_EACH
    skipped = 0
    for text in texts:
        if supersession._may_retire(text):
            continue
        skipped += 1
        for sentence in supersession._SENTENCE.split(text):
            assert not supersession._retired_terms(sentence), sentence
    assert skipped > 200  # enough to tell
    cued = [t for t in texts if any(supersession._retired_terms(s) for s in t.split("\n"))]
    assert len(cued) > 50 and all(supersession._may_retire(text) for text in cued)


def test_its_gates_leave_every_claim_as_the_ungated_reading_has_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`claims` with its shortcuts (`_may_state_value`, `_may_retire`) and without them."""
    memories = [
        MemoryFile.parse("m.md", f"---\ndescription: {line}\ntype: project\n---\n{text}".encode())
        for text in _texts(tmp_path) + _every_tuning_text() + ONE_VALUE_EACH + LEFT_BEHIND_EACH
        for line in [text.split("\n", 1)[0].replace(":", " ")[:80] or "x"]
    ]
    fast = [claims(memory) for memory in memories]
    monkeypatch.setattr(stated_values, "_may_state_value", lambda lower: True)
    monkeypatch.setattr(supersession, "_may_retire", lambda text: True)
    assert [claims(memory) for memory in memories] == fast
    assert sum(bool(found.retired) for found in fast) > 50  # enough of each to tell
    assert sum(bool(found.facts) for found in fast) > 500


def test_it_splits_ascii_text_in_the_pieces_the_pattern_finds(tmp_path: Path) -> None:
    # Every ASCII character next to a word and between two, control characters included.
    every = "".join(f"a{chr(c)}b-{chr(c)}_c{chr(c)} " for c in range(128))
    checked = 0
    for text in [*_texts(tmp_path), *_every_tuning_text(), every]:
        for sentence in supersession._SENTENCE.split(supersession.normalise(text)):
            plain = itertools.chain.from_iterable(
                map(supersession._piece_words, supersession._WORD.findall(sentence))
            )
            assert supersession._words(sentence) == list(plain), sentence
            checked += sentence.isascii()
    assert checked > 2000  # enough ASCII sentences to tell
