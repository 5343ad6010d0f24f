"""The activity page: every background run a worker recorded, filterable by kind."""

from __future__ import annotations

import pytest
from django.utils import timezone

from dashboard.models import Run, RunKind, RunStatus

pytestmark = pytest.mark.django_db


def record(world, kind: RunKind, status: RunStatus, summary: str = "", **fields) -> Run:
    now = timezone.now()
    return Run.objects.create(
        project=world.acme, kind=kind, status=status, summary=summary,
        started_at=now, finished_at=now, **fields,
    )  # fmt: skip


def test_it_lists_every_kind_of_run_with_its_status_worker_and_summary(world):
    record(world, RunKind.MERGE, RunStatus.MERGED, "merged members/bob: 2 files", worker="w1@a")
    record(world, RunKind.EXTRACT, RunStatus.NO_CHANGES, "nothing to save")
    record(world, RunKind.GATE, RunStatus.SKIPPED, "sessions gate closed: 2 of 5 sessions")
    record(world, RunKind.DREAM, RunStatus.FAILED, error="engine exploded")

    page = world.client("carol").get("/p/acme/activity/").content.decode()

    for text in ("merged members/bob: 2 files", "w1@a", "nothing to save",
                 "sessions gate closed", "engine exploded"):  # fmt: skip
        assert text in page


def test_it_filters_by_kind(world):
    record(world, RunKind.MERGE, RunStatus.MERGED, "the merge")
    record(world, RunKind.EXTRACT, RunStatus.SUCCEEDED, "the extraction")

    page = world.client("bob").get("/p/acme/activity/?kind=merge").content.decode()

    assert "the merge" in page and "the extraction" not in page


def test_it_shows_no_other_projects_runs(world):
    Run.objects.create(project=world.other, kind=RunKind.MERGE, status=RunStatus.MERGED,
                       summary="mallory's merge")  # fmt: skip

    page = world.client("alice").get("/p/acme/activity/").content.decode()

    assert "mallory's merge" not in page
    assert world.client("alice").get("/p/other/activity/").status_code == 404
