"""The dream's Celery tasks (SPEC D1, D6); the use case is ``dashboard/services/dreams.py``.

- ``evaluate_dream_gates`` — the beat, every ``MEMSYNC_DREAM_BEAT_SECONDS``;
- ``check_dream_gates(project_id, trigger)`` — when a session is reported or a member's
  push is merged;
- ``run_dream_task(run_id)`` — claims the queued run and dreams; a dream that loses a lock
  records ``locked`` and returns, it never waits behind the holder.
"""

from __future__ import annotations

from celery import Task, shared_task

from ..models import Project
from ..queue import DREAM_BEAT_TASK, DREAM_GATE_TASK, DREAM_RUN_TASK
from ..services import dreams


@shared_task(name=DREAM_BEAT_TASK)
def evaluate_dream_gates() -> str:
    return str(dreams.evaluate_all())


@shared_task(name=DREAM_GATE_TASK)
def check_dream_gates(project_id: int, trigger: str, current_session: str | None = None) -> str:
    project = Project.objects.filter(pk=project_id).first()
    if project is None:
        return f"project {project_id} no longer exists"
    check = dreams.check_project(project, trigger, current_session=current_session)
    if check.run_id is not None:
        return f"{project.slug}: dream queued as run {check.run_id}"
    return f"{project.slug}: {check.reason}"


@shared_task(bind=True, name=DREAM_RUN_TASK)
def run_dream_task(self: Task, run_id: int) -> str:
    return dreams.execute_run(run_id, worker=self.request.hostname or "")
