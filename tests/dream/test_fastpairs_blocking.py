"""Blocking checks each pair once (issue 15 item 6): the pairs it returns, and the order
it returns them in, are those of checking a pair every time it is met, as it first did,
on the generated corpus, the tuning corpus and a directory of common words."""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from memsync.dream import blocking, dedupe
from memsync.dream.dedupe import Candidate
from memsync.dream.profiles import profile_of
from memsync.memory import MemoryDirectory
from tests.dream.corpus import build_corpus
from tests.dream.test_dedupe_fast_paths import _common_word_directory
from tests.dream.tuning import write_corpus


def _pairs_checked_every_time(
    types: Sequence[str],
    words: Sequence[frozenset[str]],
    texts: Sequence[str],
    close: Callable[[int, int, int], bool],
    slack: Callable[[int], int],
) -> set[tuple[int, int]]:
    """`blocking.candidate_pairs` as it was: a pair is checked each time it is met."""
    pairs: set[tuple[int, int]] = set()
    copies: defaultdict[tuple[str, str], list[int]] = defaultdict(list)
    for index, key in enumerate(zip(types, texts, strict=True)):
        copies[key].append(index)
    for members in copies.values():
        pairs.update(itertools.combinations(members, 2))
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
    corpus = build_corpus(tmp_path / "memory", memories=800, seed=7)
    tuning = write_corpus(tmp_path / "tuning")
    directories = [_common_word_directory()]
    for root in (corpus.root, tuning.root):
        files = MemoryDirectory.read(root, links=False).files
        directories.append(
            [
                Candidate(path, memory.memory_type or "", None, memory.body, datetime.min)
                for path, memory in sorted(files.items())
            ]
        )
    return directories


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
