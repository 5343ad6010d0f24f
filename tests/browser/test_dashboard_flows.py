"""The dashboard's key flows in a real browser: review a dream (approve, reject, partial),
revert an adopted one, resolve a conflict, watch a dream's progress update in place —
and screenshots of the main pages at 1280 px and in a narrow window."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from dashboard.models import ConflictStatus, Run, RunKind, RunStatus
from memsync.dream.adoption import approve
from memsync.store import MAIN, Identity
from tests.browser.conftest import NARROW, WIDE
from tests.browser.scene import build_team_scene

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def scene(live_world):
    return build_team_scene(live_world)


def test_a_maintainer_approves_a_proposal_and_main_changes(scene, open_session):
    alice = open_session("alice")
    page = alice.page
    dream_id = scene.proposal.dream_id

    page.goto("/p/acme/dreams/")
    page.click(f"text=Dream {dream_id}")
    page.wait_for_selector("#approve-form")
    assert "Improved 2 memories" in page.inner_text("p.summary-text")
    alice.screenshot("proposal")
    page.click("#approve-form button[type=submit]")

    page.wait_for_selector("#proposal-status:text('adopted')")
    assert f"Adopted dream {dream_id} into main" in page.inner_text("main")
    assert b"since 2026-03-12" in scene.repo.read(MAIN, "deploy_process.md")
    page.goto("/p/acme/")
    assert "Release calendar" in page.inner_text("ol.index-lines")
    assert "Old runbook" not in page.inner_text("ol.index-lines")


def test_a_maintainer_rejects_a_proposal(scene, open_session):
    page = open_session("alice").page
    main = scene.repo.rev_parse(MAIN)

    page.goto(f"/p/acme/dreams/{scene.proposal.dream_id}/")
    page.click("#reject-form button")

    page.wait_for_selector("#proposal-status:text('rejected')")
    assert scene.repo.rev_parse(MAIN) == main
    assert scene.repo.rev_parse(f"refs/memsync/rejected/{scene.proposal.dream_id}")
    page.goto("/p/acme/dreams/")
    assert "No dream is waiting for review." in page.inner_text("main")


def test_a_maintainer_drops_a_file_and_approves_the_rest(scene, open_session):
    page = open_session("alice").page

    page.goto(f"/p/acme/dreams/{scene.proposal.dream_id}/")
    page.uncheck("input[name=keep][value='release_calendar.md']")
    page.click("#approve-form button[type=submit]")

    page.wait_for_selector("#proposal-status:text('adopted')")
    assert "1 file left out" in page.inner_text("main")
    assert b"since 2026-03-12" in scene.repo.read(MAIN, "deploy_process.md")
    assert scene.repo.read(MAIN, "release_calendar.md") is None
    assert b"release_calendar.md" not in scene.repo.read(MAIN, "MEMORY.md")


def test_a_maintainer_reverts_an_adopted_dream_and_later_edits_stay(scene, open_session):
    repo = scene.repo
    approve(repo, scene.proposal.dream_id, approver=Identity("alice", "alice@example.com"))
    repo.apply({"api_docs.md": b"edited after the dream\n"}, "sync", "a later edit")
    page = open_session("alice").page

    page.goto(f"/p/acme/dreams/{scene.proposal.dream_id}/")
    page.click("text=Revert this dream…")
    page.wait_for_selector("form.confirm")
    page.click("form.confirm button[type=submit]")

    page.wait_for_selector("text=later edits were kept")
    assert b"since 2026-03-12" not in repo.read(MAIN, "deploy_process.md")
    assert repo.read(MAIN, "release_calendar.md") is None
    assert repo.read(MAIN, "api_docs.md") == b"edited after the dream\n"
    assert repo.commit_info(MAIN).kind == "revert"
    page.goto(f"/p/acme/dreams/{scene.proposal.dream_id}/")
    assert page.inner_text("#proposal-status") == "reverted"


def test_a_maintainer_resolves_a_conflict_with_an_edit(scene, open_session):
    session = open_session("alice")
    page = session.page

    page.goto("/p/acme/team/")
    page.click("li.conflict-card a")
    page.wait_for_selector("table.sides")
    assert "link the commit" in page.inner_text("table.sides")
    session.screenshot("conflict")
    page.fill("textarea[name=content]", "Review comments are brief and link the commit.\n")
    page.click("text=Save the edited version")

    page.wait_for_selector("#resolution")
    assert "Resolved: edit by alice" in page.inner_text("#resolution")
    assert scene.repo.read(MAIN, "review_style.md") == (
        b"Review comments are brief and link the commit.\n"
    )
    scene.conflict.refresh_from_db()
    assert scene.conflict.status == ConflictStatus.RESOLVED


def test_a_dreams_progress_updates_in_place_without_a_reload(scene, open_session):
    run = Run.objects.create(
        project=scene.world.acme,
        kind=RunKind.DREAM,
        status=RunStatus.RUNNING,
        trigger="manual",
        requested_by=scene.world.users["alice"],
        started_at=timezone.now(),
        progress={"phase": "starting", "turns": 0, "files_touched": []},
    )
    session = open_session("alice")
    page = session.page
    page.goto(f"/p/acme/runs/{run.pk}/")
    page.evaluate("() => { window.stayedOnThisPage = true; }")
    assert page.inner_text("#run-phase").startswith("starting")

    Run.objects.filter(pk=run.pk).update(
        progress={
            "phase": "updating",
            "step": "consolidate",
            "turns": 4,
            "files_touched": ["deploy_process.md", "MEMORY.md"],
            "sessions_reviewed": 3,
        }
    )
    page.wait_for_selector("#run-turns:text('4')")

    assert page.evaluate("() => window.stayedOnThisPage") is True
    assert page.inner_text("#run-phase").startswith("updating")
    assert page.inner_text("#run-files") == "2"
    session.screenshot("progress")
    page.click("text=Cancel the dream")
    page.wait_for_selector("text=Cancel requested")
    run.refresh_from_db()
    assert run.cancel_requested

    Run.objects.filter(pk=run.pk).update(
        status=RunStatus.CANCELLED, finished_at=timezone.now(), summary="Cancelled by alice."
    )
    page.evaluate("() => { window.stayedOnThisPage = true; }")
    page.wait_for_selector("#dream-progress.finished")
    assert page.evaluate("() => window.stayedOnThisPage") is True
    assert page.inner_text("#run-status") == "cancelled"


MAIN_PAGES = {
    "projects": "/",
    "index": "/p/acme/",
    "memory": "/p/acme/memory/deploy_process.md",
    "blame": "/p/acme/blame/review_style.md",
    "history": "/p/acme/history/",
    "search": "/p/acme/search/?q=deploy+review",
    "overview": "/p/acme/overview/",
    "commit": None,  # the newest extraction, found in the scene
    "proposal": None,
    "proposals": "/p/acme/dreams/",
    "progress": None,
    "team": "/p/acme/team/",
    "members": "/p/acme/members/",
    "tokens": "/tokens/",
}


def test_screenshots_of_the_main_pages_at_1280_px_and_in_a_narrow_window(scene, open_session):
    run = Run.objects.create(
        project=scene.world.acme, kind=RunKind.DREAM, status=RunStatus.RUNNING,
        trigger="manual", requested_by=scene.world.users["alice"], started_at=timezone.now(),
        progress={"phase": "updating", "step": "prune", "turns": 3, "sessions_reviewed": 3,
                  "files_touched": ["deploy_process.md", "MEMORY.md"]},
    )  # fmt: skip
    extraction = next(c for c in scene.repo.log(MAIN) if c.kind == "extract")
    pages = {
        **MAIN_PAGES,
        "commit": f"/p/acme/commits/{extraction.sha}/",
        "proposal": f"/p/acme/dreams/{scene.proposal.dream_id}/",
        "progress": f"/p/acme/runs/{run.pk}/",
    }
    cut_off = []
    for suffix, viewport in (("", WIDE), ("-narrow", NARROW)):
        session = open_session("alice", viewport)
        for name, path in pages.items():
            response = session.page.goto(path)
            assert response is not None and response.status == 200, (name, path)
            assert "script-src 'self'" in response.headers["content-security-policy"], name
            session.page.wait_for_load_state("networkidle")
            session.screenshot(name + suffix)
            overflow = session.horizontal_overflow()
            if overflow > 0:
                cut_off.append(f"{name}{suffix}: {overflow} px wider than the window")
    assert not cut_off, cut_off


def test_the_index_page_marks_what_the_agent_cannot_see(live_world, open_session):
    from tests.dashboard.world import commit_memories, entry, topic

    lines = "".join(entry(f"Note {n}", f"note{n}.md", f"hook {n}") for n in range(1, 206))
    files = {f"note{n}.md": topic(f"note{n}", f"Note number {n}") for n in range(1, 206)}
    commit_memories(live_world.repo(), {"MEMORY.md": lines.encode(), **files})
    session = open_session("carol")

    session.page.goto("/p/acme/")

    cutoff = session.page.locator("li.cutoff")
    assert cutoff.is_visible()
    invisible = session.page.locator("li.line.invisible")
    assert invisible.count() == 5
    assert re.search(r"invisible to the agent", invisible.first.inner_text())
    session.screenshot("index-over-the-limit")


@pytest.mark.worker
def test_dream_now_runs_on_a_worker_and_the_page_follows_it_live(
    scene, open_session, celery_worker_factory, tmp_path
):
    # The worker finds the projects where this test keeps them: DATA_DIR/projects.
    celery_worker_factory(env={"MEMSYNC_DATA_DIR": str(tmp_path)})
    session = open_session("alice")
    page = session.page
    page.set_default_timeout(90_000)

    page.goto("/p/acme/dreams/")
    page.click("#dream-start button")
    page.wait_for_selector("#dream-progress")
    page.evaluate("() => { window.stayedOnThisPage = true; }")
    page.wait_for_selector("#dream-progress.finished")

    assert page.evaluate("() => window.stayedOnThisPage") is True
    assert page.inner_text("#run-status") == "proposed"
    page.click("text=Review the proposal")
    page.wait_for_selector("#approve-form")
    assert "deterministic" in page.inner_text("dl.facts-grid")
    assert "old_runbook.md" in page.inner_text("div.diff")
    page.click("#approve-form button[type=submit]")
    page.wait_for_selector("#proposal-status:text('adopted')")
    assert b"old_runbook.md" not in scene.repo.read(MAIN, "MEMORY.md")
