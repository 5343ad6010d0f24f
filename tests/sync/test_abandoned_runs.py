"""Runs left "running" by a dead worker are closed and retried by the sweep, asked of
the live workers (issue 10, item 2). Here the dead run is an extraction whose worker
died holding its session: the session is freed and the extraction runs again, from the
cursor the dead run never moved."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from dashboard.models import Run, RunKind, RunStatus
from dashboard.recovery import abandon_dead_runs
from tests.extract.uploads import uploaded_session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def test_a_dead_extraction_gives_its_messages_back_and_runs_again(celery_worker):
    # Held by the run below when its worker died.
    project, record = uploaded_session("dead", extraction_task="0f5e2c1a-dead-task")
    started = timezone.now() - timedelta(minutes=5)
    dead = Run.objects.create(
        project=project,
        kind=RunKind.EXTRACT,
        status=RunStatus.RUNNING,
        task_id="0f5e2c1a-dead-task",
        worker="gone@nowhere",
        started_at=started,
        created_at=started,
        session=record,
        detail={"session": record.session_id},
    )
    alive = Run.objects.create(
        project=project,
        kind=RunKind.MERGE,
        status=RunStatus.RUNNING,
        started_at=timezone.now(),  # within the grace period: not even asked about
    )

    abandoned = abandon_dead_runs()

    assert [run.pk for run in abandoned] == [dead.pk]
    dead.refresh_from_db()
    assert dead.status == RunStatus.FAILED and dead.finished_at is not None
    assert dead.error == "abandoned: worker gone@nowhere no longer runs task 0f5e2c1a-dead-task"
    alive.refresh_from_db()
    assert alive.status == RunStatus.RUNNING
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        retry = Run.objects.filter(kind=RunKind.EXTRACT, finished_at__isnull=False).exclude(
            pk=dead.pk
        )
        if retry.exists():
            break
        time.sleep(0.2)
    [retry_run] = retry
    assert retry_run.status == RunStatus.SUCCEEDED, (retry_run.summary, retry_run.error)
    assert retry_run.detail["messages"] == [0, 1]  # the messages the dead run held
    record.refresh_from_db()
    assert (record.extracted_messages, record.extraction_task) == (2, "")
