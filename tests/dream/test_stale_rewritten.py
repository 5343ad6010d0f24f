"""Stale marking on a second, independently worded tuning set
(`tests.dream.tuning.stale_rewritten`): what the rules fitted to the first set find in
other wording, and look-alikes that must never be flagged. Figures are printed (run
with ``-s``)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tests.dream.test_stale_tuning import NOW, StaleCorpus, measure
from tests.dream.tuning.stale_rewritten import (
    CONTRADICTED_AGAIN,
    NEAR_MISSES_AGAIN,
    SUPERSEDED_AGAIN,
)


class RewrittenCorpus(StaleCorpus):
    def write(self, kind: str, text: str, age_days: int, *, team: bool = False) -> str:
        """A whole file (``---`` first), a file with no frontmatter (``!`` first), or
        `StaleCorpus.write`'s neutral one."""
        if not text.startswith(("---", "!")):
            return super().write(kind, text, age_days, team=team)
        self.number += 1
        path = f"{'team/' if team else ''}{kind}_{self.number:03d}.md"
        file = self.root / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text.removeprefix("!"), encoding="utf-8")
        self.changed[path] = NOW - timedelta(days=age_days)
        return path


def superseded(root: Path) -> StaleCorpus:
    return RewrittenCorpus(root).write_pairs(SUPERSEDED_AGAIN)


def contradicted(root: Path) -> StaleCorpus:
    return RewrittenCorpus(root).write_pairs(CONTRADICTED_AGAIN, team=True)


def near_misses(root: Path, *, first_older: bool, teammate: bool) -> StaleCorpus:
    corpus = RewrittenCorpus(root)
    for number, (kind, first, second) in enumerate(NEAR_MISSES_AGAIN):
        older, newer = (first, second) if first_older else (second, first)
        corpus.write(kind, older, 300 + number)
        corpus.write(kind, newer, 40 + number, team=teammate)
    return corpus


CORPORA = {
    "superseded": superseded,
    "contradicted": contradicted,
    **{
        f"near-misses {'first' if first else 'second'}-older{' teammate' if team else ''}": (
            lambda root, first=first, team=team: near_misses(root, first_older=first, teammate=team)
        )
        for first in (True, False)
        for team in (False, True)
    },
}


def test_it_flags_replacements_worded_otherwise_and_never_a_look_alike(tmp_path: Path) -> None:
    false_flags, found = measure(CORPORA, tmp_path, "rewritten ")
    assert false_flags == []
    assert found["superseded"][0] >= 0.85 * found["superseded"][1]
    assert found["contradicted"][0] >= 0.5 * found["contradicted"][1]


def imported_at_once(root: Path, *, dated: bool) -> StaleCorpus:
    """Every pair of `SUPERSEDED_AGAIN` written by one commit (one import): the newer of
    two is known only from the `updated` date of their frontmatter, when `dated`."""
    corpus = RewrittenCorpus(root)
    for kind, older, newer in SUPERSEDED_AGAIN:
        if older.startswith(("---", "!")) or newer.startswith(("---", "!")):
            continue
        for text, updated in ((older, "2025-06-01"), (newer, "2026-02-01")):
            description = text.split(". ", 1)[0].rstrip(".")
            dates = f"updated: {updated}\n" if dated else ""
            written = corpus.write(
                kind, f"---\nname: {description}\ndescription: {description}\n"
                f"type: {kind}\n{dates}---\n\n{text}\n", 100
            )  # fmt: skip
            if dated and text == older:
                corpus.stale.add(written)
    return corpus


def test_it_tells_the_newer_of_two_memories_of_one_commit_by_their_frontmatter(
    tmp_path: Path,
) -> None:
    dated = imported_at_once(tmp_path / "dated", dated=True)
    flagged = dated.flagged()
    print(f"one commit, dated: {len(dated.stale & set(flagged))} of {len(dated.stale)} flagged")
    assert set(flagged) <= dated.stale
    assert len(dated.stale & set(flagged)) >= 0.75 * len(dated.stale)
    assert imported_at_once(tmp_path / "undated", dated=False).flagged() == {}
