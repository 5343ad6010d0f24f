"""The tool loop driven through the real SDK against the scripted Messages API."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memsync.agent import AgentError, AgentResult, TurnReport, connect, run_agent
from tests.agent.conftest import tools_for
from tests.support.messages_server import (
    ErrorReply,
    MessagesServer,
    Reply,
    result_text,
    start_process,
    text,
    tool_results,
    tool_use,
)

NEW_TOPIC = """---
name: Release day
description: Releases are cut on Thursdays after the freeze
type: project
---
Releases are cut on Thursdays.
**Why:** QA signs off on Wednesdays.
**How to apply:** schedule risky merges before Wednesday.
"""


def test_it_reads_then_writes_across_turns(
    agent: Callable[..., AgentResult], messages_server: MessagesServer, memory_dir: Path
) -> None:
    def save_after_reading(body: dict[str, Any]) -> list[dict[str, Any]]:
        index, topic = (result_text(block) for block in tool_results(body))
        assert index.startswith("     1\t# Memory")
        assert "Integration tests must hit a real database" in topic
        return [
            tool_use("write", {"path": "project_release_day.md", "content": NEW_TOPIC}),
            tool_use(
                "edit",
                {
                    "path": "MEMORY.md",
                    "old_string": "run tests against real services\n",
                    "new_string": "run tests against real services\n"
                    "- [Release day](project_release_day.md) — releases on Thursdays\n",
                },
            ),
        ]

    messages_server.add(
        [
            text("Reading the index and the topic first."),
            tool_use("read", {"path": "MEMORY.md"}),
            tool_use("read", {"path": "feedback_testing.md"}),
        ],
        save_after_reading,
        [text("Saved 1 memory.")],
    )

    result = agent(tools_for(memory_dir))

    assert result.stop_reason == "end_turn"
    assert result.turns == 3
    assert result.final_text == "Saved 1 memory."
    assert (memory_dir / "project_release_day.md").read_text() == NEW_TOPIC
    assert "- [Release day](project_release_day.md)" in (memory_dir / "MEMORY.md").read_text()
    assert result.files_read == ["MEMORY.md", "feedback_testing.md"]
    assert result.files_written == ["project_release_day.md", "MEMORY.md"]
    assert result.files_touched == ["MEMORY.md", "project_release_day.md"]
    assert result.tool_calls == 4
    assert result.denials == []
    assert messages_server.failures == []
    write_result, edit_result = tool_results(messages_server.requests[2])
    assert "is_error" not in write_result and "is_error" not in edit_result


def test_it_stops_at_the_turn_limit_after_running_the_last_turns_tools(
    agent: Callable[..., AgentResult], messages_server: MessagesServer, memory_dir: Path
) -> None:
    messages_server.add(
        [tool_use("glob", {"pattern": "*.md"})],
        [tool_use("write", {"path": "late.md", "content": "written in the last turn\n"})],
        [text("never asked for")],
    )

    result = agent(tools_for(memory_dir), max_turns=2)

    assert result.stop_reason == "max_turns"
    assert result.stop_message == "stopped at the turn limit (2 turns)"
    assert result.turns == 2
    assert len(messages_server.requests) == 2
    assert (memory_dir / "late.md").read_text() == "written in the last turn\n"


def test_it_stops_when_the_token_budget_is_exceeded(
    agent: Callable[..., AgentResult], messages_server: MessagesServer, memory_dir: Path
) -> None:
    spend = {"input_tokens": 400, "output_tokens": 100}
    messages_server.add(
        *[Reply([tool_use("shell", {"command": "ls"})], usage=spend) for _ in range(4)]
    )

    result = agent(tools_for(memory_dir), token_budget=1000)

    assert result.stop_reason == "budget"
    assert result.turns == 3
    assert result.usage.total == 1500
    assert "1,500 tokens used, over the budget of 1,000" in result.stop_message
    assert len(messages_server.requests) == 3


def test_it_stops_between_turns_when_cancelled(
    agent: Callable[..., AgentResult], messages_server: MessagesServer, memory_dir: Path
) -> None:
    reports: list[TurnReport] = []
    messages_server.add(
        [tool_use("write", {"path": "first.md", "content": "one\n"})],
        [tool_use("write", {"path": "second.md", "content": "two\n"})],
    )

    result = agent(
        tools_for(memory_dir), on_turn=reports.append, should_cancel=lambda: len(reports) >= 1
    )

    assert result.stop_reason == "cancelled"
    assert result.stop_message == "cancelled before turn 2"
    assert result.turns == 1
    assert len(messages_server.requests) == 1
    assert (memory_dir / "first.md").exists()
    assert not (memory_dir / "second.md").exists()


def test_it_makes_no_request_when_cancelled_before_the_first_turn(
    agent: Callable[..., AgentResult], messages_server: MessagesServer, memory_dir: Path
) -> None:
    result = agent(tools_for(memory_dir), should_cancel=lambda: True)

    assert result.stop_reason == "cancelled"
    assert result.turns == 0
    assert messages_server.requests == []


def test_it_sums_usage_over_turns_and_reports_progress(
    agent: Callable[..., AgentResult], messages_server: MessagesServer, memory_dir: Path
) -> None:
    reports: list[TurnReport] = []
    messages_server.add(
        Reply(
            [tool_use("read", {"path": "MEMORY.md"})],
            usage={
                "input_tokens": 1200,
                "output_tokens": 40,
                "cache_creation_input_tokens": 3000,
                "cache_read_input_tokens": 0,
            },
        ),
        Reply(
            [tool_use("write", {"path": "user_role.md", "content": "Alice is the maintainer\n"})],
            usage={
                "input_tokens": 300,
                "output_tokens": 90,
                "cache_creation_input_tokens": 250,
                "cache_read_input_tokens": 3000,
            },
        ),
        Reply(
            [text("done")],
            usage={
                "input_tokens": 20,
                "output_tokens": 7,
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 3250,
            },
        ),
    )

    result = agent(tools_for(memory_dir), on_turn=reports.append)

    assert result.usage.input_tokens == 1520
    assert result.usage.output_tokens == 137
    assert result.usage.cache_creation_input_tokens == 3250
    assert result.usage.cache_read_input_tokens == 6250
    assert [report.turn for report in reports] == [1, 2, 3]
    assert [report.usage.output_tokens for report in reports] == [40, 130, 137]
    assert [report.files_touched for report in reports] == [[], ["user_role.md"], ["user_role.md"]]
    assert reports[0].files_read == ["MEMORY.md"]


def test_it_marks_the_system_prompt_tools_and_newest_message_for_caching(
    client: Any, messages_server: MessagesServer, memory_dir: Path
) -> None:
    messages_server.add([tool_use("read", {"path": "MEMORY.md"})], [text("done")])

    run_agent(
        client,
        model="claude-test",
        system=["Stable instructions.", "This run's manifest."],
        prompt="Go.",
        tools=tools_for(memory_dir, allow_delete=True),
        max_turns=3,
        max_tokens_per_turn=1234,
    )

    first, second = messages_server.requests
    assert first["model"] == "claude-test"
    assert first["max_tokens"] == 1234
    assert first["system"] == [
        {"type": "text", "text": "Stable instructions."},
        {"type": "text", "text": "This run's manifest.", "cache_control": {"type": "ephemeral"}},
    ]
    assert [tool["name"] for tool in first["tools"]] == [
        "read", "grep", "glob", "shell", "write", "edit", "delete"
    ]  # fmt: skip
    assert [("cache_control" in tool) for tool in first["tools"]] == [False] * 6 + [True]
    assert first["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert first["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}
    marked = [m for m in second["messages"] if "cache_control" in json.dumps(m)]
    assert marked == [second["messages"][-1]]
    assert second["tools"] == first["tools"]


def test_it_raises_a_readable_error_when_the_api_fails(
    agent: Callable[..., AgentResult], messages_server: MessagesServer, memory_dir: Path
) -> None:
    messages_server.add(
        [tool_use("write", {"path": "kept.md", "content": "before the failure\n"})],
        ErrorReply(500, "upstream exploded"),
    )

    with pytest.raises(AgentError) as raised:
        agent(tools_for(memory_dir))

    assert str(raised.value) == "the Anthropic API answered HTTP 500: upstream exploded"
    assert raised.value.status_code == 500
    assert raised.value.partial is not None
    assert raised.value.partial.turns == 1
    assert raised.value.partial.files_written == ["kept.md"]


def test_it_names_an_authentication_failure(
    agent: Callable[..., AgentResult], messages_server: MessagesServer, memory_dir: Path
) -> None:
    messages_server.add(ErrorReply(401, "invalid x-api-key"))

    with pytest.raises(AgentError, match=r"HTTP 401: invalid x-api-key"):
        agent(tools_for(memory_dir))


def test_it_retries_an_overloaded_api_as_many_times_as_configured(
    agent: Callable[..., AgentResult], messages_server: MessagesServer, memory_dir: Path
) -> None:
    patient = connect("test", base_url=messages_server.base_url, max_retries=1)
    messages_server.add(ErrorReply(529, "Overloaded"), [text("recovered")])
    messages_server.add(ErrorReply(529, "Overloaded"), ErrorReply(529, "Overloaded"))

    recovered = agent(tools_for(memory_dir), client=patient)
    with pytest.raises(AgentError, match=r"HTTP 529: Overloaded"):
        agent(tools_for(memory_dir), client=patient)

    assert recovered.final_text == "recovered"
    assert len(messages_server.requests) == 4


def test_it_raises_when_the_api_cannot_be_reached(
    agent: Callable[..., AgentResult], memory_dir: Path
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    unreachable = connect("test", base_url=f"http://127.0.0.1:{closed_port}", max_retries=0)

    with pytest.raises(AgentError) as raised:
        agent(tools_for(memory_dir), client=unreachable)

    assert f"could not reach the Anthropic API at http://127.0.0.1:{closed_port}" in str(
        raised.value
    )
    assert raised.value.status_code is None


def test_it_stops_when_a_reply_is_cut_at_max_tokens(
    agent: Callable[..., AgentResult], messages_server: MessagesServer, memory_dir: Path
) -> None:
    messages_server.add(Reply([text("I will now write a very long")], stop_reason="max_tokens"))

    result = agent(tools_for(memory_dir), max_tokens_per_turn=16)

    assert result.stop_reason == "max_tokens"
    assert result.stop_message == "the reply of turn 1 was cut at max_tokens (16 tokens)"
    assert result.final_text == "I will now write a very long"


def test_it_survives_a_file_name_that_is_not_utf8(
    agent: Callable[..., AgentResult], messages_server: MessagesServer, memory_dir: Path
) -> None:
    (memory_dir / os.fsdecode(b"caf\xe9.md")).write_text("latin-1\n")
    messages_server.add([tool_use("glob", {"pattern": "*.md"})], [text("done")])

    result = agent(tools_for(memory_dir))

    (listing,) = tool_results(messages_server.requests[1])
    assert "caf\\udce9.md" in result_text(listing).splitlines()
    assert result.final_text == "done"


def test_the_scripted_server_serves_a_json_script_from_its_own_process(
    tmp_path: Path, memory_dir: Path
) -> None:
    script = tmp_path / "script.json"
    script.write_text(
        json.dumps(
            [
                [{"type": "tool_use", "name": "read", "input": {"path": "MEMORY.md"}}],
                {"content": [{"type": "text", "text": "done"}], "usage": {"output_tokens": 9}},
                {"error": {"status": 500, "message": "only two steps", "should_retry": False}},
            ]
        )
    )
    server = start_process(script, record_path=tmp_path / "requests.jsonl")
    try:
        client = connect("test", base_url=server.base_url, max_retries=0)
        result = run_agent(
            client,
            model="claude-test",
            system="s",
            prompt="p",
            tools=tools_for(memory_dir),
            max_turns=3,
        )
        with pytest.raises(AgentError, match="only two steps"):
            run_agent(
                client,
                model="claude-test",
                system="s",
                prompt="p",
                tools=tools_for(memory_dir),
                max_turns=3,
            )
    finally:
        server.stop()

    assert server.process.returncode == 0
    assert result.final_text == "done"
    assert result.usage.output_tokens == 5 + 9
    recorded = server.requests()
    assert len(recorded) == 3
    (answer,) = tool_results(recorded[1])
    assert result_text(answer).startswith("     1\t# Memory")
