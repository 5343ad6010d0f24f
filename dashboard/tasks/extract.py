"""Extraction of uploaded transcripts (SPEC E, T5): one Celery task per upload.

The sessions API stores a redacted transcript and calls `request_extraction` (a large
upload is held raw in the project's inbox and `redact_uploaded_transcript` redacts and
publishes it first, then requests the extraction); once
the transaction commits, `extract_uploaded_session` analyses the messages added since
the session's cursor (``SessionRecord.extracted_messages``), lands any change on
``extractions/<user>`` (`memsync.extract.branch`) and queues its merge the way a
member's branch is merged, so the secret scan, the merge into ``main`` and review
apply as for a push, while ``members/<user>`` is left to its member: their next push
is never refused because the server committed there. A ``Run`` of
kind ``extract`` records each attempt for the dashboard.

The cursor is claimed with a conditional UPDATE before the work starts, so two
uploads of one session queued close together analyse each message once; a run that
fails or is throttled gives its messages back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from memsync.extract.branch import MemberBranchMoved, extract_onto_branch
from memsync.extract.deterministic import DeterministicEngine
from memsync.extract.engine import ExtractionEngine
from memsync.extract.run import FAILED, NO_CHANGES, REFUSED, SAVED, SKIPPED
from memsync.extract.skip import session_memory_dir
from memsync.extract.transcript import read_transcript
from memsync.extract.uploads import TranscriptInbox
from memsync.store import GitError, StoreError
from memsync.store.lock import RepoLockTimeout
from memsync.store.refs import extraction_branch

from ..models import Run, RunKind, RunStatus, SessionRecord
from ..sync import QUICK_PUBLISH, identity_for, open_repository
from .sync import merge_member_branch_task

EXTRACT_TASK = "dashboard.tasks.extract.extract_uploaded_session"
REDACT_TASK = "dashboard.tasks.extract.redact_uploaded_transcript"
_STATUS = {
    SAVED: RunStatus.SUCCEEDED,
    NO_CHANGES: RunStatus.NO_CHANGES,
    SKIPPED: RunStatus.SKIPPED,
    REFUSED: RunStatus.FAILED,
    FAILED: RunStatus.FAILED,
}


def request_extraction(record: SessionRecord) -> None:
    """Queue the extraction of `record`'s stored transcript after the commit; nothing
    for a project that does not take transcripts or a session without one.

    A broker that cannot take it is logged, not raised: the upload is stored, and the
    periodic sweep queues extractions that never ran (`dashboard.recovery`)."""
    if not record.project.allow_transcripts or not record.transcript:
        return
    record_id = record.pk
    transaction.on_commit(
        lambda: extract_uploaded_session.apply_async((record_id,), **QUICK_PUBLISH), robust=True
    )


def request_redaction(record: SessionRecord, held: str) -> None:
    """Queue the redaction of the upload held in the inbox as `held`, after the commit."""
    record_id = record.pk
    transaction.on_commit(lambda: redact_uploaded_transcript.delay(record_id, held))


@shared_task(name=REDACT_TASK)
def redact_uploaded_transcript(record_id: int, held: str) -> str:
    """Redact a held upload, publish it as the session's transcript, queue extraction."""
    record = SessionRecord.objects.select_related("project").filter(pk=record_id).first()
    if record is None:
        return f"session record {record_id} no longer exists"
    project = record.project
    published = TranscriptInbox(project.inbox_dir, project.transcripts_dir).publish(held)
    if published is None:
        return f"{held}: nothing to publish (already published or superseded)"
    transcript = published.path.relative_to(project.base_dir).as_posix()
    SessionRecord.objects.filter(pk=record.pk).update(transcript=transcript)
    record.transcript = transcript
    request_extraction(record)
    return f"{record.session_id}: redacted {len(published.findings)} secret(s), published"


def extraction_engine() -> ExtractionEngine:
    """``anthropic`` when the server has an API key, else ``deterministic``."""
    if not settings.ANTHROPIC_API_KEY:
        return DeterministicEngine()
    from memsync.agent import connect
    from memsync.agent.loop import DEFAULT_BASE_URL
    from memsync.extract.llm import AnthropicEngine

    client = connect(
        settings.ANTHROPIC_API_KEY, base_url=settings.ANTHROPIC_BASE_URL or DEFAULT_BASE_URL
    )
    return AnthropicEngine(client, model=settings.MEMSYNC_MODEL)


@shared_task(bind=True, name=EXTRACT_TASK)
def extract_uploaded_session(self: Task, record_id: int) -> str:
    record = SessionRecord.objects.select_related("project", "user").filter(pk=record_id).first()
    if record is None:
        return f"session record {record_id} no longer exists"
    project = record.project
    run = Run.objects.create(
        project=project,
        kind=RunKind.EXTRACT,
        status=RunStatus.RUNNING,
        trigger="session",
        requested_by=record.user,
        task_id=self.request.id or "",
        worker=self.request.hostname or "",
        started_at=timezone.now(),
        detail={"session": record.session_id, "member": record.user.username},
    )
    path = project.base_dir / record.transcript if record.transcript else None
    if not project.allow_transcripts or path is None or not path.is_file():
        return _finish(run, RunStatus.SKIPPED, "no uploaded transcript to extract from")
    since = record.extracted_messages
    transcript = read_transcript(path, since=since)
    named = session_memory_dir(transcript)
    if named is not None:
        transcript = read_transcript(path, since=since, memory_dir=named)
    claimed = SessionRecord.objects.filter(pk=record.pk, extracted_messages=since).update(
        extracted_messages=transcript.next_cursor
    )
    if not claimed:
        return _finish(run, RunStatus.SKIPPED, "another extraction took these messages")
    # What to give back if this worker dies mid-run (dashboard.recovery).
    run.detail = {**run.detail, "claimed": {"since": since, "taken": transcript.next_cursor}}
    run.save(update_fields=["detail"])
    branch = extraction_branch(record.user.username)
    try:
        result = extract_onto_branch(
            open_repository(project),
            transcript,
            extraction_engine(),
            branch=branch,
            workdir=_workdir(project.worktrees_dir, run.pk),
            since=since,
            every_turns=settings.MEMSYNC_EXTRACT_EVERY_TURNS,
            author=identity_for(record.user),
        )
    except (MemberBranchMoved, StoreError, GitError, RepoLockTimeout) as error:
        _give_back(record.pk, transcript.next_cursor, since)
        return _finish(
            run, RunStatus.FAILED, f"extraction of {record.session_id} failed", str(error)
        )
    if result.cursor != transcript.next_cursor:
        _give_back(record.pk, transcript.next_cursor, result.cursor)
    run.detail = {**run.detail, **result.to_dict(), "branch": branch}
    if result.commit is not None:
        merge_member_branch_task.delay(project.pk, record.user.username, result.commit, branch)
        run.detail["merge_queued"] = True
    failed = result.status in (FAILED, REFUSED)
    # A refusal lists every finding; the summary stays one short line, the error has them.
    summary = f"extract: {record.session_id} — {result.status if failed else result.summary}"
    problem = (result.reason or "") if failed else ""
    return _finish(run, _STATUS[result.status], summary, problem)


def _workdir(worktrees: Path, run_id: int) -> Path:
    worktrees.mkdir(parents=True, exist_ok=True)
    return worktrees / f"extract-{run_id}"


def _give_back(record_id: int, taken: int, cursor: int) -> None:
    # Conditional: a later extraction that already moved the cursor on keeps it.
    SessionRecord.objects.filter(pk=record_id, extracted_messages=taken).update(
        extracted_messages=cursor
    )


def _finish(run: Run, status: str, summary: str, error: str = "") -> str:
    run.status = status
    run.summary = summary
    run.error = error
    run.finished_at = timezone.now()
    run.progress = _progress(run.detail)
    run.save(update_fields=["status", "summary", "error", "finished_at", "detail", "progress"])
    return summary


def _progress(detail: dict[str, Any]) -> dict[str, Any]:
    return {
        "turns": detail.get("turns", 0),
        "files_touched": [*detail.get("saved", []), *detail.get("forgotten", [])],
    }
