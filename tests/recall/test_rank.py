"""The local recall ranking: known answers by hand, then a generated corpus."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from memsync.recall.rank import RecallDocument, RecallIndex, tokenize
from tests.recall.corpus import build_corpus

NOW = datetime(2025, 10, 1, 12, 0, tzinfo=UTC)


def memory(
    path: str,
    name: str,
    description: str,
    body: str = "",
    kind: str | None = "project",
    days_old: int = 10,
) -> RecallDocument:
    return RecallDocument(path, name, description, body, kind, NOW - timedelta(days=days_old))


# A small project memory as it looks in the wild (three from samples/, the rest typical).
TEAM_MEMORIES = [
    memory(
        "fork-and-local-install.md",
        "fork-and-local-install",
        "This clone is a fork whose daily-driver app is a local ad-hoc build at /Applications,"
        " not the Homebrew cask",
        "Remotes are inverted from the usual fork layout on purpose. origin is the user's fork,"
        " upstream is umputun/agterm. Cut PR branches from upstream/master, never from this"
        " fork's master.",
    ),
    memory(
        "user_role.md",
        "user-role",
        "Doug Goodwin teaches CalArts CSCM 373-01 (Fuzzbox Physics), builds interactive browser"
        " audio labs for students",
        "He values hands-on, visual explanations of audio concepts.",
        kind="user",
    ),
    memory(
        "feedback_omnibus_context_gap.md",
        "feedback_omnibus_context_gap",
        "Docs agent's diagnosis of why automated omnibus synthesis makes factual errors",
        "The synthesis subagent lacks deeper project context (Layer 3 and Layer 5).",
        kind="feedback",
    ),
    memory(
        "feedback_testing.md",
        "Integration tests use a real database",
        "Integration tests must hit a real Postgres database, not mocks",
        "**Why:** mocked tests passed while the prod migration failed.\n"
        "**How to apply:** start the Postgres container first.",
        kind="feedback",
    ),
    memory(
        "project_release_freeze.md",
        "Merge freeze",
        "Merge freeze begins 2026-03-05 for the mobile release cut",
        "**Why:** the mobile team is cutting a release branch.\n"
        "**How to apply:** flag non-critical PRs scheduled after that date.",
    ),
    memory(
        "reference_linear_ingest.md",
        "Pipeline bugs",
        "Pipeline bugs are tracked in the Linear project INGEST",
        "Check INGEST for context on tickets about the data pipeline.",
        kind="reference",
    ),
    memory(
        "reference_grafana.md",
        "Oncall latency dashboard",
        "grafana.internal/d/api-latency is what oncall watches for request latency",
        "If you touch request handling, check this dashboard.",
        kind="reference",
    ),
    memory(
        "project_deploys.md",
        "Deploy process",
        "The API deploys by tagging a release; staging redeploys on every merge",
        "Tag vX.Y.Z on main; the pipeline builds and promotes the image.",
    ),
    memory(
        "notes/parseHTTPResponse.md",
        "Response parsing quirks",
        "The upstream sends chunked bodies without a final CRLF",
        "Tolerate a missing terminator in the HTTP response parser.",
        kind=None,
    ),
]

CHINESE_MEMORIES = [
    memory(
        "db_migration.md", "数据库迁移", "数据库迁移必须在重启服务之前执行", "先跑迁移，再重启。"
    ),
    memory(
        "db_backup.md", "数据库备份", "数据库每天凌晨两点自动备份到对象存储", "备份保留三十天。"
    ),
    memory("release_freeze.md", "发布冻结", "每周五下午禁止发布上线", "上次周五发布导致周末故障。"),
    memory(
        "code_review.md",
        "代码评审",
        "合并请求需要两位负责人批准",
        "评审时关注测试覆盖。",
        kind="feedback",
    ),
    memory("user_preference.md", "用户偏好", "用户喜欢简洁的中文回答，不要长篇解释", kind="user"),
]


def top(index: RecallIndex, query: str, limit: int = 3) -> list[str]:
    return [scored.document.path for scored in index.search(query, limit)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("where do pipeline bugs get tracked", "reference_linear_ingest.md"),
        ("should I mock the database in integration tests", "feedback_testing.md"),
        ("when does the merge freeze start", "project_release_freeze.md"),
        ("which branch do I cut a PR from in this fork", "fork-and-local-install.md"),
        ("who is the user, what course do they teach", "user_role.md"),
        ("omnibus synthesis factual errors", "feedback_omnibus_context_gap.md"),
        ("how do we deploy to staging", "project_deploys.md"),
        ("latency dashboard oncall", "reference_grafana.md"),
    ],
)
def test_it_finds_the_memory_a_question_is_about(query: str, expected: str) -> None:
    index = RecallIndex(TEAM_MEMORIES)

    assert top(index, query, 1) == [expected]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("omnibus context gap", "feedback_omnibus_context_gap.md"),
        ("local install", "fork-and-local-install.md"),
        ("http response", "notes/parseHTTPResponse.md"),
        ("parsehttpresponse", "notes/parseHTTPResponse.md"),
        ("FuzzboxPhysics", "user_role.md"),
    ],
)
def test_it_splits_file_names_and_camel_case_into_words(query: str, expected: str) -> None:
    index = RecallIndex(TEAM_MEMORIES)

    assert top(index, query, 1) == [expected]


def test_it_meets_inflected_forms_of_a_word() -> None:
    index = RecallIndex(TEAM_MEMORIES)

    assert top(index, "deploying", 1) == ["project_deploys.md"]
    assert top(index, "mocking databases", 1) == ["feedback_testing.md"]
    assert top(index, "a tracked bug", 1) == ["reference_linear_ingest.md"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("数据库迁移什么时候执行", "db_migration.md"),
        ("数据库备份保留多久", "db_backup.md"),
        ("周五可以发布吗", "release_freeze.md"),
        ("合并请求要几个人批准", "code_review.md"),
        ("回答要简洁", "user_preference.md"),
        ("迁移", "db_migration.md"),
    ],
)
def test_it_answers_chinese_questions(query: str, expected: str) -> None:
    index = RecallIndex(CHINESE_MEMORIES + TEAM_MEMORIES)

    assert top(index, query, 1) == [expected]


def test_it_splits_chinese_into_bigrams_and_characters() -> None:
    assert tokenize("部署流程") == ["部", "部署", "署", "署流", "流", "流程", "程"]
    # Particles stay inside bigrams but are no terms on their own.
    assert tokenize("我的") == ["我的"]
    assert tokenize("ＡＰＩ　Ｋｅｙ") == ["api", "kei"]


def test_a_word_in_the_description_outweighs_the_same_word_in_the_body() -> None:
    # The body one would win every tie: its path sorts first.
    in_body = memory(
        "a.md", "Caching", "Where the helm values live", "Redis eviction policy is allkeys-lru."
    )
    in_description = memory(
        "b.md", "Caching", "Redis eviction policy is allkeys-lru", "Set in the helm values."
    )

    for documents in ([in_description, in_body], [in_body, in_description]):
        assert top(RecallIndex(documents), "eviction", 2) == ["b.md", "a.md"]


def test_equal_matches_go_to_feedback_then_project_user_reference_and_untyped() -> None:
    kinds = [None, "reference", "user", "project", "feedback"]
    documents = [
        memory(f"{kind}.md", "Retry budget", "Retry budget is 3", kind=kind, days_old=1)
        for kind in kinds
    ]

    results = RecallIndex(documents).search("retry budget")

    assert [scored.document.type for scored in results] == list(reversed(kinds))
    assert len({scored.score for scored in results}) == 1


def test_equal_matches_of_one_type_go_to_the_newer_memory() -> None:
    documents = [
        memory(f"v{age}.md", "Retry budget", "Retry budget is 3", days_old=age)
        for age in (30, 2, 400, 7)
    ]

    assert top(RecallIndex(documents), "retry budget", 4) == [
        "v2.md",
        "v7.md",
        "v30.md",
        "v400.md",
    ]


def test_an_empty_or_stop_word_query_returns_the_newest_memories() -> None:
    documents = [memory(f"m{age}.md", f"Memory {age}", "x", days_old=age) for age in range(8)]
    index = RecallIndex(reversed(documents))

    for query in ("", "   ", "?!", "what is it", "the of and"):
        results = index.search(query, limit=3)
        assert [scored.document.path for scored in results] == ["m0.md", "m1.md", "m2.md"]
        assert all(scored.score == 0.0 for scored in results)


def test_a_query_that_matches_nothing_returns_nothing() -> None:
    assert RecallIndex(TEAM_MEMORIES).search("kubernetes helm chart") == []


def test_it_returns_at_most_limit_results() -> None:
    index = RecallIndex(TEAM_MEMORIES)

    assert len(index.search("the", limit=4)) == 4
    assert len(index.search("database pipeline release", limit=2)) == 2
    assert index.search("database", limit=0) == []


def test_it_orders_naive_and_aware_times_together() -> None:
    aware = memory("aware.md", "Notes", "Retry budget", days_old=1)
    naive = RecallDocument("naive.md", "Notes", "Retry budget", "", "project", datetime(2020, 1, 1))

    assert top(RecallIndex([naive, aware]), "", 2) == ["aware.md", "naive.md"]
    assert top(RecallIndex([naive, aware]), "retry", 2) == ["aware.md", "naive.md"]


def test_an_empty_index_answers_with_nothing() -> None:
    index = RecallIndex([])

    assert len(index) == 0
    assert index.search("anything") == []
    assert index.search("") == []


# The generated corpus: 1,200 English and 120 Chinese memories about 60 made-up
# services, one question per memory (see tests/recall/corpus.py).
#
# Measured when these floors were set: recall@5 0.999 (1.000 on the Chinese
# questions) and recall@1 0.854. The questions that miss first place are the ones
# phrased without the memory's words: "how slow is kelvane right now" (the memory says
# "latency"), "how much downtime can kelvane afford" ("availability"), "when is the
# kelvane database backed up", where "backed" meets the "roll back" of the same
# service's pipeline memory before the "backups" of the right one. The floors leave
# room for a tokenizer change that costs a few dozen questions, and fail rankings that
# do not do the job: five memories at random (recall@5 ≈ 0.004) and counting shared
# words without stemming, field weights or IDF (recall@5 0.62, recall@1 0.28; 0.00 on
# the Chinese questions, which it cannot split into words).
RECALL_AT_5_FLOOR = 0.97
RECALL_AT_1_FLOOR = 0.80


Ranking = Callable[[str], list[str]]


def recall_at(k: int, rank: Ranking, questions: list[tuple[str, str]]) -> float:
    hits = sum(expected in rank(question)[:k] for question, expected in questions)
    return hits / len(questions)


@pytest.fixture(scope="module")
def corpus() -> tuple[list[RecallDocument], list[tuple[str, str]]]:
    return build_corpus(components=60)


def test_it_finds_planted_memories_among_more_than_a_thousand(
    corpus: tuple[list[RecallDocument], list[tuple[str, str]]],
) -> None:
    documents, questions = corpus
    assert len(documents) == 1320
    index = RecallIndex(documents)

    def ranking(question: str) -> list[str]:
        return [scored.document.path for scored in index.search(question, 5)]

    chinese = [(q, expected) for q, expected in questions if "_zh_" in expected]
    assert len(chinese) == 120
    assert recall_at(5, ranking, questions) >= RECALL_AT_5_FLOOR
    assert recall_at(5, ranking, chinese) >= RECALL_AT_5_FLOOR
    assert recall_at(1, ranking, questions) >= RECALL_AT_1_FLOOR


def test_the_recall_floors_fail_random_and_word_counting_rankings(
    corpus: tuple[list[RecallDocument], list[tuple[str, str]]],
) -> None:
    documents, questions = corpus
    paths = [document.path for document in documents]
    chance = random.Random(1)

    def random_ranking(question: str) -> list[str]:
        return chance.sample(paths, 5)

    words = re.compile(r"\w+")
    vocabularies = [
        set(words.findall(f"{d.name} {d.description} {d.body}".lower())) for d in documents
    ]

    def shared_words_ranking(question: str) -> list[str]:
        asked = set(words.findall(question.lower()))
        order = sorted(range(len(documents)), key=lambda n: -len(asked & vocabularies[n]))
        return [paths[n] for n in order[:5]]

    assert recall_at(5, random_ranking, questions) < 0.05
    assert recall_at(5, shared_words_ranking, questions) < RECALL_AT_5_FLOOR - 0.2
    assert recall_at(1, shared_words_ranking, questions) < RECALL_AT_1_FLOOR - 0.4


def test_it_answers_over_ten_thousand_memories() -> None:
    # Speed is measured by bench/recall.py (ratios), never asserted in a test.
    documents, questions = build_corpus(components=480)
    assert len(documents) >= 10_000
    index = RecallIndex(documents)

    sample = random.Random(3).sample(questions, 200)
    hits = sum(
        expected in {hit.document.path for hit in index.search(question, 5)}
        for question, expected in sample
    )

    assert hits / len(sample) >= RECALL_AT_5_FLOOR
