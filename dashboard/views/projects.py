"""The project list: every project of the signed-in user, with its health at a glance."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ..access import signed_in_user
from ..models import ConflictStatus, Membership, Project, Run, RunKind
from .proposals import open_proposal_count
from .snapshot import Health, health_of, open_repo
from .team import last_merges


@dataclass(frozen=True)
class ProjectHealth:
    project: Project
    role: str
    commit: str | None
    health: Health | None
    open_proposals: int
    open_conflicts: int
    last_dream: Run | None
    last_sync: datetime | None


@login_required
@require_safe
def project_list(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    memberships = (
        Membership.objects.filter(user=user)
        .select_related("project")
        .annotate(
            open_conflicts=Count(
                "project__conflicts", filter=Q(project__conflicts__status=ConflictStatus.OPEN)
            )
        )
        .order_by("project__slug")
    )
    rows = []
    for membership in memberships:
        project = membership.project
        repo = open_repo(project.repo_dir)
        commit, health = health_of(repo, project.slug) if repo else (None, None)
        last_dream = project.runs.filter(kind=RunKind.DREAM).order_by("-created_at").first()
        merges = last_merges(repo).values() if repo else ()
        rows.append(
            ProjectHealth(
                project=project,
                role=membership.role,
                commit=commit,
                health=health,
                open_proposals=open_proposal_count(repo) if repo else 0,
                open_conflicts=getattr(membership, "open_conflicts", 0),
                last_dream=last_dream,
                last_sync=max((merge.date for merge in merges), default=None),
            )
        )
    return render(request, "dashboard/project_list.html", {"rows": rows})
