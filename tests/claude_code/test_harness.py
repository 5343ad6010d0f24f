"""The harness itself: Claude Code runs, talks to the scripted server, and shows us
what it sent. If these fail, every other test here means nothing."""

from __future__ import annotations

from tests.claude_code.harness import CLAUDE_CODE_VERSION
from tests.support.messages_server import text, tool_use


def test_it_runs_the_pinned_version_against_the_scripted_server(claude_code):
    project = claude_code.project()
    run = claude_code.run("hi", cwd=project, steps=[[text("Hello from the script.")]])
    assert run.result["result"] == "Hello from the script."
    assert len(run.requests) == 1
    headers = claude_code.server.headers[-1]
    assert CLAUDE_CODE_VERSION in headers.get("user-agent", "")


def test_it_loads_the_memory_index_and_names_the_directory(claude_code):
    project = claude_code.project()
    memory = claude_code.memory_dir(project)
    (memory / "MEMORY.md").write_text("- [Rule](rule.md) — HARNESS_MARKER_7f3a\n")
    run = claude_code.run("hi", cwd=project)
    assert "HARNESS_MARKER_7f3a" in run.context_text()
    assert run.stated_memory_dir() == memory


def test_it_runs_a_tool_call_and_returns_its_result(claude_code):
    project = claude_code.project()
    (project / "notes.txt").write_text("TOOL_RESULT_MARKER_19c2\n")
    run = claude_code.run(
        "read notes",
        cwd=project,
        steps=[[tool_use("Read", {"file_path": str(project / "notes.txt")})], [text("Read.")]],
    )
    assert any("TOOL_RESULT_MARKER_19c2" in result for result in run.tool_results())
    assert len(run.requests) == 2
    assert run.transcript().exists()
