"""Extraction of uploaded transcripts (SPEC E, T5): the use case is
``dashboard/services/extraction.py``; these tasks only call it."""

from __future__ import annotations

from celery import Task, shared_task

from ..queue import EXTRACT_TASK, REDACT_TASK
from ..services import extraction


@shared_task(name=REDACT_TASK)
def redact_uploaded_transcript(record_id: int, held: str) -> str:
    return extraction.redact_upload(record_id, held)


@shared_task(bind=True, name=EXTRACT_TASK)
def extract_uploaded_session(self: Task, record_id: int) -> str:
    return extraction.extract_upload(
        record_id, task_id=self.request.id or "", worker=self.request.hostname or ""
    )
