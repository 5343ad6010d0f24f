"""Projects with real repositories and reported sessions, for the server-side dream tests."""

from __future__ import annotations

import os
import time
import uuid
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from dashboard.models import Project, Run, SessionRecord
from memsync.store import MemoryRepo

INDEX = "- [Role](user_role.md) — who we are\n"
ROLE = "---\nname: role\ntype: user\n---\nA team of backend developers.\n"


def make_project(slug: str | None = None, **fields: object) -> Project:
    slug = slug or f"p-{uuid.uuid4().hex[:8]}"
    project = Project.objects.create(slug=slug, name=slug, **fields)
    project.repo_dir.mkdir(parents=True)
    (project.repo_dir / "MEMORY.md").write_text(INDEX)
    (project.repo_dir / "user_role.md").write_text(ROLE)
    MemoryRepo.init(project.repo_dir)
    return project


def report_sessions(project: Project, count: int, *, minutes_ago: float = 5) -> list[str]:
    bob, _ = User.objects.get_or_create(username="bob")
    ids = [str(uuid.uuid4()) for _ in range(count)]
    for session in ids:
        SessionRecord.objects.create(
            project=project,
            user=bob,
            session_id=session,
            touched_at=timezone.now() - timedelta(minutes=minutes_ago),
        )
    return ids


def consolidated(project: Project, hours_ago: float) -> int:
    lock = project.repo_dir / ".consolidate-lock"
    lock.write_text("")
    when = time.time_ns() - int(hours_ago * 3600 * 1e9)
    os.utime(lock, ns=(when, when))
    return when


def wait_for(condition, timeout: float = 60.0, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"not reached within {timeout}s")


def finished_runs(project: Project) -> list[Run]:
    return [run for run in Run.objects.filter(project=project) if run.is_finished]
