"""A project's notifications, for its maintainers: webhooks added and removed, whether
email goes out, and the recent deliveries with their attempts and errors."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from ..access import ProjectAccess, project_for
from ..forms import WebhookForm
from ..models import NotificationEvent, Role, Webhook
from ..notifications import maintainer_emails

RECENT_DELIVERIES = 50


def _page(request: HttpRequest, access: ProjectAccess, form: WebhookForm) -> HttpResponse:
    project = access.project
    return render(
        request,
        "dashboard/notifications.html",
        {
            "access": access,
            "project": project,
            "webhooks": project.webhooks.all(),
            "deliveries": project.deliveries.all()[:RECENT_DELIVERIES],
            "events": NotificationEvent.choices,
            "email_on": settings.MEMSYNC_EMAIL_NOTIFICATIONS,
            "maintainer_emails": maintainer_emails(project),
            "form": form,
            "tab": "notifications",
        },
    )


def _back(slug: str) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("dashboard:notifications", args=[slug]))


@login_required
@require_safe
def notification_settings(request: HttpRequest, slug: str) -> HttpResponse:
    access = project_for(request, slug, Role.MAINTAINER)
    return _page(request, access, WebhookForm())


@login_required
@require_POST
def webhook_add(request: HttpRequest, slug: str) -> HttpResponse:
    access = project_for(request, slug, Role.MAINTAINER)
    form = WebhookForm(request.POST)
    if not form.is_valid():
        return _page(request, access, form)
    Webhook.objects.create(project=access.project, created_by=access.user, **form.cleaned_data)
    messages.success(request, f"Added the webhook {form.cleaned_data['url']}.")
    return _back(slug)


@login_required
@require_POST
def webhook_remove(request: HttpRequest, slug: str, webhook_id: int) -> HttpResponse:
    access = project_for(request, slug, Role.MAINTAINER)
    webhook = access.project.webhooks.filter(pk=webhook_id).first()
    if webhook is None:
        raise Http404("no such webhook")
    webhook.delete()
    messages.success(request, f"Removed the webhook {webhook.url}.")
    return _back(slug)
