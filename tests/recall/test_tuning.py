"""The ranking on its tuning corpus: what its weights and floor were chosen to do."""

from __future__ import annotations

from memsync.recall.rank import RecallDocument, RecallIndex
from memsync.recall.recall import recall
from tests.recall.evaluation import measure
from tests.recall.tuning import NOW, build


def test_recall_on_the_tuning_corpus_finds_answers_and_shows_nothing_for_the_rest() -> None:
    documents, questions = build()
    index = RecallIndex(documents)

    def ranking(question: str) -> list[str]:
        result = recall(index, question, read=lambda _: b"", now=NOW)
        return [memory.path for memory in result.memories]

    quality = measure(ranking, [(q.text, q.answers) for q in questions])
    print("\n" + quality.line("tuning corpus"))

    assert quality.recall_at_5 >= 0.9
    assert quality.empty_when_unanswerable >= 0.6


def test_identifiers_meet_in_every_spelling() -> None:
    documents, _ = build()
    index = RecallIndex(documents)

    for query, expected in [
        ("typescript implicit any", "feedback_typescript_strict.md"),
        ("Type-Script strict", "feedback_typescript_strict.md"),
        ("py312", "feedback_python_typing.md"),
        ("python 3.12", "feedback_python_typing.md"),
        ("ledger sync schedule", "svc_ledger_sync_schedule.md"),
        ("ledger_sync schedule", "svc_ledger_sync_schedule.md"),
        ("LedgerSync schedule", "svc_ledger_sync_schedule.md"),
        ("otel", "project_observability.md"),  # defined in the memory: "(OTel)"
        ("opentelemetry collectors", "project_observability.md"),
        ("gh actions", "reference_ci_system.md"),  # initials of GitHub
        ("k8s", "project_k8s_migration.md"),
    ]:
        assert index.search(query, 1)[0].document.path == expected, query


def test_a_folder_all_about_one_subject_still_answers_a_question_about_it() -> None:
    # Every memory says "checkout refunds": BM25's idf of both words is ~0, and the
    # coverage floor once left only "work" in the question and showed nothing.
    documents = [
        RecallDocument(
            f"refunds_{n}.md", f"refunds {n}", "checkout refunds",
            f"Checkout refunds rule {n}: refunds go through the ledger.", "project", NOW,
        )
        for n in range(12)
    ]  # fmt: skip

    shown = recall(
        RecallIndex(documents), "how do checkout refunds work?", read=lambda _: b"", now=NOW
    )
    unrelated = recall(
        RecallIndex(documents), "rotate the kafka certificates", read=lambda _: b"", now=NOW
    )

    assert shown.memories and unrelated.memories == []
