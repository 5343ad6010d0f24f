"""Reviewing a dream proposal like a pull request (issue 13 item 5): comments on the
whole proposal or on one file, a maintainer's request for changes, and "viewed" marks.

Who may do what (docs/requirements.md, "Reviewing a dream"): members and maintainers
comment and mark files viewed; only maintainers request changes (and approve or
reject, in ``proposals``); viewers read. Each is a POST with CSRF that redirects back
to the proposal page, to the file it was about.
"""

from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from memsync.dream.proposals import Proposal

from ..access import ProjectAccess, project_for
from ..forms import CommentForm, ViewedForm
from ..models import ProposalComment, ReviewVerdict, Role, ViewedFile
from ..services import proposal_cache
from .snapshot import repo_or_404

# The proposal page's own anchors: "diff-3" (a file), "conversation", "request-changes".
_ANCHOR = re.compile(r"^(diff-\d{1,5}|conversation|request-changes)$")


def _reviewable(
    request: HttpRequest, slug: str, dream_id: str, role: Role
) -> tuple[ProjectAccess, Proposal]:
    access = project_for(request, slug, role)
    proposal = proposal_cache.proposal(repo_or_404(access.project.repo_dir), dream_id)
    if proposal is None:
        raise Http404("no such dream")
    return access, proposal


def _back(slug: str, dream_id: str, anchor: str) -> HttpResponseRedirect:
    page = reverse("dashboard:proposal", args=[slug, dream_id])
    return HttpResponseRedirect(page + (f"#{anchor}" if _ANCHOR.match(anchor) else ""))


@login_required
@require_POST
def proposal_comment(request: HttpRequest, slug: str, dream_id: str) -> HttpResponse:
    access, proposal = _reviewable(request, slug, dream_id, Role.MEMBER)
    form = CommentForm(request.POST)
    anchor = request.POST.get("anchor", "")
    if not form.is_valid():
        messages.error(request, "Not saved: write a comment first.")
        return _back(slug, dream_id, anchor)
    path = form.cleaned_data["path"]
    if path and path not in proposal.files:
        raise Http404("no such file in this dream")
    ProposalComment.objects.create(
        project=access.project,
        dream_id=proposal.id,
        path=path,
        author=access.user,
        body=form.cleaned_data["body"],
    )
    return _back(slug, dream_id, anchor or "conversation")


@login_required
@require_POST
def proposal_request_changes(request: HttpRequest, slug: str, dream_id: str) -> HttpResponse:
    """A maintainer's verdict short of a rejection: the proposal stays open."""
    access, proposal = _reviewable(request, slug, dream_id, Role.MAINTAINER)
    if not proposal.is_open:
        messages.info(request, f"This dream is {proposal.status} already.")
        return _back(slug, dream_id, "")
    form = CommentForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Say which changes you want: the comment is empty.")
        return _back(slug, dream_id, "request-changes")
    ProposalComment.objects.create(
        project=access.project,
        dream_id=proposal.id,
        author=access.user,
        verdict=ReviewVerdict.CHANGES,
        body=form.cleaned_data["body"],
    )
    messages.success(request, "Changes requested. The dream stays open for review.")
    return _back(slug, dream_id, "conversation")


@login_required
@require_POST
def proposal_viewed(request: HttpRequest, slug: str, dream_id: str) -> HttpResponse:
    access, proposal = _reviewable(request, slug, dream_id, Role.MEMBER)
    form = ViewedForm(request.POST)
    if not form.is_valid() or form.cleaned_data["path"] not in proposal.files:
        raise Http404("no such file in this dream")
    mark = {
        "project": access.project,
        "dream_id": proposal.id,
        "user": access.user,
        "path": form.cleaned_data["path"],
    }
    if form.cleaned_data["viewed"]:
        ViewedFile.objects.get_or_create(**mark)
    else:
        ViewedFile.objects.filter(**mark).delete()
    return _back(slug, dream_id, request.POST.get("anchor", ""))
