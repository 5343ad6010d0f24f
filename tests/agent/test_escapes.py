"""Every way out of the memory directory is refused, told to the model, and changes nothing.

Each case is a real run: the scripted model calls one tool in its first turn, the
loop executes it, and the second request must carry the refusal as a tool_result
with ``is_error: true``. Afterwards nothing under the test's directory has changed
and the run's denials name the refusal.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memsync.agent import AgentResult
from tests.agent.conftest import SECRET, tools_for
from tests.support.messages_server import MessagesServer, result_text, text, tool_results, tool_use
from tests.support.trees import snapshot


@pytest.fixture
def trapped(memory_dir: Path, outside: Path) -> Path:
    """The memory directory with links that lead out of it."""
    (memory_dir / "outside-dir").symlink_to(outside, target_is_directory=True)
    (memory_dir / "leak.md").symlink_to(outside / "secret.txt")
    (memory_dir / "sub").mkdir()
    (memory_dir / "sub" / "up").symlink_to("../..", target_is_directory=True)
    os.link(outside / "secret.txt", memory_dir / "hardlink.md")
    return memory_dir


def run_one_call(
    agent: Callable[..., AgentResult],
    server: MessagesServer,
    root: Path,
    name: str,
    tool_input: dict[str, Any],
    **tool_options: Any,
) -> tuple[dict[str, Any], AgentResult]:
    """Run the agent for one tool call; the tool_result the model got, and the run."""
    server.add([tool_use(name, tool_input)], [text("done")])
    result = agent(tools_for(root, **tool_options))
    (answer,) = tool_results(server.requests[1])
    return answer, result


ESCAPES: list[tuple[str, dict[str, Any], str]] = [
    ("read", {"path": "../outside/secret.txt"}, "'..' leads out of the memory directory"),
    ("write", {"path": "../x.md", "content": "escaped"}, "'..' leads out of the memory directory"),
    ("write", {"path": "a/../../x.md", "content": "escaped"}, "'..' leads out"),
    ("read", {"path": "/etc/passwd"}, "absolute path outside the memory directory"),
    ("write", {"path": "/tmp/memsync-escape.md", "content": "x"}, "absolute path outside"),
    ("read", {"path": "outside-dir/secret.txt"}, "'outside-dir' is a symbolic link"),
    ("write", {"path": "outside-dir/new.md", "content": "x"}, "'outside-dir' is a symbolic link"),
    ("read", {"path": "leak.md"}, "'leak.md' is a symbolic link that points outside"),
    ("write", {"path": "leak.md", "content": "overwritten"}, "'leak.md' is a symbolic link"),
    ("write", {"path": "sub/up/outside/secret.txt", "content": "x"}, "'sub/up' is a symbolic"),
    ("read", {"path": "hardlink.md"}, "hard links"),
    ("read", {"path": "notes\x00.md"}, "NUL byte"),
    ("write", {"path": "notes.md\x00.txt", "content": "x"}, "NUL byte"),
    ("read", {"path": "．．/outside/secret.txt"}, "look-alike of '.' after Unicode NFKC"),
    ("write", {"path": "..／x.md", "content": "x"}, "look-alike of '/'"),
    ("write", {"path": ".ｇｉｔ/config", "content": "x"}, ".git/ belong to Git"),
    ("write", {"path": "..\\x.md", "content": "x"}, "backslashes are not allowed"),
    ("write", {"path": ".git/config", "content": "[core]"}, ".git/ belong to Git"),
    ("write", {"path": ".GIT/hooks/pre-commit", "content": "x"}, ".git/ belong to Git"),
    ("write", {"path": ".consolidate-lock", "content": "1"}, "consolidation lock"),
    ("edit", {"path": "../outside/secret.txt", "old_string": "a", "new_string": "b"}, "'..'"),
    ("grep", {"pattern": "secret", "path": "../outside"}, "'..' leads out"),
    ("grep", {"pattern": "secret", "path": "/etc"}, "absolute path outside"),
    ("glob", {"pattern": "../outside/*"}, "'..' leads out"),
    ("glob", {"pattern": "/etc/*"}, "patterns are relative to the memory directory"),
    ("shell", {"command": "rm -rf ."}, "'rm' is not available"),
    ("shell", {"command": "cat MEMORY.md; rm MEMORY.md"}, "a command separator (';')"),
    ("shell", {"command": "ls | sh"}, "a pipe ('|')"),
    ("shell", {"command": "ls && rm MEMORY.md"}, "('&&')"),
    ("shell", {"command": "cat $(id)"}, "command substitution ('$(')"),
    ("shell", {"command": 'cat "$(id)"'}, "command substitution ('$(')"),
    ("shell", {"command": "cat `id`"}, "command substitution ('`')"),
    ("shell", {"command": "cat $HOME/.ssh/id_rsa"}, "variable expansion ('$H')"),
    ("shell", {"command": "find . -delete"}, "find -delete"),
    ("shell", {"command": "find . -name '*.md' -exec rm {} \\;"}, "find -exec"),
    ("shell", {"command": "find . -execdir sh -c id {} +"}, "find -execdir"),
    ("shell", {"command": "ls > MEMORY.md"}, "output redirection ('>')"),
    ("shell", {"command": "cat < /etc/passwd"}, "input redirection ('<')"),
    ("shell", {"command": "ls\nrm MEMORY.md"}, "a newline"),
    ("shell", {"command": "ls ｜ sh"}, "a pipe ('|') is not available"),
    ("shell", {"command": "cat MEMORY.md ； rm MEMORY.md"}, "after Unicode NFKC folding"),
    ("shell", {"command": "cat ．．/outside/secret.txt"}, "look-alike of '.'"),
    ("read", {"path": ".git/config"}, ".git/ belong to Git"),
    ("shell", {"command": "cat .git/config"}, ".git/ belong to Git"),
    ("shell", {"command": "python -c 'print(1)'"}, "'python' is not available"),
    ("shell", {"command": "git log"}, "'git' is not available"),
    ("shell", {"command": "/bin/sh -c id"}, "'/bin/sh' is not available"),
    ("shell", {"command": "cat /etc/passwd"}, "absolute path outside"),
    ("shell", {"command": "cat ../outside/secret.txt"}, "'..' leads out"),
    ("shell", {"command": "grep -rn secret /tmp"}, "absolute path outside"),
    ("shell", {"command": "head -n 1 leak.md"}, "symbolic link that points outside"),
    ("shell", {"command": "ls outside-dir"}, "'outside-dir' is a symbolic link"),
]


@pytest.mark.parametrize(("name", "tool_input", "expected"), ESCAPES)
def test_it_refuses_the_escape_and_tells_the_model(
    agent: Callable[..., AgentResult],
    messages_server: MessagesServer,
    trapped: Path,
    tmp_path: Path,
    name: str,
    tool_input: dict[str, Any],
    expected: str,
) -> None:
    before = snapshot(tmp_path)

    answer, result = run_one_call(agent, messages_server, trapped, name, tool_input)

    assert answer["is_error"] is True
    assert expected in result_text(answer)
    assert SECRET.strip() not in result_text(answer)
    assert snapshot(tmp_path) == before
    assert not Path("/tmp/memsync-escape.md").exists()
    assert [denial.tool for denial in result.denials] == [name]
    assert expected in result.denials[0].reason
    assert result.stop_reason == "end_turn"
    assert result.files_written == []


def test_it_refuses_an_edit_of_a_file_it_has_not_read(
    agent: Callable[..., AgentResult], messages_server: MessagesServer, memory_dir: Path
) -> None:
    edit = {"path": "MEMORY.md", "old_string": "# Memory", "new_string": "# Hijacked"}

    answer, result = run_one_call(agent, messages_server, memory_dir, "edit", edit)

    assert answer["is_error"] is True
    assert "not read in this run" in result_text(answer)
    assert (memory_dir / "MEMORY.md").read_text().startswith("# Memory")
    assert result.files_written == []


def test_it_refuses_to_overwrite_a_file_it_has_not_read(
    agent: Callable[..., AgentResult], messages_server: MessagesServer, memory_dir: Path
) -> None:
    write = {"path": "feedback_testing.md", "content": "gone\n"}

    answer, _ = run_one_call(agent, messages_server, memory_dir, "write", write)

    assert answer["is_error"] is True
    assert "read it with the read tool first" in result_text(answer)
    assert "Integration tests" in (memory_dir / "feedback_testing.md").read_text()


@pytest.mark.parametrize(
    ("name", "tool_input"),
    [
        ("write", {"path": "new.md", "content": "x"}),
        ("edit", {"path": "MEMORY.md", "old_string": "Memory", "new_string": "X"}),
        ("delete", {"path": "feedback_testing.md"}),
    ],
)
def test_it_refuses_every_change_when_the_sandbox_is_read_only(
    agent: Callable[..., AgentResult],
    messages_server: MessagesServer,
    memory_dir: Path,
    name: str,
    tool_input: dict[str, Any],
) -> None:
    before = snapshot(memory_dir)

    answer, result = run_one_call(
        agent, messages_server, memory_dir, name, tool_input, writable=False
    )

    offered = [tool["name"] for tool in messages_server.requests[0]["tools"]]
    assert offered == ["read", "grep", "glob", "shell"]
    assert answer["is_error"] is True
    assert "read-only in this run" in result_text(answer)
    assert snapshot(memory_dir) == before
    assert result.denials[0].tool == name


def test_it_does_not_offer_delete_unless_asked(
    agent: Callable[..., AgentResult], messages_server: MessagesServer, memory_dir: Path
) -> None:
    answer, _ = run_one_call(agent, messages_server, memory_dir, "delete", {"path": "MEMORY.md"})

    offered = [tool["name"] for tool in messages_server.requests[0]["tools"]]
    assert "delete" not in offered
    assert answer["is_error"] is True
    assert "not offered in this run" in result_text(answer)
    assert (memory_dir / "MEMORY.md").exists()


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("MEMORY.md", "MEMORY.md is the index"),
        ("team", "only .md topic files"),
        (".consolidate-lock", "consolidation lock"),
        (".git/HEAD", ".git/ belong to Git"),
        ("leak.md", "symbolic link"),
        ("notes.txt", "only .md topic files"),
    ],
)
def test_it_deletes_only_topic_files(
    agent: Callable[..., AgentResult],
    messages_server: MessagesServer,
    trapped: Path,
    tmp_path: Path,
    path: str,
    expected: str,
) -> None:
    (trapped / "team").mkdir()
    (trapped / "team" / "MEMORY.md").write_text("# Team\n")
    (trapped / "notes.txt").write_text("not a memory\n")
    before = snapshot(tmp_path)

    answer, result = run_one_call(
        agent, messages_server, trapped, "delete", {"path": path}, allow_delete=True
    )

    assert answer["is_error"] is True
    assert expected in result_text(answer)
    assert snapshot(tmp_path) == before
    assert result.files_deleted == []
