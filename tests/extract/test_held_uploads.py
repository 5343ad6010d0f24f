"""Held uploads the worker never got to are not left in the inbox (issue 10, items 4 and 7).

A large upload waits raw in the project's inbox for the worker's redaction. When the
broker lost that task (it was down when the upload committed) or the worker died, the
periodic sweep queues the redaction again; an upload no session claims is removed, and
so is a partial file a killed writer left: raw text may hold secrets.
"""

from __future__ import annotations

import base64
import json
import os
import time

import pytest
from django.test import Client
from django.utils import timezone

from dashboard.models import AccessToken, Project, RunKind, RunStatus, SessionRecord
from dashboard.recovery import queue_held_uploads
from memsync.extract.uploads import TranscriptInbox, write_atomically
from tests.dashboard.world import World
from tests.extract.sessions import SessionLog
from tests.extract.test_server import (  # noqa: F401 (the fixtures)
    allow_uploads,
    eager_tasks,
    runs,
)
from tests.secrets.corpus import corpus_secrets

AN_HOUR_AGO = time.time() - 3600


def _age(path: os.PathLike[str]) -> None:
    os.utime(path, (AN_HOUR_AGO, AN_HOUR_AGO))


def _inbox(project: Project) -> TranscriptInbox:
    return TranscriptInbox(project.inbox_dir, project.transcripts_dir)


# In the test's transaction: what the upload queues waits for its commit, run below.
@pytest.mark.usefixtures("eager_tasks")
def test_an_upload_whose_redaction_was_lost_is_redacted_and_extracted_after_the_sweep(
    world: World, django_capture_on_commit_callbacks, settings
):
    settings.MEMSYNC_INLINE_REDACTION_BYTES = 0
    acme = allow_uploads(world.acme)
    secret = next(s for s in corpus_secrets() if s.kind == "aws-secret-quoted")
    log = SessionLog(session_id="d0a1b2c3-0000-4000-8000-000000000009")
    log.turn(f"Remember that the deploy key is {secret.line}", answer="Noted.")
    log.turn("Remember that the mobile team owns the release calendar.")
    text = "".join(json.dumps(line) + "\n" for line in log.lines)
    _, token = AccessToken.issue(world.users["bob"], "laptop")
    auth = "Basic " + base64.b64encode(f"bob:{token}".encode()).decode()

    with django_capture_on_commit_callbacks(execute=False):  # the broker never sees it
        response = Client().post(
            f"/api/projects/{acme.slug}/sessions",
            {"session_id": log.session_id, "touched_at": "2025-09-04T10:00:00Z",
             "messages": len(log.lines), "transcript": text},
            content_type="application/json", HTTP_AUTHORIZATION=auth,
        )  # fmt: skip
    assert response.json()["transcript"] == {"stored": True, "redaction": "queued"}
    [held] = list(acme.inbox_dir.iterdir())
    assert _inbox(acme).waiting(older_than=time.time() - 60) == []  # too fresh to retry
    _age(held)

    with django_capture_on_commit_callbacks(execute=True):
        assert queue_held_uploads() == (1, 0)

    assert list(acme.inbox_dir.iterdir()) == []
    stored = (acme.transcripts_dir / f"{log.session_id}.jsonl").read_text(encoding="utf-8")
    assert all(part not in stored for part in secret.parts())
    record = SessionRecord.objects.get(session_id=log.session_id)
    assert record.transcript == f"transcripts/{log.session_id}.jsonl"
    [extract_run] = runs(acme, RunKind.EXTRACT)
    assert extract_run.status == RunStatus.SUCCEEDED, extract_run.error
    assert queue_held_uploads() == (0, 0)  # nothing left for the next sweep


def test_the_sweep_removes_what_nobody_will_publish_and_keeps_fresh_uploads(
    world: World, django_capture_on_commit_callbacks
):
    acme = allow_uploads(world.acme)
    inbox = _inbox(acme)
    SessionRecord.objects.create(
        project=acme, user=world.users["bob"], session_id="live", touched_at=timezone.now()
    )
    fresh = inbox.hold("live", '{"n": 1}\n')
    unclaimed = inbox.hold("deleted-session", "AKIA… raw text\n")
    _age(acme.inbox_dir / unclaimed)
    partial = acme.inbox_dir / ".live.abc.jsonl.0123.partial"  # a killed writer's leftover
    partial.write_text("half of an upl")
    _age(partial)

    with django_capture_on_commit_callbacks(execute=False) as queued:
        assert queue_held_uploads() == (0, 1)

    assert queued == []
    assert [path.name for path in acme.inbox_dir.iterdir()] == [fresh]


def test_two_writers_of_one_transcript_never_share_a_partial_file(tmp_path):
    target = tmp_path / "s1.jsonl"

    write_atomically(target, '{"n": 1}\n')
    write_atomically(target, '{"n": 2}\n')

    assert target.read_text() == '{"n": 2}\n'
    assert [path.name for path in tmp_path.iterdir()] == ["s1.jsonl"]


def test_a_failed_write_leaves_neither_a_partial_file_nor_a_changed_target(tmp_path):
    target = tmp_path / "s1.jsonl"
    write_atomically(target, "kept\n")

    with pytest.raises(UnicodeEncodeError):
        write_atomically(target, "a lone surrogate \ud800\n")

    assert target.read_text() == "kept\n"
    assert [path.name for path in tmp_path.iterdir()] == ["s1.jsonl"]
