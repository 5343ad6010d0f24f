"""Recall as an agent gets it (SPEC R1, R2): the manifest, the model's choice checked
against it, the ranking as fallback, results cut to 200 lines / 4 KB with their
freshness header, and recall@5 over a generated corpus of more than 1,000 memories."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

from memsync.agent import connect
from memsync.memory import FRESHNESS_NOTE, format_entry
from memsync.recall.manifest import format_manifest, iso_time, manifest_line
from memsync.recall.rank import RecallDocument, RecallIndex
from memsync.recall.recall import ENGINE_MODEL, ENGINE_RANKING, cut_content, model_selector, recall
from memsync.recall.sources import disk_source, repository_source
from memsync.store import MemoryRepo
from tests.recall.corpus import build_corpus
from tests.support.messages_server import ErrorReply, text

NOW = datetime(2025, 10, 1, 12, 0, tzinfo=UTC)


def memory(
    path: str, description: str, kind: str | None = "project", days: float = 3
) -> RecallDocument:
    return RecallDocument(
        path, path.removesuffix(".md"), description, f"{description}.\n", kind,
        NOW - timedelta(days=days),
    )  # fmt: skip


def files_of(documents: list[RecallDocument]) -> dict[str, bytes]:
    return {
        d.path: (
            f"---\nname: {d.name}\ndescription: {d.description}\ntype: {d.type}\n---\n\n{d.body}"
        ).encode()
        for d in documents
    }


TEAM = [
    memory(
        "feedback_real_db.md",
        "Integration tests hit a real Postgres database, never mocks",
        "feedback",
        0.2,
    ),
    memory(
        "project_freeze.md", "Merge freeze for the mobile release starts 2025-10-02", "project", 1.5
    ),
    memory(
        "reference_ingest.md",
        "Pipeline bugs are tracked in the Linear project INGEST",
        "reference",
        9,
    ),
    memory("user_role.md", "The user is a data scientist new to React", "user", 40),
    memory(
        "project_grafana.md", "Deploy latency is watched on the Grafana board svc-api", "project", 2
    ),
]


def ranked(query: str, documents=TEAM, **options):
    files = files_of(documents)
    return recall(RecallIndex(documents), query, read=files.get, now=NOW, **options)


def test_the_manifest_is_claude_codes_newest_first():
    documents = [
        memory("old.md", "An old one", "reference", days=30),
        memory("new.md", "A  new\none", "feedback", days=0),
        RecallDocument(
            "bare.md", "bare", "", "", None, datetime(2025, 9, 1, 8, 30, 5, 123456, UTC)
        ),
    ]

    lines = format_manifest(documents).splitlines()

    assert lines == [
        "- [feedback] new.md (2025-10-01T12:00:00.000Z): A new one",
        "- [reference] old.md (2025-09-01T12:00:00.000Z): An old one",
        "- bare.md (2025-09-01T08:30:05.123Z)",
    ]
    assert iso_time(datetime(2025, 1, 2, 3, 4, 5)) == "2025-01-02T03:04:05.000Z"
    assert manifest_line(documents[0]).startswith("- [reference] old.md (")


def test_a_long_memory_is_cut_to_200_lines_and_4_kb():
    long_lines = "".join(f"line {n}\n" for n in range(300))
    wide = "x" * 5000

    lines_cut, lines_truncated = cut_content(long_lines)
    bytes_cut, bytes_truncated = cut_content("a\n" + "é" * 3000 + "\nb\n")
    one_line, _ = cut_content(wide)

    assert lines_truncated and lines_cut.splitlines() == [f"line {n}" for n in range(200)]
    assert bytes_truncated and bytes_cut == "a\n"
    assert len(one_line.encode()) == 4096
    assert cut_content("short\n") == ("short\n", False)


def test_each_result_carries_its_freshness_header():
    result = ranked("real postgres database tests, freeze, linear pipeline bugs")

    headers = {m.path: m.header for m in result.memories}
    assert headers["feedback_real_db.md"] == "Memory: feedback_real_db.md:"
    assert headers["project_freeze.md"] == "Memory: project_freeze.md:"
    assert headers["reference_ingest.md"] == (
        FRESHNESS_NOTE.format(days=9) + "\n\nMemory: reference_ingest.md:"
    )
    assert result.context().count("Memory") >= 3


def test_a_truncated_result_says_where_the_rest_is():
    body = "".join(f"step {n}\n" for n in range(400))
    document = RecallDocument("runbook.md", "runbook", "Deploy runbook", body, "reference", NOW)

    result = recall(
        RecallIndex([document]), "deploy runbook", read=lambda p: body.encode(), now=NOW,
        display_path=lambda p: f"/home/dev/memory/{p}",
    )  # fmt: skip

    [found] = result.memories
    assert found.truncated and found.content.count("\n") <= 202
    assert "read /home/dev/memory/runbook.md for the rest" in found.content
    assert found.header == "Memory: /home/dev/memory/runbook.md:"


def test_without_a_model_the_ranking_answers_without_what_was_surfaced():
    result = ranked("postgres integration tests mocks", already_surfaced=["project_freeze.md"])
    again = ranked("postgres integration tests mocks", already_surfaced=["feedback_real_db.md"])

    assert result.engine == ENGINE_RANKING and result.memories[0].path == "feedback_real_db.md"
    assert "feedback_real_db.md" not in [m.path for m in again.memories]
    assert ranked("kubernetes helm").memories == []
    assert ranked("the and of").memories == []


def test_a_weak_tail_of_matches_is_left_out():
    documents = [
        memory("a.md", "Kelvane deploys run through the blue green pipeline"),
        memory("b.md", "Release notes are written by the PM"),
        memory("c.md", "Notes from the offsite"),
    ]

    result = ranked("kelvane blue green pipeline notes", documents)

    assert [m.path for m in result.memories] == ["a.md"]


def test_the_model_chooses_from_the_manifest_and_made_up_names_are_dropped(messages_server):
    messages_server.add(
        [text('```json\n{"selected_memories": ["project_freeze.md", "invented.md", '
              '"feedback_real_db.md", "project_freeze.md"]}\n```')]
    )  # fmt: skip
    selector = model_selector(connect("test", base_url=messages_server.base_url), "claude-test")

    result = ranked(
        "can I merge my postgres test change before the release?",
        selector=selector,
        already_surfaced=["reference_ingest.md"],
        recent_tools=["Bash", "Edit"],
    )

    assert result.engine == ENGINE_MODEL
    assert [m.path for m in result.memories] == ["project_freeze.md", "feedback_real_db.md"]
    assert result.dropped == ["invented.md"]
    request = messages_server.requests[0]
    sent = request["messages"][0]["content"]
    assert sent.startswith("Request: can I merge my postgres test change before the release?")
    assert "Recently used tools: Bash, Edit" in sent
    manifest = [line for line in sent.splitlines() if line.startswith("- [")]
    assert manifest[0].startswith("- [feedback] feedback_real_db.md (")  # newest first
    assert "reference_ingest.md" not in sent
    assert '{"selected_memories": ["file.md", ...]}' in request["system"]


def test_the_model_sees_at_most_fifty_memories_of_thousands(messages_server):
    documents, _ = build_corpus(60)
    messages_server.add([text('{"selected_memories": []}')])
    selector = model_selector(connect("test", base_url=messages_server.base_url), "claude-test")

    result = ranked("kelvane deploys on friday", documents, selector=selector)

    sent = messages_server.requests[0]["messages"][0]["content"]
    assert len([line for line in sent.splitlines() if line.startswith("- [")]) == 50
    assert result.total == len(documents) > 1000 and result.considered == 50
    assert result.engine == ENGINE_MODEL and result.memories == []  # nothing clearly helps


def test_an_unusable_answer_falls_back_to_the_ranking(messages_server):
    messages_server.add(
        [text("I think feedback_real_db.md is the one.")],
        [text('{"selected_memories": "feedback_real_db.md"}')],
        ErrorReply(500, "overloaded", should_retry=False),
    )
    selector = model_selector(connect("test", base_url=messages_server.base_url), "claude-test")

    answers = [ranked("postgres integration tests", selector=selector) for _ in range(3)]

    assert [a.engine for a in answers] == [ENGINE_RANKING] * 3
    assert [a.fallback for a in answers] == [
        "the answer holds no JSON object",
        'the answer has no "selected_memories" list of names',
        "the side query failed: HTTP 500",
    ]
    assert all(a.memories[0].path == "feedback_real_db.md" for a in answers)


def test_recall_at_5_over_more_than_a_thousand_memories_in_a_repository(tmp_path):
    documents, questions = build_corpus(50)
    assert len(documents) >= 1000
    repo = MemoryRepo.init(tmp_path / "memory")
    index = "".join(format_entry(d.name, d.path, d.description) + "\n" for d in documents[:150])
    repo.apply({**files_of(documents), "MEMORY.md": index.encode()}, "manual", "corpus")

    source = repository_source(repo)
    found = source.index()
    now = datetime.now(UTC)
    hits = sum(
        answer in [m.path for m in recall(found, question, read=source.read, now=now).memories]
        for question, answer in questions
    )
    rng = random.Random(5)
    paths = [d.path for d in documents]
    random_hits = sum(answer in rng.sample(paths, 5) for _, answer in questions)

    recall_at_5 = hits / len(questions)
    random_at_5 = random_hits / len(questions)
    print(f"\nrecall@5 over {len(documents)} memories, {len(questions)} questions: "
          f"{recall_at_5:.3f} (random ranking: {random_at_5:.3f})")  # fmt: skip
    assert len(source.documents) == len(documents)
    assert recall_at_5 >= 0.9 > random_at_5


def test_a_directory_on_disk_reads_its_team_scope_too(tmp_path):
    root = tmp_path / "memory"
    (root / "team").mkdir(parents=True)
    (root / "feedback_real_db.md").write_bytes(files_of(TEAM[:1])["feedback_real_db.md"])
    (root / "team" / "reference_ingest.md").write_bytes(files_of(TEAM[2:3])["reference_ingest.md"])
    (root / "team" / "binary.md").write_bytes(b"\x00\x01")

    source = disk_source(root)

    assert sorted(d.path for d in source.documents) == [
        "feedback_real_db.md",
        "team/reference_ingest.md",
    ]
    assert (
        source.read(
            "team/reference_ingest.md",
        )
        is not None
    )
    assert source.read("../outside.md") is None


def test_ages_on_disk_come_from_git_history(tmp_path):
    repo = MemoryRepo.init(tmp_path / "memory")
    repo.apply(files_of(TEAM[:1]), "manual", "one memory")

    [document] = disk_source(repo.path).documents

    assert document.modified == repo.ages()["feedback_real_db.md"]


def test_results_serialise_for_the_cli_and_the_api():
    result = ranked("postgres integration tests")

    data = json.loads(json.dumps(result.to_dict()))

    assert data["engine"] == "ranking" and data["memories"][0]["path"] == "feedback_real_db.md"
    assert data["memories"][0]["modified"].endswith("Z") and data["context"].startswith("Memories")
