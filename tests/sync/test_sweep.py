"""A push whose merge was never queued (the broker was down when its hook ran) is merged
by the periodic sweep, in a real worker."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from dashboard.tasks.sync import sweep_unmerged_pushes
from memsync.sync.status import unmerged_members
from tests.sync.conftest import make_team, topic
from tests.sync.test_merge import member_commit

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def test_the_sweep_queues_the_merge_of_a_push_nobody_queued(tmp_path: Path, celery_worker):
    team = make_team(f"sweep-{tmp_path.name[-10:]}", {"alice": "maintainer", "bob": "member"})
    (team.project.repo_dir / "MEMORY.md").write_text("# Team memory\n")
    team.repo.commit("manual", "seed")
    member_commit(team, tmp_path, "bob", {"deploys.md": topic("deploys", "When", "Tuesdays.")})
    assert unmerged_members(team.repo) == ["bob"]

    summary = sweep_unmerged_pushes()

    assert summary.startswith("1 member merges queued")
    deadline = time.monotonic() + 60
    while unmerged_members(team.repo) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert unmerged_members(team.repo) == []
    assert (team.project.repo_dir / "deploys.md").exists()
    assert sweep_unmerged_pushes().startswith("0 member merges queued")
