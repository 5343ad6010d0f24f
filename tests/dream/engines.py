"""Small real engines that drive the dream's run in tests (not mocks: each implements
``DreamEngine`` and edits files in the worktree it is given).

Worker processes and the CLI load them by name (``tests.dream.engines:NoteEngine``), the
way an installation plugs in an engine of its own; they take no arguments, so the few
knobs a test needs come from the environment.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path

from memsync.dream.engine import DreamCancelled, DreamContext, DreamProgress, EngineResult

NOTE_FILE = "dream_note.md"
NOTE = "---\nname: dream note\ndescription: written by a test engine\ntype: project\n---\n"


def _add_note(workdir: Path, progress: DreamProgress, text: str = "") -> list[str]:
    (workdir / NOTE_FILE).write_text(NOTE + (text or "The dream ran.\n"))
    progress.touched(NOTE_FILE)
    index = workdir / "MEMORY.md"
    existing = index.read_text() if index.exists() else ""
    if f"({NOTE_FILE})" not in existing:
        index.write_text(existing + f"- [Dream note]({NOTE_FILE}) — written by a test engine\n")
        progress.touched("MEMORY.md")
    return [NOTE_FILE, "MEMORY.md"]


class NoteEngine:
    """Adds one memory and its index entry."""

    name = "note"

    def consolidate(self, context: DreamContext, progress: DreamProgress) -> EngineResult:
        progress.phase("orient")
        progress.turn(1)
        if progress.cancelled():
            raise DreamCancelled("cancelled")
        sessions = ", ".join(context.sessions) or "none"
        files = _add_note(context.workdir, progress, f"Sessions reviewed: {sessions}.\n")
        return EngineResult(
            summary="Improved 1 memory: dream_note.md",
            files_touched=files,
            engine=self.name,
            model="test-model",
            turns=1,
            usage={"input": 120, "output": 30, "cache_read": 7, "cache_write": 5},
            notes=["added a note"],
        )


class IdleEngine:
    """Finds nothing to change."""

    name = "idle"

    def consolidate(self, context: DreamContext, progress: DreamProgress) -> EngineResult:
        progress.phase("orient")
        return EngineResult(summary="Nothing to improve.", files_touched=[], engine=self.name)


class FailingEngine:
    """Writes a file, then breaks."""

    name = "failing"

    def consolidate(self, context: DreamContext, progress: DreamProgress) -> EngineResult:
        _add_note(context.workdir, progress)
        raise RuntimeError("the engine broke half way")


class SlowEngine:
    """Writes a file, then works for ``MEMSYNC_TEST_ENGINE_SECONDS`` (default 2),
    checking for cancel every 20 ms, as an engine does between turns."""

    name = "slow"

    def consolidate(self, context: DreamContext, progress: DreamProgress) -> EngineResult:
        progress.phase("orient")
        files = _add_note(context.workdir, progress)
        deadline = time.monotonic() + float(os.environ.get("MEMSYNC_TEST_ENGINE_SECONDS", "2"))
        turn = 1
        while time.monotonic() < deadline:
            progress.turn(turn)
            if progress.cancelled():
                raise DreamCancelled("cancelled by the user")
            time.sleep(0.02)
            turn += 1
        return EngineResult(summary="Improved 1 memory slowly", files_touched=files, engine="slow")


class ScriptedEngine:
    """Writes (bytes) or deletes (None) the given files, for proposal tests."""

    name = "scripted"

    def __init__(self, changes: Mapping[str, bytes | None], summary: str = "") -> None:
        self.changes = dict(changes)
        self.summary = summary or f"Improved {len(changes)} memories"
        self.seen: DreamContext | None = None

    def consolidate(self, context: DreamContext, progress: DreamProgress) -> EngineResult:
        self.seen = context
        for path, data in self.changes.items():
            target = context.workdir / path
            if data is None:
                target.unlink(missing_ok=True)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            progress.touched(path)
        return EngineResult(
            summary=self.summary, files_touched=list(self.changes), engine=self.name, turns=1
        )
