"""Duplicate detection on the tuning corpora (issue 15 item 3): never a false merge.

The first three batches (``tests.dream.tuning``) chose the rules; the fourth
(``tuning/rewritten.py``), written by another hand after they were fitted, checks them
on other wording (re-worded, listed, translated, superset, misspelt, bare files); the
fifth (``tuning/paraphrased.py``) restates whole memories whole, as a teammate saving
the same thing again would. The sixth (``tuning/first_heldout``, the first held-out
corpus) is measured in ``test_dedupe_first_heldout.py``, the seventh (``tuning/
supersets.py``, one memory restated and added to) in ``test_dedupe_supersets.py``, the
eighth (``tuning/restated.py``, one memory restated whole) in
``test_dedupe_restated_whole.py``."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memsync.dream.deterministic import DeterministicEngine
from memsync.dream.engine import DreamContext, EngineResult, Scope
from tests.dream.corpus import RecordingProgress
from tests.dream.tuning import TuningCorpus, paraphrased, rewritten, write_corpus

NOW = datetime(2026, 12, 2, tzinfo=UTC)
_MERGED = re.compile(r"^merged (\S+) into (\S+) \(")


def merged_pairs(result: EngineResult) -> set[frozenset[str]]:
    """The pairs a dream merged, from its notes ("merged a.md into b.md (...)")."""
    return {frozenset(match.groups()) for note in result.notes if (match := _MERGED.match(note))}


def merged_together(result: EngineResult) -> set[frozenset[str]]:
    """Every pair that ended in one file: a group of three merged in two steps gives
    three pairs, though its notes name two."""
    groups: list[set[str]] = []
    for pair in merged_pairs(result):
        touching = [group for group in groups if group & pair]
        groups = [group for group in groups if not group & pair] + [set(pair).union(*touching)]
    return {frozenset((a, b)) for group in groups for a in group for b in group if a < b}


def print_by_kind(
    kinds: dict[frozenset[str], str],
    duplicates: set[frozenset[str]],
    found: set[frozenset[str]],
    false: set[frozenset[str]],
) -> None:
    """The figures by kind of duplicate, and the pairs missed and merged falsely."""
    names = sorted(set(kinds.values()))
    print("  by kind: " + ", ".join(
        f"{kind} {len([p for p in found if kinds[p] == kind])}/"
        f"{len([p for p in duplicates if kinds[p] == kind])}" for kind in names
    ))  # fmt: skip
    for label, pairs in (("missed", duplicates - found), ("false", false)):
        print(f"  {label}: " + "; ".join(sorted(" + ".join(sorted(p)) for p in pairs)))


@pytest.mark.parametrize(
    ("name", "write", "floor"),
    [
        # The third batch (``tuning/facts.py``) restates facts in words of its own on
        # both sides; much of it stays apart on purpose (a role word only one side has,
        # Chinese the glossary does not read), so the floor is below the first batches'.
        ("tuning", write_corpus, 0.86),
        # Whole files and free paraphrases each restate in words of their own and stay
        # apart when a role, a qualifier or word order leaves doubt.
        ("rewritten", rewritten.write_corpus, 0.77),
        # Whole memories restated whole (another description, order, verbs, language):
        # most stay apart, as a denial, a role or a qualifier said one way only leaves
        # doubt, or a restatement shares too few words or facts to be looked for.
        ("paraphrased", paraphrased.write_corpus, 0.39),
    ],
)
def test_it_merges_no_look_alike_and_most_duplicates(
    tmp_path: Path, name: str, write: Callable[[Path], TuningCorpus], floor: float
) -> None:
    check_batch(tmp_path, name, write, floor)


def check_batch(
    tmp_path: Path, name: str, write: Callable[[Path], TuningCorpus], floor: float
) -> None:
    """Dream a batch written by `write`, print its figures and assert no false merge
    and a recall of `floor` at least."""
    corpus = write(tmp_path / "memory")
    context = DreamContext(tmp_path / "memory", Scope.PERSONAL, NOW, corpus.changed)

    merged = merged_pairs(DeterministicEngine().consolidate(context, RecordingProgress()))

    false = merged - corpus.duplicates
    found = merged & corpus.duplicates
    precision = len(found) / len(merged) if merged else 1.0
    recall = len(found) / len(corpus.duplicates)
    print(f"{name} corpus: {len(found)} of {len(corpus.duplicates)} duplicates merged, "
          f"{len(false)} false merges ({len(corpus.lookalikes)} look-alike pairs); "
          f"precision {precision:.2f}, recall {recall:.2f}")  # fmt: skip
    print_by_kind(corpus.kinds, corpus.duplicates, found, false)
    assert false == set()
    assert not merged & corpus.lookalikes
    assert len(found) >= len(corpus.duplicates) * floor
