"""The dream on the server, in-process: gate checks against the database, the beat's
one query, queued runs and their execution into ``Run`` rows (real repositories, real
Redis; the worker processes are in ``test_worker.py``)."""

from __future__ import annotations

import time

import pytest
from django.utils import timezone

from dashboard.models import Project, Run, RunKind, RunStatus
from dashboard.services import dreams
from memsync.store import MAIN, MemoryRepo
from tests.dream.server import consolidated, make_project, report_sessions

pytestmark = pytest.mark.django_db

NOTE = "tests.dream.engines:NoteEngine"


@pytest.fixture(autouse=True)
def note_engine(settings):
    settings.MEMSYNC_DREAM_ENGINE = NOTE
    return settings


def test_it_queues_a_dream_once_the_transaction_commits_when_every_gate_passes(
    django_capture_on_commit_callbacks,
):
    project = make_project()
    sessions = report_sessions(project, 5)

    with django_capture_on_commit_callbacks(execute=False) as sent:
        check = dreams.check_project(project, "session")

    assert check.passed and check.run_id is not None
    run = Run.objects.get(pk=check.run_id)
    assert (run.kind, run.status, run.trigger) == (RunKind.DREAM, RunStatus.QUEUED, "session")
    assert sorted(run.detail["sessions"]) == sorted(sessions)
    assert run.detail["gate_mtime_ns"] == 0
    assert len(sent) == 1  # the task goes out only after commit


def test_it_checks_a_closed_time_gate_without_touching_the_database(django_assert_num_queries):
    project = make_project()
    report_sessions(project, 9)
    consolidated(project, hours_ago=2)

    with django_assert_num_queries(0):
        check = dreams.check_project(project, "session")

    assert (check.passed, check.gate) == (False, "time")


def test_it_uses_the_projects_own_thresholds_over_the_defaults():
    project = make_project(dream_min_hours=1, dream_min_sessions=2)
    consolidated(project, hours_ago=2)
    report_sessions(project, 2)
    disabled = make_project(dream_enabled=False)

    assert dreams.check_project(project, "push").passed
    assert dreams.check_project(disabled, "push").gate == "enabled"


def test_it_scans_the_session_records_at_most_once_per_ten_minutes():
    project = make_project()
    report_sessions(project, 2)

    first = dreams.check_project(project, "session")
    second = dreams.check_project(project, "session")

    assert first.gate == "sessions"
    assert second.gate == "scan-throttle"
    project.refresh_from_db()
    assert project.last_session_scan_at is not None


def test_it_counts_sessions_since_the_last_consolidation_without_the_current_one():
    project = make_project()
    consolidated(project, hours_ago=30)
    report_sessions(project, 3, minutes_ago=40 * 60)  # before the last consolidation
    recent = report_sessions(project, 5)

    check = dreams.check_project(project, "session", current_session=recent[0])

    assert check.gate == "sessions"
    assert "4 sessions since the last consolidation, 5 needed" in check.reason


def test_it_evaluates_every_project_with_one_query_when_their_time_gates_are_closed(
    django_assert_num_queries,
):
    for _ in range(5):
        consolidated(make_project(), hours_ago=1)

    with django_assert_num_queries(1):
        report = dreams.evaluate_all()

    assert (report.projects, report.past_time_gate, report.queued) == (5, 0, [])


def test_it_queues_dreams_only_for_projects_past_every_gate_in_the_beat(
    django_capture_on_commit_callbacks,
):
    due = make_project()
    report_sessions(due, 5)
    recent = make_project()
    consolidated(recent, hours_ago=1)
    report_sessions(recent, 5)
    make_project(dream_enabled=False)
    few = make_project()
    report_sessions(few, 1)

    with django_capture_on_commit_callbacks(execute=False):
        report = dreams.evaluate_all()

    assert report.projects == 3  # the disabled project is not even read
    assert report.past_time_gate == 2
    [run_id] = report.queued
    assert Run.objects.get(pk=run_id).project == due


def run_now(project: Project, **fields: object) -> Run:
    run = Run.objects.create(project=project, kind=RunKind.DREAM, **fields)
    dreams.execute_run(run.pk, worker="test@here")
    run.refresh_from_db()
    return run


def test_it_runs_a_queued_dream_into_a_proposal_and_records_it():
    project = make_project()
    sessions = report_sessions(project, 5)
    main_before = MemoryRepo(project.repo_dir).rev_parse(MAIN)

    run = run_now(project, trigger="beat", detail={"gate_mtime_ns": 0, "sessions": sessions})

    assert run.status == RunStatus.PROPOSED
    assert run.summary == "Improved 1 memory: dream_note.md"
    assert run.worker == "test@here"
    assert run.started_at and run.finished_at
    dream_id = run.detail["dream_id"]
    assert run.detail["proposal"] == dream_id
    assert run.detail["engine"] == "note"
    repo = MemoryRepo(project.repo_dir)
    assert repo.rev_parse(MAIN) == main_before
    assert repo.rev_parse(run.detail["branch"]) == run.detail["commit"]
    assert repo.commit_info(run.detail["commit"]).trailer("Memsync-Sessions") == "5"
    assert run.progress["phase"] == "updating"
    assert run.progress["files_touched"] == ["dream_note.md", "MEMORY.md"]
    assert run.progress["sessions_reviewed"] == 5


def test_it_leaves_a_run_someone_else_claimed_alone():
    project = make_project()
    run = Run.objects.create(project=project, kind=RunKind.DREAM, status=RunStatus.RUNNING)

    message = dreams.execute_run(run.pk)

    run.refresh_from_db()
    assert "not queued" in message
    assert run.status == RunStatus.RUNNING
    assert MemoryRepo(project.repo_dir).branches("dream/") == {}


def test_it_runs_a_manual_dream_whatever_the_gates_say(django_capture_on_commit_callbacks):
    project = make_project()
    stamp = consolidated(project, hours_ago=1)

    with django_capture_on_commit_callbacks(execute=False):
        queued = dreams.start_manual_dream(project)
    dreams.execute_run(queued.pk)

    queued.refresh_from_db()
    assert (queued.trigger, queued.status) == ("manual", RunStatus.PROPOSED)
    assert (project.repo_dir / ".consolidate-lock").stat().st_mtime_ns > stamp


def test_it_records_locked_and_returns_when_another_dream_holds_the_redis_lock():
    project = make_project()
    client = dreams.redis_client()
    client.set(dreams.lock_key(project), "other-host:99:ff", px=30_000)
    try:
        started = time.monotonic()
        run = run_now(project, detail={"force": True})
        assert time.monotonic() - started < 10
    finally:
        client.delete(dreams.lock_key(project))

    assert run.status == RunStatus.LOCKED
    assert "other-host:99" in run.summary


def test_it_skips_a_gated_dream_when_another_consolidation_finished_first():
    project = make_project()
    gate_read = consolidated(project, hours_ago=30)
    first = run_now(project, detail={"gate_mtime_ns": gate_read, "sessions": []})

    second = run_now(project, detail={"gate_mtime_ns": gate_read, "sessions": []})

    assert first.status == RunStatus.PROPOSED
    assert second.status == RunStatus.SKIPPED
    assert "another consolidation finished" in second.summary
    assert len(MemoryRepo(project.repo_dir).branches("dream/")) == 1


def test_it_cancels_a_run_that_was_cancelled_before_it_started():
    project = make_project()

    run = run_now(project, cancel_requested=True, detail={"force": True})

    assert run.status == RunStatus.CANCELLED
    assert run.started_at is None
    assert MemoryRepo(project.repo_dir).branches("dream/") == {}


def test_it_fails_the_run_with_a_clear_message_when_the_engine_cannot_be_built(settings):
    settings.MEMSYNC_DREAM_ENGINE = "tests.dream.no_such_module:Engine"
    project = make_project()

    run = run_now(project, detail={"force": True})

    assert run.status == RunStatus.FAILED
    assert "cannot load the dream engine 'tests.dream.no_such_module:Engine'" in run.error
    assert not (project.repo_dir / ".consolidate-lock").exists()


def test_it_marks_a_run_whose_worker_died_as_abandoned_once_the_locks_are_retaken():
    project = make_project()
    dead = Run.objects.create(
        project=project,
        kind=RunKind.DREAM,
        status=RunStatus.RUNNING,
        started_at=timezone.now(),
    )

    fresh = run_now(project, detail={"force": True})

    dead.refresh_from_db()
    assert fresh.status == RunStatus.PROPOSED
    assert dead.status == RunStatus.FAILED
    assert f"run {fresh.pk} reclaimed the locks" in dead.error


def test_it_schedules_the_beat_in_settings_expiring_before_the_next_run(settings):
    from memsync.celery import app

    app.loader.import_default_modules()
    [entry] = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if "dream" in e["task"]]

    assert entry["task"] in app.tasks
    assert entry["schedule"] == 600
    assert 0 < entry["options"]["expires"] < entry["schedule"]


def test_it_records_a_gate_check_that_scanned_sessions_but_not_one_the_time_gate_closed():
    scanned = make_project()
    report_sessions(scanned, 2)
    recent = make_project()
    consolidated(recent, hours_ago=2)

    dreams.check_project(scanned, "session")
    dreams.check_project(scanned, "session")  # closed by the scan throttle: not recorded
    dreams.check_project(recent, "push")

    [run] = Run.objects.filter(kind=RunKind.GATE)
    assert (run.project, run.status, run.trigger) == (scanned, RunStatus.SKIPPED, "session")
    assert run.summary.startswith("sessions gate closed:")
    assert run.detail["gate"] == "sessions"
