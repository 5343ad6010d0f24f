"""Member merges into ``main`` and the periodic sweep: the use case is
``dashboard/services/merges.py``; these tasks only call it."""

from __future__ import annotations

from celery import Task, shared_task

from ..queue import MERGE_TASK, SWEEP_TASK
from ..services import merges


@shared_task(bind=True, name=MERGE_TASK)
def merge_member_branch_task(
    self: Task, project_id: int, username: str, tip: str = "", branch: str = ""
) -> str:
    return merges.merge_into_main(
        project_id,
        username,
        tip=tip,
        branch=branch,
        task_id=self.request.id or "",
        worker=self.request.hostname or "",
    )


@shared_task(name=SWEEP_TASK)
def sweep_unmerged_pushes() -> str:
    return merges.sweep_unmerged()
