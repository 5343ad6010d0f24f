"""Blocking checks each pair once (issue 15 item 6): the pairs it returns, and the order
it returns them in, are those of checking a pair every time it is met, as it first did,
on the generated corpus, the tuning corpus and a directory of common words."""

from __future__ import annotations

import functools
import itertools
from datetime import datetime
from pathlib import Path

from memsync.dream import blocking, dedupe
from memsync.dream.dedupe import Candidate
from memsync.dream.profiles import profile_of
from memsync.memory import MemoryDirectory
from tests.dream.corpus import build_corpus
from tests.dream.test_dedupe_fast_paths import _common_word_directory
from tests.dream.tuning import write_corpus


def _pairs_checked_every_time(types, words, texts, close, slack) -> set[tuple[int, int]]:
    """`blocking.candidate_pairs` as it was: a pair is checked each time it is met."""
    pairs = {
        (i, j)
        for i, j in itertools.combinations(range(len(texts)), 2)
        if (types[i], texts[i]) == (types[j], texts[j])
    }
    blocks = blocking._Blocks(types, words)

    def add(one: int, other: int) -> None:
        mine, theirs = words[one], words[other]
        if close(len(mine & theirs), len(mine), len(theirs)) and blocks.paired(one, other):
            pairs.add((one, other) if one < other else (other, one))

    for index, mine in enumerate(words):
        size, lacking = len(mine), slack(len(mine))
        if lacking < 0:
            continue
        held = blocks.holding[types[index]]
        rare = mine & blocks.few[types[index]]
        if len(rare) > lacking + 1:
            rare = frozenset(sorted(rare, key=lambda word: (len(held[word]), word))[: lacking + 1])
        for other in set().union(*[held[word] for word in rare]):
            if other != index and len(words[other]) >= size:
                add(index, other)
    for index, together in blocks.held_together():
        for other in together:
            if other == index or (other < index and blocks.reach(other)[1] is together):
                continue
            add(index, other)
    return pairs


def _directories(tmp_path: Path) -> list[list[Candidate]]:
    roots = [build_corpus(tmp_path / "memory", memories=800, seed=7).root]
    roots.append(write_corpus(tmp_path / "tuning").root)
    read = [MemoryDirectory.read(root, links=False).files.items() for root in roots]
    return [_common_word_directory()] + [
        [Candidate(path, m.memory_type or "", None, m.body, datetime.min) for path, m in files]
        for files in map(sorted, read)
    ]


def test_it_returns_the_pairs_of_checking_each_every_time_in_the_same_order(
    tmp_path: Path,
) -> None:
    for memories in _directories(tmp_path):
        read = [profile_of(memory.text) for memory in memories]
        given = ([m.type for m in memories], [p.words for p in read], [p.exact for p in read])
        for conservative in (False, True):
            close = functools.partial(dedupe._close, conservative=conservative)
            slack = functools.partial(dedupe._slack, conservative=conservative)
            expected = _pairs_checked_every_time(*given, close, slack)
            found = blocking.candidate_pairs(*given, close, slack)
            assert expected or conservative
            assert found == expected
            assert list(found) == list(expected)  # the verdicts are kept in this order
