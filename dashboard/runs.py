"""The ``Run`` row's life, written one way for every kind of background work.

A task's run is started (or, for a dream, queued with its task and claimed from
``queued``), may report progress as it goes, and is finished once with a status and a
one-line summary, or abandoned by whoever finds its worker dead. Each write is an
``UPDATE`` of the fields it owns, never a save of a row read earlier, so a flag raised
meanwhile (a cancel) is not written over.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils import timezone

from .models import Project, Run, RunStatus, SessionRecord


@dataclass(frozen=True)
class RunProgress:
    """What ``Run.progress`` holds while a run works (SPEC D7): the dashboard's progress
    fragment and the runs list read it through :meth:`of`."""

    phase: str = ""
    step: str | None = None
    turns: int = 0
    files_touched: tuple[str, ...] = field(default=())
    sessions_reviewed: int = 0
    dream_id: str | None = None
    updated_at: str | None = None

    @classmethod
    def of(cls, run: Run) -> RunProgress:
        """The row's progress; a missing or malformed value reads as no progress."""
        data = run.progress if isinstance(run.progress, dict) else {}
        touched = data.get("files_touched")
        return cls(
            phase=_text(data.get("phase")) or "",
            step=_text(data.get("step")),
            turns=_count(data.get("turns")),
            files_touched=tuple(str(path) for path in touched) if isinstance(touched, list) else (),
            sessions_reviewed=_count(data.get("sessions_reviewed")),
            dream_id=_text(data.get("dream_id")),
            updated_at=_text(data.get("updated_at")),
        )

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["files_touched"] = list(self.files_touched)
        return data


def start_run(
    project: Project,
    kind: str,
    *,
    trigger: str,
    task_id: str = "",
    worker: str = "",
    requested_by: User | None = None,
    session: SessionRecord | None = None,
    detail: dict[str, Any] | None = None,
) -> Run:
    """A run of the task ``task_id`` that starts now."""
    return Run.objects.create(
        project=project,
        kind=kind,
        status=RunStatus.RUNNING,
        trigger=trigger,
        requested_by=requested_by,
        session=session,
        task_id=task_id,
        worker=worker[:200],
        started_at=timezone.now(),
        detail=detail or {},
    )


def queue_run(
    project: Project,
    kind: str,
    *,
    trigger: str,
    requested_by: User | None = None,
    detail: dict[str, Any] | None = None,
) -> Run:
    """A run waiting for its task; the caller queues the task under the row's ``task_id``,
    so the sweep and the dashboard can tell which task is this run."""
    return Run.objects.create(
        project=project,
        kind=kind,
        status=RunStatus.QUEUED,
        trigger=trigger,
        requested_by=requested_by,
        task_id=str(uuid.uuid4()),
        detail=detail or {},
    )


def claim_queued_run(run_id: int, kind: str, *, worker: str) -> Run | None:
    """Take a queued run (one worker only: a conditional UPDATE); None when it is not
    queued any more. A cancel asked for before it started ends it here."""
    now = timezone.now()
    Run.objects.filter(pk=run_id, status=RunStatus.QUEUED, cancel_requested=True).update(
        status=RunStatus.CANCELLED, finished_at=now, summary="cancelled before it started"
    )
    claimed = Run.objects.filter(pk=run_id, kind=kind, status=RunStatus.QUEUED).update(
        status=RunStatus.RUNNING, started_at=now, worker=worker[:200]
    )
    return Run.objects.select_related("project").get(pk=run_id) if claimed else None


def record_progress(run_id: int, progress: RunProgress) -> None:
    fields: dict[str, Any] = {"progress": progress.to_json()}
    if progress.dream_id:
        fields["dream_id"] = progress.dream_id  # what the proposal page finds its runs by
    Run.objects.filter(pk=run_id).update(**fields)


def finish_run(
    run: Run,
    status: str,
    summary: str,
    *,
    error: str = "",
    detail: dict[str, Any] | None = None,
    progress: RunProgress | None = None,
    dream_id: str = "",
) -> str:
    """End ``run`` with ``status``; ``detail`` is added to what the row holds. Returns the
    summary, which is what a task returns."""
    run.status, run.summary, run.error = status, summary, error
    run.finished_at = timezone.now()
    run.detail = {**(run.detail or {}), **(detail or {})}
    fields = ["status", "summary", "error", "finished_at", "detail"]
    if progress is not None:
        run.progress = progress.to_json()
        fields.append("progress")
    if dream_id:
        run.dream_id = dream_id
        fields.append("dream_id")
    Run.objects.filter(pk=run.pk).update(**{name: getattr(run, name) for name in fields})
    return summary


def abandon_runs(
    runs: QuerySet[Run], *, error: str, summary: str = "", now: datetime | None = None
) -> int:
    """Fail the ``runs`` still running: their worker died. Conditional, so a run that
    finished meanwhile keeps its real ending. Returns how many were abandoned."""
    ending: dict[str, Any] = {"status": RunStatus.FAILED, "finished_at": now or timezone.now()}
    ending["error"] = error
    if summary:
        ending["summary"] = summary
    return runs.filter(status=RunStatus.RUNNING).update(**ending)


def record_finished_run(
    project: Project, kind: str, status: str, *, trigger: str, summary: str, detail: dict[str, Any]
) -> Run:
    """A run with nothing to wait for, finished as it is written (a closed gate check)."""
    moment = timezone.now()
    return Run.objects.create(
        project=project,
        kind=kind,
        status=status,
        trigger=trigger,
        started_at=moment,
        finished_at=moment,
        summary=summary,
        detail=detail,
    )


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _count(value: object) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, list):
        return len(value)
    return 0
