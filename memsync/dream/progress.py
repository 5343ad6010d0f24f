"""A dream's progress as it goes (SPEC D7), handed to the engine as its ``DreamProgress``.

The phase is ``starting`` until the first write, then ``updating``; the engine's own
steps (orient, gather, consolidate, prune) are kept as ``step``. Every change is passed
to ``on_change`` as a plain dict (the server writes it to ``Run.progress``; the CLI
ignores it). Cancellation is a flag the engine checks between turns and steps: the
caller's (a dashboard button), or the Redis lock found lost.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

STARTING = "starting"
UPDATING = "updating"

ProgressCallback = Callable[[dict[str, Any]], None]
CancelCheck = Callable[[], bool]


class RunProgress:
    def __init__(
        self,
        dream_id: str,
        *,
        sessions_reviewed: int = 0,
        on_change: ProgressCallback | None = None,
        cancel_checks: tuple[CancelCheck, ...] = (),
    ) -> None:
        self.dream_id = dream_id
        self.state = STARTING
        self.step: str | None = None
        self.turns = 0
        self.files_touched: list[str] = []
        self.sessions_reviewed = sessions_reviewed
        self._on_change = on_change
        self._cancel_checks = cancel_checks

    # --- DreamProgress -----------------------------------------------------------------
    def phase(self, name: str) -> None:
        if name == UPDATING:
            self.state = UPDATING
        elif name != STARTING:
            self.step = name
        self._changed()

    def turn(self, number: int) -> None:
        self.turns = number
        self._changed()

    def touched(self, path: str) -> None:
        self.state = UPDATING  # the first write is what "updating" means
        if path not in self.files_touched:
            self.files_touched.append(path)
        self._changed()

    def cancelled(self) -> bool:
        return any(check() for check in self._cancel_checks)

    # --- for the run -------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {
            "dream_id": self.dream_id,
            "phase": self.state,
            "step": self.step,
            "turns": self.turns,
            "files_touched": list(self.files_touched),
            "sessions_reviewed": self.sessions_reviewed,
            "updated_at": datetime.now(UTC).isoformat(),
        }

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change(self.snapshot())
