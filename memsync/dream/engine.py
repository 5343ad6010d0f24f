"""What a dream engine is given and what it gives back (SPEC D3, D7, D8).

Two engines implement :class:`DreamEngine`: ``deterministic`` (no API key: the
structural part) and ``anthropic`` (the four-phase consolidation by a model). The run
(``memsync.dream.run``) prepares a worktree on ``dream/<id>``, calls one engine, then
commits whatever the engine left in that worktree as one ``dream`` commit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Protocol


class Scope(StrEnum):
    TEAM = "team"  # the server's repository: prune conservatively (SPEC D4)
    PERSONAL = "personal"  # a developer's own memory directory; its team/ is read-only


class DreamCancelled(Exception):
    """Raised by an engine when :meth:`DreamProgress.cancelled` says to stop."""


@dataclass(frozen=True)
class DreamContext:
    workdir: Path  # the worktree of dream/<id>: the only place an engine writes
    scope: Scope
    now: datetime  # aware; the dream's reference "today"
    last_changed: Mapping[str, datetime]  # per file, from Git: reference for relative dates
    sessions: tuple[str, ...] = ()  # session ids touched since the last consolidation
    transcripts_dir: Path | None = None  # read-only; narrow greps only, never whole files
    code_dir: Path | None = None  # the code checkout the memories talk about (stale checks)


class DreamProgress(Protocol):
    """How an engine reports progress (D7); the run records it for the dashboard."""

    def phase(self, name: str) -> None:
        """``orient``, ``gather``, ``consolidate``, ``prune`` — and ``updating`` at the
        first write (the run sets ``starting`` itself)."""

    def turn(self, number: int) -> None: ...

    def touched(self, path: str) -> None: ...

    def cancelled(self) -> bool:
        """True when the dream should stop: the engine raises DreamCancelled."""
        ...


@dataclass
class EngineResult:
    summary: str  # one paragraph: "Improved N memories: …", for the proposal
    files_touched: list[str]
    engine: str
    model: str | None = None
    turns: int = 0
    usage: dict[str, int] = field(default_factory=dict)  # input, output, cache_read, …
    notes: list[str] = field(default_factory=list)  # what the engine decided and why
    stale: list[str] = field(default_factory=list)  # memories flagged stale, with evidence


class DreamEngine(Protocol):
    name: str

    def consolidate(self, context: DreamContext, progress: DreamProgress) -> EngineResult: ...
