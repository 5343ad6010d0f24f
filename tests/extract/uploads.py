"""A member's uploaded session waiting on the server, as the sessions API leaves it:
a project that takes transcripts, its repository, and one stored transcript."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from django.contrib.auth.models import User

from dashboard.models import Membership, Project, Role, SessionRecord
from dashboard.sync import create_repository
from tests.extract.sessions import SessionLog


def uploaded_session(name: str, **record: object) -> tuple[Project, SessionRecord]:
    """A new project and member named after `name`; `record` sets SessionRecord fields."""
    member = User.objects.create_user(f"bob-{name}", "bob@example.com")
    project = Project.objects.create(
        slug=f"{name}-{time.monotonic_ns()}", name=name.title(), allow_transcripts=True
    )
    Membership.objects.create(project=project, user=member, role=Role.MEMBER)
    create_repository(project)
    log = SessionLog().turn("Remember that the mobile team owns the release calendar.")
    path = log.write(project.transcripts_dir)
    stored = SessionRecord.objects.create(
        project=project,
        user=member,
        session_id=log.session_id,
        touched_at=datetime.now(UTC),
        transcript=path.relative_to(project.base_dir).as_posix(),
        **record,
    )
    return project, stored
