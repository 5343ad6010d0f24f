"""The dream on the server: gate checks, queued ``Run`` rows, and running one (SPEC D1–D7).

The Celery tasks in ``dashboard/tasks/dream.py`` only call these functions; this module
queues them by name (``dashboard/queue.py``) and never imports them.
This module reads settings and the database, then calls the domain
(``memsync.dream``) with plain arguments.

- :func:`evaluate_all` — the beat: one query for every project, one ``stat`` each, and
  only the projects past the time gate touch the database again;
- :func:`check_project` — the whole gate chain for one project; when it passes, a
  queued dream ``Run`` and its task;
- :func:`start_manual_dream` — D6: no gates, still both locks, records the time;
- :func:`execute_run` — claim a queued run with a conditional UPDATE and dream.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings

from memsync.dream.engine import Scope
from memsync.dream.engine_choice import EngineUnavailable, choose_engine_name, get_engine
from memsync.dream.gates import Gate, GateConfig, GateDecision, evaluate_gates, time_gate
from memsync.dream.locks import ConsolidationLock, RedisDreamLock, redis_lock_key
from memsync.dream.run import DreamOutcome, DreamRequest, DreamStatus, run_dream
from memsync.store import LOCK_FILE_NAME

from .. import notifications
from ..dream_sessions import ProjectScanThrottle, RecordedSessions
from ..models import Project, Run, RunKind, RunStatus
from ..queue import queue_dream as queue_dream_task
from ..runs import (
    RunProgress,
    abandon_runs,
    claim_queued_run,
    finish_run,
    queue_run,
    record_finished_run,
    record_progress,
)

PROGRESS_INTERVAL = 0.5  # seconds between progress writes; a phase change writes at once
CANCEL_POLL_INTERVAL = 0.5

_redis_lock = threading.Lock()
_redis: Any = None


def redis_client() -> Any:
    """One redis-py client per process (its pool is fork-safe for the prefork pool)."""
    global _redis
    with _redis_lock:
        if _redis is None:
            import redis

            _redis = redis.Redis.from_url(settings.REDIS_URL)
        return _redis


def gate_config(project: Project) -> GateConfig:
    """The project's own settings where it has them, the global defaults otherwise."""
    enabled = project.dream_enabled
    return GateConfig(
        enabled=settings.MEMSYNC_DREAM_ENABLED if enabled is None else enabled,
        min_hours=_or(project.dream_min_hours, settings.MEMSYNC_DREAM_MIN_HOURS),
        min_sessions=int(_or(project.dream_min_sessions, settings.MEMSYNC_DREAM_MIN_SESSIONS)),
        scan_interval=timedelta(minutes=settings.MEMSYNC_SCAN_THROTTLE_MINUTES),
    )


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


def lock_key(project: Project) -> str:
    return redis_lock_key(project.slug)


def _lock_probes(project: Project) -> list[Any]:
    file_lock = ConsolidationLock(project.repo_dir / LOCK_FILE_NAME)
    key = lock_key(project)

    def file_holder() -> str | None:
        holder = file_lock.holder()
        return f"the consolidation lock is held by {holder}" if holder else None

    def redis_holder() -> str | None:
        holder = RedisDreamLock.current_holder(redis_client(), key)
        return f"a dream holds the Redis lock ({holder})" if holder else None

    return [file_holder, redis_holder]


@dataclass(frozen=True)
class GateCheck:
    project_id: int
    passed: bool
    gate: str | None
    reason: str
    run_id: int | None = None


def check_project(
    project: Project,
    trigger: str,
    *,
    current_session: str | None = None,
    now: float | None = None,
) -> GateCheck:
    """The gate chain for one project; when every gate passes, a dream is queued."""
    if not (project.repo_dir / ".git").exists():
        return GateCheck(project.pk, False, "repository", "the project has no repository yet")
    decision: GateDecision = evaluate_gates(
        gate_config(project),
        project.repo_dir / LOCK_FILE_NAME,
        throttle=ProjectScanThrottle(project.pk),
        sessions=RecordedSessions(project.pk),
        current_session=current_session,
        lock_probes=_lock_probes(project),
        now=now,
    )
    if not decision.passed:
        if decision.gate in _RECORDED_GATES:
            _record_gate_check(project, trigger, decision)
        return GateCheck(project.pk, False, str(decision.gate), decision.reason)
    run = queue_dream(
        project,
        trigger,
        gate_mtime_ns=decision.last_consolidated_ns,
        sessions=decision.sessions,
    )
    return GateCheck(project.pk, True, None, decision.reason, run.pk)


# A check closed by these gates scanned the project's sessions, which the scan throttle
# allows once per interval: worth a Run row ("why did it not dream?") without flooding.
_RECORDED_GATES = frozenset({Gate.SESSIONS, Gate.LOCKS})


def _record_gate_check(project: Project, trigger: str, decision: GateDecision) -> None:
    record_finished_run(
        project,
        RunKind.GATE,
        RunStatus.LOCKED if decision.gate == Gate.LOCKS else RunStatus.SKIPPED,
        trigger=trigger,
        summary=f"{decision.gate} gate closed: {decision.reason}",
        detail=decision.to_dict(),
    )


@dataclass(frozen=True)
class BeatReport:
    projects: int
    past_time_gate: int
    queued: list[int]

    def __str__(self) -> str:
        return (
            f"{self.projects} projects checked, {self.past_time_gate} past the time gate, "
            f"{len(self.queued)} dreams queued"
        )


def evaluate_all(*, now: float | None = None, trigger: str = "beat") -> BeatReport:
    """The beat: every enabled project's time gate from one query and one ``stat`` each;
    only those past it go through the rest of the chain."""
    now = time.time() if now is None else now
    rows = Project.objects.values_list("pk", "slug", "dream_min_hours")
    # The enabled gate in SQL: a project's own setting, else the global default.
    if settings.MEMSYNC_DREAM_ENABLED:
        rows = rows.exclude(dream_enabled=False)
    else:
        rows = rows.filter(dream_enabled=True)
    default_hours = settings.MEMSYNC_DREAM_MIN_HOURS
    base = f"{settings.PROJECTS_DIR}/"
    suffix = f"/repo/{LOCK_FILE_NAME}"
    checked = 0
    passing = []
    for pk, slug, min_hours in rows.iterator(chunk_size=2000):
        checked += 1
        hours = default_hours if min_hours is None else min_hours
        if time_gate(base + slug + suffix, hours, now)[0]:
            passing.append(pk)
    queued = []
    for project in Project.objects.filter(pk__in=passing):
        check = check_project(project, trigger, now=now)
        if check.run_id is not None:
            queued.append(check.run_id)
    return BeatReport(checked, len(passing), queued)


def queue_dream(
    project: Project,
    trigger: str,
    *,
    requested_by: Any = None,
    gate_mtime_ns: int | None = None,
    sessions: tuple[str, ...] = (),
    force: bool = False,
) -> Run:
    """A queued dream ``Run`` and its task, sent once the current transaction commits."""
    run = queue_run(
        project,
        RunKind.DREAM,
        trigger=trigger,
        requested_by=requested_by,
        detail={"gate_mtime_ns": gate_mtime_ns, "sessions": list(sessions), "force": force},
    )
    queue_dream_task(run.pk, run.task_id)
    return run


def start_manual_dream(project: Project, user: Any = None) -> Run:
    """D6: a dream now, whatever the gates say; it still takes both locks and records the
    consolidation time, and returns ``locked`` if another dream runs."""
    return queue_dream(project, "manual", requested_by=user, force=True)


def execute_run(run_id: int, *, worker: str = "") -> str:
    """Claim the queued run and dream; every ending is written to the row."""
    run = claim_queued_run(run_id, RunKind.DREAM, worker=worker)
    if run is None:
        return f"dream run {run_id} is not queued (already claimed, finished or gone)"
    project = run.project
    detail = dict(run.detail or {})
    try:
        engine = get_engine(
            settings.MEMSYNC_DREAM_ENGINE or project.dream_engine,
            api_key=settings.ANTHROPIC_API_KEY or None,
            base_url=settings.ANTHROPIC_BASE_URL,
            model=settings.MEMSYNC_MODEL,
            max_turns=settings.MEMSYNC_DREAM_MAX_TURNS,
            token_budget=settings.MEMSYNC_DREAM_TOKEN_BUDGET,
        )
    except EngineUnavailable as error:
        name = choose_engine_name(
            settings.MEMSYNC_DREAM_ENGINE or project.dream_engine,
            api_key=settings.ANTHROPIC_API_KEY or None,
        )
        outcome = DreamOutcome(DreamStatus.FAILED, "", reason=str(error), error=str(error))
        outcome.engine = name
        return _finish(run, detail, outcome)
    force = bool(detail.get("force"))
    sessions = tuple(detail.get("sessions") or ())
    if force:
        last = ConsolidationLock(project.repo_dir / LOCK_FILE_NAME).last_consolidated()
        sessions = tuple(RecordedSessions(project.pk).sessions_touched_since(last))
    gate_mtime = detail.get("gate_mtime_ns")
    progress = _ProgressWriter(run_id)
    outcome = run_dream(
        DreamRequest(
            repo_path=project.repo_dir,
            engine=engine,
            worktrees_dir=project.worktrees_dir,
            scope=Scope.TEAM,
            sessions=sessions,
            transcripts_dir=project.transcripts_dir if project.transcripts_dir.is_dir() else None,
            gate_mtime_ns=None if force or gate_mtime is None else int(gate_mtime),
            redis=redis_client(),
            redis_key=lock_key(project),
            redis_ttl_seconds=settings.MEMSYNC_DREAM_LOCK_TTL_SECONDS,
        ),
        on_locked=lambda: _abandon_other_runs(project.pk, run_id),
        on_progress=progress.write,
        cancelled=_CancelFlag(run_id),
    )
    progress.flush()
    finished = _finish(run, detail, outcome)
    if outcome.status == DreamStatus.PROPOSED and outcome.dream_id:
        notifications.proposal_opened(
            project,
            outcome.dream_id,
            outcome.summary or outcome.reason,
            len(outcome.files_touched),
        )
    return finished


def _abandon_other_runs(project_id: int, run_id: int) -> None:
    """We hold both locks, so no other dream of this project is running: a row still
    saying so belongs to a worker that died mid-dream."""
    abandon_runs(
        Run.objects.filter(project_id=project_id, kind=RunKind.DREAM).exclude(pk=run_id),
        error=f"abandoned: its worker stopped mid-dream; run {run_id} reclaimed the locks",
    )


class _ProgressWriter:
    """Writes the D7 snapshot to ``Run.progress``: at once when the phase changes, else at
    most every half second (an engine may touch hundreds of files)."""

    def __init__(self, run_id: int) -> None:
        self.run_id = run_id
        self._last_write = 0.0
        self._last_phase: object = None
        self._pending: RunProgress | None = None

    def write(self, snapshot: dict[str, Any]) -> None:
        self._pending = _progress(snapshot)
        moment = time.monotonic()
        if self._pending.phase != self._last_phase or moment - self._last_write >= (
            PROGRESS_INTERVAL
        ):
            self.flush()

    def flush(self) -> None:
        if self._pending is None:
            return
        record_progress(self.run_id, self._pending)
        self._last_phase = self._pending.phase
        self._last_write = time.monotonic()
        self._pending = None


def _progress(snapshot: dict[str, Any]) -> RunProgress:
    """The engine's snapshot (``memsync.dream.progress``) as the row keeps it."""
    return RunProgress(
        phase=snapshot.get("phase") or "",
        step=snapshot.get("step"),
        turns=int(snapshot.get("turns") or 0),
        files_touched=tuple(snapshot.get("files_touched") or ()),
        sessions_reviewed=int(snapshot.get("sessions_reviewed") or 0),
        dream_id=snapshot.get("dream_id"),
        updated_at=snapshot.get("updated_at"),
    )


class _CancelFlag:
    """``Run.cancel_requested``, read at most every half second."""

    def __init__(self, run_id: int) -> None:
        self.run_id = run_id
        self._checked = 0.0
        self._value = False

    def __call__(self) -> bool:
        moment = time.monotonic()
        if not self._value and moment - self._checked >= CANCEL_POLL_INTERVAL:
            self._checked = moment
            self._value = Run.objects.filter(pk=self.run_id, cancel_requested=True).exists()
        return self._value


def _finish(run: Run, detail: dict[str, Any], outcome: DreamOutcome) -> str:
    result = outcome.to_dict()
    detail.update(
        {
            "dream_id": outcome.dream_id or None,
            "proposal": outcome.dream_id if outcome.status == DreamStatus.PROPOSED else None,
            "gate": outcome.gate,
            "branch": outcome.branch,
            "commit": outcome.commit,
            "base": outcome.base,
            "files_touched": result["files_touched"],
            "engine": outcome.engine,
            "model": outcome.model,
            "usage": result["usage"],
            "before": result["before"],
            "after": result["after"],
            "notes": result["notes"],
        }
    )
    summary = outcome.reason
    if outcome.status == DreamStatus.PROPOSED and outcome.summary:
        summary = outcome.summary
    finish_run(
        run,
        RunStatus(str(outcome.status)),
        summary,
        error=outcome.error or "",
        detail=detail,
        dream_id=outcome.dream_id or "",
    )
    return f"dream run {run.pk}: {outcome.status} — {summary}"


__all__ = [
    "BeatReport",
    "GateCheck",
    "check_project",
    "evaluate_all",
    "execute_run",
    "gate_config",
    "queue_dream",
    "start_manual_dream",
]
