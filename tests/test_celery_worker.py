"""The test harness runs a real Celery worker against the test database and Redis."""

import pytest

from memsync.celery import app


@pytest.mark.worker
def test_it_starts_a_worker_that_answers_on_the_runs_redis(celery_worker):
    replies = app.control.ping(destination=[celery_worker.name], timeout=5)

    assert replies and celery_worker.name in replies[0]
    assert "ready" in celery_worker.log()
