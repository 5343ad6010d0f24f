"""Extraction of uploaded transcripts (SPEC E, T5): one run per upload.

The sessions API stores a redacted transcript and calls `request_extraction` (a large
upload is held raw in the project's inbox and `redact_upload` redacts and publishes it
first, then requests the extraction). `extract_upload` analyses the messages added
since the session's cursor (``SessionRecord.extracted_messages``), lands any change on
``extractions/<user>`` (`memsync.extract.branch`) and queues its merge the way a
member's branch is merged, so the secret scan, the merge into ``main`` and review
apply as for a push, while ``members/<user>`` is left to its member: their next push
is never refused because the server committed there. A ``Run`` of kind ``extract``
records each attempt for the dashboard.

The cursor moves only once the extraction's commit has landed, so a worker killed
mid-extraction leaves the messages to the task's next delivery. The commit records the
cursor it moves to (``Memsync-Cursor``): a delivery killed after the commit, before
the cursor was stored, is finished by the next one, which extracts nothing twice. Two
extractions of one session never run at once: the session is taken with a conditional
UPDATE naming the task (``SessionRecord.extraction_task``), which the task's next
delivery (the same task id) takes back, and the sweep frees when the task died
(`dashboard.recovery`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Q

from memsync.extract.branch import MemberBranchMoved, extract_onto_branch, landed_cursor
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
from ..queue import queue_extraction, queue_merge
from ..runs import RunProgress, finish_run, start_run
from ..sync import identity_for, open_repository

_STATUS = {
    SAVED: RunStatus.SUCCEEDED,
    NO_CHANGES: RunStatus.NO_CHANGES,
    SKIPPED: RunStatus.SKIPPED,
    REFUSED: RunStatus.FAILED,
    FAILED: RunStatus.FAILED,
}


def request_extraction(record: SessionRecord) -> None:
    """Queue the extraction of `record`'s stored transcript after the commit; nothing
    for a project that does not take transcripts or a session without one."""
    if record.project.allow_transcripts and record.transcript:
        queue_extraction(record.pk)


def redact_upload(record_id: int, held: str) -> str:
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


def extract_upload(record_id: int, *, task_id: str, worker: str) -> str:
    """Extract the session's new messages as task `task_id`; returns the run's summary."""
    record = SessionRecord.objects.select_related("project", "user").filter(pk=record_id).first()
    if record is None:
        return f"session record {record_id} no longer exists"
    run = start_run(
        record.project,
        RunKind.EXTRACT,
        trigger="session",
        task_id=task_id,
        worker=worker,
        requested_by=record.user,
        session=record,
        detail={"session": record.session_id, "member": record.user.username},
    )
    path = record.project.base_dir / record.transcript if record.transcript else None
    if not record.project.allow_transcripts or path is None or not path.is_file():
        return finish_run(run, RunStatus.SKIPPED, "no uploaded transcript to extract from")
    holder = task_id or f"run-{run.pk}"
    if not _take(record, holder):
        return finish_run(run, RunStatus.SKIPPED, "another extraction is analysing these messages")
    try:
        ending = _extract(run, record, path, holder)
    finally:
        # Freed before the run says it ended: a run still "running" is what the sweep
        # looks for, so nothing is left held once it stops looking.
        SessionRecord.objects.filter(pk=record.pk, extraction_task=holder).update(
            extraction_task=""
        )
    return finish_run(
        run,
        ending.status,
        ending.summary,
        error=ending.error,
        detail=ending.detail,
        progress=ending.progress,
    )


@dataclass(frozen=True)
class _Ending:
    status: str
    summary: str
    error: str = ""
    detail: dict[str, Any] | None = None
    progress: RunProgress | None = None


def _take(record: SessionRecord, holder: str) -> bool:
    # The task's next delivery (the same id) takes back what a killed one held.
    free = Q(extraction_task="") | Q(extraction_task=holder)
    return bool(SessionRecord.objects.filter(free, pk=record.pk).update(extraction_task=holder))


def _extract(run: Run, record: SessionRecord, path: Path, holder: str) -> _Ending:
    project, username = record.project, record.user.username
    branch = extraction_branch(username)
    repo = open_repository(project)
    since = record.extracted_messages
    landed = landed_cursor(repo, branch, record.session_id)
    if landed is not None and landed > since:
        # A delivery killed after its commit landed: finish what it did, then go on.
        _store_cursor(record, holder, landed)
        queue_merge(project.pk, username, branch=branch)
        since = landed
    transcript = read_transcript(path, since=since)
    named = session_memory_dir(transcript)
    if named is not None:
        transcript = transcript.seen_from(named)
    try:
        result = extract_onto_branch(
            repo,
            transcript,
            extraction_engine(),
            branch=branch,
            workdir=_workdir(project.worktrees_dir, run.pk),
            since=since,
            every_turns=settings.MEMSYNC_EXTRACT_EVERY_TURNS,
            author=identity_for(record.user),
        )
    except (MemberBranchMoved, StoreError, GitError, RepoLockTimeout) as error:
        return _Ending(RunStatus.FAILED, f"extraction of {record.session_id} failed", str(error))
    # Only now: the commit, if any, is on the branch.
    _store_cursor(record, holder, result.cursor)
    detail = {**result.to_dict(), "branch": branch}
    if result.commit is not None:
        queue_merge(project.pk, username, tip=result.commit, branch=branch)
        detail["merge_queued"] = True
    failed = result.status in (FAILED, REFUSED)
    # A refusal lists every finding; the summary stays one short line, the error has them.
    summary = f"extract: {record.session_id} — {result.status if failed else result.summary}"
    return _Ending(
        _STATUS[result.status],
        summary,
        error=(result.reason or "") if failed else "",
        detail=detail,
        progress=RunProgress(turns=result.turns, files_touched=(*result.saved, *result.forgotten)),
    )


def _store_cursor(record: SessionRecord, holder: str, cursor: int) -> None:
    SessionRecord.objects.filter(pk=record.pk, extraction_task=holder).update(
        extracted_messages=cursor
    )
    record.extracted_messages = cursor


def _workdir(worktrees: Path, run_id: int) -> Path:
    worktrees.mkdir(parents=True, exist_ok=True)
    return worktrees / f"extract-{run_id}"
