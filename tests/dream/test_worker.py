"""The dream through real Celery worker processes, the test database and Redis: end to
end, eight triggers at once, and a worker killed with SIGKILL mid-dream."""

from __future__ import annotations

import os
import signal

import pytest

from dashboard.models import Run, RunKind, RunStatus
from dashboard.services import dreams
from dashboard.tasks.dream import check_dream_gates
from memsync.store import MAIN, MemoryRepo
from tests.dream.server import (
    consolidated,
    finished_runs,
    make_project,
    report_sessions,
    wait_for,
)

pytestmark = [pytest.mark.worker, pytest.mark.slow]

NOTE = {"MEMSYNC_DREAM_ENGINE": "tests.dream.engines:NoteEngine"}
# Dreams may be routed to a queue of their own (CELERY_TASK_ROUTES); listen to both.
QUEUES = "memsync,dreams"


def test_it_dreams_end_to_end_in_a_worker_after_a_session_report(celery_worker_factory):
    worker = celery_worker_factory(env=NOTE, queues=QUEUES)
    project = make_project()
    report_sessions(project, 5)
    main_before = MemoryRepo(project.repo_dir).rev_parse(MAIN)

    check_dream_gates.delay(project.pk, "session")

    run = wait_for(lambda: finished_runs(project))[0]
    assert run.status == RunStatus.PROPOSED, (run.summary, run.error, worker.log()[-3000:])
    assert run.trigger == "session"
    assert run.worker == worker.name
    repo = MemoryRepo(project.repo_dir)
    assert repo.branches("dream/") == {run.detail["branch"]: run.detail["commit"]}
    assert repo.rev_parse(MAIN) == main_before
    assert run.progress["phase"] == "updating"
    assert (project.repo_dir / ".consolidate-lock").read_text() == ""


def test_it_dreams_exactly_once_for_eight_simultaneous_triggers(celery_worker_factory):
    slow = {**NOTE, "MEMSYNC_DREAM_ENGINE": "tests.dream.engines:SlowEngine"}
    celery_worker_factory(env=slow, concurrency=4, queues=QUEUES)
    project = make_project()
    report_sessions(project, 5)

    checks = [check_dream_gates.delay(project.pk, t) for t in ["session", "push"] * 4]

    answers = [check.get(timeout=60) for check in checks]
    wait_for(lambda: all(r.is_finished for r in Run.objects.filter(project=project)), 90)
    assert sum("dream queued" in answer for answer in answers) == 1, answers
    assert sum("gate closed" in answer for answer in answers) == 7, answers
    runs = list(Run.objects.filter(project=project, kind=RunKind.DREAM))
    assert [r.status for r in runs].count(RunStatus.PROPOSED) == 1
    assert all(r.status in (RunStatus.PROPOSED, RunStatus.LOCKED, RunStatus.SKIPPED) for r in runs)
    assert len(MemoryRepo(project.repo_dir).branches("dream/")) == 1


def test_it_lets_one_of_eight_queued_dreams_through_the_locks(celery_worker_factory):
    # Past the gates at the same moment: only the locks (and the mtime check) decide.
    slow = {**NOTE, "MEMSYNC_DREAM_ENGINE": "tests.dream.engines:SlowEngine"}
    celery_worker_factory(env=slow, concurrency=2, queues=QUEUES)
    celery_worker_factory(env=slow, concurrency=2, queues=QUEUES)
    project = make_project()
    gate_read = consolidated(project, hours_ago=30)

    runs = [
        dreams.queue_dream(project, "beat", gate_mtime_ns=gate_read, sessions=("s",))
        for _ in range(8)
    ]

    wait_for(lambda: all(r.is_finished for r in Run.objects.filter(project=project)), 120)
    statuses = [Run.objects.get(pk=run.pk).status for run in runs]
    assert statuses.count(RunStatus.PROPOSED) == 1, statuses
    assert set(statuses) <= {RunStatus.PROPOSED, RunStatus.LOCKED, RunStatus.SKIPPED}
    assert RunStatus.LOCKED in statuses
    assert len(MemoryRepo(project.repo_dir).branches("dream/")) == 1


def test_it_recovers_from_a_worker_killed_mid_dream(celery_worker_factory):
    stuck = celery_worker_factory(
        env={
            "MEMSYNC_DREAM_ENGINE": "tests.dream.engines:SlowEngine",
            "MEMSYNC_TEST_ENGINE_SECONDS": "120",
            "MEMSYNC_DREAM_LOCK_TTL_SECONDS": "3",
        },
        queues=QUEUES,
    )
    project = make_project()
    repo = MemoryRepo(project.repo_dir)
    main_before = repo.rev_parse(MAIN)
    first = dreams.start_manual_dream(project)
    wait_for(lambda: Run.objects.get(pk=first.pk).progress.get("phase") == "updating")

    dreaming_pid = int((project.repo_dir / ".consolidate-lock").read_text())
    os.kill(dreaming_pid, signal.SIGKILL)
    stuck.kill(signal.SIGKILL)

    assert repo.rev_parse(MAIN) == main_before
    assert repo.files(MAIN) == [".gitattributes", ".gitignore", "MEMORY.md", "user_role.md"]
    assert not (project.repo_dir / "dream_note.md").exists()
    assert Run.objects.get(pk=first.pk).status == RunStatus.RUNNING  # nobody could say

    celery_worker_factory(
        env={
            "MEMSYNC_DREAM_ENGINE": "tests.dream.engines:NoteEngine",
            "MEMSYNC_DREAM_LOCK_TTL_SECONDS": "3",
        },
        queues=QUEUES,
    )
    client = dreams.redis_client()
    wait_for(lambda: client.get(dreams.lock_key(project)) is None, timeout=10)
    second = dreams.start_manual_dream(project)

    wait_for(lambda: Run.objects.get(pk=second.pk).is_finished)
    second.refresh_from_db()
    first.refresh_from_db()
    assert second.status == RunStatus.PROPOSED, (second.summary, second.error)
    assert first.status == RunStatus.FAILED
    assert "abandoned" in first.error
    assert repo.branches("dream/") == {second.detail["branch"]: second.detail["commit"]}
    assert list(project.worktrees_dir.iterdir()) == []
    assert repo.rev_parse(MAIN) == main_before
