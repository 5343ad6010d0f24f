"""Scale-out (SPEC O2): two Celery workers, as if on two machines, share Redis and the
data directory. One takes every queue, the other only ``dreams``. Twenty projects, each
with something to consolidate, are triggered four times each: dreams spread over both
machines, and no project dreams twice — every duplicate ends ``locked`` (it arrived
while another dreamt), ``skipped`` (after), or never queues (its gate check was closed).
"""

from __future__ import annotations

import time
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from dashboard.models import DreamEngineChoice, Project, Run, RunKind, RunStatus, SessionRecord
from dashboard.services.dreams import queue_dream
from dashboard.sync import create_repository
from dashboard.tasks.dream import check_dream_gates
from memsync.dream.proposals import list_proposals
from memsync.store import MAIN, MemoryRepo

pytestmark = [pytest.mark.worker, pytest.mark.slow]

PROJECTS = 20
SESSIONS = 5  # the session gate's default

INDEX = (
    "# Team memory\n\n"
    "- [Deploys](project_deploys.md) — when deploys happen\n"
    "- [Old runbook](runbook.md) — the runbook before the move\n"
)
DEPLOYS = (
    "---\nname: Deploys\ndescription: when deploys happen\ntype: project\n---\n"
    "We moved deploys to Tuesdays yesterday.\n\n"
    "**Why:** support is staffed then.\n**How to apply:** merge by Monday evening.\n"
)
ORPHAN = (
    "---\nname: Pager\ndescription: who carries the pager in {slug}\ntype: reference\n---\n"
    "The pager rota for {slug} is in PagerDuty.\n"
)


def make_project() -> Project:
    """A project whose main has a relative date, a dead pointer and an unindexed file."""
    slug = f"scale-{uuid.uuid4().hex[:8]}"
    project = Project.objects.create(
        slug=slug, name=slug, dream_engine=DreamEngineChoice.DETERMINISTIC
    )
    project.repo_dir.mkdir(parents=True)
    (project.repo_dir / "MEMORY.md").write_text(INDEX)
    (project.repo_dir / "project_deploys.md").write_text(DEPLOYS)
    (project.repo_dir / "reference_pager.md").write_text(ORPHAN.format(slug=slug))
    create_repository(project)
    bob, _ = User.objects.get_or_create(username="bob")
    for _ in range(SESSIONS):
        SessionRecord.objects.create(
            project=project,
            user=bob,
            session_id=str(uuid.uuid4()),
            touched_at=timezone.now() - timedelta(minutes=5),
        )
    return project


def wait_for(condition, timeout: float, interval: float = 0.25):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(interval)
    raise AssertionError(f"not reached within {timeout}s")


def overlaps(a: Run, b: Run) -> bool:
    return a.started_at < b.finished_at and b.started_at < a.finished_at


def test_it_spreads_twenty_dreams_over_two_machines_and_never_dreams_a_project_twice(
    celery_worker_factory,
):
    projects = [make_project() for _ in range(PROJECTS)]
    machine_a = celery_worker_factory(queues="memsync,dreams", name="machine-a@scale-out")
    machine_b = celery_worker_factory(queues="dreams", name="machine-b@scale-out")

    checks = {}
    for project in projects:
        # Two beats that read the same time gate queue a dream each, back to back, and a
        # session report and a push each ask for a gate check.
        for _ in range(2):
            queue_dream(project, "beat", gate_mtime_ns=0, sessions=("s",))
        checks[project.pk] = [check_dream_gates.delay(project.pk, t) for t in ("session", "push")]

    answers = {pk: [check.get(timeout=120) for check in sent] for pk, sent in checks.items()}
    dreams = Run.objects.filter(project__in=projects, kind=RunKind.DREAM)
    wait_for(lambda: all(run.is_finished for run in dreams.all()), timeout=300)

    logs = machine_a.log()[-2000:] + machine_b.log()[-2000:]
    proposed = [run for run in dreams.all() if run.status == RunStatus.PROPOSED]
    assert {run.worker for run in proposed} == {machine_a.name, machine_b.name}, logs
    for project in projects:
        runs = list(dreams.filter(project=project).order_by("started_at"))
        queued_by_checks = sum("dream queued" in answer for answer in answers[project.pk])
        assert queued_by_checks <= 1, answers[project.pk]
        assert len(runs) == 2 + queued_by_checks
        winners = [run for run in runs if run.status == RunStatus.PROPOSED]
        assert len(winners) == 1, [(r.status, r.summary, r.error) for r in runs]
        [winner] = winners
        for loser in runs:
            if loser is winner:
                continue
            assert loser.status in (RunStatus.LOCKED, RunStatus.SKIPPED), loser.summary
            if loser.status == RunStatus.LOCKED:
                # Refused because another run of this project held the locks at that very
                # moment, on whichever machine it ran.
                holders = [run for run in runs if run.status != RunStatus.LOCKED]
                assert any(overlaps(loser, holder) for holder in holders), loser.summary
        repo = MemoryRepo(project.repo_dir)
        assert list(repo.branches("dream/").values()) == [winner.detail["commit"]]
        [proposal] = [p for p in list_proposals(repo) if p.is_open]
        assert {"MEMORY.md", "project_deploys.md"} <= set(proposal.files)
        assert b"yesterday" not in (repo.read(winner.detail["commit"], "project_deploys.md") or b"")
        assert repo.read(MAIN, "project_deploys.md") == DEPLOYS.encode()
        assert list(project.worktrees_dir.iterdir()) == []
