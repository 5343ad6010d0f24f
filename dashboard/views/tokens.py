"""Personal access tokens: create (the clear token is shown once), revoke, last used.

Tokens belong to a user, not a project: one token lets ``git`` and the ``memsync``
command reach every project the user is in, with the user's role in each.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from ..access import signed_in_user
from ..forms import TokenForm
from ..models import AccessToken


def _page(request: HttpRequest, form: TokenForm, issued: str | None = None) -> HttpResponse:
    user = signed_in_user(request)
    response = render(
        request,
        "dashboard/tokens.html",
        {
            "tokens": AccessToken.objects.filter(user=user),
            "form": form,
            "issued": issued,
            "git_url": request.build_absolute_uri("/git/"),
            "tab": "tokens",
        },
    )
    if issued:
        # The one page that shows a clear token must not be kept by any cache.
        response["Cache-Control"] = "no-store"
    return response


@login_required
@require_safe
def token_list(request: HttpRequest) -> HttpResponse:
    return _page(request, TokenForm())


@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    form = TokenForm(request.POST)
    if not form.is_valid():
        return _page(request, form)
    _, clear = AccessToken.issue(user, form.cleaned_data["name"])
    # Rendered, not redirected: the clear token must never go through the session or a
    # message cookie. After this response only its digest exists.
    return _page(request, TokenForm(), issued=clear)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    user = signed_in_user(request)
    token = AccessToken.objects.filter(pk=token_id, user=user).first()
    if token is None:
        raise Http404("no such token")
    revoked = AccessToken.objects.filter(pk=token.pk, revoked_at=None).update(
        revoked_at=timezone.now()
    )
    if revoked:
        messages.success(request, f"Revoked “{token.name}”. Clients using it get 401 now.")
    return HttpResponseRedirect(reverse("dashboard:tokens"))
