"""Every background run of a project — dreams, merges, extractions, gate checks — newest
first, as the workers recorded them (``Run`` rows), so a team can see what happened and
why a dream did or did not start. Each row's status is the current one (``run_status``):
a proposed dream that was adopted since says so."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ..access import project_for
from ..models import Run, RunKind, RunStatus
from ..services import proposal_cache
from .run_status import shown_runs
from .snapshot import open_repo

PAGE_SIZE = 50


@login_required
@require_safe
def activity(request: HttpRequest, slug: str) -> HttpResponse:
    access = project_for(request, slug)
    runs = Run.objects.filter(project=access.project).select_related("requested_by")
    kind = request.GET.get("kind", "")
    if kind in RunKind.values:
        runs = runs.filter(kind=kind)
    page = Paginator(runs.order_by("-created_at", "-pk"), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    rows = list(page.object_list)
    # Git is read only when a proposed dream is on this page: only its fate can change.
    repo = open_repo(access.project.repo_dir)
    proposed = repo is not None and any(run.status == RunStatus.PROPOSED for run in rows)
    return render(
        request,
        "dashboard/activity.html",
        {
            "access": access,
            "project": access.project,
            "page": page,
            "rows": shown_runs(rows, proposal_cache.proposals(repo) if proposed and repo else []),
            "kinds": RunKind.choices,
            "kind": kind,
            "tab": "activity",
        },
    )
