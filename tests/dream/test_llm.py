"""The anthropic dream engine, driven through the real SDK against the scripted Messages
API on 127.0.0.1 (SPEC D3, D4, D7). The memory directory is a real Git worktree on a
dream branch, as the run gives it to the engine."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from memsync.agent import AgentError
from memsync.dream.deterministic import DeterministicEngine
from memsync.dream.engine import DreamCancelled, DreamContext, Scope
from memsync.dream.engine_choice import EngineUnavailable, get_engine
from memsync.dream.llm import AnthropicEngine
from memsync.dream.prompts import CONSOLIDATION_SYSTEM_PROMPT
from tests.dream.corpus import NOW, RecordingProgress
from tests.support.messages_server import (
    ErrorReply,
    MessagesServer,
    Reply,
    result_text,
    text,
    tool_results,
    tool_use,
)
from tests.support.trees import snapshot

INDEX = (
    "# Memory Index\n\n"
    "- [Testing rule](feedback_testing.md) — integration tests hit a real database\n"
    "- [DB tests](feedback_db_tests.md) — no mocks for the database\n"
)
TESTING = (
    "---\nname: testing-rule\ndescription: Integration tests hit a real database\n"
    "type: feedback\noriginSessionId: 5c03\n---\n\n"
    "Integration tests must hit a real database, not mocks.\n"
    "**Why:** a mocked migration passed while prod broke.\n"
    "**How to apply:** use the test database fixture.\n"
)
DB_TESTS = (
    "---\nname: db-tests\ndescription: No mocks for the database in tests\n"
    "type: feedback\n---\n\n"
    "Never mock the database in integration tests.\n"
    "**Why:** mocks hid a broken migration.\n"
    "**How to apply:** use the test database fixture; CI runs Postgres 16.\n"
)
MERGED = (
    "---\nname: testing-rule\ndescription: Integration tests hit a real database\n"
    "type: feedback\noriginSessionId: 5c03\n---\n\n"
    "Integration tests must hit a real database, not mocks.\n"
    "**Why:** a mocked migration passed while prod broke.\n"
    "**How to apply:** use the test database fixture; CI runs Postgres 16.\n"
)
SUMMARY = (
    "Improved 2 memories: merged feedback_db_tests.md into feedback_testing.md (the same "
    "rule, saved twice) and removed its index entry."
)
SECRET = "outside secret, never to be read or changed\n"
IDENTITY = {
    "GIT_AUTHOR_NAME": "alice",
    "GIT_AUTHOR_EMAIL": "alice@example.com",
    "GIT_COMMITTER_NAME": "alice",
    "GIT_COMMITTER_EMAIL": "alice@example.com",
}


def git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", *args], cwd=cwd, check=True, env={**os.environ, **IDENTITY}, capture_output=True
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "MEMORY.md").write_text(INDEX, encoding="utf-8")
    (root / "feedback_testing.md").write_text(TESTING, encoding="utf-8")
    (root / "feedback_db_tests.md").write_text(DB_TESTS, encoding="utf-8")
    (root / "team").mkdir()
    (root / "team" / "MEMORY.md").write_text(
        "- [Release train](project_release_train.md) — releases are cut on Tuesdays\n",
        encoding="utf-8",
    )
    (root / "team" / "project_release_train.md").write_text(
        "---\nname: release-train\ndescription: When releases are cut\ntype: project\n---\n\n"
        "Releases are cut from main every Tuesday.\n**Why:** QA is staffed then.\n"
        "**How to apply:** merge before Monday night.\n",
        encoding="utf-8",
    )
    (root / "CLAUDE.md").write_text("# Rules\n\nUse uv, never pip.\n", encoding="utf-8")
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "memories", cwd=root)
    return root


@pytest.fixture
def worktree(repo: Path, tmp_path: Path) -> Path:
    path = tmp_path / "worktrees" / "dream-1"
    git("worktree", "add", "-q", "-b", "dream/1", str(path), cwd=repo)
    return path


def context(workdir: Path, scope: Scope = Scope.PERSONAL) -> DreamContext:
    return DreamContext(
        workdir=workdir,
        scope=scope,
        now=NOW,
        last_changed={"feedback_testing.md": NOW - timedelta(days=3)},
        sessions=("1af7fc5e-8455-4414-9ccd-011d40f70b2a", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"),
    )


def engine(server: MessagesServer, **options: Any) -> AnthropicEngine:
    settings: dict[str, Any] = {"max_turns": 10, "token_budget": 1_000_000, **options}
    built = get_engine(
        "anthropic",
        api_key="test-key",
        base_url=server.base_url,
        model="claude-test",
        max_turns=settings["max_turns"],
        token_budget=settings["token_budget"],
    )
    assert isinstance(built, AnthropicEngine)
    return built


def no_errors(body: dict[str, Any]) -> list[str]:
    results = tool_results(body)
    failed = [result_text(block) for block in results if block.get("is_error")]
    assert failed == [], failed
    return [result_text(block) for block in results]


def test_a_scripted_dream_merges_two_files_and_rewrites_the_index(
    messages_server: MessagesServer, worktree: Path
) -> None:
    def writes(body: dict[str, Any]) -> Reply:
        seen = no_errors(body)
        assert any("CI runs Postgres 16" in result for result in seen)
        return Reply(
            [
                tool_use("write", {"path": "feedback_testing.md", "content": MERGED}),
                tool_use("delete", {"path": "feedback_db_tests.md"}),
                tool_use(
                    "edit",
                    {
                        "path": "MEMORY.md",
                        "old_string": "- [DB tests](feedback_db_tests.md) — no mocks for the "
                        "database\n",
                        "new_string": "",
                    },
                ),
            ],
            usage={"input_tokens": 300, "output_tokens": 400, "cache_read_input_tokens": 900},
        )

    def summary(body: dict[str, Any]) -> Reply:
        no_errors(body)
        return Reply(
            [text(SUMMARY)],
            usage={"input_tokens": 200, "output_tokens": 60, "cache_read_input_tokens": 1_100},
        )

    messages_server.add(
        Reply(
            [
                text("Phase 1: orienting."),
                tool_use("shell", {"command": "ls -la"}),
                tool_use("read", {"path": "MEMORY.md"}),
                tool_use("read", {"path": "feedback_testing.md"}),
                tool_use("read", {"path": "feedback_db_tests.md"}),
            ],
            usage={"input_tokens": 1_200, "output_tokens": 80, "cache_creation_input_tokens": 900},
        ),
        writes,
        summary,
    )
    progress = RecordingProgress()
    result = engine(messages_server).consolidate(context(worktree), progress)

    assert messages_server.failures == []
    assert (worktree / "feedback_testing.md").read_text(encoding="utf-8") == MERGED
    assert not (worktree / "feedback_db_tests.md").exists()
    assert (worktree / "MEMORY.md").read_text(encoding="utf-8") == (
        "# Memory Index\n\n"
        "- [Testing rule](feedback_testing.md) — integration tests hit a real database\n"
    )
    assert result.summary == SUMMARY
    assert result.files_touched == ["MEMORY.md", "feedback_db_tests.md", "feedback_testing.md"]
    assert (result.engine, result.model, result.turns) == ("anthropic", "claude-test", 3)
    assert result.usage == {
        "input": 1_700,
        "output": 540,
        "cache_read": 2_000,
        "cache_creation": 900,
        "total": 5_140,
    }
    assert progress.turns == [1, 2, 3]
    assert progress.phases == ["orient", "updating"]
    assert sorted(progress.files) == result.files_touched


def test_the_system_prompt_carries_the_four_phases_and_is_cached(
    messages_server: MessagesServer, worktree: Path
) -> None:
    messages_server.add([tool_use("read", {"path": "MEMORY.md"})], [text("Nothing to improve.")])
    engine(messages_server).consolidate(context(worktree), RecordingProgress())

    first, second = messages_server.requests
    assert first["system"] == second["system"]
    (block,) = first["system"]
    assert block["cache_control"] == {"type": "ephemeral"}
    prompt = block["text"]
    assert prompt == CONSOLIDATION_SYSTEM_PROMPT
    phases = ["Phase 1: Orient", "Phase 2: Gather", "Phase 3: Consolidate", "Phase 4: Prune"]
    assert [prompt.index(phase) for phase in phases] == sorted(
        prompt.index(phase) for phase in phases
    )
    for rule in (
        "the latest fact wins",
        "more specific fact beats a more general one",
        "different scopes",
        "when unsure, leave it",
        "Never copy or move a personal memory into team/",
        "Never create or edit CLAUDE.md",
        "200 lines and 25,000 characters",
        "**Why:**",
        "**How to apply:**",
        "Never read a whole transcript",
        "Improved N memories:",
    ):
        assert rule in prompt, rule
    assert first["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert {tool["name"] for tool in first["tools"]} == {
        "read",
        "grep",
        "glob",
        "shell",
        "write",
        "edit",
        "delete",
    }
    opening = first["messages"][0]["content"][0]["text"]
    assert "Today is 2026-12-02." in opening
    assert "1af7fc5e-8455-4414-9ccd-011d40f70b2a" in opening
    assert "team/ is read-only in this run" in opening
    assert "- 2 topic files beside MEMORY.md" in opening


def test_transcripts_are_not_offered_and_the_model_is_told(
    messages_server: MessagesServer, worktree: Path, tmp_path: Path
) -> None:
    transcripts = tmp_path / "transcripts"
    transcripts.mkdir()
    (transcripts / "1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl").write_text("{}\n")
    messages_server.add(
        [
            tool_use(
                "read", {"path": str(transcripts / "1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl")}
            )
        ],
        [text("Nothing to improve: no new signal.")],
    )
    run_context = DreamContext(
        workdir=worktree,
        scope=Scope.PERSONAL,
        now=NOW,
        last_changed={},
        transcripts_dir=transcripts,
    )
    result = engine(messages_server).consolidate(run_context, RecordingProgress())
    opening = messages_server.requests[0]["messages"][0]["content"][0]["text"]
    assert "Session transcripts are not available to you in this run" in opening
    (answer,) = tool_results(messages_server.requests[1])
    assert answer["is_error"] is True
    assert any("transcripts were not offered" in note for note in result.notes)
    assert result.summary == "Nothing to improve: no new signal."


ESCAPES: list[tuple[str, dict[str, Any]]] = [
    ("read", {"path": "../outside/secret.txt"}),
    ("read", {"path": "{outside}/secret.txt"}),
    ("read", {"path": "leak.md"}),
    ("read", {"path": "outside-dir/secret.txt"}),
    ("grep", {"pattern": "secret", "path": "../outside"}),
    ("glob", {"pattern": "../*"}),
    ("write", {"path": "../outside/pwned.md", "content": "escaped"}),
    ("write", {"path": "{outside}/pwned.md", "content": "escaped"}),
    ("write", {"path": "outside-dir/pwned.md", "content": "escaped"}),
    ("write", {"path": "leak.md", "content": "overwritten"}),
    ("write", {"path": ".git", "content": "gitdir: /tmp/elsewhere\n"}),
    ("write", {"path": ".git/config", "content": "[core]\n"}),
    ("write", {"path": "{repo}/.git/config", "content": "[core]\n"}),
    ("write", {"path": ".consolidate-lock", "content": "1"}),
    ("delete", {"path": "MEMORY.md"}),
    ("delete", {"path": "leak.md"}),
    ("shell", {"command": "cat ../outside/secret.txt"}),
    ("shell", {"command": "ls; rm -rf ."}),
    ("shell", {"command": "cat MEMORY.md > copy.md"}),
    ("shell", {"command": "cat $(echo ../outside/secret.txt)"}),
    ("shell", {"command": "ls | tee listing.md"}),
    ("shell", {"command": "rm MEMORY.md"}),
    ("shell", {"command": "find .. -name secret.txt"}),
]


def test_every_escape_attempt_is_refused_and_nothing_outside_changes(
    messages_server: MessagesServer, worktree: Path, repo: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET, encoding="utf-8")
    (worktree / "leak.md").symlink_to(outside / "secret.txt")
    (worktree / "outside-dir").symlink_to(outside, target_is_directory=True)
    calls = [
        tool_use(
            name,
            {
                key: value.format(outside=outside, repo=repo) if isinstance(value, str) else value
                for key, value in tool_input.items()
            },
        )
        for name, tool_input in ESCAPES
    ]
    answers: list[dict[str, Any]] = []

    def finish(body: dict[str, Any]) -> list[dict[str, Any]]:
        answers.extend(tool_results(body))
        return [text("Nothing to improve: every change I tried was refused.")]

    messages_server.add(calls, finish)
    before = {"worktree": snapshot(worktree), "repo": snapshot(repo), "outside": snapshot(outside)}

    result = engine(messages_server).consolidate(context(worktree), RecordingProgress())

    assert len(answers) == len(ESCAPES)
    allowed = [
        (ESCAPES[n][0], result_text(a)) for n, a in enumerate(answers) if not a.get("is_error")
    ]
    assert allowed == []
    after = {"worktree": snapshot(worktree), "repo": snapshot(repo), "outside": snapshot(outside)}
    assert after == before
    assert result.files_touched == []
    assert SECRET.strip() not in json.dumps(messages_server.requests)
    refusals = [note for note in result.notes if note.startswith("refused ")]
    assert len(refusals) >= len([e for e in ESCAPES if e[0] != "shell"])


def test_a_personal_dream_puts_back_team_memory_and_claude_md(
    messages_server: MessagesServer, worktree: Path
) -> None:
    messages_server.add(
        [
            tool_use("read", {"path": "team/project_release_train.md"}),
            tool_use("read", {"path": "CLAUDE.md"}),
            tool_use("read", {"path": "feedback_db_tests.md"}),
        ],
        [
            tool_use("write", {"path": "team/project_release_train.md", "content": "gone\n"}),
            tool_use("write", {"path": "team/feedback_db_tests.md", "content": DB_TESTS}),
            tool_use("edit", {"path": "CLAUDE.md", "old_string": "uv", "new_string": "pip"}),
            tool_use("delete", {"path": "feedback_db_tests.md"}),
        ],
        [text("Improved 1 memory: promoted the database rule to the team.")],
    )
    before = snapshot(worktree)
    progress = RecordingProgress()
    result = engine(messages_server).consolidate(context(worktree), progress)

    after = snapshot(worktree)
    assert {path for path in after if path.startswith("team/") or path == "CLAUDE.md"} == {
        path for path in before if path.startswith("team/") or path == "CLAUDE.md"
    }
    for path in ("team/project_release_train.md", "team/MEMORY.md", "CLAUDE.md"):
        assert after[path] == before[path]
    assert not (worktree / "feedback_db_tests.md").exists()
    assert result.files_touched == ["feedback_db_tests.md"]
    assert progress.files == ["feedback_db_tests.md"]
    put_back = [note for note in result.notes if note.startswith("put back ")]
    assert len(put_back) == 3
    assert any("CLAUDE.md" in note and "never edits CLAUDE.md" in note for note in put_back)
    assert any("team memory is read-only" in note for note in put_back)


def test_a_team_dream_may_change_team_memory(
    messages_server: MessagesServer, worktree: Path
) -> None:
    messages_server.add(
        [tool_use("read", {"path": "team/project_release_train.md"})],
        [
            tool_use(
                "edit",
                {
                    "path": "team/project_release_train.md",
                    "old_string": "every Tuesday",
                    "new_string": "every Tuesday at 10:00",
                },
            )
        ],
        [text("Improved 1 memory: the release time is now exact.")],
    )
    result = engine(messages_server).consolidate(context(worktree, Scope.TEAM), RecordingProgress())
    assert "every Tuesday at 10:00" in (worktree / "team/project_release_train.md").read_text()
    assert result.files_touched == ["team/project_release_train.md"]
    opening = messages_server.requests[0]["messages"][0]["content"][0]["text"]
    assert "apply the team rules everywhere" in opening


def test_the_turn_limit_stops_the_dream_and_the_summary_says_so(
    messages_server: MessagesServer, worktree: Path
) -> None:
    messages_server.repeat_last = True
    messages_server.add(
        [tool_use("read", {"path": "MEMORY.md"})],
        [tool_use("write", {"path": "project_note.md", "content": "---\nname: n\n---\n\nx\n"})],
        [tool_use("read", {"path": "MEMORY.md"})],
    )
    result = engine(messages_server, max_turns=2).consolidate(
        context(worktree), RecordingProgress()
    )
    assert len(messages_server.requests) == 2
    assert result.turns == 2
    assert result.files_touched == ["project_note.md"]
    assert "stopped at the turn limit (2 turns)" in result.summary
    assert result.summary.startswith("Improved 1 memories: project_note.md")


def test_the_token_budget_stops_the_dream_and_usage_is_kept(
    messages_server: MessagesServer, worktree: Path
) -> None:
    messages_server.add(
        Reply(
            [tool_use("read", {"path": "MEMORY.md"})],
            usage={"input_tokens": 5_000, "output_tokens": 100},
        ),
        [text("never asked")],
    )
    result = engine(messages_server, token_budget=1_000).consolidate(
        context(worktree), RecordingProgress()
    )
    assert len(messages_server.requests) == 1
    assert result.usage["input"] == 5_000 and result.usage["total"] == 5_100
    assert "over the budget of 1,000" in result.summary


def test_a_cancel_between_turns_stops_the_dream(
    messages_server: MessagesServer, worktree: Path
) -> None:
    messages_server.add([tool_use("read", {"path": "MEMORY.md"})], [text("never asked")])
    progress = RecordingProgress(cancel_after=1)
    with pytest.raises(DreamCancelled):
        engine(messages_server).consolidate(context(worktree), progress)
    assert len(messages_server.requests) == 1
    assert progress.turns == [1]


def test_an_api_failure_surfaces_with_its_status(
    messages_server: MessagesServer, worktree: Path
) -> None:
    messages_server.add(ErrorReply(401, "invalid x-api-key", should_retry=False))
    with pytest.raises(AgentError, match=r"401.*invalid x-api-key"):
        engine(messages_server).consolidate(context(worktree), RecordingProgress())


def test_the_registry_builds_each_engine_by_name() -> None:
    assert isinstance(
        get_engine(
            "deterministic", api_key=None, base_url=None, model="m", max_turns=1, token_budget=1
        ),
        DeterministicEngine,
    )
    built = get_engine(
        "anthropic",
        api_key="k",
        base_url="http://127.0.0.1:9",
        model="claude-x",
        max_turns=7,
        token_budget=1234,
    )
    assert isinstance(built, AnthropicEngine)
    assert (built.model, built.max_turns, built.token_budget) == ("claude-x", 7, 1234)


def test_the_registry_refuses_anthropic_without_a_key_and_unknown_names() -> None:
    with pytest.raises(EngineUnavailable, match="needs an Anthropic API key"):
        get_engine(
            "anthropic", api_key=None, base_url=None, model="m", max_turns=5, token_budget=10
        )
    with pytest.raises(
        EngineUnavailable, match=r"unknown dream engine 'dreamy'.*deterministic, anthropic"
    ):
        get_engine("dreamy", api_key="k", base_url=None, model="m", max_turns=5, token_budget=10)
