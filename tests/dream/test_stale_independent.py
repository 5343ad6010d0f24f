"""Stale marking on a third tuning set written by another hand, shaped like Claude
Code's memory files (`tests.dream.tuning.stale_independent`): memories the code, a
newer memory or a teammate's memory make stale, and hard look-alikes that must never
be flagged. Figures are printed (run with ``-s``)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tests.dream.test_stale_tuning import NOW, StaleCorpus, measure
from tests.dream.tuning.stale_independent import (
    CODE_FILES,
    CODE_FRESH,
    CODE_STALE,
    CONTRADICTED,
    HARD_NEGATIVES,
    SUPERSEDED,
    SUPERSEDED_LATER,
    Memory,
)


class IndependentCorpus(StaleCorpus):
    def add(self, memory: Memory, age_days: int, *, team: bool = False) -> str:
        """`memory` as Claude Code writes one: its name as the file's, `age_days` old."""
        kind, name, description, body = memory
        path = f"{'team/' if team else ''}{name}.md"
        file = self.root / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(
            f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n---\n\n{body}",
            encoding="utf-8",
        )
        self.changed[path] = NOW - timedelta(days=age_days)
        return path

    def add_pairs(
        self, pairs: list[tuple[Memory, Memory]], *, team: bool = False, stale: bool = True
    ) -> IndependentCorpus:
        for number, (older, newer) in enumerate(pairs):
            written = self.add(older, 300 + number)
            if stale:
                self.stale.add(written)
            self.add(newer, 40 + number, team=team)
        return self


def code(root: Path, memories: list[Memory], *, stale: bool) -> StaleCorpus:
    corpus = IndependentCorpus(root / "memory", root / "code")
    for relative, text in CODE_FILES.items():
        (root / "code" / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / "code" / relative).write_text(text, encoding="utf-8")
    for number, memory in enumerate(memories):
        written = corpus.add(memory, 100 + number)
        if stale:
            corpus.stale.add(written)
    return corpus


CORPORA = {
    "code": lambda root: code(root, CODE_STALE, stale=True),
    "code fresh": lambda root: code(root, CODE_FRESH, stale=False),
    "superseded": lambda root: IndependentCorpus(root).add_pairs(SUPERSEDED),
    "superseded later": lambda root: IndependentCorpus(root).add_pairs(SUPERSEDED_LATER),
    "contradicted": lambda root: IndependentCorpus(root).add_pairs(CONTRADICTED, team=True),
    "hard negatives": lambda root: IndependentCorpus(root).add_pairs(HARD_NEGATIVES, stale=False),
    "hard negatives teammate": lambda root: IndependentCorpus(root).add_pairs(
        HARD_NEGATIVES, team=True, stale=False
    ),
    "hard negatives reversed": lambda root: IndependentCorpus(root).add_pairs(
        [(newer, older) for older, newer in HARD_NEGATIVES], stale=False
    ),
}


def test_it_flags_independently_written_stale_memories_and_no_look_alike(
    tmp_path: Path,
) -> None:
    false_flags, found = measure(CORPORA, tmp_path, "independent ")
    assert false_flags == []
    assert found["code"][0] >= 0.75 * found["code"][1]
    assert found["superseded"][0] >= 0.75 * found["superseded"][1]
    assert found["superseded later"][0] >= 0.6 * found["superseded later"][1]
    assert found["contradicted"][0] >= 0.75 * found["contradicted"][1]
