"""Telling a team what needs it: a new dream proposal, a conflict waiting for review, a
refused push. ``notify`` is the one call the places that make those happen use; it
records one ``Delivery`` per project webhook (and one email to the maintainers when mail
is configured) and queues each for the worker, which sends it (``deliver``) and retries
with backoff; the periodic sweep queues again a delivery whose message was lost
(``queue_overdue``).

Webhooks get either Slack's incoming-webhook body (``{"text": …}``) or a generic JSON
body (``event``, ``project``, ``url``, ``details``). A webhook with a secret signs the
body: ``X-Memsync-Signature: sha256=<hex HMAC-SHA256 of the body>``, as GitHub does.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import urllib.error
import urllib.request
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import send_mail
from django.urls import reverse
from django.utils import timezone

from .models import (
    Delivery,
    DeliveryStatus,
    NotificationEvent,
    Project,
    Role,
    Webhook,
    WebhookFormat,
)
from .queue import queue_delivery

SIGNATURE_HEADER = "X-Memsync-Signature"
# The same on every attempt of one delivery: a receiver that sees it twice (a worker
# died after the POST, before recording it) can drop the repeat.
DELIVERY_HEADER = "X-Memsync-Delivery"
EMAIL_TARGET = "email: "
# A receiver that takes longer is treated as down; the worker is not held for minutes.
POST_TIMEOUT = 10
_ERROR_CHARS = 500


def notify(
    project: Project, event: NotificationEvent, text: str, path: str, details: dict[str, Any]
) -> list[int]:
    """Record and queue ``event`` for every webhook of ``project`` and, when mail is
    configured, an email to its maintainers. ``text`` is the one-line human message,
    ``path`` the dashboard page it is about. Queued after the transaction commits.
    Returns the ids of the deliveries."""
    payload = {
        "event": str(event),
        "project": project.slug,
        "url": f"{settings.MEMSYNC_BASE_URL}{path}",
        "text": text,
        "details": details,
    }
    targets: list[tuple[Webhook | None, str]] = [(h, h.url) for h in project.webhooks.all()]
    recipients = maintainer_emails(project) if settings.MEMSYNC_EMAIL_NOTIFICATIONS else []
    if recipients:
        targets.append((None, EMAIL_TARGET + ", ".join(recipients)))
    ids = [
        Delivery.objects.create(
            project=project, webhook=hook, target=target, event=event, payload=payload
        ).pk
        for hook, target in targets
    ]
    for delivery_id in ids:
        queue_delivery(delivery_id)
    return ids


def maintainer_emails(project: Project) -> list[str]:
    memberships = project.memberships.filter(role=Role.MAINTAINER).select_related("user")
    return sorted({m.user.email for m in memberships if m.user.email})


def proposal_opened(project: Project, dream_id: str, summary: str, files: int) -> None:
    notify(
        project,
        NotificationEvent.PROPOSAL,
        f"New dream proposal in {project.name}: {summary} ({files} file(s))",
        reverse("dashboard:proposal", args=[project.slug, dream_id]),
        {"dream_id": dream_id, "summary": summary, "files_touched": files},
    )


def conflict_opened(project: Project, conflict_id: int, member: str, path: str) -> None:
    notify(
        project,
        NotificationEvent.CONFLICT,
        f"Conflict in {project.name}: {path} from {member} waits for a decision",
        reverse("dashboard:conflict", args=[project.slug, conflict_id]),
        {"conflict_id": conflict_id, "member": member, "path": path},
    )


def push_refused(project: Project, pusher: str, problems: list[str]) -> None:
    more = f" and {len(problems) - 3} more" if len(problems) > 3 else ""
    shown = "; ".join(problems[:3]) + more
    notify(
        project,
        NotificationEvent.PUSH_REFUSED,
        f"A push by {pusher} to {project.name} was refused: {shown or 'see the server log'}",
        reverse("dashboard:team", args=[project.slug]),
        {"pusher": pusher, "problems": problems},
    )


# --- delivery (in the worker) -----------------------------------------------------------------
def deliver(delivery_id: int) -> str:
    """Try ``delivery_id`` once. Returns ``delivered``, ``retry`` (try again later),
    ``failed`` (out of attempts) or ``skip`` (already settled, or gone)."""
    delivery = Delivery.objects.select_related("webhook", "project").filter(pk=delivery_id).first()
    if delivery is None or delivery.status != DeliveryStatus.PENDING:
        return "skip"
    try:
        code = _send(delivery)
    except DeliveryError as error:
        return _record_failure(delivery, str(error), error.code)
    Delivery.objects.filter(pk=delivery.pk).update(
        status=DeliveryStatus.DELIVERED,
        attempts=delivery.attempts + 1,
        response_code=code,
        last_error="",
        finished_at=timezone.now(),
    )
    return "delivered"


class DeliveryError(Exception):
    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


def _record_failure(delivery: Delivery, error: str, code: int | None) -> str:
    attempts = delivery.attempts + 1
    final = attempts >= settings.MEMSYNC_NOTIFY_ATTEMPTS
    now = timezone.now()
    Delivery.objects.filter(pk=delivery.pk).update(
        attempts=attempts,
        last_error=error[:_ERROR_CHARS],
        response_code=code,
        status=DeliveryStatus.FAILED if final else DeliveryStatus.PENDING,
        finished_at=now if final else None,
        next_attempt_at=now + timedelta(seconds=retry_delay(attempts)),
    )
    return "failed" if final else "retry"


def queue_overdue(now: datetime | None = None) -> int:
    """Queue again every pending delivery overdue by ``MEMSYNC_ABANDONED_RUN_SECONDS``:
    its message was lost (the broker was down when it was recorded, or the worker holding
    its retry died). Delivery is at least once; a receiver drops a repeat by
    ``X-Memsync-Delivery``. Returns how many were queued."""
    now = now or timezone.now()
    grace = timedelta(seconds=settings.MEMSYNC_ABANDONED_RUN_SECONDS)
    overdue = Delivery.objects.filter(
        status=DeliveryStatus.PENDING, next_attempt_at__lte=now - grace
    )
    ids = list(overdue.values_list("pk", flat=True))
    # Not again before another grace period, whether or not this message gets through.
    Delivery.objects.filter(pk__in=ids).update(next_attempt_at=now)
    for delivery_id in ids:
        queue_delivery(delivery_id)
    return len(ids)


def retry_delay(attempts: int) -> float:
    """Seconds before the next try after ``attempts`` failed ones: doubling backoff."""
    return float(settings.MEMSYNC_NOTIFY_RETRY_SECONDS * 2 ** max(attempts - 1, 0))


def _send(delivery: Delivery) -> int | None:
    if delivery.webhook is None:
        _send_email(delivery)
        return None  # mail has no response code
    return _post(delivery.webhook, delivery.payload, delivery.pk)


def webhook_body(hook_format: str, payload: dict[str, Any]) -> bytes:
    if hook_format == WebhookFormat.SLACK:
        body: dict[str, Any] = {"text": f"{payload['text']}\n{payload['url']}"}
    else:
        body = {key: payload[key] for key in ("event", "project", "url", "details")}
    return json.dumps(body).encode("utf-8")


def signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


def _post(hook: Webhook, payload: dict[str, Any], delivery_id: int) -> int:
    body = webhook_body(hook.format, payload)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "memsync-webhook",
        DELIVERY_HEADER: str(delivery_id),
    }
    if hook.secret:
        headers[SIGNATURE_HEADER] = signature(hook.secret, body)
    # The form allows http(s) only; a row made elsewhere (the admin) is checked here too,
    # since urllib would also open file: and ftp: URLs.
    if urlsplit(hook.url).scheme not in ("http", "https"):
        raise DeliveryError(f"{hook.url} is not an http:// or https:// URL")
    request = urllib.request.Request(hook.url, data=body, headers=headers, method="POST")  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=POST_TIMEOUT) as response:  # noqa: S310
            return int(response.status)
    except urllib.error.HTTPError as error:
        raise DeliveryError(f"HTTP {error.code} {error.reason}", error.code) from error
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise DeliveryError(f"could not reach {hook.url}: {reason}") from error


def _send_email(delivery: Delivery) -> None:
    # The addresses recorded when the event happened, as the deliveries page shows them.
    recipients = delivery.target.removeprefix(EMAIL_TARGET).split(", ")
    payload = delivery.payload
    try:
        send_mail(
            f"[memsync] {payload['text']}"[:200],
            f"{payload['text']}\n\n{payload['url']}\n",
            None,  # DEFAULT_FROM_EMAIL
            recipients,
        )
    except OSError as error:  # smtplib's errors are OSErrors
        raise DeliveryError(f"mail not sent: {error}") from error
