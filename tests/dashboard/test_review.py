"""Reviewing a dream like a pull request (issue 13 item 5): the checks at the top,
comments on the dream and on one file (sanitized), a request for changes that keeps the
dream open, "viewed" marks per reviewer, and Approve/Reject after the diff."""

from __future__ import annotations

from django.urls import reverse

from dashboard.models import ProposalComment, Run, RunKind, RunStatus, ViewedFile
from memsync.dream.proposals import ProposalStatus, get_proposal
from tests.dashboard.test_proposals import seed, url
from tests.dashboard.world import dream, topic


def deploy_dream(world):
    seed(world)
    return dream(
        world.acme,
        {"deploy.md": topic("deploy", "Never deploy on Fridays"), "calendar.md": topic(
            "calendar", "Release dates are set two weeks ahead")},
    )  # fmt: skip


def page_of(world, persona: str, dream_id: str) -> str:
    return world.client(persona).get(url("proposal", dream_id)).content.decode()


def test_the_checks_come_first_and_say_what_the_dream_did_not_record(world):
    outcome = deploy_dream(world)

    page = page_of(world, "carol", outcome.dream_id)

    checks = page.index('id="checks"')
    assert checks < page.index('data-path="deploy.md"')
    assert 'id="check-canaries"' in page and "facts still found" in page
    assert '<li class="check check-pass" id="check-index-budget">' in page
    assert "of 200 lines" in page
    # No Run row holds this dream's notes: it says so rather than passing.
    assert '<li class="check check-none" id="check-duplicates">' in page
    assert "no run of this dream recorded the engine&#x27;s notes" in page


def test_the_engines_notes_become_the_duplicates_and_staleness_checks(world):
    outcome = deploy_dream(world)
    Run.objects.create(
        project=world.acme, kind=RunKind.DREAM, status=RunStatus.PROPOSED,
        dream_id=outcome.dream_id, detail={"notes": [
            "merged tabs.md into deploy.md (same subject); kept deploy.md as the newer",
            "calendar.md: possibly stale: names 2024-01-09, long past; check it before "
            "relying on it",
        ]},
    )  # fmt: skip

    page = page_of(world, "carol", outcome.dream_id)

    assert '<li class="check check-warn" id="check-staleness">' in page
    assert "calendar.md: possibly stale" in page
    assert "1 memory merged into another" in page
    assert page.index('id="check-staleness"') < page.index('id="check-duplicates"')  # worst first


def test_a_member_comments_on_the_dream_and_on_one_file_and_markup_is_sanitized(world):
    outcome = deploy_dream(world)
    bob = world.client("bob")
    comment_url = reverse("dashboard:proposal-comment", args=["acme", outcome.dream_id])

    whole = bob.post(comment_url, {"body": "Looks **right** <script>alert(1)</script>"})
    bob.post(comment_url, {"body": "Fridays were *never* allowed.", "path": "deploy.md",
                           "anchor": "diff-3"})  # fmt: skip

    assert whole.status_code == 302 and whole["Location"].endswith("#conversation")
    page = page_of(world, "carol", outcome.dream_id)
    conversation = page[page.index('id="conversation"') :]
    assert "Looks <strong>right</strong>" in conversation
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page
    deploy = page[page.index('data-path="deploy.md"') : page.index('id="conversation"')]
    assert "Fridays were <em>never</em> allowed." in deploy
    assert "Fridays were" not in conversation
    assert ProposalComment.objects.filter(dream_id=outcome.dream_id).count() == 2


def test_a_comment_on_a_file_the_dream_does_not_touch_is_refused(world):
    outcome = deploy_dream(world)

    response = world.client("bob").post(
        reverse("dashboard:proposal-comment", args=["acme", outcome.dream_id]),
        {"body": "hm", "path": "tabs.md"},
    )

    assert response.status_code == 404
    assert not ProposalComment.objects.exists()


def test_a_maintainer_requests_changes_and_the_dream_stays_open(world):
    outcome = deploy_dream(world)

    response = world.client("alice").post(
        reverse("dashboard:proposal-request-changes", args=["acme", outcome.dream_id]),
        {"body": "Keep the Friday rule's reason."},
        follow=True,
    )

    page = response.content.decode()
    assert "Changes requested. The dream stays open for review." in page
    assert 'id="changes-requested"' in page and "<p>Keep the Friday rule's reason.</p>" in page
    proposal = get_proposal(world.repo(), outcome.dream_id)
    assert proposal is not None and proposal.status == ProposalStatus.OPEN
    assert 'id="approve-form"' in page  # still decidable
    listed = world.client("carol").get(url("proposals")).content.decode()
    assert '<span class="badge changes-requested">changes requested</span>' in listed


def test_an_empty_request_for_changes_is_refused(world):
    outcome = deploy_dream(world)

    world.client("alice").post(
        reverse("dashboard:proposal-request-changes", args=["acme", outcome.dream_id]),
        {"body": "   "},
    )

    assert not ProposalComment.objects.exists()


def test_viewed_marks_belong_to_one_reviewer_and_fold_the_file(world):
    outcome = deploy_dream(world)
    viewed_url = reverse("dashboard:proposal-viewed", args=["acme", outcome.dream_id])

    world.client("bob").post(viewed_url, {"path": "deploy.md", "viewed": "1"})

    bobs = page_of(world, "bob", outcome.dream_id)
    assert '<span id="viewed-count">1 of 2 files viewed</span>' in bobs
    assert 'class="diff-file viewed" id="diff-' in bobs and "show the diff again" in bobs
    alices = page_of(world, "alice", outcome.dream_id)
    assert '<span id="viewed-count">0 of 2 files viewed</span>' in alices

    world.client("bob").post(viewed_url, {"path": "deploy.md"})  # unmark
    assert not ViewedFile.objects.exists()


def test_approve_and_reject_come_after_the_diff_and_in_the_sticky_bar(world):
    outcome = deploy_dream(world)

    page = page_of(world, "alice", outcome.dream_id)

    last_file = page.index('data-path="deploy.md"')
    assert last_file < page.index('id="approve-form"')
    assert last_file < page.index('id="reject-form"')
    bar = page[page.index('id="review-bar"') :]
    assert 'form="approve-form"' in bar and 'form="reject-form"' in bar
    assert "Approve" not in page_of(world, "bob", outcome.dream_id)  # a member comments only


def test_a_dream_that_main_overtook_or_that_overflows_the_index_fails_its_checks(world):
    repo = seed(world)
    lines = "".join(f"- [Note {n}](note{n}.md) — hook {n}\n" for n in range(1, 206))
    outcome = dream(
        world.acme,
        {"deploy.md": topic("deploy", "Never deploy on Fridays"), "MEMORY.md": lines.encode()},
    )
    repo.apply({"deploy.md": topic("deploy", "Deploy on Mondays")}, "extract", "main moves")

    page = page_of(world, "carol", outcome.dream_id)

    assert '<li class="check check-fail" id="check-merge">' in page
    assert "<li>deploy.md</li>" in page[page.index('id="check-merge"') :]
    assert '<li class="check check-fail" id="check-index-budget">' in page
    assert "205 of 200 lines" in page and "Claude Code would cut MEMORY.md off" in page
    assert page.index('id="check-merge"') < page.index('id="check-canaries"')  # worst first
