"""Whether a dream should run now (SPEC D1): one chain of gates, cheapest first.

enabled → time (one ``stat`` of ``.consolidate-lock``) → scan throttle → sessions →
locks. The chain stops at the first closed gate and says which one and why. Only the
gates after the time gate reach a session source, a throttle or a lock probe, so a
closed time gate costs one system call: the beat runs this for every project every ten
minutes, and Claude Code runs it after every turn.

Sources are protocols: on a developer machine the transcripts directory and a state
file under ``.git/`` (:mod:`memsync.dream.sessions`); on the server the session records
and ``Project.last_session_scan_at`` (the Django layer).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import Protocol

DEFAULT_MIN_HOURS = 24.0
DEFAULT_MIN_SESSIONS = 5
DEFAULT_SCAN_INTERVAL = timedelta(minutes=10)
_NS = 1_000_000_000


class Gate(StrEnum):
    ENABLED = "enabled"
    TIME = "time"
    SCAN_THROTTLE = "scan-throttle"
    SESSIONS = "sessions"
    LOCKS = "locks"


@dataclass(frozen=True)
class GateConfig:
    enabled: bool = True
    min_hours: float = DEFAULT_MIN_HOURS
    min_sessions: int = DEFAULT_MIN_SESSIONS
    scan_interval: timedelta = DEFAULT_SCAN_INTERVAL


class SessionSource(Protocol):
    def sessions_touched_since(self, since: datetime | None) -> list[str]:
        """Ids of sessions touched after ``since`` (every session when None)."""
        ...


class ScanThrottle(Protocol):
    def claim_scan(self, now: datetime, interval: timedelta) -> bool:
        """Record a session scan at ``now`` and return True, unless one was recorded less
        than ``interval`` ago (then change nothing and return False)."""
        ...


LockProbe = Callable[[], str | None]  # who holds a lock ("PID 12 (for 3 min)"), or None


@dataclass(frozen=True, slots=True)
class GateDecision:
    passed: bool
    gate: Gate | None  # the closed gate; None when every gate passed
    last_consolidated_ns: int  # what the time gate read: 0 when never consolidated
    sessions: tuple[str, ...] = ()
    detail: str = ""  # for the reason: the holder, the counts
    checked_at: float = 0.0  # epoch seconds; with min_hours, the time gate's reason
    min_hours: float = 0.0

    @property
    def last_consolidated(self) -> datetime | None:
        if not self.last_consolidated_ns:
            return None
        return datetime.fromtimestamp(self.last_consolidated_ns / _NS, tz=UTC)

    @property
    def reason(self) -> str:
        # Built on demand: a closed gate in the beat's loop never formats a string.
        if self.passed:
            return f"every gate passed; {len(self.sessions)} sessions to review"
        detail = self.detail
        if self.gate is Gate.TIME:
            hours = (self.checked_at - self.last_consolidated_ns / _NS) / 3600
            detail = f"last consolidation {hours:.1f} h ago, {self.min_hours:g} h needed"
        return f"{self.gate} gate closed: {detail}"

    def to_dict(self) -> dict[str, object]:
        last = self.last_consolidated
        return {
            "passed": self.passed,
            "gate": str(self.gate) if self.gate else None,
            "reason": self.reason,
            "last_consolidated": last.isoformat() if last else None,
            "sessions": list(self.sessions),
        }


def time_gate(lock_path: str | Path, min_hours: float, now: float) -> tuple[bool, int]:
    """(open, last consolidation in ns) from one ``stat``; ``now`` in epoch seconds."""
    try:
        # os.stat, not Path.stat: the beat calls this for every project with a str path.
        last_ns = os.stat(lock_path).st_mtime_ns  # noqa: PTH116
    except FileNotFoundError:
        return True, 0
    return now - last_ns / _NS >= min_hours * 3600, last_ns


def evaluate_gates(
    config: GateConfig,
    lock_path: str | Path,
    *,
    throttle: ScanThrottle,
    sessions: SessionSource,
    current_session: str | None = None,
    lock_probes: Sequence[LockProbe] = (),
    now: float | None = None,
) -> GateDecision:
    """Run the chain; ``now`` in epoch seconds (default: the clock)."""
    if not config.enabled:
        return GateDecision(False, Gate.ENABLED, 0, detail="dreams are disabled")
    now = time.time() if now is None else now
    is_open, last_ns = time_gate(lock_path, config.min_hours, now)
    if not is_open:
        return GateDecision(False, Gate.TIME, last_ns, checked_at=now, min_hours=config.min_hours)
    moment = datetime.fromtimestamp(now, tz=UTC)
    if not throttle.claim_scan(moment, config.scan_interval):
        minutes = config.scan_interval.total_seconds() / 60
        return GateDecision(
            False,
            Gate.SCAN_THROTTLE,
            last_ns,
            detail=f"sessions were scanned less than {minutes:g} minutes ago",
        )
    since = datetime.fromtimestamp(last_ns / _NS, tz=UTC) if last_ns else None
    found = tuple(s for s in sessions.sessions_touched_since(since) if s != current_session)
    if len(found) < config.min_sessions:
        return GateDecision(
            False,
            Gate.SESSIONS,
            last_ns,
            found,
            detail=f"{len(found)} sessions since the last consolidation, "
            f"{config.min_sessions} needed",
        )
    for probe in lock_probes:
        holder = probe()
        if holder is not None:
            return GateDecision(False, Gate.LOCKS, last_ns, found, detail=holder)
    return GateDecision(True, None, last_ns, found)
