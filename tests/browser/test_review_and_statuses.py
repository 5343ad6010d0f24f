"""A dream reviewed like a pull request, then approve → revert → resolve a conflict in a
real browser, checking every status each page shows on the way (issue 13 items 5, 8).
Screenshots of the review page land in test-artifacts/screenshots/ (review*.png)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from dashboard.models import Run, RunKind, RunStatus
from memsync.store import MAIN
from tests.browser.conftest import NARROW, SCREENSHOTS, WIDE
from tests.browser.scene import build_team_scene

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def scene(live_world):
    scene = build_team_scene(live_world)
    started = timezone.now() - timedelta(minutes=3)
    # The rows the workers leave: the dream that proposed, the merge that conflicted.
    scene.dream_run = Run.objects.create(
        project=scene.world.acme, kind=RunKind.DREAM, status=RunStatus.PROPOSED,
        trigger="manual", requested_by=scene.world.users["alice"], started_at=started,
        finished_at=started + timedelta(seconds=14), summary="Improved 2 memories",
        progress={"phase": "updating", "step": "prune", "turns": 3,
                  "dream_id": scene.proposal.dream_id},
        dream_id=scene.proposal.dream_id, detail={"notes": [
            "merged old_runbook.md into deploy_process.md (same subject); kept "
            "deploy_process.md as the newer",
        ]},
    )  # fmt: skip
    scene.merge_run = Run.objects.create(
        project=scene.world.acme, kind=RunKind.MERGE, status=RunStatus.CONFLICT,
        trigger="push", started_at=started, finished_at=started + timedelta(seconds=2),
        summary="merged members/bob into main; kept for review: review_style.md",
        detail={"conflicts": [{"id": scene.conflict.pk, "path": "review_style.md"}]},
    )  # fmt: skip
    return scene


def bottom_then_screenshot(session, name: str) -> None:
    """A whole-page screenshot draws the sticky bar where the window is: at the end."""
    session.page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    session.screenshot(name)


def status_of(page, selector: str) -> str:
    return page.inner_text(selector).strip()


def test_a_member_marks_files_viewed_and_comments_on_one(scene, open_session):
    page = open_session("bob").page
    page.goto(f"/p/acme/dreams/{scene.proposal.dream_id}/")

    deploy = page.locator("section.diff-file[data-path='deploy_process.md']")
    deploy.locator("button.viewed-toggle").click()
    page.wait_for_selector("section.diff-file.viewed[data-path='deploy_process.md']")
    assert "1 of 3 files viewed" in page.inner_text("#viewed-count")
    deploy = page.locator("section.diff-file[data-path='deploy_process.md']")
    deploy.locator("details.comment-box summary").click()
    deploy.locator("textarea[name=body]").fill("The date is **right**: 2026-03-12.")
    deploy.locator("form.comment-form button[type=submit]").click()

    page.wait_for_selector("section.diff-file[data-path='deploy_process.md'] article.comment")
    comment = page.inner_text("section.diff-file[data-path='deploy_process.md'] article.comment")
    assert "bob" in comment and "The date is right: 2026-03-12." in comment
    assert page.locator("#approve-form").count() == 0  # members do not decide
    page.reload()
    assert "1 of 3 files viewed" in page.inner_text("#viewed-count")  # persisted


def test_approve_revert_resolve_and_every_status_on_the_way(scene, open_session):
    session = open_session("alice")
    page = session.page
    dream_id = scene.proposal.dream_id

    # The review: checks first, the bar always in reach, a request for changes.
    page.goto(f"/p/acme/dreams/{dream_id}/")
    assert (
        page.locator("#checks").bounding_box()["y"] < page.locator("div.diff").bounding_box()["y"]
    )
    assert "Canary questions" in page.inner_text("#check-canaries")
    assert "1 memory merged into another" in page.inner_text("#check-duplicates")
    bar = page.locator("#review-bar").bounding_box()
    assert bar is not None and bar["y"] + bar["height"] <= WIDE["height"] + 1  # sticky
    page.fill("#id_comment", "Release calendar: *who* sets the dates?")
    page.click("#comment-form button[type=submit]")
    page.wait_for_selector("#conversation article.comment")
    page.fill("#id_changes", "Name the owner of the release calendar.")
    page.click("#request-changes button[type=submit]")
    page.wait_for_selector("#changes-requested")
    assert status_of(page, "#proposal-status") == "open"
    bottom_then_screenshot(session, "review")
    page.goto("/p/acme/dreams/")
    assert "changes requested" in page.inner_text("ul.cards")
    assert status_of(page, "table.runs tbody tr:first-child .status") == "proposed"

    # Approve from the sticky bar, leaving the calendar out.
    page.goto(f"/p/acme/dreams/{dream_id}/")
    page.uncheck("input[name=keep][value='release_calendar.md']")
    page.click("#bar-approve")
    page.wait_for_selector("#proposal-status:text('adopted')")
    assert page.inner_text("#changes") == "Changes adopted into main"
    assert page.locator("section.diff-file[data-path='release_calendar.md']").count() == 0
    assert page.locator("#changes-requested").count() == 0  # decided: the request is settled
    page.goto("/p/acme/dreams/")
    assert status_of(page, "table.runs tbody tr:first-child .status") == "adopted"
    page.goto("/")
    assert status_of(page, "table.projects tbody tr:first-child td:nth-child(6) .status") == (
        "adopted"
    )
    page.goto(f"/p/acme/runs/{scene.dream_run.pk}/")
    assert status_of(page, "#run-status") == "adopted"
    assert status_of(page, "#run-phase") == "done"
    assert status_of(page, "#run-elapsed") == "14 s"
    assert "queued" not in page.inner_text("main").lower()

    # Revert.
    page.goto(f"/p/acme/dreams/{dream_id}/")
    page.click("text=Revert this dream…")
    page.click("form.confirm button[type=submit]")
    page.wait_for_selector("text=later edits were kept")
    assert b"since 2026-03-12" not in scene.repo.read(MAIN, "deploy_process.md")
    page.goto(f"/p/acme/dreams/{dream_id}/")
    assert status_of(page, "#proposal-status") == "reverted"
    assert page.inner_text("#changes") == "Changes adopted into main, since reverted"
    page.goto("/p/acme/dreams/")
    assert status_of(page, "table.runs tbody tr:first-child .status") == "reverted"
    page.goto("/")
    assert status_of(page, "table.projects tbody tr:first-child td:nth-child(6) .status") == (
        "reverted"
    )

    # Resolve the conflict.
    page.goto("/p/acme/team/")
    page.click("li.conflict-card a")
    assert "waits for a decision" in page.inner_text("main")
    assert status_of(page, "#conflict-status") == "open"
    page.click("text=Keep main's version")
    page.wait_for_selector("#resolution")
    assert status_of(page, "#conflict-status") == "resolved"
    assert "waits for a decision" not in page.inner_text("main")
    page.goto("/p/acme/team/")
    assert "No open conflicts." in page.inner_text("main")
    page.goto("/")
    assert page.inner_text("table.projects tbody tr:first-child td:nth-child(5)") == "0"

    # Activity: every row's current status, and how long it took.
    page.goto("/p/acme/activity/")
    rows = {
        row.locator("td").first.inner_text(): row
        for row in page.locator("table.runs tbody tr").all()
    }
    assert rows[f"#{scene.dream_run.pk}"].locator(".status").inner_text() == "reverted"
    assert rows[f"#{scene.merge_run.pk}"].locator(".status").inner_text() == "conflict resolved"
    assert rows[f"#{scene.dream_run.pk}"].locator("td.took").inner_text() == "14 s"
    assert "0 minutes" not in page.inner_text("table.runs")


def test_screenshots_of_the_review_page(scene, open_session):
    bob = open_session("bob")
    bob.page.goto(f"/p/acme/dreams/{scene.proposal.dream_id}/")
    bob.page.locator("section.diff-file[data-path='MEMORY.md'] button.viewed-toggle").click()
    bob.page.wait_for_selector("section.diff-file.viewed")
    bottom_then_screenshot(bob, "review-member")
    # The window as a reviewer sees it mid-diff: the bar stays at its bottom edge.
    alice = open_session("alice")
    alice.page.goto(f"/p/acme/dreams/{scene.proposal.dream_id}/#diff-2")
    alice.page.wait_for_load_state("networkidle")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    alice.page.screenshot(path=str(SCREENSHOTS / "review-window.png"))
    bar = alice.page.locator("#review-bar").bounding_box()
    assert bar is not None and bar["y"] + bar["height"] <= WIDE["height"] + 1
    narrow = open_session("alice", NARROW)
    narrow.page.goto(f"/p/acme/dreams/{scene.proposal.dream_id}/")
    narrow.page.wait_for_load_state("networkidle")
    bottom_then_screenshot(narrow, "review-narrow")
    assert narrow.horizontal_overflow() == 0
