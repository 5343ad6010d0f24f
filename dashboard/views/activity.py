"""Every background run of a project — dreams, merges, extractions, gate checks — newest
first, as the workers recorded them (``Run`` rows), so a team can see what happened and
why a dream did or did not start."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ..access import project_for
from ..models import Run, RunKind

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
    return render(
        request,
        "dashboard/activity.html",
        {
            "access": access,
            "project": access.project,
            "page": page,
            "kinds": RunKind.choices,
            "kind": kind,
            "tab": "activity",
        },
    )
