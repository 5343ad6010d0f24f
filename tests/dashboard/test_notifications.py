"""Notifications (issue 13, item 4): a conflict or a new proposal becomes one delivery per
project webhook (Slack-compatible or generic JSON, signed when the webhook has a secret)
and an email to the maintainers when mail is configured; each delivery is recorded with
its attempts, response and last error. The receiver is a real HTTP server on 127.0.0.1;
mail goes to Django's locmem backend. The worker's retries are in
tests/client/test_notifications_end_to_end.py."""

from __future__ import annotations

import hashlib
import hmac
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from dashboard import notifications
from dashboard.models import (
    ConflictItem,
    Delivery,
    DeliveryStatus,
    Run,
    RunKind,
    Webhook,
    WebhookFormat,
)
from dashboard.services import dreams
from memsync.store import CommitKind
from tests.dashboard.world import World, commit_memories, member_commit, merge_member
from tests.support.webhook_receiver import WebhookReceiver

SECRET = "s3cret-for-signing"


def _conflict(world: World) -> ConflictItem:
    """bob's push and main both changed notes.md: the server's merge opens a review item."""
    commit_memories(world.repo(), {"notes.md": b"v1\n"})
    member_commit(world.acme, "bob", {"notes.md": b"bob's version\n"}, "bob edits notes")
    commit_memories(world.repo(), {"notes.md": b"main's version\n"}, CommitKind.EXTRACT, "s1")
    merge_member(world.acme, "bob")
    return ConflictItem.objects.get(project=world.acme, path="notes.md")


def _deliver_all() -> list[str]:
    return [notifications.deliver(pk) for pk in Delivery.objects.values_list("pk", flat=True)]


def test_a_conflict_is_posted_to_each_webhook_in_its_format(
    world: World, webhook_receiver: WebhookReceiver, settings
):
    settings.MEMSYNC_BASE_URL = "https://memsync.example.com"
    Webhook.objects.create(
        project=world.acme, url=webhook_receiver.url, format=WebhookFormat.SLACK, secret=SECRET
    )
    Webhook.objects.create(
        project=world.acme, url=webhook_receiver.url + "/generic", format=WebhookFormat.GENERIC
    )
    Webhook.objects.create(project=world.other, url=webhook_receiver.url + "/other", format="slack")

    conflict = _conflict(world)
    outcomes = _deliver_all()

    page = "https://memsync.example.com" + reverse("dashboard:conflict", args=["acme", conflict.pk])
    assert outcomes == ["delivered", "delivered"]  # nothing for the other project's webhook
    slack, generic = sorted(webhook_receiver.received, key=lambda r: r.path)
    assert slack.body == {
        "text": f"Conflict in Acme: notes.md from bob waits for a decision\n{page}"
    }
    expected = "sha256=" + hmac.new(SECRET.encode(), slack.raw, hashlib.sha256).hexdigest()
    assert slack.headers["X-Memsync-Signature"] == expected
    assert generic.path.endswith("/generic")
    assert generic.body == {
        "event": "conflict",
        "project": "acme",
        "url": page,
        "details": {"conflict_id": conflict.pk, "member": "bob", "path": "notes.md"},
    }
    assert "X-Memsync-Signature" not in generic.headers
    # One id per delivery, the same on every attempt, for a receiver to drop repeats.
    ids = {str(pk) for pk in Delivery.objects.values_list("pk", flat=True)}
    assert {slack.headers["X-Memsync-Delivery"], generic.headers["X-Memsync-Delivery"]} == ids
    for delivery in Delivery.objects.all():
        assert (delivery.status, delivery.attempts, delivery.response_code) == (
            DeliveryStatus.DELIVERED, 1, 200,
        )  # fmt: skip


def test_a_failed_delivery_is_recorded_and_given_up_after_the_last_attempt(
    world: World, webhook_receiver: WebhookReceiver, settings
):
    settings.MEMSYNC_NOTIFY_ATTEMPTS = 3
    webhook_receiver.answers = [500, 503, 502, 500]
    Webhook.objects.create(project=world.acme, url=webhook_receiver.url, format="generic")
    _conflict(world)
    [delivery_id] = Delivery.objects.values_list("pk", flat=True)

    outcomes = [notifications.deliver(delivery_id) for _ in range(4)]

    delivery = Delivery.objects.get(pk=delivery_id)
    assert outcomes == ["retry", "retry", "failed", "skip"]
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.FAILED, 3)
    assert delivery.response_code == 502
    assert delivery.last_error.startswith("HTTP 502")
    assert len(webhook_receiver.received) == 3
    assert {post.headers["X-Memsync-Delivery"] for post in webhook_receiver.received} == {
        str(delivery_id)
    }


def test_an_unreachable_webhook_is_recorded_with_the_reason(world: World, settings):
    settings.MEMSYNC_NOTIFY_ATTEMPTS = 1
    Webhook.objects.create(project=world.acme, url="http://127.0.0.1:9/nothing", format="slack")
    _conflict(world)

    assert _deliver_all() == ["failed"]
    delivery = Delivery.objects.get()
    assert delivery.response_code is None
    assert "could not reach http://127.0.0.1:9/nothing" in delivery.last_error


def test_a_new_proposal_is_emailed_to_the_maintainers_when_mail_is_configured(
    world: World, settings, mailoutbox
):
    settings.MEMSYNC_EMAIL_NOTIFICATIONS = True
    settings.MEMSYNC_DREAM_ENGINE = "tests.dream.engines:NoteEngine"
    commit_memories(world.repo(), {"notes.md": b"v1\n"})
    run = Run.objects.create(
        project=world.acme, kind=RunKind.DREAM, detail={"gate_mtime_ns": 0, "sessions": ["s1"]}
    )

    dreams.execute_run(run.pk)
    outcomes = _deliver_all()

    run.refresh_from_db()
    delivery = Delivery.objects.get()
    assert outcomes == ["delivered"]
    assert (delivery.event, delivery.target) == ("proposal", "email: alice@example.com")
    [mail] = mailoutbox
    assert mail.to == ["alice@example.com"]  # acme's maintainer only
    assert mail.subject.startswith("[memsync] New dream proposal in Acme:")
    assert reverse("dashboard:proposal", args=["acme", run.detail["dream_id"]]) in mail.body


def test_no_email_goes_out_when_mail_is_not_configured(world: World, settings, mailoutbox):
    settings.MEMSYNC_EMAIL_NOTIFICATIONS = False

    _conflict(world)

    assert not Delivery.objects.exists()
    assert mailoutbox == []


@pytest.mark.parametrize(
    "url", ["ftp://example.com/hook", "javascript:alert(1)", "file:///etc/passwd", "not a url"]
)
def test_only_http_and_https_webhooks_can_be_added(world: World, url: str):
    alice = world.client("alice")

    page = alice.post(
        reverse("dashboard:webhook-add", args=["acme"]), {"url": url, "format": "slack"}
    )

    assert page.status_code == 200
    assert "Enter an http:// or https:// URL" in page.content.decode()
    assert not Webhook.objects.exists()


def test_a_maintainer_adds_a_webhook_sees_deliveries_and_removes_it(world: World):
    alice = world.client("alice")
    add = reverse("dashboard:webhook-add", args=["acme"])

    added = alice.post(add, {"url": "https://hooks.example.com/T1", "format": "generic"})
    hook = Webhook.objects.get()
    _conflict(world)
    page = alice.get(reverse("dashboard:notifications", args=["acme"])).content.decode()
    removed = alice.post(reverse("dashboard:webhook-remove", args=["acme", hook.pk]))

    assert added.status_code == 302
    assert (hook.project, hook.format, hook.created_by) == (
        world.acme, "generic", world.users["alice"],
    )  # fmt: skip
    assert "https://hooks.example.com/T1" in page
    assert "a conflict waiting for review" in page and "pending" in page
    assert "Email is off" in page
    assert removed.status_code == 302
    assert not Webhook.objects.exists()


def test_the_sweep_queues_again_a_delivery_whose_message_was_lost(
    world: World, webhook_receiver: WebhookReceiver, settings, monkeypatch
):
    settings.MEMSYNC_ABANDONED_RUN_SECONDS = 120
    webhook_receiver.answers = [503]
    Webhook.objects.create(project=world.acme, url=webhook_receiver.url, format="generic")
    _conflict(world)
    [lost] = Delivery.objects.values_list("pk", flat=True)
    queued: list[int] = []
    monkeypatch.setattr(notifications, "queue_delivery", queued.append)
    now = timezone.now()

    # Recorded, but its message never reached a worker (the broker was down).
    assert notifications.queue_overdue(now) == 0  # not overdue yet
    later = now + timedelta(seconds=121)
    assert notifications.queue_overdue(later) == 1
    assert queued == [lost]
    assert notifications.queue_overdue(later + timedelta(seconds=60)) == 0  # given its time

    # The worker tries it and fails: the next try is due after the backoff, not before.
    assert notifications.deliver(lost) == "retry"
    retry_at = Delivery.objects.get(pk=lost).next_attempt_at
    assert retry_at > timezone.now() + timedelta(seconds=notifications.retry_delay(1) - 5)
    assert notifications.queue_overdue(retry_at) == 0
    assert notifications.queue_overdue(retry_at + timedelta(seconds=121)) == 1

    assert notifications.deliver(lost) == "delivered"
    assert notifications.queue_overdue(retry_at + timedelta(days=1)) == 0  # settled
    assert len(webhook_receiver.received) == 2
