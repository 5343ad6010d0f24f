"""Token authentication and role checks for machine clients: Git over HTTP and the API.

A client presents an access token with HTTP Basic (``username:token``, what ``git``
sends from a credential helper) or as ``Authorization: Bearer <token>``. Tokens are
found by their SHA-256 digest (the clear text is never stored); revoked tokens and
inactive users are refused. Session cookies are never accepted here, which is what
makes these routes safe without CSRF tokens.

Role checks are separate from how the user was found: :func:`membership_for` serves
any caller that has a user (a token client here, a signed-in browser elsewhere).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest
from django.utils import timezone

from .models import AccessToken, Membership, Role, hash_token

REALM = "memsync"
WWW_AUTHENTICATE = f'Basic realm="{REALM}"'
# A token used by every git fetch would otherwise write to the database on every request.
LAST_USED_RESOLUTION = timedelta(minutes=1)


@dataclass(frozen=True)
class TokenAuth:
    """Who a request acts as, and with which token."""

    user: User
    token: AccessToken


def credentials(authorization: str) -> tuple[str | None, str] | None:
    """(username or None, token) from an ``Authorization`` header, or None if unusable."""
    scheme, _, value = authorization.strip().partition(" ")
    value = value.strip()
    if scheme.lower() == "bearer" and value:
        return None, value
    if scheme.lower() != "basic" or not value:
        return None
    try:
        decoded = base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    username, colon, token = decoded.partition(":")
    if not colon or not username or not token:
        return None
    return username, token


def authenticate(request: HttpRequest) -> TokenAuth | None:
    """The user and token a request's ``Authorization`` header names, or None.

    None covers every way to fail (no header, malformed, unknown or revoked token, a
    Basic username that is not the token's owner, an inactive user): all of them are
    answered with the same 401, so a client learns nothing about which tokens exist.
    """
    found = credentials(request.META.get("HTTP_AUTHORIZATION", ""))
    if found is None:
        return None
    username, clear = found
    token = (
        AccessToken.objects.active().select_related("user").filter(digest=hash_token(clear)).first()
    )
    if token is None or not token.user.is_active:
        return None
    if username is not None and username != token.user.username:
        return None
    _touch(token)
    return TokenAuth(token.user, token)


def _touch(token: AccessToken) -> None:
    now = timezone.now()
    stale = Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_RESOLUTION)
    # One conditional UPDATE: concurrent requests with the same token write at most once.
    if AccessToken.objects.filter(stale, pk=token.pk).update(last_used_at=now):
        token.last_used_at = now


def membership_for(user: User, slug: str, role: str = Role.VIEWER) -> Membership:
    """``user``'s membership of project ``slug``, if it grants at least ``role``.

    No such project, or not a member of it: ``Http404`` with the same message, so a
    slug's existence does not leak. A member whose role is too low: ``PermissionDenied``
    saying which role is needed.
    """
    found = Membership.objects.select_related("project").filter(project__slug=slug, user=user)
    # One row at most (unique per project and user): unordered, so the query does not
    # join the user back in to sort by the model's ordering.
    membership = found.order_by().first()
    if membership is None:
        raise Http404(f"no project {slug!r} here")
    membership.user = user  # the row it was found by: no join to read it again
    if not membership.allows(role):
        raise PermissionDenied(
            f"{user.username} is a {membership.role} of {slug}; this needs the {role} role"
        )
    return membership
