"""Who may see and do what in the dashboard (SPEC W4), for browser sessions.

Viewers read, members read (and manage their own tokens), maintainers act. Someone who
is not in a project gets 404 for its pages, exactly as for a project that does not
exist, so slugs do not leak; a member without the role for an action gets 403. The
role check itself is the one token clients get (``dashboard.auth.membership_for``).
Anonymous users never reach these helpers: the views are behind ``login_required``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from .auth import membership_for
from .models import ROLE_RANK, Project, Role


@dataclass(frozen=True)
class ProjectAccess:
    """A project as one signed-in user may use it."""

    project: Project
    user: User
    role: Role

    def allows(self, role: Role) -> bool:
        return ROLE_RANK[self.role] >= ROLE_RANK[role]

    @property
    def can_act(self) -> bool:
        """Approve, reject, revert, resolve, cancel, manage members: maintainers only."""
        return self.allows(Role.MAINTAINER)


def signed_in_user(request: HttpRequest) -> User:
    """The request's user; the view is behind ``login_required``, so there is one."""
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        raise PermissionDenied("sign in first")
    return user


def project_for(request: HttpRequest, slug: str, role: Role = Role.VIEWER) -> ProjectAccess:
    """The project ``slug`` if the signed-in user is in it with at least ``role``.

    Not a member (or no such project): 404. A member with a lesser role: 403.
    """
    membership = membership_for(signed_in_user(request), slug, role)
    return ProjectAccess(membership.project, membership.user, Role(membership.role))
