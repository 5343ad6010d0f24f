"""Duplicate detection on the fourth tuning batch (``tuning/rewritten.py``), written by
another hand after the rules were fitted to the first three: never a false merge, and
most re-worded, listed, translated, superset, misspelt and bare duplicates found."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memsync.dream.deterministic import DeterministicEngine
from memsync.dream.engine import DreamContext, Scope
from tests.dream.corpus import RecordingProgress
from tests.dream.test_dedupe_tuning import merged_pairs, print_by_kind
from tests.dream.tuning.rewritten import write_corpus

NOW = datetime(2026, 12, 2, tzinfo=UTC)


def test_it_merges_no_look_alike_and_most_rewritten_duplicates(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "memory")
    context = DreamContext(tmp_path / "memory", Scope.PERSONAL, NOW, corpus.changed)

    merged = merged_pairs(DeterministicEngine().consolidate(context, RecordingProgress()))

    false = merged - corpus.duplicates
    found = merged & corpus.duplicates
    print(f"rewritten corpus: {len(found)} of {len(corpus.duplicates)} duplicates merged, "
          f"{len(false)} false merges ({len(corpus.lookalikes)} look-alike pairs)")  # fmt: skip
    print_by_kind(corpus.kinds, corpus.duplicates, found, false)
    assert false == set()
    assert not merged & corpus.lookalikes
    # Whole files and free paraphrases each restate in words of their own and stay
    # apart when a role, a qualifier or word order leaves doubt: the floor is below the
    # other kinds' full marks.
    assert len(found) >= len(corpus.duplicates) * 0.7
