"""The maintainers' Notifications page in a real browser (issue 13, item 4): a bad URL is
refused, a webhook is added, a conflict's delivery shows with its response, and the
webhook is removed; members do not get the tab."""

from __future__ import annotations

import pytest

from dashboard import notifications
from dashboard.models import ConflictItem, Delivery
from memsync.store import CommitKind
from tests.dashboard.world import commit_memories, member_commit, merge_member

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_maintainer_adds_a_webhook_sees_its_delivery_and_removes_it(
    live_world, open_session, webhook_receiver
):
    alice = open_session("alice")
    page = alice.page
    page.goto("/p/acme/")
    page.click("nav.tabs >> text=Notifications")

    page.fill("input[name=url]", "ftp://hooks.example.com/x")
    page.click("form.row-form button[type=submit]")
    page.wait_for_selector(".error-text")
    assert "http:// or https://" in page.inner_text(".error-text")
    page.fill("input[name=url]", webhook_receiver.url)
    page.select_option("select[name=format]", "generic")
    page.fill("input[name=secret]", "shared-secret")
    page.click("form.row-form button[type=submit]")
    page.wait_for_selector("table.webhooks")
    assert webhook_receiver.url in page.inner_text("table.webhooks")
    assert "X-Memsync-Signature" in page.inner_text("table.webhooks")

    repo = live_world.repo()
    commit_memories(repo, {"notes.md": b"v1\n"})
    member_commit(live_world.acme, "bob", {"notes.md": b"bob's version\n"}, "bob edits notes")
    commit_memories(repo, {"notes.md": b"main's version\n"}, CommitKind.EXTRACT, "s1")
    merge_member(live_world.acme, "bob")
    [delivery] = Delivery.objects.all()
    assert notifications.deliver(delivery.pk) == "delivered"
    page.reload()
    row = page.inner_text(f"#delivery-{delivery.pk}")
    assert "a conflict waiting for review" in row and "delivered" in row and "200" in row
    assert webhook_receiver.received[0].body["details"]["path"] == "notes.md"
    assert ConflictItem.objects.filter(project=live_world.acme).count() == 1
    alice.screenshot("notifications")

    page.click("table.webhooks button.danger")
    page.wait_for_selector("text=No webhooks yet.")

    bob = open_session("bob")
    bob.page.goto("/p/acme/")
    assert "Notifications" not in bob.page.inner_text("nav.tabs")
