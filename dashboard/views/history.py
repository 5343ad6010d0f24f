"""History (SPEC W2): commits with their kind, a commit with its diff, and revert.

Reverting makes a new commit on ``main`` that undoes any one commit of it (an adopted
dream through ``memsync.dream.adoption``) while every later edit stays; history is never
rewritten.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from memsync.dream.adoption import revert as revert_dream
from memsync.store import (
    MAIN,
    CommitInfo,
    CommitKind,
    Diff,
    GitError,
    MemoryRepo,
    StoreError,
    trailers,
)
from memsync.store.logfilter import LogFilter, filtered_log

from ..access import project_for
from ..forms import HistoryFilterForm
from ..models import Role
from ..people import People
from ..queue import queue_facts_warmup
from ..sync import identity_for
from .main_log import grown_with_main
from .snapshot import open_repo, repo_or_404

PER_PAGE = 30
_SHA = re.compile(r"^[0-9a-f]{7,40}$")


def commit_or_404(repo: MemoryRepo, sha: str) -> CommitInfo:
    if not _SHA.match(sha):
        raise Http404("no such commit")
    # A full id needs no rev-parse of its own: one git log reads the commit, or fails
    # for an id that names no commit.
    full = sha if len(sha) == 40 else repo.rev_parse(sha)
    try:
        found = repo.commits([full]).get(full) if full else None
    except GitError:
        found = None
    if found is None:
        raise Http404("no such commit")
    return found


def reverts_on_main(repo: MemoryRepo, head: str | None = None) -> dict[str, str]:
    """Reverted commit → the revert commit on ``main``; one filtered ``git log`` of the
    commits since the last head read (``head``: ``main``'s commit, when the caller has
    read it already)."""
    head = head or repo.rev_parse(MAIN)
    if head is None:
        return {}

    def read(revisions: str) -> dict[str, str]:
        reverts: dict[str, str] = {}
        for commit in repo.commits_with_trailers(trailers.REVERTS, rev=revisions):
            if commit.kind == CommitKind.REVERT:
                for target in trailers.REVERTS.values(commit):
                    reverts.setdefault(target, commit.sha)
        return reverts

    return grown_with_main(repo, "reverts", head, read)


def is_adopted_dream(commit: CommitInfo) -> bool:
    return commit.is_merge and trailers.DREAM.last(commit) is not None


@dataclass(frozen=True)
class RevertState:
    """Whether a commit can be reverted from the dashboard, and by what it was."""

    refusal: str | None  # why not, or None when it can
    reverted_by: str | None


def revert_state(repo: MemoryRepo, commit: CommitInfo) -> RevertState:
    """Any commit on ``main`` can be reverted (issue 13) — an edit, a delete, a sync
    merge — once. One ``for-each-ref --contains`` says both whether ``main`` holds the
    commit and where ``main`` is, which keys the cached reverts."""
    head = repo.tip_containing(commit.sha)
    if head is None:
        return RevertState("This commit is not on main.", None)
    revert = reverts_on_main(repo, head).get(commit.sha)
    if revert is not None:
        return RevertState(f"Already reverted by {revert[:10]}.", revert)
    return RevertState(None, None)


def shown_commit_or_404(repo: MemoryRepo, sha: str) -> tuple[CommitInfo, Diff]:
    """The commit and its diff against its first parent, from one ``git show``."""
    if not _SHA.match(sha):
        raise Http404("no such commit")
    try:
        return repo.show(sha)
    except (GitError, StoreError):
        raise Http404("no such commit") from None


@dataclass(frozen=True)
class HistoryPage:
    commits: list[CommitInfo]
    number: int
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.number > 1


def _page_number(request: HttpRequest) -> int:
    try:
        return max(1, int(request.GET.get("page", "1")))
    except ValueError:
        return 1


def _filtered_commits(
    repo: MemoryRepo, filters: HistoryFilterForm, people: People, number: int
) -> list[CommitInfo]:
    """One page (and one commit more, to know there is a next) of ``main``'s history."""
    skip = (number - 1) * PER_PAGE
    if not filters.is_filtering():
        return repo.log(MAIN, limit=PER_PAGE + 1, skip=skip)
    data = filters.cleaned_data
    where = LogFilter(
        kind=data["kind"] or None,
        authors=people.author_patterns(data["author"]) if data["author"] else (),
        path=data["file"] or None,
    )
    return filtered_log(repo, MAIN, where, limit=PER_PAGE + 1, skip=skip)


@login_required
@require_safe
def history(request: HttpRequest, slug: str) -> HttpResponse:
    access = project_for(request, slug)
    repo = open_repo(access.project.repo_dir)
    number = _page_number(request)
    people = People.of(access.project)
    filters = HistoryFilterForm(request.GET, people.usernames)
    commits = _filtered_commits(repo, filters, people, number) if repo else []
    page = HistoryPage(commits[:PER_PAGE], number, len(commits) > PER_PAGE)
    reverts = reverts_on_main(repo) if repo else {}
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "dashboard/history.html",
        {
            "access": access,
            "project": access.project,
            "page": page,
            "reverts": reverts,
            "people": people,
            "present": set(repo.files(MAIN)) if repo else set(),
            "filters": filters,
            "filter_query": query.urlencode(),
            "tab": "history",
        },
    )


@login_required
@require_safe
def commit_detail(request: HttpRequest, slug: str, sha: str) -> HttpResponse:
    access = project_for(request, slug)
    repo = repo_or_404(access.project.repo_dir)
    commit, diff = shown_commit_or_404(repo, sha)
    state = revert_state(repo, commit)
    return render(
        request,
        "dashboard/commit.html",
        {
            "access": access,
            "project": access.project,
            "commit": commit,
            "diff": diff,
            "revertable": state.refusal is None,
            "reverted_by": state.reverted_by,
            "reverts": trailers.REVERTS.last(commit),
            "tab": "history",
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def commit_revert(request: HttpRequest, slug: str, sha: str) -> HttpResponse:
    """GET: what would be undone, and a confirmation button. POST: the revert commit."""
    access = project_for(request, slug, Role.MAINTAINER)
    repo = repo_or_404(access.project.repo_dir)
    commit = commit_or_404(repo, sha)
    refusal = revert_state(repo, commit).refusal
    page = reverse("dashboard:commit", args=[slug, commit.sha])
    if request.method == "POST":
        if refusal is not None:
            messages.error(request, refusal)
            return HttpResponseRedirect(page)
        author = identity_for(access.user)
        try:
            if is_adopted_dream(commit):
                result = revert_dream(repo, commit.sha, author=author)
            else:
                result = repo.revert(commit.sha, author=author)
        except StoreError as error:
            messages.error(request, f"Could not revert: {error}")
            return HttpResponseRedirect(page)
        if result.status == "conflict":
            paths = ", ".join(c.path for c in result.conflicts)
            messages.error(
                request,
                f"Not reverted: later edits to {paths} conflict with undoing this commit. "
                "Nothing was changed.",
            )
            return HttpResponseRedirect(page)
        if result.commit is None or result.status != "merged":
            messages.info(request, "Nothing to revert: main already lacks these changes.")
            return HttpResponseRedirect(page)
        queue_facts_warmup(access.project.pk)
        messages.success(request, f"Reverted {commit.sha[:10]}; later edits were kept.")
        return HttpResponseRedirect(reverse("dashboard:commit", args=[slug, result.commit]))
    return render(
        request,
        "dashboard/revert_confirm.html",
        {
            "access": access,
            "project": access.project,
            "commit": commit,
            "diff": repo.diff(commit.sha),
            "refusal": refusal,
            "adopted_dream": is_adopted_dream(commit),
            "tab": "history",
        },
    )
