"""A memory directory with a neighbour it must never reach, and a way to run the agent."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anthropic
import pytest

from memsync.agent import AgentResult, Sandbox, ToolSet, connect, run_agent
from tests.support.messages_server import MessagesServer

INDEX = "# Memory\n\n- [Testing](feedback_testing.md) — run tests against real services\n"
TOPIC = """---
name: Testing
description: Integration tests hit a real database, not mocks
type: feedback
---
Integration tests must hit a real database, not mocks.
**Why:** a mocked migration passed while prod broke.
**How to apply:** use the test database fixture.
"""
SECRET = "outside secret, never to be read or changed\n"


@pytest.fixture
def memory_dir(tmp_path: Path) -> Path:
    """A Git-backed memory directory with an index and one topic file."""
    root = tmp_path / "memory"
    root.mkdir()
    (root / "MEMORY.md").write_text(INDEX, encoding="utf-8")
    (root / "feedback_testing.md").write_text(TOPIC, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".consolidate-lock").write_text("4242", encoding="utf-8")
    return root


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory beside the memory directory holding a file the agent must not reach."""
    directory = tmp_path / "outside"
    directory.mkdir()
    (directory / "secret.txt").write_text(SECRET, encoding="utf-8")
    return directory


@pytest.fixture
def client(messages_server: MessagesServer) -> anthropic.Anthropic:
    return connect("test", base_url=messages_server.base_url, max_retries=0)


@pytest.fixture
def agent(client: anthropic.Anthropic) -> Callable[..., AgentResult]:
    """Run the real loop against the scripted server with test defaults."""

    def run(tools: ToolSet, **overrides: Any) -> AgentResult:
        api = overrides.pop("client", client)
        arguments: dict[str, Any] = {
            "model": "claude-test",
            "system": "You keep the memory directory tidy.",
            "prompt": "Look around and save what matters.",
            "tools": tools,
            "max_turns": 5,
            **overrides,
        }
        return run_agent(api, **arguments)

    return run


def tools_for(root: Path, *, writable: bool = True, allow_delete: bool = False) -> ToolSet:
    return ToolSet(Sandbox(root, writable=writable), allow_delete=allow_delete)
