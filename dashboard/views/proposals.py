"""Dream proposals (SPEC D5, W3), reviewed like a pull request, and better: a maintainer
can drop single files before approving, and revert any adopted dream later. Comments,
requests for changes and "viewed" marks are in ``review``; the check summary and the
review state the page shows, in ``review_checks``.

Proposals are read from Git alone (``memsync.dream.proposals``); the dream's runs
(``Run`` rows) add what Git does not hold: who asked, how it went, live progress.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from memsync.dream.adoption import approve, reject
from memsync.dream.proposals import Proposal, ProposalStatus
from memsync.memory import INDEX_FILENAME
from memsync.store import MAIN, Diff, MemoryRepo, StoreError

from ..access import ProjectAccess, project_for
from ..forms import ApproveForm
from ..models import Role, Run, RunKind
from ..queue import queue_facts_warmup
from ..services import proposal_cache
from ..services.dreams import start_manual_dream
from ..sync import identity_for
from .review_checks import changes_requested, review_checks, review_state
from .run_status import shown_runs
from .snapshot import open_repo, repo_or_404

RECENT_RUNS = 10


def _proposal_or_404(repo: MemoryRepo, dream_id: str) -> Proposal:
    proposal = proposal_cache.proposal(repo, dream_id)
    if proposal is None:
        raise Http404("no such dream")
    return proposal


@login_required
@require_safe
def proposal_list(request: HttpRequest, slug: str) -> HttpResponse:
    access = project_for(request, slug)
    repo = open_repo(access.project.repo_dir)
    proposals = proposal_cache.proposals(repo) if repo else []
    runs = Run.objects.filter(project=access.project, kind=RunKind.DREAM).select_related(
        "requested_by"
    )[:RECENT_RUNS]
    waiting = [p for p in proposals if p.is_open]
    return render(
        request,
        "dashboard/proposals.html",
        {
            "access": access,
            "project": access.project,
            "open": waiting,
            "changes_requested": changes_requested(access.project, [p.id for p in waiting]),
            "decided": [p for p in proposals if not p.is_open],
            "runs": shown_runs(list(runs), proposals),
            "tab": "proposals",
        },
    )


@dataclass(frozen=True)
class MainMoved:
    """``main`` got commits since the dream started; merging is then a real merge."""

    commits: int
    conflicts: list[str]


def main_moved(repo: MemoryRepo, proposal: Proposal) -> MainMoved | None:
    if not proposal.is_open or proposal.base is None:
        return None
    main = repo.rev_parse(MAIN)
    if main is None or main == proposal.base:
        return None
    ahead, _ = repo.ahead_behind(MAIN, proposal.commit)
    if ahead == 0:
        return None
    return MainMoved(ahead, repo.merge_preview(proposal.commit, MAIN))


def droppable_files(diff: Diff) -> list[str]:
    """Files a maintainer may leave out; the index is fixed up to match what is kept."""
    return [f.path for f in diff.files if f.path.rsplit("/", 1)[-1] != INDEX_FILENAME]


def _detail_page(
    request: HttpRequest,
    access: ProjectAccess,
    repo: MemoryRepo,
    proposal: Proposal,
    form: ApproveForm | None = None,
) -> HttpResponse:
    diff = shown_diff(repo, proposal)
    runs = Run.objects.filter(project=access.project, kind=RunKind.DREAM, dream_id=proposal.id)
    run = runs.first()
    moved = main_moved(repo, proposal)
    checks = review_checks(proposal, run, moved.conflicts if moved else None)
    files = [file.path for file in diff.files]
    return render(
        request,
        "dashboard/proposal.html",
        {
            "access": access,
            "project": access.project,
            "proposal": proposal,
            "diff": diff,
            "diff_heading": _DIFF_HEADINGS[proposal.status],
            "moved": moved,
            "form": form or ApproveForm(files=droppable_files(diff)),
            "run": run,
            "review": review_state(access.project, proposal, access.user, files, checks),
            "can_comment": access.allows(Role.MEMBER),
            "tab": "proposals",
        },
    )


_DIFF_HEADINGS = {
    ProposalStatus.OPEN: "Changes against main",
    ProposalStatus.CONFLICTED: "Changes against main",
    ProposalStatus.ADOPTED: "Changes adopted into main",
    ProposalStatus.REVERTED: "Changes adopted into main, since reverted",
    ProposalStatus.REJECTED: "Changes the dream proposed",
}


def shown_diff(repo: MemoryRepo, proposal: Proposal) -> Diff:
    """An open or rejected dream: what it proposed. An adopted (or reverted) one: what
    its adoption merge brought into main, so files left out are not listed as changes."""
    if proposal.adopted_commit is not None:
        return repo.diff(proposal.adopted_commit)
    return repo.diff(proposal.commit, base=proposal.base)


def _open_decision(
    request: HttpRequest, slug: str, dream_id: str
) -> tuple[ProjectAccess, MemoryRepo, Proposal, str] | HttpResponseRedirect:
    """What approving or rejecting needs: a maintainer, the repository, the proposal and
    its page — or a redirect back to that page when the dream was decided already."""
    access = project_for(request, slug, Role.MAINTAINER)
    repo = repo_or_404(access.project.repo_dir)
    proposal = _proposal_or_404(repo, dream_id)
    page = reverse("dashboard:proposal", args=[slug, dream_id])
    if not proposal.is_open:
        messages.info(request, f"This dream is {proposal.status} already.")
        return HttpResponseRedirect(page)
    return access, repo, proposal, page


@login_required
@require_safe
def proposal_detail(request: HttpRequest, slug: str, dream_id: str) -> HttpResponse:
    access = project_for(request, slug)
    repo = repo_or_404(access.project.repo_dir)
    return _detail_page(request, access, repo, _proposal_or_404(repo, dream_id))


@login_required
@require_POST
def proposal_approve(request: HttpRequest, slug: str, dream_id: str) -> HttpResponse:
    decision = _open_decision(request, slug, dream_id)
    if isinstance(decision, HttpResponseRedirect):
        return decision
    access, repo, proposal, page = decision
    diff = repo.diff(proposal.commit, base=proposal.base)
    files = droppable_files(diff)
    form = ApproveForm(request.POST, files=files)
    if not form.is_valid():
        return _detail_page(request, access, repo, proposal, form)
    dropped = form.dropped()
    try:
        result = approve(
            repo,
            dream_id,
            approver=identity_for(access.user),
            exclude=dropped,
            worktrees_dir=access.project.worktrees_dir,
        )
    except StoreError as error:
        messages.error(request, f"Not approved: {error}")
        return HttpResponseRedirect(page)
    if not result.adopted:
        messages.error(
            request,
            "Not approved: main changed the same files since this dream — "
            + ", ".join(result.conflicts)
            + ". Nothing was merged; the proposal is kept.",
        )
        return HttpResponseRedirect(page)
    queue_facts_warmup(access.project.pk)
    kept = len(files) - len(dropped)
    note = f" ({len(dropped)} file{'s' if len(dropped) != 1 else ''} left out)" if dropped else ""
    messages.success(request, f"Adopted dream {dream_id} into main: {kept} file(s){note}.")
    return HttpResponseRedirect(page)


@login_required
@require_POST
def proposal_reject(request: HttpRequest, slug: str, dream_id: str) -> HttpResponse:
    decision = _open_decision(request, slug, dream_id)
    if isinstance(decision, HttpResponseRedirect):
        return decision
    access, repo, _proposal, page = decision
    try:
        reject(repo, dream_id, by=identity_for(access.user))
    except StoreError as error:
        messages.error(request, f"Not rejected: {error}")
        return HttpResponseRedirect(page)
    messages.success(request, f"Rejected dream {dream_id}. Its commit is kept for the record.")
    return HttpResponseRedirect(page)


@login_required
@require_POST
def dream_start(request: HttpRequest, slug: str) -> HttpResponse:
    """A manual dream (SPEC D6): past the gates, still under both locks; its progress
    page follows it live."""
    access = project_for(request, slug, Role.MAINTAINER)
    if open_repo(access.project.repo_dir) is None:
        raise Http404("this project has no repository yet")
    run = start_manual_dream(access.project, access.user)
    # No flash message: the page's own panel says queued, running or finished, and a
    # message would still say "queued" after the run ended (the panel updates in place).
    return HttpResponseRedirect(reverse("dashboard:dream-run", args=[slug, run.pk]))
