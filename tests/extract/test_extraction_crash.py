"""A worker killed mid-extraction loses no messages and extracts none twice (issue 12).

A real Celery worker takes an uploaded session's extraction and is SIGKILLed, with
everything it started, at the two moments that matter: while the extraction commit is
being written (nothing has landed yet), and just after the commit moved
``extractions/<user>`` (the session's cursor not saved yet). Tasks are acknowledged
late, so the broker hands the task to the next worker, which is started with a short
visibility timeout so that it takes the dead worker's task back in seconds rather than
Kombu's hour. No sweep runs: only the redelivered task can put things right, and it
must extract those messages exactly once.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from dashboard.models import Project, Run, RunKind, SessionRecord
from dashboard.services.extraction import request_extraction
from memsync.store import MemoryRepo
from tests.extract.uploads import uploaded_session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker, pytest.mark.slow]

MEMORY = "mobile-team-owns-release.md"
# The hook waits only while the hold file exists; it says it got there in `reached`.
HOLD_COMMIT = """#!/bin/sh
if [ -e '{hold}' ]; then touch '{reached}'; sleep 120; fi
exit 0
"""
# reference-transaction runs once the ref moved ("committed"); stdin names the refs.
HOLD_BRANCH_MOVE = """#!/bin/sh
[ "$1" = committed ] || exit 0
if grep -q ' refs/heads/extractions/' && [ -e '{hold}' ]; then touch '{reached}'; sleep 120; fi
exit 0
"""


def _install_hold(project: Project, hook: str, script: str, tmp_path: Path) -> tuple[Path, Path]:
    hold, reached = tmp_path / "hold", tmp_path / "reached"
    path = project.repo_dir / ".git" / "hooks" / hook
    path.write_text(script.format(hold=hold, reached=reached))
    path.chmod(0o755)
    hold.touch()
    return hold, reached


def _wait_for(found: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not found():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout}s")
        time.sleep(0.2)


def _session_commits(repo: MemoryRepo, branch: str, session_id: str) -> list[str]:
    return [c.sha for c in repo.log(branch) if c.trailer("Memsync-Session") == session_id]


def _kill_mid_extraction_then_redeliver(
    tmp_path: Path, celery_worker_factory, hook: str, script: str
) -> tuple[MemoryRepo, SessionRecord]:
    """Returns once the redelivered task has finished and anything it landed is merged."""
    project, record = uploaded_session(f"crash{tmp_path.name[-8:]}")
    hold, reached = _install_hold(project, hook, script, tmp_path)
    first = celery_worker_factory(queues="memsync")

    request_extraction(record)  # outside a transaction: queued at once
    _wait_for(reached.exists, 120, "the extraction reaching the hook")
    first.kill_tree()
    hold.unlink()
    [dead] = Run.objects.filter(project=project, kind=RunKind.EXTRACT)

    celery_worker_factory(queues="memsync", env={"MEMSYNC_BROKER_VISIBILITY_SECONDS": "2"})
    redelivered = Run.objects.filter(
        project=project, kind=RunKind.EXTRACT, task_id=dead.task_id, finished_at__isnull=False
    )
    _wait_for(redelivered.exists, 120, "the redelivered extraction")
    repo = MemoryRepo(project.repo_dir)
    branch = f"extractions/{record.user.username}"
    assert len(_session_commits(repo, branch, record.session_id)) == 1, [
        (run.status, run.summary) for run in redelivered
    ]
    _wait_for(lambda: repo.read("main", MEMORY) is not None, 120, "the merge into main")
    record.refresh_from_db()
    return repo, record


def test_a_worker_killed_before_the_commit_leaves_the_messages_to_the_redelivered_task(
    tmp_path: Path, celery_worker_factory
):
    repo, record = _kill_mid_extraction_then_redeliver(
        tmp_path, celery_worker_factory, "prepare-commit-msg", HOLD_COMMIT
    )

    assert len(_session_commits(repo, "main", record.session_id)) == 1
    assert record.extracted_messages == 2


def test_a_worker_killed_after_the_commit_is_not_extracted_twice(
    tmp_path: Path, celery_worker_factory
):
    repo, record = _kill_mid_extraction_then_redeliver(
        tmp_path, celery_worker_factory, "reference-transaction", HOLD_BRANCH_MOVE
    )

    assert len(_session_commits(repo, "main", record.session_id)) == 1
    assert record.extracted_messages == 2
