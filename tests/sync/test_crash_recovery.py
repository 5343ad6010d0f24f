"""A worker killed mid-merge does not wedge the project (issue 10, item 2).

Ten members' pushes wait to merge. A real Celery worker is SIGKILLed, with everything
it started, while a merge is half done: ``MERGE_HEAD`` and the merged files staged in
the server's working tree, the run still "running", the other merges' messages gone
with the worker. A new worker with its beat is started and nobody does anything else:
every change must reach ``main`` (or a conflict item) and the dead run be closed.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from dashboard.models import ConflictItem, Run, RunKind, RunStatus
from dashboard.tasks.sync import merge_member_branch_task
from memsync.store.gitcmd import GitRunner
from tests.sync.conftest import Team, make_team, topic, wait_for_merges
from tests.sync.test_merge import member_commit

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker, pytest.mark.slow]

MEMBERS = [f"k{n:02d}" for n in range(1, 11)]


def _hold_commits(team: Team, tmp_path: Path) -> tuple[Path, Path]:
    """Make the server's next commit stop until the test has killed its worker.

    ``prepare-commit-msg`` runs inside ``git commit`` (``--no-verify`` does not skip it),
    after the merge is staged and ``MERGE_HEAD`` written: the moment a merge is most
    exposed. It only waits while ``hold`` exists, and says it got there in ``reached``.
    """
    hold, reached = tmp_path / "hold", tmp_path / "reached"
    hook = team.git_dir() / "hooks" / "prepare-commit-msg"
    hook.write_text(
        f"#!/bin/sh\nif [ -e '{hold}' ]; then touch '{reached}'; sleep 60; fi\nexit 0\n"
    )
    hook.chmod(0o755)
    hold.touch()
    return hold, reached


def _wait_for(path: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise AssertionError(f"{path.name} did not appear within {timeout}s")
        time.sleep(0.05)


def test_a_worker_killed_mid_merge_leaves_nothing_for_a_human_to_do(
    tmp_path: Path, celery_worker_factory
):
    team = make_team(f"crash-{tmp_path.name[-10:]}", dict.fromkeys(MEMBERS, "member"))
    (team.project.repo_dir / "MEMORY.md").write_text("# Team memory\n")
    team.repo.commit("manual", "seed")
    for member in MEMBERS:
        index = f"# Team memory\n- [{member}]({member}.md) — what {member} noted\n"
        note = topic(member, f"What {member} noted", f"marker-{member}")
        member_commit(team, tmp_path, member, {f"{member}.md": note, "MEMORY.md": index})
    hold, reached = _hold_commits(team, tmp_path)
    first = celery_worker_factory(queues="memsync")
    for member in MEMBERS:
        merge_member_branch_task.apply_async((team.project.pk, member), {"tip": ""})

    _wait_for(reached, timeout=120)
    first.kill_tree()
    hold.unlink()

    # The wedge of the issue: a merge half done in the working tree, a run "running".
    git_dir = team.git_dir()
    assert (git_dir / "MERGE_HEAD").exists()
    assert GitRunner(team.repo.path).run("status", "--porcelain", "--untracked-files=no")
    dead = Run.objects.get(project=team.project, kind=RunKind.MERGE, status=RunStatus.RUNNING)
    assert not team.repo.is_ancestor(f"members/{dead.detail['member']}", "main")

    celery_worker_factory(
        queues="memsync",
        env={
            "MEMSYNC_MERGE_SWEEP_SECONDS": "3",
            "MEMSYNC_ABANDONED_RUN_SECONDS": "0",
            "MEMSYNC_DREAM_ENABLED": "0",
        },
        extra=("--beat", "--schedule", str(tmp_path / "beat-schedule")),
    )
    wait_for_merges(team, timeout=240)

    repo = team.repo
    main_files = set(repo.files("main"))
    index = repo.read("main", "MEMORY.md").decode()
    kept_aside = {item.member for item in ConflictItem.objects.filter(project=team.project)}
    for member in MEMBERS:
        assert (f"{member}.md" in main_files and f"({member}.md)" in index) or (
            member in kept_aside
        ), member
    dead.refresh_from_db()
    assert dead.status == RunStatus.FAILED and dead.error.startswith("abandoned:")
    assert not (git_dir / "MERGE_HEAD").exists()
    assert not (git_dir / "index.lock").exists()
    assert GitRunner(repo.path).run("status", "--porcelain", "--untracked-files=no") == ""
    assert "<<<<<<<" not in index
    fsck = subprocess.run(
        ["git", "-C", str(repo.path), "fsck", "--no-progress"], capture_output=True, text=True
    )
    assert fsck.returncode == 0, fsck.stderr
