"""The beat's upkeep task walks every project's repository."""

from __future__ import annotations

from django.conf import settings

from dashboard.queue import UPKEEP_TASK
from dashboard.tasks.upkeep import keep_repositories
from memsync.store.upkeep import QUARANTINE_MAX_AGE_SECONDS
from tests.store.test_upkeep import graph_layers, quarantine


def test_it_cleans_every_project_and_is_on_the_beat(world):
    stale = quarantine(world.repo(), "killed-push", QUARANTINE_MAX_AGE_SECONDS * 2)

    summary = keep_repositories()

    assert not stale.exists()
    assert summary.startswith("2 repositories kept up; 1 stale quarantines removed")
    assert graph_layers(world.repo()) and graph_layers(world.repo(world.other))
    beat = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert UPKEEP_TASK in beat
