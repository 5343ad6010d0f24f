"""Stale marking on an adversarial tuning set (`tests.dream.tuning.stale_adversarial`):
memories still true that were written to look stale to a rule, which must never be
flagged, beside a few the checkout, a newer memory or a teammate's memory make stale.
Every flag is printed, with recall kind by kind (run with ``-s``)."""

from __future__ import annotations

from pathlib import Path

from tests.dream.test_stale_fourth import project
from tests.dream.test_stale_independent import IndependentCorpus
from tests.dream.test_stale_tuning import StaleCorpus
from tests.dream.tuning.stale_adversarial import (
    CODE_FILES,
    CODE_STALE,
    LOOK_ALIKE_PAIRS,
    LOOK_ALIKES,
    STALE_PAIRS,
    Memory,
)


def pairs(
    root: Path, written: list[tuple[Memory, Memory, bool]], *, stale: bool
) -> tuple[StaleCorpus, dict[str, str]]:
    """Each (older, newer, a teammate's) in its own directory, the newer in ``team/``
    when it is a teammate's."""
    kinds: dict[str, str] = {}
    corpus = IndependentCorpus(root)
    for number, (older, newer, team) in enumerate(written):
        path = corpus.add(older, 300 + number)
        corpus.add(newer, 40 + number, team=team)
        if stale:
            corpus.stale.add(path)
            kinds[path] = "contradicted" if team else "superseded"
    return corpus, kinds


def test_it_flags_no_memory_that_only_looks_stale(tmp_path: Path) -> None:
    builds = {
        "project": project(tmp_path / "project", CODE_FILES, CODE_STALE, LOOK_ALIKES),
        "look-alike pairs": pairs(tmp_path / "look-alikes", LOOK_ALIKE_PAIRS, stale=False),
        "stale pairs": pairs(tmp_path / "stale", STALE_PAIRS, stale=True),
    }
    false_flags: list[str] = []
    by_kind: dict[str, tuple[list[str], list[str]]] = {}  # kind → (flagged, missed)
    for name, (corpus, kinds) in builds.items():
        flagged = corpus.flagged()
        for path, why in sorted(flagged.items()):
            print(f"adversarial {name}: {path}: {why}")
        false_flags += [f"{name}: {path}: {why}" for path, why in flagged.items()
                        if path not in corpus.stale]  # fmt: skip
        for path, kind in sorted(kinds.items()):
            by_kind.setdefault(kind, ([], []))[path not in flagged].append(path)
    for kind, (hit, missed) in by_kind.items():
        print(f"adversarial {kind}: {len(hit)} of {len(hit) + len(missed)} flagged; "
              f"missed {missed}")  # fmt: skip
    hits = sum(len(hit) for hit, _ in by_kind.values())
    total = sum(len(hit) + len(missed) for hit, missed in by_kind.values())
    print(f"adversarial: recall {hits / total:.2f} ({hits} of {total})")
    print("false flags: " + ("none" if not false_flags else "\n  " + "\n  ".join(false_flags)))
    assert false_flags == []
    assert hits >= 0.8 * total
