"""Claude Code session transcripts written the way Claude Code writes them, for tests.

One JSON object per line: user lines, assistant lines streamed one content block per
line under a shared ``message.id``, and tool results in the following user line.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memsync.store import MemoryRepo

START = datetime(2025, 9, 4, 9, 0, tzinfo=UTC)  # a Thursday


@dataclass
class SessionLog:
    session_id: str = "0b7c6f1e-2d4a-4b8e-9c3f-5a6e7d8f9a0b"
    cwd: str = "/home/dev/acme"
    start: datetime = START
    lines: list[dict[str, Any]] = field(default_factory=list)
    _clock: int = 0
    _ids: Any = field(default_factory=lambda: itertools.count(1))

    def _stamp(self, at: datetime | None) -> str:
        self._clock += 1
        moment = at or self.start + timedelta(minutes=self._clock)
        return moment.isoformat().replace("+00:00", "Z")

    def _entry(self, kind: str, message: dict[str, Any], at: datetime | None, **extra: Any) -> None:
        number = next(self._ids)
        self.lines.append(
            {
                "type": kind,
                "uuid": f"{kind}-{number}",
                "parentUuid": None,
                "sessionId": self.session_id,
                "cwd": self.cwd,
                "timestamp": self._stamp(at),
                "message": message,
                **extra,
            }
        )

    def user(self, text: str, *, at: datetime | None = None) -> SessionLog:
        self._entry("user", {"role": "user", "content": text}, at)
        return self

    def assistant(
        self,
        text: str = "",
        *,
        tools: list[tuple[str, dict[str, Any]]] = (),  # type: ignore[assignment]
        results: list[str] | None = None,
        at: datetime | None = None,
    ) -> SessionLog:
        message_id = f"msg_{next(self._ids)}"
        blocks: list[dict[str, Any]] = []
        if text:
            blocks.append({"type": "text", "text": text})
        calls = []
        for name, tool_input in tools:
            call_id = f"toolu_{next(self._ids)}"
            calls.append(call_id)
            blocks.append({"type": "tool_use", "id": call_id, "name": name, "input": tool_input})
        for block in blocks:  # streamed: one line per block, one message id
            self._entry(
                "assistant",
                {"id": message_id, "role": "assistant", "content": [block]},
                at,
            )
        if calls:
            outputs = results or ["ok"] * len(calls)
            content = [
                {"type": "tool_result", "tool_use_id": call_id, "content": output}
                for call_id, output in zip(calls, outputs, strict=True)
            ]
            self._entry("user", {"role": "user", "content": content}, at)
        return self

    def turn(self, said: str, answer: str = "Understood.") -> SessionLog:
        return self.user(said).assistant(answer)

    def write(self, directory: Path, name: str | None = None) -> Path:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / (name or f"{self.session_id}.jsonl")
        path.write_text("".join(json.dumps(line) + "\n" for line in self.lines), encoding="utf-8")
        return path


def topic(name: str, description: str, kind: str, body: str, **extra: str) -> bytes:
    more = "".join(f"{key}: {value}\n" for key, value in extra.items())
    return (
        f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n{more}---\n\n{body}"
    ).encode()


def memory_repo(root: Path, files: dict[str, bytes] | None = None) -> MemoryRepo:
    """A memsync repository with `files` committed (MEMORY.md built from them unless given)."""
    repo = MemoryRepo.init(root)
    if files:
        files = dict(files)
        if "MEMORY.md" not in files:
            lines = [f"- [{path.removesuffix('.md')}]({path}) — {path}\n" for path in sorted(files)]
            files["MEMORY.md"] = "".join(lines).encode()
        repo.apply(files, "manual", "memories before the session")
    return repo


def subjects(repo: MemoryRepo, rev: str = "HEAD", limit: int = 20) -> list[str]:
    return [commit.subject for commit in repo.log(rev, limit=limit)]
