"""Duplicate detection on the seventh tuning batch (``tuning/supersets.py``): a memory
restated and added to merges; one whose addition denies, ends or changes what the other
says does not. Never a false merge; the recall floor is what the rules reach, rounded
down."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsync.dream.deterministic import DeterministicEngine
from memsync.dream.engine import DreamContext, Scope
from tests.dream.corpus import RecordingProgress
from tests.dream.test_dedupe_facts import merged
from tests.dream.test_dedupe_restated import memory
from tests.dream.test_dedupe_tuning import NOW, merged_pairs, print_by_kind
from tests.dream.tuning import supersets

FLOOR = 0.0


def test_it_merges_no_look_alike_and_most_supersets(tmp_path: Path) -> None:
    corpus = supersets.write_corpus(tmp_path / "memory")
    context = DreamContext(tmp_path / "memory", Scope.PERSONAL, NOW, corpus.changed)

    found_merged = merged_pairs(DeterministicEngine().consolidate(context, RecordingProgress()))

    false = found_merged - corpus.duplicates
    found = found_merged & corpus.duplicates
    precision = len(found) / len(found_merged) if found_merged else 1.0
    recall = len(found) / len(corpus.duplicates)
    print(f"supersets corpus: {len(found)} of {len(corpus.duplicates)} duplicates merged, "
          f"{len(false)} false merges ({len(corpus.lookalikes)} look-alike pairs); "
          f"precision {precision:.2f}, recall {recall:.2f}")  # fmt: skip
    print_by_kind(corpus.kinds, corpus.duplicates, found, false)
    assert false == set()
    assert not found_merged & corpus.lookalikes
    assert recall >= FLOOR


@pytest.mark.parametrize(
    ("kind", "first", "second"), supersets.LOOKALIKES, ids=lambda t: t[:30] if len(t) > 9 else t
)
def test_a_look_alike_alone_is_not_merged(kind: str, first: str, second: str) -> None:
    # In the directory a look-alike whose smaller memory merged with its superset first
    # would not show; judged alone, it cannot hide.
    assert not merged(kind, memory(first.removeprefix(supersets.BARE)), memory(second))
