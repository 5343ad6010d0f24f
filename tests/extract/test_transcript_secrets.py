"""The secret corpus through transcript upload and extraction (issue 10, item 4).

Uploaded through the sessions API, every secret of tests/secrets/corpus.py is redacted
inside the JSON strings it sits in, the stored transcript stays one JSON object per
line, and nothing of any secret reaches the stored transcript, any commit or `main`. A
transcript that reaches extraction unredacted (stored before this fix) is screened with
the push's detector and refused, kind by kind. A large upload is held raw in the inbox
and redacted by the worker, not in the request.
"""

from __future__ import annotations

import base64
import json
import subprocess
from collections import defaultdict

import pytest
from django.test import Client

from dashboard.models import AccessToken, Project, RunKind, RunStatus, SessionRecord
from dashboard.tasks.extract import extract_uploaded_session
from tests.dashboard.world import World
from tests.extract.sessions import SessionLog
from tests.extract.test_server import (  # noqa: F401 (the fixtures)
    allow_uploads,
    eager,
    eager_tasks,
    runs,
    upload,
)
from tests.secrets.corpus import CorpusSecret, corpus_secrets

SECRETS = corpus_secrets()
BY_KIND: dict[str, list[CorpusSecret]] = defaultdict(list)
for _secret in SECRETS:
    BY_KIND[_secret.kind].append(_secret)


def _everything_stored(project: Project) -> bytes:
    """Every object of the project's repository (all commits, trees, blobs), as text."""
    git_dir = str(project.repo_dir / ".git")
    listed = subprocess.run(
        ["git", f"--git-dir={git_dir}", "cat-file", "--batch-all-objects", "--batch"],
        capture_output=True, check=True,
    )  # fmt: skip
    return listed.stdout


def _post(project: Project, world: World, body: dict[str, object]) -> dict[str, object]:
    _, token = AccessToken.issue(world.users["bob"], "laptop")
    auth = "Basic " + base64.b64encode(f"bob:{token}".encode()).decode()
    response = Client().post(
        f"/api/projects/{project.slug}/sessions", body, content_type="application/json",
        HTTP_AUTHORIZATION=auth,
    )  # fmt: skip
    assert response.status_code in (200, 201), response.content
    return response.json()


def _session(secrets: list[CorpusSecret], session_id: str) -> SessionLog:
    log = SessionLog(session_id=session_id)
    for n, secret in enumerate(secrets):
        log.turn(
            f"Remember that credential {n} of the deploy is {secret.line}",
            answer=f'Noted: "{secret.line}" is kept.',
        )
    return log


def _jsonl(log: SessionLog) -> str:
    return "".join(json.dumps(line) + "\n" for line in log.lines)


@pytest.mark.usefixtures("eager")
def test_the_corpus_uploaded_and_extracted_leaves_no_secret_anywhere(
    world: World, django_capture_on_commit_callbacks
):
    acme = allow_uploads(world.acme)
    log = _session(SECRETS, "c0a1b2c3-0000-4000-8000-000000000001")

    with django_capture_on_commit_callbacks(execute=True):
        answer = _post(acme, world, {
            "session_id": log.session_id, "touched_at": "2025-09-04T10:00:00Z",
            "messages": len(log.lines), "transcript": _jsonl(log),
        })  # fmt: skip

    stored = (acme.transcripts_dir / f"{log.session_id}.jsonl").read_text(encoding="utf-8")
    lines = stored.splitlines()
    assert len(lines) == len(log.lines) and all(json.loads(line) for line in lines)
    transcript = answer["transcript"]
    assert isinstance(transcript, dict) and transcript["redaction"] == "done"
    assert transcript["redactions"] >= 2 * len(SECRETS)
    [extract_run] = runs(acme, RunKind.EXTRACT)
    assert extract_run.status == RunStatus.SUCCEEDED, extract_run.error
    repo = world.repo()
    assert extract_run.detail["saved"] and len(repo.files("main")) > 2
    everything = _everything_stored(acme)
    leaked = defaultdict(list)
    for secret in SECRETS:
        for part in secret.parts():
            for where, text in (("transcript", stored.encode()), ("repository", everything)):
                if part.encode() in text or json.dumps(part)[1:-1].encode() in text:
                    leaked[secret.kind].append(where)
    assert dict(leaked) == {}


@pytest.mark.parametrize("kind", sorted(BY_KIND))
@pytest.mark.usefixtures("eager")
def test_an_unredacted_transcript_is_screened_with_the_push_detector(kind: str, world: World):
    # A transcript stored before JSON-aware redaction (or by a path that skipped it):
    # what extraction would save is screened by the push's rules and refused.
    acme = allow_uploads(world.acme)
    record = upload(
        acme, world.users["bob"], _session(BY_KIND[kind], "d0a1b2c3-0000-4000-8000-000000000002")
    )

    summary = extract_uploaded_session.delay(record.pk).get()

    [extract_run] = runs(acme, RunKind.EXTRACT)
    everything = _everything_stored(acme)
    for secret in BY_KIND[kind]:
        assert all(part.encode() not in everything for part in secret.parts()), summary
        assert all(part not in extract_run.error for part in secret.parts())
    # The deterministic engine saves what follows "Remember that" (a secret with it) or,
    # for a line it does not take as a memory, nothing: refused, or nothing saved.
    assert (extract_run.status, summary.endswith("refused")) == (RunStatus.FAILED, True) or (
        extract_run.detail.get("saved") == []
    ), summary


# In the test's transaction: what the upload queues waits for its commit, run below.
@pytest.mark.usefixtures("eager_tasks")
def test_a_large_upload_is_held_raw_and_redacted_by_the_worker(
    world: World, django_capture_on_commit_callbacks, settings
):
    settings.MEMSYNC_INLINE_REDACTION_BYTES = 1024
    acme = allow_uploads(world.acme)
    secrets = BY_KIND["aws-secret-quoted"] + BY_KIND["putty-private-key"]
    log = _session(secrets, "e0a1b2c3-0000-4000-8000-000000000003")
    text = _jsonl(log)
    assert len(text) > 1024

    with django_capture_on_commit_callbacks(execute=False) as queued:
        answer = _post(acme, world, {
            "session_id": log.session_id, "touched_at": "2025-09-04T10:00:00Z",
            "messages": len(log.lines), "transcript": text,
        })  # fmt: skip

    # Answered before any redaction: the raw upload waits in the inbox, outside the
    # repository, and nothing is published or extracted yet.
    assert answer["transcript"] == {"stored": True, "redaction": "queued"}
    [held] = list(acme.inbox_dir.iterdir())
    assert held.read_text(encoding="utf-8") == text
    assert not (acme.transcripts_dir / f"{log.session_id}.jsonl").exists()
    assert SessionRecord.objects.get(session_id=log.session_id).transcript == ""
    assert runs(acme, RunKind.EXTRACT) == []

    with django_capture_on_commit_callbacks(execute=True):
        for callback in queued:
            callback()

    assert list(acme.inbox_dir.iterdir()) == []
    stored = (acme.transcripts_dir / f"{log.session_id}.jsonl").read_text(encoding="utf-8")
    assert all(json.loads(line) for line in stored.splitlines())
    record = SessionRecord.objects.get(session_id=log.session_id)
    assert record.transcript == f"transcripts/{log.session_id}.jsonl"
    [extract_run] = runs(acme, RunKind.EXTRACT)
    assert extract_run.status == RunStatus.SUCCEEDED, extract_run.error
    everything = _everything_stored(acme)
    for secret in secrets:
        for part in secret.parts():
            assert part not in stored and part.encode() not in everything


def test_an_older_held_upload_never_replaces_a_newer_transcript(world: World, settings):
    from memsync.extract.uploads import TranscriptInbox

    acme = allow_uploads(world.acme)
    inbox = TranscriptInbox(acme.inbox_dir, acme.transcripts_dir)
    older = inbox.hold("s1", '{"n": 1}\n')
    newer = inbox.hold("s1", '{"n": 2}\n')

    published = inbox.publish(newer)
    assert published is not None and published.path.read_text() == '{"n": 2}\n'
    assert inbox.publish(older) is None  # superseded: dropped, not published
    assert inbox.publish(newer) is None  # already published
    assert published.path.read_text() == '{"n": 2}\n'
    assert list(acme.inbox_dir.iterdir()) == []
