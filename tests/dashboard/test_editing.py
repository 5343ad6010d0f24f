"""Editing pages (issue 13): refusals say why and store nothing, the preview goes through
the sanitizer, and ages follow the content on main, not commits main did not keep."""

from __future__ import annotations

from django.urls import reverse

from memsync.curate import MAX_EDIT_BYTES
from memsync.dream.adoption import approve
from memsync.dream.adoption import revert as revert_dream
from memsync.store import MAIN, Identity
from tests.dashboard.world import commit_days_ago, commit_memories, dream, entry, topic

ALICE = Identity("alice", "alice@example.com")


def edit_url(path: str) -> str:
    return reverse("dashboard:memory-edit", args=["acme", path])


def seeded(world) -> str:
    index = entry("Sandbox", "payment-sandbox.md", "payments in the sandbox")
    return commit_memories(
        world.repo(),
        {"MEMORY.md": index.encode(), "payment-sandbox.md": topic("sandbox", "payments")},
    )


def test_huge_content_and_secrets_are_refused_with_the_reason_and_nothing_changes(world):
    seeded(world)
    head = world.repo().rev_parse(MAIN)
    alice = world.client("alice")
    huge = topic("sandbox", "payments", body="x" * (MAX_EDIT_BYTES + 10)).decode()
    secret = topic("sandbox", "keys", body="aws_key = AKIAIOSFODNN7ABCDEFG\n").decode()

    too_big = alice.post(edit_url("payment-sandbox.md"), {"text": huge})
    leaked = alice.post(edit_url("payment-sandbox.md"), {"text": secret})

    assert too_big.status_code == leaked.status_code == 400
    assert "byte limit" in too_big.content.decode()
    assert "Nothing was saved" in leaked.content.decode() and "secret" in leaked.content.decode()
    assert "AKIAIOSFODNN7ABCDEFG" not in leaked.content.decode().split("</textarea>")[-1]
    assert world.repo().rev_parse(MAIN) == head


def test_the_preview_renders_through_the_sanitizer(world):
    seeded(world)
    text = topic("sandbox", "payments", body="**bold** <script>alert(1)</script>\n").decode()

    response = world.client("alice").post(
        reverse("dashboard:memory-preview", args=["acme", "payment-sandbox.md"]), {"text": text}
    )

    assert "<strong>bold</strong>" in response.content.decode()
    assert "<script>" not in response.content.decode()


def test_a_memory_left_out_of_an_adopted_and_reverted_dream_keeps_its_age(world):
    repo = world.repo()
    index = entry("Sandbox", "payment-sandbox.md", "payments in the sandbox")
    commit_days_ago(
        repo,
        {"MEMORY.md": index.encode(), "payment-sandbox.md": topic("sandbox", "payments")},
        45,
        "old memory",
    )
    outcome = dream(
        world.acme,
        {"payment-sandbox.md": topic("sandbox", "payments, rewritten"), "new.md": topic("n", "n")},
    )
    adoption = approve(
        repo, outcome.dream_id, approver=ALICE, exclude=["payment-sandbox.md"]
    ).commit
    assert adoption is not None
    revert_dream(repo, adoption, author=ALICE)

    page = world.client("carol").get(reverse("dashboard:index", args=["acme"])).content.decode()
    detail = world.client("carol").get(
        reverse("dashboard:memory", args=["acme", "payment-sandbox.md"])
    )

    assert "45 days ago" in page
    assert "changed 45 days ago" in detail.content.decode()
    assert "This memory is 45 days old." in detail.content.decode()


def test_saving_unchanged_text_with_the_browsers_crlf_is_no_change(world):
    seeded(world)
    head = world.repo().rev_parse(MAIN)
    text = topic("sandbox", "payments").decode().replace("\n", "\r\n")

    response = world.client("alice").post(
        edit_url("payment-sandbox.md"), {"text": text}, follow=True
    )

    assert "No change: nothing saved." in response.content.decode()
    assert world.repo().rev_parse(MAIN) == head
