"""Developers' machines against a live memsync server.

The server side is the sync tests' own: gunicorn running memsync on the test database
(``git_server``) and a fresh project with alice (maintainer), bob (member), carol
(viewer) and mallory (outsider) per test (``team``). Each developer here is a separate
HOME with its own memsync config, its own ``~/.claude``, its own git identity and its
own project checkout, and runs the real ``memsync`` command.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memsync.memory.paths import sanitize_path
from tests.sync.conftest import GitServer, Team, git_server, team  # noqa: F401  (fixtures)

MEMSYNC = [sys.executable, "-m", "memsync.client.cli"]


class Developer:
    """One person's machine: ``memsync`` and ``git`` run with this HOME."""

    def __init__(self, name: str, root: Path, server: GitServer, token: str) -> None:
        self.name = name
        self.server = server
        self.token = token
        self.home = root / name / "home"
        self.project = root / name / "app"
        self.home.mkdir(parents=True)
        (self.home / ".gitconfig").write_text(
            f"[user]\n\tname = {name}\n\temail = {name}@example.com\n"
            "[init]\n\tdefaultBranch = main\n"
        )
        self.project.mkdir(parents=True)
        self.git("init", "-q", cwd=self.project)

    def env(self, **extra: str) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("CLAUDE_", "XDG_", "GIT_", "MEMSYNC_TOKEN"))
        }
        # The venv's bin first, so `memsync` in hooks and helpers is this checkout's.
        path = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
        return {
            **env,
            "HOME": str(self.home),
            "PATH": path,
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_TERMINAL_PROMPT": "0",
            "LC_ALL": "C",
            **extra,
        }

    def memsync(self, *args: str | Path, **extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*MEMSYNC, *map(str, args)],
            cwd=self.project, env=self.env(**extra), capture_output=True, text=True, timeout=300,
        )  # fmt: skip

    def git(self, *args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", *map(str, args)],
            cwd=cwd or self.team_dir, env=self.env(), capture_output=True, text=True, timeout=300,
        )  # fmt: skip

    def login(self) -> None:
        done = self.memsync("login", self.server.url, "--user", self.name, MEMSYNC_TOKEN=self.token)
        assert done.returncode == 0, done.stderr

    def link(self, slug: str) -> subprocess.CompletedProcess[str]:
        self.login()
        done = self.memsync("link", slug)
        assert done.returncode == 0, done.stderr
        return done

    @property
    def claude_project(self) -> Path:
        """``~/.claude/projects/<sanitized project path>``: transcripts and memory."""
        return self.home / ".claude" / "projects" / sanitize_path(str(self.project.resolve()))

    @property
    def team_dir(self) -> Path:
        return self.claude_project / "memory" / "team"

    def write(self, files: dict[str, str | bytes]) -> None:
        for name, content in files.items():
            target = self.team_dir / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content)


@pytest.fixture
def developers(git_server: GitServer, team: Team, tmp_path: Path) -> dict[str, Developer]:  # noqa: F811
    return {
        name: Developer(name, tmp_path / "machines", git_server, token)
        for name, token in team.tokens.items()
    }
