"""Extraction on the server (SPEC E, T1, T5): an uploaded transcript becomes a commit
on ``extractions/<user>`` (never ``members/<user>``, which only its member moves),
screened like a push, then merged into ``main`` as a member's branch is. Celery runs
the tasks eagerly here (in this process, through the real Celery app);
``test_a_worker_extracts_an_upload_end_to_end`` runs them in a real worker."""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client

from dashboard.models import (
    AccessToken,
    Membership,
    Project,
    Role,
    Run,
    RunKind,
    RunStatus,
    SessionRecord,
)
from dashboard.services.extraction import request_extraction
from dashboard.sync import create_repository
from dashboard.tasks.extract import extract_uploaded_session
from memsync.celery import app
from memsync.store import MemoryRepo
from memsync.store.gitcmd import GitRunner
from tests.dashboard.world import World, member_commit
from tests.extract.sessions import SessionLog
from tests.secrets.fakes import fake_secrets


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    """Tasks run in this process when they are sent."""
    before = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


@pytest.fixture
def eager(eager_tasks: None, transactional_db: None) -> None:
    """Tasks run in this process, and what they queue is sent at once: with no test
    transaction around them, "after the commit" (dashboard/queue.py) is now."""


def upload(project: Project, user: User, log: SessionLog) -> SessionRecord:
    """What the sessions API leaves behind: the transcript stored, the session recorded."""
    path = log.write(project.transcripts_dir)
    record, _ = SessionRecord.objects.update_or_create(
        project=project,
        session_id=log.session_id,
        defaults={
            "user": user,
            "touched_at": datetime.now(UTC),
            "transcript": path.relative_to(project.base_dir).as_posix(),
        },
    )
    return record


def allow_uploads(project: Project) -> Project:
    project.allow_transcripts = True
    project.save(update_fields=["allow_transcripts"])
    return project


def runs(project: Project, kind: str) -> list[Run]:
    return list(Run.objects.filter(project=project, kind=kind).order_by("created_at"))


def test_an_upload_lands_on_the_extraction_branch_and_is_merged_into_main(world: World, eager):
    acme = allow_uploads(world.acme)
    log = SessionLog().turn("Remember that the mobile team owns the release calendar.")
    record = upload(acme, world.users["bob"], log)

    summary = extract_uploaded_session.delay(record.pk).get()

    repo = world.repo()
    assert summary == f"extract: {log.session_id} — saved 1 memory"
    extraction = repo.commit_info("extractions/bob")
    assert extraction.subject == summary and extraction.author_name == "bob"
    assert repo.rev_parse("members/bob") is None  # bob's own branch is his alone
    assert extraction.trailer("Memsync-Session") == log.session_id
    main = repo.read("main", "mobile-team-owns-release.md")
    assert main is not None and b"The mobile team owns the release calendar." in main
    [extract_run] = runs(acme, RunKind.EXTRACT)
    [merge_run] = runs(acme, RunKind.MERGE)
    assert extract_run.status == RunStatus.SUCCEEDED and extract_run.summary == summary
    assert extract_run.detail["saved"] == ["mobile-team-owns-release.md"]
    assert merge_run.status == RunStatus.MERGED
    assert merge_run.summary == "merged extractions/bob into main"
    record.refresh_from_db()
    assert record.extracted_messages == 2
    assert repo.branches("extract/") == {} and list(acme.worktrees_dir.iterdir()) == []


def test_the_next_upload_of_a_session_analyses_only_its_new_messages(world: World, eager):
    acme = allow_uploads(world.acme)
    log = SessionLog().turn("Remember that the mobile team owns the release calendar.")
    record = upload(acme, world.users["bob"], log)
    extract_uploaded_session.delay(record.pk).get()
    log.turn("Thanks.").turn("From now on, run the linter before every commit.")
    upload(acme, world.users["bob"], log)

    summary = extract_uploaded_session.delay(record.pk).get()

    assert summary == f"extract: {log.session_id} — saved 1 memory"
    latest = runs(acme, RunKind.EXTRACT)[-1]
    assert latest.detail["messages"] == [2, 5]
    assert world.repo().read("main", "run-linter-before-commit.md") is not None


def test_a_commit_that_landed_before_its_cursor_was_stored_is_not_extracted_again(
    world: World, eager
):
    acme = allow_uploads(world.acme)
    log = SessionLog().turn("Remember that the mobile team owns the release calendar.")
    record = upload(acme, world.users["bob"], log)
    extract_uploaded_session.delay(record.pk).get()
    # What a worker killed between the commit and storing the cursor leaves behind.
    SessionRecord.objects.filter(pk=record.pk).update(extracted_messages=0)

    summary = extract_uploaded_session.delay(record.pk).get()

    assert summary == f"extract: {log.session_id} — skipped: no new messages"
    repo = world.repo()
    extractions = [c for c in repo.log("extractions/bob") if c.kind == "extract"]
    assert len(extractions) == 1 and extractions[0].trailer("Memsync-Cursor") == "2"
    record.refresh_from_db()
    assert (record.extracted_messages, record.extraction_task) == (2, "")


def test_a_session_another_task_is_extracting_is_left_to_it(world: World, eager):
    acme = allow_uploads(world.acme)
    record = upload(acme, world.users["bob"], SessionLog().turn("Remember that x is y."))
    SessionRecord.objects.filter(pk=record.pk).update(extraction_task="another-task")

    summary = extract_uploaded_session.delay(record.pk).get()

    assert summary == "another extraction is analysing these messages"
    record.refresh_from_db()
    assert (record.extracted_messages, record.extraction_task) == (0, "another-task")
    assert world.repo().rev_parse("extractions/bob") is None


def test_it_never_moves_the_members_own_branch(world: World, eager):
    acme = allow_uploads(world.acme)
    member_commit(acme, "bob", {"notes.md": b"bob's unmerged note\n"}, "bob's push")
    repo = world.repo()
    pushed = repo.rev_parse("members/bob")
    record = upload(
        acme, world.users["bob"], SessionLog().turn("Remember that staging resets nightly.")
    )

    extract_uploaded_session.delay(record.pk).get()

    # bob's next push builds on his own tip, which the server left where it was.
    assert repo.rev_parse("members/bob") == pushed
    assert repo.read("extractions/bob", "notes.md") is None
    assert repo.read("main", "staging-resets-nightly.md") is not None


def test_a_secret_in_what_would_be_saved_is_refused_and_nothing_is_stored(world: World, eager):
    acme = allow_uploads(world.acme)
    key = next(secret for secret in fake_secrets() if secret.rule_id == "aws-access-token").value
    log = SessionLog().turn(f"Remember that the deploy user's access key is {key}.")
    record = upload(acme, world.users["bob"], log)
    repo = world.repo()
    objects_before = GitRunner(repo.path).run("count-objects", "-v")

    summary = extract_uploaded_session.delay(record.pk).get()

    [extract_run] = runs(acme, RunKind.EXTRACT)
    assert extract_run.status == RunStatus.FAILED and summary.endswith("refused")
    assert "secret (aws-access-token)" in extract_run.error and key not in extract_run.error
    assert repo.rev_parse("extractions/bob") is None and runs(acme, RunKind.MERGE) == []
    assert GitRunner(repo.path).run("count-objects", "-v") == objects_before
    assert key.encode() not in b"".join(repo.read_many("main", repo.files("main")).values())


def test_a_project_that_takes_no_transcripts_is_not_extracted(world: World, eager):
    record = upload(world.acme, world.users["bob"], SessionLog().turn("Remember that x is y."))

    summary = extract_uploaded_session.delay(record.pk).get()

    assert summary == "no uploaded transcript to extract from"
    assert runs(world.acme, RunKind.EXTRACT)[0].status == RunStatus.SKIPPED
    assert world.repo().rev_parse("members/bob") is None


def test_a_subagent_session_is_skipped_and_its_cursor_moves_on(world: World, eager):
    acme = allow_uploads(world.acme)
    log = SessionLog(session_id="agent-7f3a")
    log.turn("Remember that agents never trigger extraction.")
    path = log.write(acme.transcripts_dir, "agent-7f3a.jsonl")
    record = SessionRecord.objects.create(
        project=acme, user=world.users["bob"], session_id="agent-7f3a",
        touched_at=datetime.now(UTC), transcript=path.relative_to(acme.base_dir).as_posix(),
    )  # fmt: skip

    extract_uploaded_session.delay(record.pk).get()

    assert runs(acme, RunKind.EXTRACT)[0].status == RunStatus.SKIPPED
    record.refresh_from_db()
    assert record.extracted_messages == 2


def test_the_sessions_api_queues_an_extraction_for_an_uploaded_transcript(
    world: World, eager, django_capture_on_commit_callbacks
):
    acme = allow_uploads(world.acme)
    _, token = AccessToken.issue(world.users["bob"], "laptop")
    log = SessionLog().turn("Remember that the mobile team owns the release calendar.")
    body = {
        "session_id": log.session_id,
        "touched_at": "2025-09-04T10:00:00Z",
        "messages": 2,
        "transcript": "".join(json.dumps(line) + "\n" for line in log.lines),
    }
    auth = "Basic " + base64.b64encode(f"bob:{token}".encode()).decode()

    with django_capture_on_commit_callbacks(execute=True):
        response = Client().post(
            f"/api/projects/{acme.slug}/sessions", body, content_type="application/json",
            HTTP_AUTHORIZATION=auth,
        )  # fmt: skip

    assert response.status_code == 201, response.content
    assert [run.status for run in runs(acme, RunKind.EXTRACT)] == [RunStatus.SUCCEEDED]
    assert world.repo().read("main", "mobile-team-owns-release.md") is not None


def test_only_a_stored_transcript_queues_an_extraction(
    world: World, django_capture_on_commit_callbacks
):
    record = upload(world.acme, world.users["bob"], SessionLog().turn("hi"))

    with django_capture_on_commit_callbacks() as refused:
        request_extraction(record)
    allow_uploads(world.acme)
    record.refresh_from_db()
    with django_capture_on_commit_callbacks() as queued:
        request_extraction(record)

    assert (len(refused), len(queued)) == (0, 1)


@pytest.mark.worker
def test_a_worker_extracts_an_upload_end_to_end(celery_worker):
    bob = User.objects.create_user("bob-worker", "bob@example.com")
    project = Project.objects.create(
        slug=f"extract-{time.monotonic_ns()}", name="Extract", allow_transcripts=True
    )
    Membership.objects.create(project=project, user=bob, role=Role.MEMBER)
    create_repository(project)
    record = upload(
        project, bob, SessionLog().turn("Remember that the mobile team owns the release calendar.")
    )

    request_extraction(record)  # outside a transaction: queued at once

    repo = MemoryRepo(project.repo_dir)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if repo.read("main", "mobile-team-owns-release.md") is not None:
            break
        time.sleep(0.5)
    assert repo.read("main", "mobile-team-owns-release.md") is not None, celery_worker.log()
    assert Run.objects.get(project=project, kind=RunKind.EXTRACT).status == RunStatus.SUCCEEDED
