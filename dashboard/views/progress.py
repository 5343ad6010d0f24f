"""Live progress of a dream (SPEC D7, W4): phase, turns, files touched, elapsed, Cancel.

The page polls a small fragment with htmx; the fragment stops polling itself once the
run has finished, so a finished run costs nothing. The worker writes ``Run.progress``;
this module only reads it (as ``dashboard.runs.RunProgress``), and Cancel only raises
the run's ``cancel_requested`` flag, which the dream checks between turns. A finished run
shows "done" rather than the last phase its worker wrote, and the status of its proposal
as Git has it now (``run_status``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from ..access import ProjectAccess, project_for
from ..models import Role, Run, RunKind, RunStatus
from ..runs import RunProgress
from ..services import proposal_cache
from .run_status import ShownRun, duration_label, shown_run
from .snapshot import open_repo

POLL_SECONDS = 1


@dataclass(frozen=True)
class DreamProgressView:
    """What the progress fragment shows, read from one ``Run`` row."""

    run: Run
    now: datetime
    shown: ShownRun

    @property
    def progress(self) -> RunProgress:
        return RunProgress.of(self.run)

    @property
    def phase(self) -> str:
        if self.finished:
            return "done"
        if self.progress.phase:
            return self.progress.phase
        return "queued" if self.run.status == RunStatus.QUEUED else str(self.run.status)

    @property
    def step(self) -> str | None:
        """The engine's own step (orient, gather, consolidate, prune), when it names one."""
        if self.finished:
            return None
        return self.progress.step

    @property
    def proposal_id(self) -> str | None:
        """The dream id of the proposal this run made, once it has made one."""
        if self.run.status != RunStatus.PROPOSED:
            return None
        return self.run.dream_id or self.progress.dream_id

    @property
    def turns(self) -> int:
        return self.progress.turns

    @property
    def files(self) -> list[str]:
        return list(self.progress.files_touched)

    @property
    def files_count(self) -> int:
        return len(self.progress.files_touched)

    @property
    def sessions_reviewed(self) -> int:
        return self.progress.sessions_reviewed

    @property
    def elapsed(self) -> timedelta | None:
        if self.run.started_at is None:
            return None
        end = self.run.finished_at or self.now
        return max(end - self.run.started_at, timedelta(0))

    @property
    def elapsed_label(self) -> str:
        elapsed = self.elapsed
        return "not started" if elapsed is None else duration_label(elapsed)

    @property
    def finished(self) -> bool:
        return self.run.is_finished

    @property
    def cancellable(self) -> bool:
        return not self.finished and not self.run.cancel_requested


def _dream_run_or_404(access: ProjectAccess, run_id: int) -> Run:
    run = Run.objects.filter(pk=run_id, project=access.project, kind=RunKind.DREAM).first()
    if run is None:
        raise Http404("no such dream")
    return run


def _context(access: ProjectAccess, run: Run) -> dict[str, object]:
    # Only a proposal's fate can change a finished run's status: read Git just for those.
    repo = open_repo(access.project.repo_dir) if run.status == RunStatus.PROPOSED else None
    shown = shown_run(run, proposal_cache.proposals(repo) if repo else [])
    return {
        "access": access,
        "project": access.project,
        "view": DreamProgressView(run, timezone.now(), shown),
        "poll_seconds": POLL_SECONDS,
        "tab": "proposals",
    }


@login_required
@require_safe
def dream_run(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    access = project_for(request, slug)
    run = _dream_run_or_404(access, run_id)
    return render(request, "dashboard/progress.html", _context(access, run))


@login_required
@require_safe
def dream_run_progress(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    """The fragment htmx swaps in place every second while the dream runs."""
    access = project_for(request, slug)
    run = _dream_run_or_404(access, run_id)
    return render(request, "dashboard/_progress.html", _context(access, run))


@login_required
@require_POST
def dream_run_cancel(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    access = project_for(request, slug, Role.MAINTAINER)
    run = _dream_run_or_404(access, run_id)
    # A conditional update: a run that finished meanwhile is left as it is.
    flagged = Run.objects.filter(
        pk=run.pk, status__in=[RunStatus.QUEUED, RunStatus.RUNNING]
    ).update(cancel_requested=True)
    if flagged:
        messages.info(request, "Cancel requested: the dream stops after its current step.")
    else:
        messages.info(request, "This dream had already finished.")
    return HttpResponseRedirect(reverse("dashboard:dream-run", args=[slug, run.pk]))
