"""Repository upkeep on the beat: stale push quarantines removed, commit-graphs written."""

from __future__ import annotations

from celery import shared_task

from memsync.store.upkeep import keep_up

from ..models import Project
from ..queue import UPKEEP_TASK


@shared_task(name=UPKEEP_TASK)
def keep_repositories() -> str:
    """One pass over every project's repository (memsync/store/upkeep.py says what)."""
    removed = freed = kept = 0
    for project in Project.objects.only("pk", "slug").iterator():
        if not (project.repo_dir / ".git").is_dir():
            continue
        report = keep_up(project.repo_dir)
        removed += report.quarantines_removed
        freed += report.bytes_freed
        kept += 1
    return f"{kept} repositories kept up; {removed} stale quarantines removed ({freed:,} bytes)"
