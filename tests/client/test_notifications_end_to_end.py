"""A refused push reaches the project's webhook (issue 13, item 4): the real `memsync
push` against gunicorn running memsync, the pre-receive hook publishing the refusal, and
a real Celery worker delivering it to an HTTP server on 127.0.0.1, retrying with backoff
while that server answers 500."""

from __future__ import annotations

import time

import pytest

from dashboard.models import Delivery, DeliveryStatus, Webhook, WebhookFormat
from tests.client.conftest import Developer
from tests.secrets.fakes import fake_secrets
from tests.support.webhook_receiver import WebhookReceiver
from tests.sync.conftest import Team

pytestmark = [pytest.mark.slow, pytest.mark.worker]


def _settled(timeout: float = 60.0) -> Delivery:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        delivery = Delivery.objects.filter(event="push-refused").first()
        if delivery is not None and delivery.status != DeliveryStatus.PENDING:
            return delivery
        time.sleep(0.2)
    raise AssertionError("the refused push's delivery did not settle")


def test_a_refused_push_is_posted_to_the_webhook_and_retried_until_it_lands(
    team: Team,
    developers: dict[str, Developer],
    webhook_receiver: WebhookReceiver,
    celery_worker_factory,
):
    celery_worker_factory(env={"MEMSYNC_NOTIFY_RETRY_SECONDS": "0.2"})
    webhook_receiver.answers = [500, 500]  # down twice, then up
    Webhook.objects.create(
        project=team.project, url=webhook_receiver.url, format=WebhookFormat.GENERIC
    )
    bob = developers["bob"]
    bob.link(team.slug)
    key = next(s.value for s in fake_secrets() if s.rule_id == "aws-access-token")
    bob.write({"cloud.md": f"# Cloud\n\nThe staging key is\n{key} for now.\n"})

    refused = bob.memsync("push")
    posts = webhook_receiver.wait_for(3)
    delivery = _settled()

    assert refused.returncode == 1, refused.stderr
    assert posts[0].body == posts[-1].body  # the same event, retried
    body = posts[-1].body
    assert (body["event"], body["project"], body["details"]["pusher"]) == (
        "push-refused", team.slug, "bob",
    )  # fmt: skip
    assert any("cloud.md:4: secret (aws-access-token)" in p for p in body["details"]["problems"])
    assert key not in posts[-1].raw.decode()
    assert (delivery.status, delivery.attempts, delivery.response_code) == (
        DeliveryStatus.DELIVERED, 3, 200,
    )  # fmt: skip
