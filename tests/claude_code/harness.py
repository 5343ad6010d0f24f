"""The real Claude Code, run headless against the scripted Messages API.

memsync's promises are kept or broken inside Claude Code: what it loads into the
model's context, which hooks it runs and how long it waits for them, what it writes to
its transcripts. So this suite installs ``@anthropic-ai/claude-code`` from npm at a
pinned version (once, into a cache folder shared by every run), runs ``claude -p`` with
a fresh ``HOME`` and ``ANTHROPIC_BASE_URL`` pointing at
`tests.support.messages_server.MessagesServer`, and asserts on the request bodies
Claude Code actually sent. Tests skip, saying why, only where ``npm`` cannot be found;
a failed install fails them.

In a test::

    def test_it_loads_the_index(claude_code, tmp_path):
        project = claude_code.project("shop")            # a git checkout to work in
        memory = claude_code.memory_dir(project)         # where Claude Code looks
        (memory / "MEMORY.md").write_text("- [A](a.md) — MARKER\\n")
        run = claude_code.run("hi", cwd=project)          # answers "Done." by default
        assert "MARKER" in run.context_text()

``claude_code.server`` is the scripted server: ``claude_code.server.add(...)`` queues
answers for the main conversation (``[tool_use("Read", {"file_path": ...})]``, then
``[text("…")]``); side queries Claude Code makes on its own (titles, summaries, the
small-model calls without tools) are answered with a short text and never consume a
step. `ClaudeRun` holds what one run sent: ``requests`` (every main-conversation body,
in order), ``context_text()`` (all text the first request carried in user turns),
``system_text()``, ``tool_results()``, ``stated_memory_dir()`` (the memory directory
Claude Code's own system prompt names), and the session's transcript.

``claude_code.settings(...)`` writes user, project or local settings;
``claude_code.env`` is the environment every run gets (tests may add to it, e.g. a
``PATH`` or ``XDG_CONFIG_HOME`` for the ``memsync`` client the hooks run).
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support.messages_server import MessagesServer, Reply, Step, text

CLAUDE_CODE_VERSION = "2.1.332"
PACKAGE = "@anthropic-ai/claude-code"
# The API key Claude Code sends to the scripted server; it never leaves 127.0.0.1.
SCRIPTED_API_KEY = "sk-ant-api03-scripted-test-key"
DEFAULT_ANSWER = "Done."


def cache_dir() -> Path:
    """Where installed Claude Code versions are kept between runs."""
    root = os.environ.get("MEMSYNC_TEST_CACHE") or Path.home() / ".cache" / "memsync-tests"
    return Path(root) / "claude-code"


def install(version: str = CLAUDE_CODE_VERSION) -> Path:
    """The ``claude`` executable of `version`, installed from npm on first use.

    Skips the calling test when ``npm`` is not on ``PATH``. Concurrent test runs share
    one install: the first takes a lock, the others wait for it.
    """
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip(f"npm is not installed: cannot install {PACKAGE}@{version}")
    prefix = cache_dir() / version
    binary = prefix / "node_modules" / ".bin" / "claude"
    prefix.mkdir(parents=True, exist_ok=True)
    with (prefix / ".install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _answers_version(binary, version):
            npm_install = [npm, "install", "--no-audit", "--no-fund", "--prefix", str(prefix)]
            done = subprocess.run(
                [*npm_install, f"{PACKAGE}@{version}"],
                capture_output=True,
                text=True,
                timeout=600,
            )
            if done.returncode != 0 or not _answers_version(binary, version):
                pytest.fail(
                    f"npm could not install {PACKAGE}@{version} into {prefix}:\n"
                    f"{done.stdout}\n{done.stderr}"
                )
    return binary


def _answers_version(binary: Path, version: str) -> bool:
    if not binary.exists():
        return False
    done = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60)
    return done.returncode == 0 and done.stdout.startswith(version)


def _is_main_conversation(body: dict[str, Any]) -> bool:
    # The agent loop always offers tools; Claude Code's own side queries (titles,
    # summaries, topic checks on the small model) do not.
    return bool(body.get("tools"))


@dataclass
class ClaudeRun:
    """What one ``claude -p`` run did: its output and the requests it sent."""

    command: list[str]
    returncode: int
    stdout: str
    stderr: str
    requests: list[dict[str, Any]]
    side_requests: list[dict[str, Any]]
    seconds: float
    config_dir: Path
    cwd: Path

    @property
    def result(self) -> dict[str, Any]:
        """The ``--output-format json`` result object."""
        try:
            value = json.loads(self.stdout)
        except ValueError as error:
            raise AssertionError(f"claude printed no JSON result:\n{self.describe()}") from error
        if isinstance(value, list):  # stream form: the last event is the result
            value = value[-1]
        return value

    @property
    def session_id(self) -> str:
        return str(self.result["session_id"])

    def describe(self) -> str:
        return (
            f"$ {' '.join(self.command)}\nexit {self.returncode} after {self.seconds:.1f} s\n"
            f"stdout: {self.stdout[-4000:]}\nstderr: {self.stderr[-4000:]}"
        )

    def first_request(self) -> dict[str, Any]:
        if not self.requests:
            raise AssertionError(f"Claude Code sent no request to the model:\n{self.describe()}")
        return self.requests[0]

    def context_text(self, request: dict[str, Any] | None = None) -> str:
        """Every text block of the user turns of `request` (default: the first one)."""
        body = request if request is not None else self.first_request()
        parts: list[str] = []
        for message in body["messages"]:
            if message.get("role") == "assistant":
                continue
            parts.extend(_texts(message.get("content")))
        return "\n".join(parts)

    def system_text(self, request: dict[str, Any] | None = None) -> str:
        body = request if request is not None else self.first_request()
        return "\n".join(_texts(body.get("system")))

    def tool_results(self) -> list[str]:
        """The text of every tool result Claude Code sent back to the model, in order."""
        found: list[str] = []
        seen: set[str] = set()
        for body in self.requests:
            for message in body["messages"]:
                content = message.get("content")
                if message.get("role") != "user" or isinstance(content, str):
                    continue
                for block in content:
                    if block.get("type") != "tool_result" or block["tool_use_id"] in seen:
                        continue
                    seen.add(block["tool_use_id"])
                    found.append("\n".join(_texts(block.get("content"))))
        return found

    def stated_memory_dir(self) -> Path:
        """The memory directory Claude Code's system prompt tells the model about."""
        stated = re.search(r"persistent file-based memory at `([^`]+)`", self.system_text())
        if stated is None:
            raise AssertionError("the system prompt names no memory directory")
        return Path(stated.group(1))

    def transcript(self) -> Path:
        """This session's transcript file, wherever Claude Code wrote it."""
        name = f"{self.session_id}.jsonl"
        for found in (self.config_dir / "projects").rglob(name):
            return found
        raise AssertionError(f"no transcript {name} under {self.config_dir / 'projects'}")

    def transcript_entries(self) -> list[dict[str, Any]]:
        lines = self.transcript().read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]


def _texts(content: object) -> list[str]:
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    texts = []
    for block in content:
        if block.get("type") == "text":
            texts.append(block["text"])
        elif block.get("type") == "tool_result":
            texts.extend(_texts(block.get("content")))
    return texts


@dataclass
class ClaudeCode:
    """One fresh Claude Code installation context: a home, a config dir, a server."""

    binary: Path
    home: Path
    server: MessagesServer
    env: dict[str, str] = field(default_factory=dict)

    @property
    def config_dir(self) -> Path:
        return self.home / ".claude"

    def project(self, name: str = "project") -> Path:
        """A new git checkout under the fresh home, to run Claude Code in."""
        path = self.home / "work" / name
        path.mkdir(parents=True)
        subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
        return path

    def memory_dir(self, cwd: Path) -> Path:
        """Claude Code's default auto-memory directory for `cwd` (created)."""
        sanitized = re.sub(r"[^A-Za-z0-9]", "-", str(cwd.resolve()))
        path = self.config_dir / "projects" / sanitized / "memory"
        path.mkdir(parents=True, exist_ok=True)
        return path

    def settings(
        self, values: Mapping[str, Any], *, scope: str = "user", cwd: Path | None = None
    ) -> Path:
        """Merge `values` into the user, project (shared) or local settings file."""
        if scope == "user":
            path = self.config_dir / "settings.json"
        else:
            assert cwd is not None, "project and local settings need the project's cwd"
            name = "settings.json" if scope == "project" else "settings.local.json"
            path = cwd / ".claude" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        current = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        current.update(values)
        path.write_text(json.dumps(current, indent=2), encoding="utf-8")
        return path

    def run(
        self,
        prompt: str,
        *,
        cwd: Path,
        steps: list[Step] | None = None,
        args: tuple[str, ...] = (),
        env: Mapping[str, str] | None = None,
        timeout: float = 180,
    ) -> ClaudeRun:
        """``claude -p prompt`` in `cwd`; `steps` answer the main conversation in order.

        With no steps left, the model answers ``Done.``. A run that exits non-zero or
        leaves steps unused fails the test with everything Claude Code printed.
        """
        if steps:
            self.server.add(*steps)
        before = len(self.server.requests)
        command = [str(self.binary), "-p", prompt, "--output-format", "json", *args]
        started = time.monotonic()
        done = subprocess.run(
            command,
            cwd=cwd,
            env={**self.env, **(env or {})},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        sent = self.server.requests[before:]
        run = ClaudeRun(
            command=command,
            returncode=done.returncode,
            stdout=done.stdout,
            stderr=done.stderr,
            requests=[body for body in sent if _is_main_conversation(body)],
            side_requests=[body for body in sent if not _is_main_conversation(body)],
            seconds=time.monotonic() - started,
            config_dir=self.config_dir,
            cwd=cwd,
        )
        if self.server.failures:
            raise AssertionError(
                "the scripted server refused a request:\n"
                + "\n".join(self.server.failures)
                + "\n"
                + run.describe()
            )
        if done.returncode != 0:
            raise AssertionError(f"claude -p failed:\n{run.describe()}")
        return run


class ClaudeCodeServer(MessagesServer):
    """The scripted server, answering Claude Code's side queries without a step."""

    def answer(self, body: dict[str, Any], headers: dict[str, str]) -> tuple[int, dict, dict]:
        if _is_main_conversation(body):
            if not self.remaining:
                self.add([text(DEFAULT_ANSWER)])  # the script is done: end the turn
            return super().answer(body, headers)
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
        return 200, {}, self._message(body, Reply([text("memsync test")]))


def base_env(home: Path, base_url: str) -> dict[str, str]:
    """A minimal environment: nothing of the developer's own Claude Code leaks in."""
    keep = ("PATH", "LANG", "LC_ALL", "TZ", "TMPDIR", "SYSTEMROOT")
    env = {name: os.environ[name] for name in keep if name in os.environ}
    # The memsync client the hooks run is this checkout's, from this interpreter's venv.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        ANTHROPIC_BASE_URL=base_url,
        ANTHROPIC_API_KEY=SCRIPTED_API_KEY,
        DISABLE_AUTOUPDATER="1",
        DISABLE_TELEMETRY="1",
        DISABLE_ERROR_REPORTING="1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        # Claude Code refuses nothing here for running as root, but says so; quiet it.
        IS_SANDBOX="1",
    )
    return env


@pytest.fixture(scope="session")
def claude_binary() -> Path:
    return install()


@pytest.fixture
def claude_code(claude_binary: Path, tmp_path: Path) -> Iterator[ClaudeCode]:
    home = tmp_path / "home"
    home.mkdir()
    with ClaudeCodeServer() as server:
        yield ClaudeCode(claude_binary, home, server, base_env(home, server.base_url))
