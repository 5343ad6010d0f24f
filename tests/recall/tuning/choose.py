"""Choose recall's floor on the tuning material: python -m tests.recall.tuning.choose

Two corpora written for memsync's recall: this package's (a platform team's memories,
with unanswerable questions) and the generated one of tests/recall/corpus.py (many
services with the same subjects, paraphrased questions). For each credit of a query
word no memory has (UNKNOWN_CREDIT, memsync.recall.rank) and each coverage floor
(MIN_COVERAGE, memsync.recall.recall) it prints recall@5 on both and the share of
unanswerable questions that bring nothing, then the pair to use: among the pairs that
cost at most RECALL_COST of recall@5 on each corpus against no floor at all, the one
showing nothing for the most unanswerable questions (then the best recall). Never run
this against tests/heldout.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import memsync.recall.rank as rank
from memsync.recall.rank import RecallIndex
from memsync.recall.recall import MIN_COVERAGE, recall
from tests.recall.corpus import build_corpus
from tests.recall.evaluation import measure
from tests.recall.tuning import build

RECALL_COST = 0.05
NOW = datetime(2026, 6, 1, tzinfo=UTC)


def shown(index: RecallIndex, floor: float) -> Callable[[str], list[str]]:
    def ranking(question: str) -> list[str]:
        result = recall(index, question, read=lambda _: b"", now=NOW, min_coverage=floor)
        return [memory.path for memory in result.memories]

    return ranking


def main() -> None:
    generated_documents, generated_questions = build_corpus(50)
    tuning_documents, tuning_questions = build()
    generated = [(question, (answer,)) for question, answer in generated_questions]
    tuning = [(question.text, question.answers) for question in tuning_questions]
    generated_index = RecallIndex(generated_documents)
    tuning_index = RecallIndex(tuning_documents)
    results = {}
    for unknown in (1.0, 0.7, 0.5):
        rank.UNKNOWN_CREDIT = unknown
        for floor in (0.0, 0.2, 0.25, 0.3, 0.35, 0.4):
            a = measure(shown(generated_index, floor), generated)
            b = measure(shown(tuning_index, floor), tuning)
            results[unknown, floor] = (a, b)
            print(
                f"unknown credit {unknown}, floor {floor}: generated recall@5 "
                f"{a.recall_at_5:.3f}; tuning recall@5 {b.recall_at_5:.3f}, MRR {b.mrr:.3f}, "
                f"nothing shown for {b.empty_when_unanswerable:.3f} of unanswerable"
            )
    allowed = [
        key
        for key, (a, b) in results.items()
        if a.recall_at_5 >= results[key[0], 0.0][0].recall_at_5 - RECALL_COST
        and b.recall_at_5 >= results[key[0], 0.0][1].recall_at_5 - RECALL_COST
    ]
    best = max(
        allowed,
        key=lambda k: (
            results[k][1].empty_when_unanswerable,
            results[k][0].recall_at_5 + results[k][1].recall_at_5,
        ),
    )
    print(f"choose UNKNOWN_CREDIT = {best[0]}, MIN_COVERAGE = {best[1]} (now {MIN_COVERAGE})")


if __name__ == "__main__":
    main()
