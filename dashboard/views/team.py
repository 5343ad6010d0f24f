"""Team sync (SPEC T2, W4): members' branches with their merge state, and the conflict
review items a merge left, resolved by keeping main's side, the member's, or an edit.

A resolution is a merge-kind commit on ``main`` made by ``memsync.sync.merge``; both
sides stay on the conflict's refs either way, so nothing of either is lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from memsync.store import MAIN, CommitInfo, MemoryRepo, StoreError, refs, trailers
from memsync.store.diff import SideBySideRow, side_by_side

from ..access import ProjectAccess, project_for
from ..forms import ResolveForm
from ..models import ConflictItem, ConflictStatus, Project, Role
from ..queue import queue_facts_warmup
from ..ref_memo import refs_now
from ..sync import resolve_conflict
from .main_log import grown_with_main
from .snapshot import open_repo, repo_or_404

RESOLVED_SHOWN = 20  # the newest resolved conflicts the team page lists


@dataclass(frozen=True)
class MemberBranch:
    username: str
    branch: str
    commit: str
    ahead: int  # commits main does not have yet
    behind: int  # commits of main the member has not pulled
    last_merge: CommitInfo | None


def last_merges(repo: MemoryRepo, head: str | None = None) -> dict[str, CommitInfo]:
    """Member → the newest merge of their branch into ``main``; one filtered ``git log``
    of the commits since the last head read (``head``: ``main``'s commit, when the caller
    has read it already)."""
    head = head or repo.rev_parse(MAIN)
    if head is None:
        return {}

    def read(revisions: str) -> dict[str, CommitInfo]:
        merges: dict[str, CommitInfo] = {}
        found = repo.commits_with_trailers(trailers.MEMBER, rev=revisions, first_parent=True)
        for commit in found:
            member = trailers.MEMBER.last(commit)
            if commit.is_merge and member and member not in merges:
                merges[member] = commit
        return merges

    return grown_with_main(repo, "member-merges", head, read)


def ahead_behind(repo: MemoryRepo, commit: str, head: str) -> tuple[int, int]:
    """``MemoryRepo.ahead_behind`` of a member's commit and ``main``'s, cached for the pair:
    one ``rev-list`` per branch the first time, none while neither moves."""
    key = f"memsync:ahead-behind:{repo.path}:{commit}:{head}"
    found = cache.get(key)
    if isinstance(found, tuple):
        return found
    counted = repo.ahead_behind(commit, head)
    cache.set(key, counted, timeout=24 * 3600)
    return counted


def member_branches(repo: MemoryRepo) -> list[MemberBranch]:
    """Every member's branch, from one ``for-each-ref`` that names ``main`` too (run
    again only once a branch moved: ``dashboard.ref_memo``)."""
    found = refs_now(repo, refs.HEADS)
    head = found.get(refs.MAIN_REF)
    if head is None:  # nothing to be ahead of or behind yet
        return []
    merges = last_merges(repo, head)
    members = refs.head_ref(refs.MEMBERS)
    rows = []
    for ref, commit in sorted(found.items()):
        if not ref.startswith(members):
            continue
        username = ref.removeprefix(members)
        ahead, behind = ahead_behind(repo, commit, head)
        branch = ref.removeprefix(refs.HEADS)
        rows.append(MemberBranch(username, branch, commit, ahead, behind, merges.get(username)))
    return rows


def conflicts_shown(project: Project) -> tuple[list[ConflictItem], list[ConflictItem]]:
    """The project's open conflicts and its ``RESOLVED_SHOWN`` newest resolved ones, newest
    first, with who resolved each (the page names them): one query, where two and one
    more per resolver cost the page more than the rest of its work."""
    newest_resolved = ConflictItem.objects.filter(
        project=project, status=ConflictStatus.RESOLVED
    ).values("pk")[:RESOLVED_SHOWN]
    shown = (
        ConflictItem.objects.filter(project=project)
        .filter(Q(status=ConflictStatus.OPEN) | Q(pk__in=newest_resolved))
        .select_related("resolved_by")
    )
    open_conflicts: list[ConflictItem] = []
    resolved_conflicts: list[ConflictItem] = []
    for conflict in shown:
        is_open = conflict.status == ConflictStatus.OPEN
        (open_conflicts if is_open else resolved_conflicts).append(conflict)
    return open_conflicts, resolved_conflicts


@login_required
@require_safe
def team(request: HttpRequest, slug: str) -> HttpResponse:
    access = project_for(request, slug)
    repo = open_repo(access.project.repo_dir)
    open_conflicts, resolved_conflicts = conflicts_shown(access.project)
    return render(
        request,
        "dashboard/team.html",
        {
            "access": access,
            "project": access.project,
            "branches": member_branches(repo) if repo else [],
            "open_conflicts": open_conflicts,
            "resolved_conflicts": resolved_conflicts,
            "tab": "team",
        },
    )


def _conflict_or_404(access: ProjectAccess, conflict_id: int) -> ConflictItem:
    conflict = ConflictItem.objects.filter(pk=conflict_id, project=access.project).first()
    if conflict is None:
        raise Http404("no such conflict")
    return conflict


def _text(repo: MemoryRepo, commit: str, path: str) -> str | None:
    if not commit:
        return None
    try:
        data = repo.read(commit, path)
    except StoreError:
        return None
    return data.decode("utf-8", "replace") if data is not None else None


@dataclass(frozen=True)
class ConflictSides:
    main_text: str | None  # main's side when the merge was tried (None: main deleted it)
    member_text: str | None  # the member's side (None: the member deleted it)
    current_text: str | None  # main now, which may have moved since
    changed_since: bool
    rows: list[SideBySideRow]
    resolved_at: datetime | None


def conflict_sides(repo: MemoryRepo, conflict: ConflictItem) -> ConflictSides:
    main_side = _text(repo, conflict.main_commit, conflict.path)
    member_side = _text(repo, conflict.member_commit, conflict.path)
    current = _text(repo, MAIN, conflict.path)
    return ConflictSides(
        main_text=main_side,
        member_text=member_side,
        current_text=current,
        changed_since=current != main_side,
        rows=side_by_side(
            main_side or "",
            repo.file_diff(conflict.path, conflict.main_commit, conflict.member_commit),
        ),
        resolved_at=conflict.resolved_at,
    )


def _conflict_page(
    request: HttpRequest, access: ProjectAccess, conflict: ConflictItem, form: ResolveForm
) -> HttpResponse:
    repo = repo_or_404(access.project.repo_dir)
    return render(
        request,
        "dashboard/conflict.html",
        {
            "access": access,
            "project": access.project,
            "conflict": conflict,
            "sides": conflict_sides(repo, conflict),
            "form": form,
            "tab": "team",
        },
    )


@login_required
@require_safe
def conflict_detail(request: HttpRequest, slug: str, conflict_id: int) -> HttpResponse:
    access = project_for(request, slug)
    conflict = _conflict_or_404(access, conflict_id)
    repo = repo_or_404(access.project.repo_dir)
    initial = _text(repo, conflict.member_commit, conflict.path) or ""
    return _conflict_page(request, access, conflict, ResolveForm(initial={"content": initial}))


@login_required
@require_POST
def conflict_resolve(request: HttpRequest, slug: str, conflict_id: int) -> HttpResponse:
    access = project_for(request, slug, Role.MAINTAINER)
    conflict = _conflict_or_404(access, conflict_id)
    page = reverse("dashboard:conflict", args=[slug, conflict.pk])
    if conflict.status != ConflictStatus.OPEN:
        messages.info(request, "This conflict was already resolved.")
        return HttpResponseRedirect(page)
    form = ResolveForm(request.POST)
    if not form.is_valid():
        return _conflict_page(request, access, conflict, form)
    choice = form.cleaned_data["choice"]
    content = form.cleaned_data["content"] if choice == "edit" else None
    try:
        resolve_conflict(conflict, choice, content=content, by=access.user)
    except (StoreError, ValueError) as error:
        messages.error(request, f"Not resolved: {error}")
        return HttpResponseRedirect(page)
    conflict.refresh_from_db()
    queue_facts_warmup(access.project.pk)
    messages.success(request, f"Resolved {conflict.path}: {conflict.resolution}.")
    return HttpResponseRedirect(page)
