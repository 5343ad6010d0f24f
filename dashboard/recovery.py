"""What a dead worker or an unreachable broker leaves undone, found by the periodic sweep.

* A merge or extraction ``Run`` stays "running" when its worker is killed: the sweep
  asks the live workers which tasks they are running, and a run whose task none of
  them has is marked failed ("abandoned: …"). Its work is retried: the member's branch
  is still unmerged, so the sweep's merge pass queues it again; an extraction frees
  its session (``SessionRecord.extraction_task``) and is queued again: its cursor never
  moved, since it moves only once the extraction's commit has landed.
* An uploaded transcript whose extraction could not be queued (the broker was down
  when the upload committed) has no extraction run after it: the sweep queues one.
* A large upload held raw in the project's inbox whose redaction was never queued or
  never finished is queued again; one no session claims (its record is gone) is
  removed, since raw text may hold secrets (``memsync.extract.uploads``).

The working tree the dead worker left is cleared by the next write itself
(``memsync.store.recovery``); this module only deals with rows and queues.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from memsync.extract.uploads import TranscriptInbox, session_of

from .models import Project, Run, RunKind, RunStatus, SessionRecord
from .queue import queue_extraction, queue_redaction
from .runs import abandon_runs

log = logging.getLogger(__name__)

# A worker answers a control message within milliseconds unless it is dead or cut off.
_INSPECT_TIMEOUT = 2.0
ABANDONABLE = (RunKind.MERGE, RunKind.EXTRACT)


def active_task_ids() -> set[str] | None:
    """Ids of the tasks the live workers are running; None when no worker answered
    (the broker is down, or nobody is there to ask): then nothing can be called dead."""
    from memsync.celery import app

    try:
        replies = app.control.inspect(timeout=_INSPECT_TIMEOUT).active()
    except Exception as error:  # kombu's connection errors have no common base
        log.warning("cannot ask the workers what they run: %s", error)
        return None
    if not replies:
        return None
    return {task["id"] for tasks in replies.values() for task in tasks or ()}


def abandon_dead_runs(now: datetime | None = None) -> list[Run]:
    """Mark merge and extraction runs whose worker died as failed, and retry them.

    Only runs started over ``MEMSYNC_ABANDONED_RUN_SECONDS`` ago are considered, so a
    worker that was slow to answer once does not lose a run it is still doing (were
    it wrong, the task's own ending overwrites the row, and the retry changes nothing).
    """
    now = now or timezone.now()
    grace = timedelta(seconds=settings.MEMSYNC_ABANDONED_RUN_SECONDS)
    candidates = list(
        Run.objects.filter(
            status=RunStatus.RUNNING, kind__in=ABANDONABLE, started_at__lte=now - grace
        ).select_related("project")
    )
    if not candidates:
        return []
    active = active_task_ids()
    if active is None:
        return []
    abandoned = []
    for run in candidates:
        if run.task_id and run.task_id in active:
            continue
        claimed = abandon_runs(
            Run.objects.filter(pk=run.pk),
            summary=f"abandoned {run.kind}: its worker stopped before it finished",
            error=f"abandoned: worker {run.worker or '?'} no longer runs task {run.task_id}",
            now=now,
        )
        if claimed:
            abandoned.append(run)
            if run.kind == RunKind.EXTRACT:
                _retry_extraction(run)
    if abandoned:
        log.warning("abandoned %d run(s) of dead workers: %s", len(abandoned), abandoned)
    return abandoned


def _retry_extraction(run: Run) -> None:
    if run.session_id is None:
        return
    # Conditional: a later extraction that took the session meanwhile keeps it.
    SessionRecord.objects.filter(pk=run.session_id, extraction_task=run.task_id).update(
        extraction_task=""
    )
    queue_extraction(run.session_id)


def unextracted_uploads(now: datetime | None = None) -> list[SessionRecord]:
    """Sessions whose stored transcript changed after their last extraction run started
    (or that never had one), uploaded over the grace period ago."""
    now = now or timezone.now()
    settle = (now - timedelta(seconds=settings.MEMSYNC_ABANDONED_RUN_SECONDS)).timestamp()
    since = now - timedelta(days=settings.MEMSYNC_UPLOAD_SWEEP_DAYS)
    due = []
    records = SessionRecord.objects.filter(
        project__allow_transcripts=True, touched_at__gte=since
    ).exclude(transcript="")
    for record in records.select_related("project"):
        path = record.project.base_dir / record.transcript
        try:
            uploaded = path.stat().st_mtime
        except OSError:
            continue
        if uploaded > settle:
            continue  # just uploaded: its own extraction is probably queued
        last = (
            Run.objects.filter(session=record, kind=RunKind.EXTRACT)
            .order_by("-created_at")
            .values_list("created_at", flat=True)
            .first()
        )
        if last is None or last.timestamp() < uploaded:
            due.append(record)
    return due


def queue_unextracted_uploads() -> int:
    due = unextracted_uploads()
    for record in due:
        queue_extraction(record.pk)
    return len(due)


def queue_held_uploads(now: datetime | None = None) -> tuple[int, int]:
    """Queue the redaction of every upload held in an inbox over the grace period;
    remove those no session record claims. Returns (queued, removed).

    A retry beside a redaction still queued is harmless: the first to run publishes
    the upload, the other finds it gone (``TranscriptInbox.publish``)."""
    now = now or timezone.now()
    settle = (now - timedelta(seconds=settings.MEMSYNC_ABANDONED_RUN_SECONDS)).timestamp()
    queued = removed = 0
    for project in Project.objects.only("pk", "slug").iterator():
        inbox = TranscriptInbox(project.inbox_dir, project.transcripts_dir)
        for name in inbox.waiting(older_than=settle):
            record = SessionRecord.objects.filter(
                project=project, session_id=session_of(name)
            ).first()
            if record is None:
                inbox.drop(name)
                removed += 1
            else:
                queue_redaction(record.pk, name)
                queued += 1
    if removed:
        log.warning("removed %d held upload(s) no session claims", removed)
    return queued, removed
