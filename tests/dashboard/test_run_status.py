"""Statuses derived from the truth, not frozen when a worker finished (issue 13 item 8):
a proposed dream's runs follow its adoption and revert, a finished run page says done,
a resolved conflict stops waiting, a partial adoption lists only what main took, and
Activity says how long each run took."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from dashboard.models import ConflictItem, Run, RunKind, RunStatus
from dashboard.sync import resolve_conflict
from memsync.dream.adoption import approve, revert
from memsync.store import Identity
from tests.dashboard.test_proposals import seed, url
from tests.dashboard.world import dream, member_commit, merge_member, topic

ALICE = Identity("alice", "alice@example.com")


def proposed_run(world, dream_id: str, seconds: float = 12) -> Run:
    """The row a dream's worker leaves when it proposed ``dream_id``."""
    started = timezone.now() - timedelta(minutes=5)
    return Run.objects.create(
        project=world.acme, kind=RunKind.DREAM, status=RunStatus.PROPOSED, trigger="manual",
        started_at=started, finished_at=started + timedelta(seconds=seconds),
        progress={"phase": "updating", "step": "prune", "dream_id": dream_id},
        dream_id=dream_id, detail={"dream_id": dream_id}, summary="Improved 1 memory",
    )  # fmt: skip


def status_on(html: str, status: str) -> bool:
    return f'class="status status-{status}">{status}</span>' in html


def test_recent_runs_and_last_dream_follow_the_proposal_through_adoption_and_revert(world):
    repo = seed(world)
    outcome = dream(world.acme, {"deploy.md": topic("deploy", "Never deploy on Fridays")})
    proposed_run(world, outcome.dream_id)
    carol = world.client("carol")

    assert status_on(carol.get(url("proposals")).content.decode(), "proposed")
    approve(repo, outcome.dream_id, approver=ALICE, worktrees_dir=world.acme.worktrees_dir)
    assert status_on(carol.get(url("proposals")).content.decode(), "adopted")
    assert status_on(carol.get(reverse("dashboard:projects")).content.decode(), "adopted")
    revert(repo, outcome.dream_id, author=ALICE)

    for page in (url("proposals"), reverse("dashboard:projects"), url("activity")):
        html = carol.get(page).content.decode()
        assert status_on(html, "reverted"), page
        assert not status_on(html, "proposed"), page


def test_a_finished_run_page_says_done_how_long_it_took_and_links_the_adopted_proposal(world):
    repo = seed(world)
    outcome = dream(world.acme, {"deploy.md": topic("deploy", "Never deploy on Fridays")})
    run = proposed_run(world, outcome.dream_id, seconds=0.4)
    approve(repo, outcome.dream_id, approver=ALICE, worktrees_dir=world.acme.worktrees_dir)

    html = world.client("carol").get(reverse("dashboard:dream-run", args=["acme", run.pk]))
    page = html.content.decode()

    assert '<dd id="run-phase" class="phase phase-done">done</dd>' in page
    assert "prune" not in page and "queued" not in page.lower()
    assert '<dd id="run-elapsed">0.4 s</dd>' in page
    assert '<span class="status status-adopted" id="run-status">adopted</span>' in page
    assert "Finished" in page and "updates by itself" not in page


def test_dream_now_leaves_no_message_that_outlives_the_run(world):
    seed(world)

    response = world.client("alice").post(url("dream-start"), follow=True)

    page = response.content.decode()
    assert "Queued: waiting for a worker" in page  # the panel, which updates in place
    assert "Dream queued" not in page  # no flash message that would stay after the run


def test_activity_says_how_long_each_run_took(world):
    started = timezone.now() - timedelta(hours=1)
    for seconds in (12, 0.4, 125):
        Run.objects.create(
            project=world.acme, kind=RunKind.MERGE, status=RunStatus.MERGED,
            started_at=started, finished_at=started + timedelta(seconds=seconds),
        )  # fmt: skip
    Run.objects.create(project=world.acme, kind=RunKind.GATE, status=RunStatus.SKIPPED,
                       started_at=started, finished_at=started)  # fmt: skip

    page = world.client("carol").get(url("activity")).content.decode()

    for took in ("12 s", "0.4 s", "2 min 05 s", "–"):
        assert f'<td class="took">{took}</td>' in page, took
    assert "0 minutes" not in page


def test_a_resolved_conflict_stops_waiting_for_a_decision(world):
    repo = seed(world)
    member_commit(world.acme, "bob", {"deploy.md": b"bob's deploy\n"}, "bob edits deploy")
    repo.apply({"deploy.md": b"main's deploy\n"}, "extract", "main edits deploy")
    merge_member(world.acme, "bob")
    conflict = ConflictItem.objects.get(project=world.acme, path="deploy.md")
    Run.objects.create(
        project=world.acme, kind=RunKind.MERGE, status=RunStatus.CONFLICT,
        detail={"conflicts": [{"id": conflict.pk, "path": "deploy.md"}]},
    )  # fmt: skip
    page_url = reverse("dashboard:conflict", args=["acme", conflict.pk])
    carol = world.client("carol")
    assert "waits for a decision" in carol.get(page_url).content.decode()
    assert status_on(carol.get(url("activity")).content.decode(), "conflict")

    resolve_conflict(conflict, "theirs", by=world.users["alice"])

    page = carol.get(page_url).content.decode()
    assert "waits for a decision" not in page
    assert '<span class="status status-resolved" id="conflict-status">resolved</span>' in page
    activity = carol.get(url("activity")).content.decode()
    assert 'class="status status-resolved">conflict resolved</span>' in activity


def test_after_a_partial_adoption_the_page_lists_only_what_main_took(world):
    repo = seed(world)
    outcome = dream(
        world.acme,
        {"deploy.md": topic("deploy", "Never deploy on Fridays"),
         "calendar.md": topic("calendar", "Release dates two weeks ahead")},
    )  # fmt: skip
    approve(repo, outcome.dream_id, approver=ALICE, exclude=["calendar.md"],
            worktrees_dir=world.acme.worktrees_dir)  # fmt: skip

    page = world.client("carol").get(url("proposal", outcome.dream_id)).content.decode()

    assert "Changes adopted into main" in page and "Changes against main" not in page
    assert 'data-path="deploy.md"' in page
    assert 'data-path="calendar.md"' not in page
    assert "<dt>Left out</dt><dd><code>calendar.md</code>" in page
