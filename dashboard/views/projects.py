"""The project list: every project of the signed-in user, with its health at a glance."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from memsync.store import refs

from ..access import signed_in_user
from ..models import ConflictStatus, Membership, Project, RunKind
from ..services import proposal_cache
from .run_status import ShownRun, shown_run
from .snapshot import Health, health_at, open_repo
from .team import last_merges


@dataclass(frozen=True)
class ProjectHealth:
    project: Project
    role: str
    commit: str | None
    health: Health | None
    open_proposals: int
    open_conflicts: int
    last_dream: ShownRun | None
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
        # One for-each-ref names main's commit and every ref the proposals are read from.
        found = proposal_cache.every_ref(repo) if repo else {}
        commit = found.get(refs.MAIN_REF)
        health = health_at(repo, commit) if repo and commit else None
        last_run = project.runs.filter(kind=RunKind.DREAM).order_by("-created_at").first()
        proposals = proposal_cache.proposals(repo, found) if repo else []
        merges = last_merges(repo, commit).values() if repo and commit else ()
        rows.append(
            ProjectHealth(
                project=project,
                role=membership.role,
                commit=commit,
                health=health,
                open_proposals=sum(1 for proposal in proposals if proposal.is_open),
                open_conflicts=getattr(membership, "open_conflicts", 0),
                last_dream=shown_run(last_run, proposals) if last_run else None,
                last_sync=max((merge.date for merge in merges), default=None),
            )
        )
    return render(request, "dashboard/project_list.html", {"rows": rows})
