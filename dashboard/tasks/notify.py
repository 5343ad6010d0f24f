"""Sending notifications (dashboard/notifications.py): one delivery per task, retried by
the worker with doubling backoff; and a refused push reported by the pre-receive hook."""

from __future__ import annotations

from celery import Task, shared_task

from .. import notifications
from ..models import Project
from ..queue import DELIVER_TASK, PUSH_REFUSED_TASK


@shared_task(bind=True, name=DELIVER_TASK, max_retries=None)
def deliver_notification(self: Task, delivery_id: int) -> str:
    """Try the delivery once; on failure queue the next try (the row counts attempts and
    says when to stop, so Celery's own retry limit is not used)."""
    outcome = notifications.deliver(delivery_id)
    if outcome == "retry":
        attempts = self.request.retries + 1
        raise self.retry(countdown=notifications.retry_delay(attempts))
    return f"delivery {delivery_id}: {outcome}"


@shared_task(name=PUSH_REFUSED_TASK)
def push_refused(project_id: int, pusher: str, problems: list[str]) -> str:
    """Published by name by ``memsync.sync.prereceive``, which imports no Django."""
    project = Project.objects.filter(pk=project_id).first()
    if project is None:
        return f"project {project_id} no longer exists"
    notifications.push_refused(project, pusher, problems)
    return f"refused push by {pusher} to {project.slug}: notified"
