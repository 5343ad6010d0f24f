"""The transcript reader against real Claude Code transcripts and hand-written ones.

The two files in `samples/` are real Claude Code 1.0.98 transcripts, copied from
d-kimuson/claude-code-viewer (`mock-global-claude-dir/projects/sample-project/`).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memsync.extract.transcript import read_transcript

SAMPLES = Path(__file__).parent / "samples"
INIT_SESSION = SAMPLES / "1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"
ORCHESTRATOR_SESSION = SAMPLES / "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl"
MEMORY_DIR = "/home/alice/.claude/projects/-home-alice-shop/memory"


def _entry(kind: str, uuid: str, message: dict[str, Any] | None, **extra: Any) -> str:
    entry: dict[str, Any] = {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/alice/shop",
        "sessionId": "sess-1",
        "version": "2.0.14",
        "type": kind,
        "uuid": uuid,
        "timestamp": "2025-10-01T09:00:00.000Z",
        "someFieldFromTheFuture": {"nested": [1, 2]},
    }
    if message is not None:
        entry["message"] = message
    entry.update(extra)
    return json.dumps(entry, ensure_ascii=False)


def user(uuid: str, content: str | list[dict[str, Any]], **extra: Any) -> str:
    return _entry("user", uuid, {"role": "user", "content": content}, **extra)


def assistant(uuid: str, message_id: str, *blocks: dict[str, Any], **extra: Any) -> str:
    message = {"id": message_id, "type": "message", "role": "assistant", "content": list(blocks)}
    return _entry("assistant", uuid, message, **extra)


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def tool_use(tool_id: str, name: str, **tool_input: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}


def tool_result(tool_id: str, content: Any, *, is_error: bool | None = None) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": tool_id, "content": content}
    if is_error is not None:
        block["is_error"] = is_error
    return block


def write_lines(path: Path, lines: list[str], *, final_newline: bool = True) -> Path:
    path.write_text("\n".join(lines) + ("\n" if final_newline else ""), encoding="utf-8")
    return path


def test_it_reads_the_init_session_sample() -> None:
    transcript = read_transcript(INIT_SESSION)

    assert transcript.problems == []
    assert transcript.session_id == "1af7fc5e-8455-4414-9ccd-011d40f70b2a"
    assert transcript.cwd == "/path/to/Demo"
    assert transcript.is_subagent is False
    # 29 lines: a bare `/init` (noise), its expanded prompt (meta), 15 streamed
    # assistant lines forming 7 responses, and 12 lines that only carry tool results.
    assert transcript.lines_read == 29
    assert [m.role for m in transcript.messages] == ["assistant"] * 7
    assert [m.index for m in transcript.messages] == list(range(7))
    assert transcript.next_cursor == 7
    assert [len(m.tool_calls) for m in transcript.messages] == [1, 5, 3, 1, 1, 1, 0]
    calls = transcript.tool_calls
    assert len(calls) == 12
    assert all(call.result is not None for call in calls)
    assert [call.name for call in calls if call.is_error] == ["Write"]
    denied = transcript.messages[4].tool_calls[0]
    assert denied.input["file_path"] == "/path/to/Demo/CLAUDE.md"
    assert denied.result == (
        "Claude requested permissions to write to /path/to/Demo/CLAUDE.md,"
        " but you haven't granted it yet."
    )
    first = transcript.messages[0]
    assert first.uuid == "b96a37ed-bbf2-4ac3-b4ab-e286f7facb3a"
    assert first.timestamp == datetime(2025, 9, 3, 0, 47, 21, 540000, tzinfo=UTC)
    assert first.text.startswith("I'll analyze the codebase and create a CLAUDE.md file")
    assert transcript.messages[6].text.startswith("I've created a basic CLAUDE.md file")


def test_it_reads_the_orchestrator_session_sample_without_its_subagents() -> None:
    transcript = read_transcript(ORCHESTRATOR_SESSION)

    assert transcript.problems == []
    assert transcript.is_subagent is False
    assert transcript.lines_read == 53
    assert len(transcript.messages) == 11
    opening = transcript.messages[0]
    assert opening.role == "user"
    assert opening.text == "/orchestrator @CLAUDE.md を最新の状態にアップデートしてください"
    assert [m.role for m in transcript.messages[1:]] == ["assistant"] * 10
    calls = transcript.tool_calls
    assert len(calls) == 13
    assert all(call.result is not None for call in calls)
    assert sorted(call.name for call in calls if call.is_error) == ["Edit", "Task"]
    # The subagents' 21 sidechain lines are not messages; the main agent saw only
    # their final answers, which arrive as the Task results (a list of text blocks).
    sidechain_text = "I'll examine the package.json files in the Demo directory"
    assert not any(sidechain_text in m.text for m in transcript.messages)
    package_task = transcript.messages[3].tool_calls[1]
    assert package_task.name == "Task"
    assert package_task.result is not None
    assert package_task.result.startswith("## Package.json Analysis Summary")
    assert transcript.messages[10].text.startswith(
        "CLAUDE.mdファイルを最新の状態にアップデートしました"
    )


def test_it_lists_the_sample_edit_that_wrote_into_a_watched_directory() -> None:
    transcript = read_transcript(ORCHESTRATOR_SESSION, memory_dir="/path/to/Demo")

    # The Edit on CLAUDE.md failed ("File has not been read yet"); the MultiEdit after
    # the Read went through, so only that one counts as a write.
    assert [(w.message_index, w.tool_call.name, w.path) for w in transcript.memory_writes] == [
        (8, "MultiEdit", "/path/to/Demo/CLAUDE.md")
    ]


def test_it_assembles_a_synthetic_session_and_reports_each_broken_line(tmp_path: Path) -> None:
    lines = [
        json.dumps({"type": "summary", "summary": "Shop checkout", "leafUuid": "x"}),
        json.dumps({"type": "file-history-snapshot", "messageId": "m", "snapshot": {}}),
        user("u1", "Remember that staging deploys need the VPN."),
        user("meta", [text("Please analyze this codebase and create a CLAUDE.md")], isMeta=True),
        assistant("a1", "msg_1", text("Noted, let me check the memory directory.")),
        assistant("a2", "msg_1", tool_use("t1", "Bash", command="ls")),
        user("r1", [tool_result("t1", "MEMORY.md\n")]),
        # Claude Code may write a result before the rest of the same response.
        assistant("a3", "msg_1", tool_use("t2", "Read", file_path=f"{MEMORY_DIR}/MEMORY.md")),
        "{this is not json",
        json.dumps(["an", "array"]),
        _entry("assistant", "no-message", None),
        user("r2", [tool_result("t2", [text("# Memory"), text("- [VPN](vpn.md)")])]),
        json.dumps({"type": "system", "subtype": "compact_boundary", "content": "compacted"}),
        user("side-u", "Find the VPN docs", isSidechain=True),
        assistant("side-a", "msg_side", text("Searching the wiki"), isSidechain=True),
        assistant("a4", "msg_2", text("Saved it."), {"type": "thinking", "thinking": "hm"}),
        "",
        user("u2", "thanks"),
    ]
    path = write_lines(tmp_path / "sess-1.jsonl", lines)
    with path.open("ab") as stream:
        stream.write(b'{"type": "user", "text": "caf\xe9"}\n')

    transcript = read_transcript(path)

    assert [(m.index, m.role, m.text) for m in transcript.messages] == [
        (0, "user", "Remember that staging deploys need the VPN."),
        (1, "assistant", "Noted, let me check the memory directory."),
        (2, "assistant", "Saved it."),
        (3, "user", "thanks"),
    ]
    checking = transcript.messages[1]
    assert checking.uuid == "a1"
    assert checking.session_id == "sess-1"
    assert [(c.id, c.name, c.result) for c in checking.tool_calls] == [
        ("t1", "Bash", "MEMORY.md\n"),
        ("t2", "Read", "# Memory\n- [VPN](vpn.md)"),
    ]
    assert [(p.line, p.message) for p in transcript.problems] == [
        (9, "not valid JSON: Expecting property name enclosed in double quotes at column 2"),
        (10, "not a JSON object but list"),
        (11, "assistant entry has no message"),
        (19, "not UTF-8 (byte 30)"),
    ]
    assert transcript.lines_read == 19
    assert transcript.next_cursor == 4


def test_it_drops_command_noise_but_keeps_what_the_user_typed() -> None:
    lines = [
        user(
            "c1",
            "<command-message>init is analyzing…</command-message>\n"
            "<command-name>/init</command-name>",
        ),
        user(
            "c2", "<local-command-caveat>Caveat: generated by local commands</local-command-caveat>"
        ),
        user("c3", "<local-command-stdout>Set model to opus</local-command-stdout>"),
        user("c4", "<bash-input>git status</bash-input>"),
        user("c5", "<bash-stdout>nothing to commit</bash-stdout><bash-stderr></bash-stderr>"),
        user("c6", [text("[Request interrupted by user for tool use]")]),
        user(
            "c7", "<command-name>review</command-name>\n<command-args>PR 42 please</command-args>"
        ),
        user("c8", [text("Use pnpm, not npm.<system-reminder>todo list empty</system-reminder>")]),
        user("c9", [{"type": "image", "source": {"type": "base64", "data": "AAAA"}}]),
    ]

    transcript = read_transcript(lines)

    assert [m.text for m in transcript.messages] == ["/review PR 42 please", "Use pnpm, not npm."]
    assert [m.uuid for m in transcript.messages] == ["c7", "c8"]
    assert transcript.problems == []


def test_its_cursor_returns_only_what_was_added_to_a_growing_file(tmp_path: Path) -> None:
    path = tmp_path / "sess-1.jsonl"
    first_turn = [
        user("u1", "Our release train leaves on Thursdays."),
        assistant("a1", "msg_1", text("I'll remember that."), tool_use("t1", "Write")),
    ]
    write_lines(path, first_turn)

    before = read_transcript(path)
    assert [m.text for m in before.messages] == [
        "Our release train leaves on Thursdays.",
        "I'll remember that.",
    ]
    assert before.messages[1].tool_calls[0].result is None
    cursor = before.next_cursor
    assert cursor == 2

    second_turn = [
        user("r1", [tool_result("t1", "File created")]),
        user("u2", "And hotfixes go out any day."),
        assistant("a2", "msg_2", text("Updated the release memory.")),
    ]
    write_lines(path, first_turn + second_turn[:2] + [second_turn[2][:40]], final_newline=False)

    while_writing = read_transcript(path, since=cursor)
    assert [(m.index, m.text) for m in while_writing.messages] == [
        (2, "And hotfixes go out any day.")
    ]
    assert len(while_writing.problems) == 1
    assert while_writing.problems[0].line == 5
    assert "last line incomplete" in while_writing.problems[0].message
    assert while_writing.next_cursor == 3

    write_lines(path, first_turn + second_turn)

    after = read_transcript(path, since=cursor)
    assert after.problems == []
    assert [(m.index, m.role, m.text) for m in after.messages] == [
        (2, "user", "And hotfixes go out any day."),
        (3, "assistant", "Updated the release memory."),
    ]
    assert after.next_cursor == 4
    assert read_transcript(path, since=after.next_cursor).messages == []
    assert read_transcript(path, since=after.next_cursor).next_cursor == 4


def test_its_cursor_does_not_reopen_a_response_that_streamed_across_it() -> None:
    lines = [
        user("u1", "Clean up the logs"),
        assistant("a1", "msg_1", text("Looking.")),
        assistant("a2", "msg_1", tool_use("t1", "Bash", command="ls logs")),
        user("r1", [tool_result("t1", "2025")]),
        assistant("a3", "msg_2", text("Done.")),
    ]

    transcript = read_transcript(lines, since=2)

    assert [(m.index, m.text) for m in transcript.messages] == [(2, "Done.")]


def test_it_reads_a_subagent_transcript_as_the_subagents_own_conversation(
    tmp_path: Path,
) -> None:
    lines = [
        user("s1", "Find where payments are configured", isSidechain=True, agentId="a7c"),
        assistant(
            "s2",
            "msg_s",
            text("Searching."),
            tool_use("t1", "Grep", pattern="stripe"),
            isSidechain=True,
        ),
        user("s3", [tool_result("t1", "config/payments.py")], isSidechain=True),
        assistant("s4", "msg_t", text("In config/payments.py."), isSidechain=True),
    ]
    agent_file = write_lines(tmp_path / "agent-a7c.jsonl", lines)

    from_file = read_transcript(agent_file)
    from_lines = read_transcript(lines)

    for transcript in (from_file, from_lines):
        assert transcript.is_subagent is True
        assert [m.text for m in transcript.messages] == [
            "Find where payments are configured",
            "Searching.",
            "In config/payments.py.",
        ]
        assert transcript.messages[1].tool_calls[0].result == "config/payments.py"


def test_a_main_session_is_not_a_subagent_even_when_it_starts_with_a_sidechain() -> None:
    lines = [
        assistant("s1", "msg_s", text("subagent warming up"), isSidechain=True),
        user("u1", "Hello"),
    ]

    transcript = read_transcript(lines)

    assert transcript.is_subagent is False
    assert [m.text for m in transcript.messages] == ["Hello"]


def test_it_names_the_writes_into_the_memory_directory(tmp_path: Path) -> None:
    lines = [
        user("u1", "remember: deploys freeze on Fridays"),
        assistant(
            "a1",
            "msg_1",
            tool_use("t1", "Write", file_path=f"{MEMORY_DIR}/deploy_freeze.md", content="x"),
            tool_use("t2", "Edit", file_path=f"{MEMORY_DIR}/../memory/MEMORY.md"),
            tool_use("t3", "Write", file_path=f"{MEMORY_DIR}-old/notes.md", content="x"),
            tool_use("t4", "Write", file_path="/home/alice/shop/README.md", content="x"),
            tool_use("t5", "Edit", file_path=f"{MEMORY_DIR}/denied.md"),
            tool_use("t6", "Read", file_path=f"{MEMORY_DIR}/MEMORY.md"),
        ),
        user(
            "r1",
            [
                tool_result("t1", "File created"),
                tool_result("t2", "Updated"),
                tool_result("t3", "File created"),
                tool_result("t4", "File created"),
                tool_result("t5", "permission denied", is_error=True),
                tool_result("t6", "- [Deploy freeze](deploy_freeze.md)"),
            ],
        ),
        assistant("a2", "msg_2", text("Saved.")),
    ]

    transcript = read_transcript(lines, memory_dir=Path(MEMORY_DIR))

    assert [(w.message_index, w.tool_call.id) for w in transcript.memory_writes] == [
        (1, "t1"),
        (1, "t2"),
    ]
    assert read_transcript(lines, since=2, memory_dir=MEMORY_DIR).memory_writes == []
    assert read_transcript(lines).memory_writes == []


def test_it_refuses_a_plain_string_instead_of_lines() -> None:
    with pytest.raises(TypeError, match="not a string"):
        read_transcript('{"type": "user"}')  # type: ignore[arg-type]


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "message",
                    "content",
                    "id",
                    "tool_use_id",
                    "isSidechain",
                    "role",
                    "text",
                    "uuid",
                    "timestamp",
                    "input",
                    "is_error",
                ]
            ),
            children,
            max_size=5,
        )
    ),
    max_leaves=20,
)
_entry_like = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["user", "assistant", "summary"]),
        "message": st.fixed_dictionaries(
            {"id": st.sampled_from(["m1", "m2"]), "content": _json_values}
        ),
    },
    optional={"isSidechain": st.booleans(), "isMeta": st.booleans(), "timestamp": _json_values},
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(st.text(max_size=30), _json_values.map(json.dumps), _entry_like.map(json.dumps)),
        max_size=12,
    ),
    st.integers(min_value=0, max_value=4),
)
def test_it_never_raises_on_arbitrary_lines(lines: list[str], since: int) -> None:
    transcript = read_transcript(lines, since=since)

    assert len(transcript.problems) <= len(lines)
    assert all(m.index >= since for m in transcript.messages)
    assert transcript.next_cursor >= since
