"""Recall@5, MRR and empty answers to unanswerable questions, for any ranking."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

Ranking = Callable[[str], Sequence[str]]  # a question → paths, best first (at most 5 used)


@dataclass(frozen=True)
class Quality:
    recall_at_5: float  # answerable questions with an answer among the first five
    mrr: float  # mean reciprocal rank of the first answer (0 when not in the five)
    empty_when_unanswerable: float  # unanswerable questions that got nothing
    answerable: int
    unanswerable: int

    def line(self, name: str) -> str:
        return (
            f"{name}: recall@5 {self.recall_at_5:.3f}, MRR {self.mrr:.3f} over {self.answerable}"
            f" answerable; nothing shown for {self.empty_when_unanswerable:.3f} of"
            f" {self.unanswerable} unanswerable"
        )


def measure(ranking: Ranking, questions: Sequence[tuple[str, Sequence[str]]]) -> Quality:
    hits = reciprocal = empty = answerable = unanswerable = 0.0
    for question, answers in questions:
        shown = list(ranking(question))[:5]
        if not answers:
            unanswerable += 1
            empty += not shown
            continue
        answerable += 1
        ranks = [position for position, path in enumerate(shown, 1) if path in answers]
        if ranks:
            hits += 1
            reciprocal += 1 / ranks[0]
    return Quality(
        recall_at_5=hits / max(answerable, 1),
        mrr=reciprocal / max(answerable, 1),
        empty_when_unanswerable=empty / max(unanswerable, 1),
        answerable=int(answerable),
        unanswerable=int(unanswerable),
    )
