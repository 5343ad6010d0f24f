"""Stale marking's shortcuts give what the plain way gives (issue 14 item 3, issue 15
item 6): sentence splitting, the cues that gate a pattern, and the pairs `candidates`
compares, each checked against the slower reference it replaced, on the generated
corpus, the stale tuning material and text built to hit their edge cases."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from memsync.dream import staleness, supersession
from memsync.dream.stale_pairs import MAX_BLOCK, RARE_SHARE, candidates
from memsync.dream.supersession import Claims, claims
from memsync.memory import MemoryDirectory, MemoryFile
from tests.dream.corpus import build_corpus
from tests.dream.tuning.stale_variants import CONTRADICTED, NEAR_MISSES, SUPERSEDED

TRICKY = [
    "Moved from 8443.  \n\nThe port is 9443. (New.) `make x` now!\tDone?\n  \n",
    "We switched off Jenkins; NOT on Fridays. Ana Ruiz leads. it was replaced by Nia.",
    "Deploys happen on TUESDAYS, Mondays and 周二; ſunday and 3.11 at 10:30.",
    "no longer use yarn.\n\n\nNo more squash. Renamed … from a to b! 'Quoted' start",
    "Rollbar was replaced with Sentry… \u2028 line separator. \x85 next line",
    "",
]


def _texts(tmp_path: Path) -> list[str]:
    corpus = build_corpus(tmp_path / "memory", memories=300)
    texts = [
        f"{memory.description or ''}\n{memory.body}"
        for memory in MemoryDirectory.read(corpus.root, links=False).files.values()
    ]
    for _, older, newer in [*SUPERSEDED, *CONTRADICTED, *NEAR_MISSES]:
        texts += [older, newer]
    rng = random.Random(7)
    pieces = [*TRICKY, " ", "\n", ". ", "! ", "`x.y`", "Friday", "not", "now", "2026"]
    texts += ["".join(rng.choices(pieces, k=rng.randint(1, 9))) for _ in range(500)]
    return texts + TRICKY


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
    """`candidates` as it was written first: every pair of every small block, then kept
    when the two share a rare word neither leaves behind."""
    blocks: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
    sides = (mine, theirs or {})
    left_behind = frozenset().union(*(c.retired for side in sides for c in side.values()))
    spread: Counter[str] = Counter()
    for side in sides:
        for found in side.values():
            spread.update(found.words)
    limit = max(RARE_SHARE, sum(map(len, sides)) // 100)
    rare = frozenset(word for word, count in spread.items() if count <= limit)
    for number, memories in enumerate(sides):
        for path, found in memories.items():
            keys = set(found.keys())
            keys.update(("term", word) for word in (found.words | found.retired) & left_behind)
            keys.update(("word", word) for word in found.words & rare)
            for key in keys:
                blocks.setdefault(key, ([], []))[number].append(path)
    pairs: set[tuple[str, str]] = set()
    for key, (left, right) in blocks.items():
        changing = [p for p in left if mine[p].changes] + [p for p in right if sides[1][p].changes]
        if (key[0] == "word" and not changing) or len(left) + len(right) > MAX_BLOCK:
            continue
        if theirs is None:
            pairs.update((a, b) for a in left for b in left if a < b)
        else:
            pairs.update((a, b) for a in left for b in right)
    other = theirs or mine
    return {
        (a, b)
        for a, b in pairs
        if (mine[a].words & other[b].words & rare) - mine[a].retired - other[b].retired
    }


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
