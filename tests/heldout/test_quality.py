"""The dream measured on the held-out corpus (issue 15): never used to choose a
threshold, only to check the ones chosen on ``tests/dream/tuning``. The figures are
printed (run with ``-s``) and quoted in the issue's note."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memsync.dream.deterministic import DeterministicEngine
from memsync.dream.engine import DreamContext, EngineResult, Scope
from memsync.dream.visibility import visible_entries
from tests.dream.corpus import RecordingProgress
from tests.dream.test_dedupe_tuning import merged_together
from tests.heldout import duplicate_corpora, index_corpora, stale_corpora

NOW = datetime(2026, 12, 2, tzinfo=UTC)


def _dream(root: Path, changed: dict[str, datetime] | None = None) -> EngineResult:
    context = DreamContext(root, Scope.PERSONAL, NOW, changed or {})
    return DeterministicEngine().consolidate(context, RecordingProgress())


def test_duplicate_precision_is_1_and_recall_is_reported(tmp_path: Path) -> None:
    merged_total = true_total = labelled_total = 0
    false_merges: list[str] = []
    by_kind: dict[str, list[int]] = {}
    for corpus in duplicate_corpora():
        root = tmp_path / corpus.name
        shutil.copytree(corpus.root, root)
        merged = merged_together(_dream(root))
        labelled = corpus.duplicate_pairs()
        true = merged & labelled
        for group in corpus.duplicates:
            tally = by_kind.setdefault(group.kind, [0, 0])
            tally[0] += len(set(group.pairs()) & merged)
            tally[1] += len(group.pairs())
        false_merges += [f"{corpus.name}: {' + '.join(sorted(p))}" for p in merged - labelled]
        print(f"{corpus.name}: merged {len(merged)} pairs, {len(true)} of {len(labelled)} "
              f"labelled duplicate pairs")  # fmt: skip
        merged_total += len(merged)
        true_total += len(true)
        labelled_total += len(labelled)
    precision = true_total / merged_total if merged_total else 1.0
    recall = true_total / labelled_total
    print(f"held-out duplicates: precision {precision:.2f}, recall {recall:.2f} "
          f"({true_total} of {labelled_total} pairs; {merged_total} merged)")  # fmt: skip
    print("  by kind: " + ", ".join(f"{k} {n}/{t}" for k, (n, t) in sorted(by_kind.items())))
    assert false_merges == []
    assert precision == 1.0


@pytest.mark.parametrize("corpus", index_corpora(), ids=lambda c: c.name)
def test_the_agent_sees_no_fewer_entries_after_a_dream(tmp_path: Path, corpus) -> None:
    root = tmp_path / corpus.name
    shutil.copytree(corpus.root, root)
    before = visible_entries((root / "MEMORY.md").read_text(encoding="utf-8"))

    _dream(root)

    after = visible_entries((root / "MEMORY.md").read_text(encoding="utf-8"))
    print(f"{corpus.name}: entries the agent sees {before} -> {after}")
    assert after >= before


def test_stale_precision_is_1_and_recall_is_reported(tmp_path: Path) -> None:
    flagged_total = true_total = labelled_total = 0
    false_flags: list[str] = []
    for corpus in stale_corpora():
        root = tmp_path / corpus.name
        shutil.copytree(corpus.memory, root)
        now = datetime.combine(corpus.as_of, datetime.min.time(), tzinfo=UTC)
        context = DreamContext(root, Scope.PERSONAL, now, corpus.dates, code_dir=corpus.code)
        result = DeterministicEngine().consolidate(context, RecordingProgress())
        flagged = {line.split(": ", 1)[0] for line in result.stale}
        labelled = {label.file for label in corpus.stale}
        false_flags += [f"{corpus.name}: {line}" for line in result.stale
                        if line.split(": ", 1)[0] not in labelled]  # fmt: skip
        print(f"{corpus.name}: flagged {len(flagged)}, {len(flagged & labelled)} of "
              f"{len(labelled)} labelled stale")  # fmt: skip
        flagged_total += len(flagged)
        true_total += len(flagged & labelled)
        labelled_total += len(labelled)
    precision = true_total / flagged_total if flagged_total else 1.0
    print(f"held-out stale: precision {precision:.2f}, recall {true_total / labelled_total:.2f} "
          f"({true_total} of {labelled_total}; {flagged_total} flagged)")  # fmt: skip
    assert false_flags == []
