"""The dashboard's cached facts (dashboard/memory_facts.py) brought up to ``main`` in the
worker once ``main`` moves, rather than in the first page request after the move."""

from __future__ import annotations

from celery import shared_task

from memsync.store import StoreError

from .. import memory_facts, sync
from ..models import Project
from ..queue import FACTS_TASK


@shared_task(name=FACTS_TASK)
def warm_main_facts(project_id: int) -> str:
    project = Project.objects.filter(pk=project_id).first()
    if project is None:
        return f"project {project_id} no longer exists"
    try:
        facts = memory_facts.warm_main(sync.open_repository(project))
    except StoreError as error:
        return f"{project.slug}: {error}"
    if facts is None:
        return f"{project.slug}: no commit on main"
    return f"{project.slug}: facts at {facts.commit[:10]} ({facts.memories} memories)"
