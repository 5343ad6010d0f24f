"""A maintainer's hand on a memory in a real browser (issue 13): edit with the live
preview, a refused edit that stores nothing, "still true", delete, and Revert of any
commit — each one commit on main; a member sees none of it. Screenshots of the pages."""

from __future__ import annotations

import pytest

from memsync.store import MAIN
from tests.browser.conftest import NARROW
from tests.browser.scene import build_team_scene

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EDITED = (
    "---\nname: api-docs\ndescription: The public API reference moved to api.example.com\n"
    "type: reference\n---\n\nSee **api.example.com** for every endpoint.\n"
    "<script>alert(1)</script>\n"
)
BROKEN = "---\nname: api-docs\nname: twice\ndescription: d\ntype: reference\n---\n\nBody.\n"


@pytest.fixture
def scene(live_world):
    return build_team_scene(live_world)


def test_a_maintainer_edits_with_a_live_preview_confirms_deletes_and_reverts(scene, open_session):
    repo = scene.repo
    session = open_session("alice")
    page = session.page

    page.goto("/p/acme/memory/api_docs.md")
    page.click("div.memory-actions >> text=Edit")
    page.wait_for_selector("textarea[name=text]")
    page.fill("textarea[name=text]", BROKEN)
    page.wait_for_selector("#preview >> text=This cannot be saved")
    before = repo.rev_parse(MAIN)
    page.click("form.memory-edit button[type=submit]")
    page.wait_for_selector("text=Nothing was saved")
    assert repo.rev_parse(MAIN) == before
    assert "line 3: key 'name' appears twice" in page.inner_text("div.flash.error")

    page.goto("/p/acme/edit/api_docs.md")
    page.fill("textarea[name=text]", EDITED)
    page.wait_for_selector("#preview strong:text('api.example.com')")
    assert page.locator("#preview script").count() == 0  # the sanitizer dropped it
    session.screenshot("memory-edit")
    page.click("form.memory-edit button[type=submit]")
    page.wait_for_selector("text=Saved api_docs.md")
    edit = repo.commit_info(MAIN)
    assert (edit.kind, edit.author_name) == ("edit", "alice")
    stored = repo.read(MAIN, "api_docs.md") or b""
    assert b"api.example.com" in stored and b"\r\n" not in stored  # the form's CRLF undone
    assert b"moved to api.example.com" in (repo.read(MAIN, "MEMORY.md") or b"")

    page.goto("/p/acme/memory/review_style.md")
    page.click("button:text('Still true')")
    page.wait_for_selector("text=Marked review_style.md still true")
    assert repo.commit_info(MAIN).kind == "confirm"
    assert "changed today" in page.inner_text("p.facts")
    session.screenshot("memory-actions")

    page.goto("/p/acme/memory/testing_rules.md")
    page.click("text=Delete…")
    page.wait_for_selector("form.confirm")
    session.screenshot("memory-delete")
    page.click("form.confirm button[type=submit]")
    page.wait_for_selector("text=Deleted testing_rules.md and its index entry")
    deletion = repo.commit_info(MAIN)
    assert deletion.kind == "delete"
    assert repo.read(MAIN, "testing_rules.md") is None
    assert "Testing rules" not in page.inner_text("ol.index-lines")

    page.goto(f"/p/acme/commits/{deletion.sha}/")
    page.click("text=Revert…")
    page.wait_for_selector("form.confirm")
    page.click("form.confirm button[type=submit]")
    page.wait_for_selector("text=later edits were kept")
    assert repo.commit_info(MAIN).kind == "revert"
    assert repo.read(MAIN, "testing_rules.md") is not None
    assert b"testing_rules.md" in (repo.read(MAIN, "MEMORY.md") or b"")


def test_a_member_sees_no_edit_buttons_and_is_refused(scene, open_session):
    page = open_session("bob").page

    page.goto("/p/acme/memory/api_docs.md")
    assert page.locator("div.memory-actions").count() == 0
    assert "memsync push" in page.inner_text("p.propose")
    response = page.goto("/p/acme/edit/api_docs.md")
    assert response is not None and response.status == 403


def test_the_editing_pages_fit_a_phone(scene, open_session):
    session = open_session("alice", NARROW)
    cut_off = []
    for name, path in (
        ("memory-actions", "/p/acme/memory/api_docs.md"),
        ("memory-edit", "/p/acme/edit/api_docs.md"),
        ("memory-delete", "/p/acme/delete/api_docs.md"),
    ):
        session.page.goto(path)
        session.page.wait_for_load_state("networkidle")
        session.screenshot(f"{name}-narrow")
        if session.horizontal_overflow() > 0:
            cut_off.append(name)
    assert not cut_off
