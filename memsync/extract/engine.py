"""What an extraction engine is given and gives back (SPEC E2, E3).

Two engines implement `ExtractionEngine`: ``deterministic`` (explicit "remember" and
"forget" requests only, no API key needed) and ``anthropic`` (a model with the agent
sandbox). Both change files in `ExtractionRequest.workdir` only — the memory
directory on a developer machine, a worktree on the server — and report what they
did; `memsync.extract.run` turns that into one ``extract`` commit.

An engine whose class sets ``incremental = True`` reads only the files it needs and
reports in `EngineOutcome.originals` what each path it changed held before. The run
then neither builds the manifest of existing memories for it (``existing`` stays
empty) nor copies the directory beforehand: on a 10,000-memory directory, those two
reads of every file were most of an extraction (issue 14). Other engines get both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from memsync.extract.transcript import TranscriptMessage
from memsync.recall.rank import RecallDocument

DETERMINISTIC = "deterministic"
ANTHROPIC = "anthropic"
ENGINE_NAMES = (DETERMINISTIC, ANTHROPIC)


@dataclass(frozen=True)
class ExtractionRequest:
    workdir: Path  # the memory directory the engine may change
    messages: tuple[TranscriptMessage, ...]  # the new messages, oldest first
    session_id: str | None
    now: datetime  # aware; the reference for relative dates when a message has no time
    existing: tuple[RecallDocument, ...]  # the manifest: memories already there
    left_out: int = 0  # existing memories not in `existing` (a very large directory)
    claude_md: str = ""  # CLAUDE.md text when known: what it says is never saved (F5)


@dataclass(frozen=True)
class Refusal:
    """Something the user asked to remember that is never saved (SPEC F5)."""

    message_index: int
    text: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"message": self.message_index, "text": self.text, "reason": self.reason}


@dataclass
class EngineOutcome:
    engine: str
    written: list[str] = field(default_factory=list)  # topic files created or changed
    deleted: list[str] = field(default_factory=list)  # topic files removed (forgotten)
    refused: list[Refusal] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the engine decided, and why
    model: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    turns: int = 0
    denials: list[str] = field(default_factory=list)  # tool calls the sandbox refused
    stop: str = ""  # how a model run ended ("finished after 2 turns", the turn limit, …)
    # An incremental engine's record of what each path it wrote or deleted (and
    # MEMORY.md, if it wrote that) held before: the bytes, or None for no file.
    originals: dict[str, bytes | None] | None = None


class ExtractionFailed(Exception):
    """The engine could not finish (the model's API failed); `outcome` holds what the run
    did before, so its changes can be undone and its tokens still counted."""

    def __init__(self, message: str, outcome: EngineOutcome) -> None:
        super().__init__(message)
        self.outcome = outcome


class ExtractionEngine(Protocol):
    name: str

    def extract(self, request: ExtractionRequest) -> EngineOutcome: ...
