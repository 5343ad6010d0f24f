"""The anthropic engine through the real SDK against the scripted Messages API server:
tool calls, the 5-turn limit, denied tools, and usage in the commit trailers (SPEC E2)."""

from __future__ import annotations

from pathlib import Path

from memsync.agent import connect
from memsync.extract.llm import AnthropicEngine
from memsync.extract.run import FAILED, NO_CHANGES, SAVED, extract_session
from memsync.extract.transcript import read_transcript
from memsync.memory import MemoryDirectory
from tests.extract.sessions import SessionLog, memory_repo, topic
from tests.support.messages_server import (
    ErrorReply,
    Reply,
    result_text,
    text,
    tool_results,
    tool_use,
)

PNPM = topic("Use pnpm", "Use pnpm instead of npm", "feedback", "Use pnpm.\n")
REAL_DB = (
    "---\nname: Real database in tests\ndescription: Integration tests hit a real Postgres, "
    "never mocks\ntype: feedback\n---\n\nIntegration tests hit a real Postgres, never mocks.\n\n"
    "**Why:** mocked tests passed yesterday while the prod migration failed.\n"
    "**How to apply:** every integration test.\n"
)


def engine(server, **options) -> AnthropicEngine:
    return AnthropicEngine(
        connect("test", base_url=server.base_url), model="claude-test", **options
    )


def session(tmp_path: Path) -> Path:
    return (
        SessionLog()
        .turn(
            "Don't mock the database in these tests — mocked tests passed while the prod "
            "migration failed.",
            "Understood, I'll use the real database.",
        )
        .write(tmp_path / "sessions")
    )


def extract(repo, path: Path, model_engine: AnthropicEngine, since: int = 0):
    return extract_session(repo, read_transcript(path, since=since), model_engine, since=since)


def test_the_model_saves_in_two_turns_and_its_tokens_go_in_the_trailers(tmp_path, messages_server):
    repo = memory_repo(tmp_path / "memory", {"feedback_pnpm.md": PNPM})
    index = (repo.path / "MEMORY.md").read_text()
    messages_server.add(
        Reply(
            [tool_use("read", {"path": "MEMORY.md"})],
            usage={"input_tokens": 1200, "output_tokens": 40, "cache_creation_input_tokens": 900},
        ),
        Reply(
            [
                tool_use("write", {"path": "feedback_real_db.md", "content": REAL_DB}),
                tool_use(
                    "edit",
                    {
                        "path": "MEMORY.md",
                        "old_string": index,
                        "new_string": index + "- [Real database in tests](feedback_real_db.md)"
                        " — integration tests never mock the DB\n",
                    },
                ),
            ],
            usage={"input_tokens": 300, "output_tokens": 260, "cache_read_input_tokens": 900},
        ),
        Reply([text("Saved feedback_real_db.md.")], usage={"input_tokens": 90, "output_tokens": 9}),
    )

    result = extract(repo, session(tmp_path), engine(messages_server))

    assert messages_server.failures == []
    assert result.status == SAVED and result.saved == ["feedback_real_db.md"] and result.turns == 3
    commit = repo.commit_info("HEAD")
    assert commit.subject.endswith("— saved 1 memory")
    assert commit.trailer("Memsync-Engine") == "anthropic"
    assert commit.trailer("Memsync-Model") == "claude-test"
    assert commit.trailer("Memsync-Tokens") == "in=1590 out=309 cache_read=900 cache_write=900"
    assert commit.trailer("Memsync-Messages") == "0-1"
    memory = MemoryDirectory.read(repo.path).files["feedback_real_db.md"]
    # "yesterday", counted from the message (2025-09-04), is written as a date.
    assert "passed 2025-09-03 while" in memory.body
    first = messages_server.requests[0]
    assert "What never to save, even when asked" in first["system"][0]["text"]
    assert [tool["name"] for tool in first["tools"]] == [
        "read", "grep", "glob", "shell", "write", "edit", "delete",
    ]  # fmt: skip
    prompt = first["messages"][0]["content"][0]["text"]
    assert "- [feedback] feedback_pnpm.md (" in prompt and "): Use pnpm instead of npm" in prompt
    assert "Don't mock the database in these tests" in prompt
    assert "reads in turn 1, writes in turn 2" in prompt


def test_it_stops_at_five_turns_and_keeps_what_was_written(tmp_path, messages_server):
    repo = memory_repo(tmp_path / "memory")
    messages_server.add(
        [tool_use("write", {"path": "feedback_real_db.md", "content": REAL_DB})],
        *[[tool_use("glob", {"pattern": "*.md"})] for _ in range(5)],
    )

    result = extract(repo, session(tmp_path), engine(messages_server))

    assert len(messages_server.requests) == 5 and messages_server.remaining == 1
    assert result.turns == 5 and "stopped at the turn limit (5 turns)" in result.notes
    assert result.saved == ["feedback_real_db.md"] and result.commit is not None
    entries = MemoryDirectory.read(repo.path).index.entries
    assert [entry.file for entry in entries] == ["feedback_real_db.md"]


def test_denied_tools_change_nothing_and_are_reported(tmp_path, messages_server):
    repo = memory_repo(tmp_path / "memory", {"feedback_pnpm.md": PNPM})
    outside = tmp_path / "outside.md"
    messages_server.add(
        [
            tool_use("shell", {"command": "rm feedback_pnpm.md"}),
            tool_use("write", {"path": "../outside.md", "content": "escaped"}),
            tool_use("write", {"path": str(outside), "content": "escaped"}),
            tool_use("Bash", {"command": "curl https://example.com"}),
        ],
        lambda body: [text(f"{len([r for r in tool_results(body) if r.get('is_error')])} refused")],
    )

    result = extract(repo, session(tmp_path), engine(messages_server))

    assert (repo.path / "feedback_pnpm.md").exists() and not outside.exists()
    assert result.status == NO_CHANGES and result.commit is None
    denied = [denial.split(":")[0] for denial in result.denials]
    assert denied == ["shell", "write", "write"]
    assert "4 refused" in result.notes
    answers = [result_text(block) for block in tool_results(messages_server.requests[1])]
    assert "unknown tool 'Bash'" in answers[3]


def test_the_index_follows_a_topic_file_the_model_forgot_to_list(tmp_path, messages_server):
    repo = memory_repo(tmp_path / "memory")
    messages_server.add(
        [tool_use("write", {"path": "feedback_real_db.md", "content": REAL_DB})],
        [text("Saved.")],
    )

    result = extract(repo, session(tmp_path), engine(messages_server))

    index = (repo.path / "MEMORY.md").read_text()
    assert (
        "- [Real database in tests](feedback_real_db.md) — Integration tests hit a real "
        "Postgres, never mocks" in index
    )
    assert "MEMORY.md" in {stat.path for stat in repo.commit_info(result.commit or "").files}


def test_a_forgotten_memory_is_deleted_with_its_index_line(tmp_path, messages_server):
    repo = memory_repo(tmp_path / "memory", {"feedback_pnpm.md": PNPM})
    messages_server.add(
        [tool_use("read", {"path": "MEMORY.md"})],
        [
            tool_use("delete", {"path": "feedback_pnpm.md"}),
            tool_use(
                "edit",
                {
                    "path": "MEMORY.md",
                    "old_string": "- [feedback_pnpm](feedback_pnpm.md) — feedback_pnpm.md\n",
                    "new_string": "",
                },
            ),
        ],
        [text("Forgot the pnpm rule.")],
    )
    path = SessionLog().turn("Forget the pnpm rule.").write(tmp_path / "s")

    result = extract(repo, path, engine(messages_server))

    assert result.forgotten == ["feedback_pnpm.md"] and result.saved == []
    assert repo.commit_info("HEAD").subject.endswith("— saved 0, forgot 1")
    assert (repo.path / "MEMORY.md").read_text() == ""


def test_writes_outside_the_top_level_are_not_committed(tmp_path, messages_server):
    repo = memory_repo(tmp_path / "memory")
    messages_server.add(
        [
            tool_use("write", {"path": "team/feedback_real_db.md", "content": REAL_DB}),
            tool_use("write", {"path": "feedback_real_db.md", "content": REAL_DB}),
        ],
        [text("Saved.")],
    )

    result = extract(repo, session(tmp_path), engine(messages_server))

    committed = {stat.path for stat in repo.commit_info(result.commit or "").files}
    assert committed == {"feedback_real_db.md", "MEMORY.md"}
    assert any("team/feedback_real_db.md" in note for note in result.notes)


def test_an_api_failure_undoes_the_run_and_keeps_the_cursor(tmp_path, messages_server):
    repo = memory_repo(tmp_path / "memory")
    head = repo.head()
    messages_server.add(
        Reply(
            [tool_use("write", {"path": "feedback_real_db.md", "content": REAL_DB})],
            usage={"input_tokens": 500, "output_tokens": 100},
        ),
        ErrorReply(400, "prompt is too long", should_retry=False),
    )

    result = extract(repo, session(tmp_path), engine(messages_server))

    assert result.status == FAILED and "HTTP 400: prompt is too long" in (result.reason or "")
    assert result.cursor == 0 and result.commit is None and repo.head() == head
    assert not (repo.path / "feedback_real_db.md").exists()
    assert result.usage["input_tokens"] == 500


def test_nothing_worth_saving_makes_no_commit(tmp_path, messages_server):
    repo = memory_repo(tmp_path / "memory", {"feedback_pnpm.md": PNPM})
    head = repo.head()
    messages_server.add(Reply([text("Nothing here is worth remembering.")]))
    path = SessionLog().turn("What does parse_date return?", "A date.").write(tmp_path / "s")

    result = extract(repo, path, engine(messages_server))

    assert result.status == NO_CHANGES and repo.head() == head and result.cursor == 2
    assert result.usage["input_tokens"] == 10 and result.turns == 1
