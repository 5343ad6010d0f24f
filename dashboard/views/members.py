"""Members and roles of a project, managed by its maintainers (SPEC W4).

Only maintainers see and change this page. A project always keeps at least one
maintainer: the last one cannot be demoted or removed, or nobody could approve a dream.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from ..access import ProjectAccess, project_for, signed_in_user
from ..forms import MemberAddForm, RoleForm
from ..models import Membership, Role


def _page(request: HttpRequest, access: ProjectAccess, form: MemberAddForm) -> HttpResponse:
    memberships = access.project.memberships.select_related("user").order_by("user__username")
    return render(
        request,
        "dashboard/members.html",
        {
            "access": access,
            "project": access.project,
            "memberships": memberships,
            "form": form,
            "roles": Role.choices,
            "tab": "members",
        },
    )


def _back(slug: str) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("dashboard:members", args=[slug]))


def _membership_or_404(access: ProjectAccess, membership_id: int) -> Membership:
    membership = access.project.memberships.select_related("user").filter(pk=membership_id).first()
    if membership is None:
        raise Http404("no such member")
    return membership


def _is_last_maintainer(membership: Membership) -> bool:
    if membership.role != Role.MAINTAINER:
        return False
    others = Membership.objects.filter(project=membership.project, role=Role.MAINTAINER)
    return not others.exclude(pk=membership.pk).exists()


@login_required
@require_safe
def member_list(request: HttpRequest, slug: str) -> HttpResponse:
    access = project_for(request, slug, Role.MAINTAINER)
    return _page(request, access, MemberAddForm(adder=signed_in_user(request)))


@login_required
@require_POST
def member_add(request: HttpRequest, slug: str) -> HttpResponse:
    access = project_for(request, slug, Role.MAINTAINER)
    form = MemberAddForm(request.POST, adder=signed_in_user(request))
    if not form.is_valid():
        return _page(request, access, form)
    user, role = form.cleaned_data["username"], form.cleaned_data["role"]
    try:
        with transaction.atomic():
            Membership.objects.create(project=access.project, user=user, role=role)
    except IntegrityError:
        form.add_error("username", f"{user.username} is already a member.")
        return _page(request, access, form)
    messages.success(request, f"Added {user.username} as {role}.")
    return _back(slug)


@login_required
@require_POST
def member_role(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    access = project_for(request, slug, Role.MAINTAINER)
    membership = _membership_or_404(access, membership_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Pick one of viewer, member, maintainer.")
        return _back(slug)
    role = form.cleaned_data["role"]
    if role != Role.MAINTAINER and _is_last_maintainer(membership):
        messages.error(request, "A project needs a maintainer; make someone else one first.")
        return _back(slug)
    Membership.objects.filter(pk=membership.pk).update(role=role)
    messages.success(request, f"{membership.user.username} is now {role}.")
    return _back(slug)


@login_required
@require_POST
def member_remove(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    access = project_for(request, slug, Role.MAINTAINER)
    membership = _membership_or_404(access, membership_id)
    if _is_last_maintainer(membership):
        messages.error(request, "A project needs a maintainer; make someone else one first.")
        return _back(slug)
    membership.delete()
    messages.success(request, f"Removed {membership.user.username} from {slug}.")
    return _back(slug)
