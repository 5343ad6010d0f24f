"""Live dream progress (SPEC D7, W4): the fragment htmx polls, and Cancel."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from dashboard.models import Run, RunKind, RunStatus


def running_dream(world, **progress) -> Run:
    return Run.objects.create(
        project=world.acme,
        kind=RunKind.DREAM,
        status=RunStatus.RUNNING,
        trigger="manual",
        requested_by=world.users["alice"],
        started_at=timezone.now() - timedelta(seconds=75),
        progress={"phase": "starting", "turns": 0, "files_touched": [], **progress},
    )


def fragment_url(run: Run) -> str:
    return reverse("dashboard:dream-run-progress", args=["acme", run.pk])


def test_the_page_polls_a_fragment_while_the_dream_runs(world):
    run = running_dream(world)

    page = world.client("carol").get(reverse("dashboard:dream-run", args=["acme", run.pk]))
    html = page.content.decode()

    assert f'hx-get="{fragment_url(run)}"' in html
    assert 'hx-trigger="every 1s"' in html and 'hx-swap="outerHTML"' in html
    assert "/static/dashboard/vendor/htmx-2.0.11.min.js" in html
    assert "https://" not in html.split("<body", 1)[0]  # nothing from a CDN


def test_the_fragment_shows_phase_turns_files_and_elapsed_time(world):
    run = running_dream(
        world,
        phase="updating",
        step="consolidate",
        turns=3,
        files_touched=["deploy.md", "MEMORY.md"],
        sessions_reviewed=5,
    )

    html = world.client("carol").get(fragment_url(run)).content.decode()

    assert '<dd id="run-phase" class="phase phase-updating">updating' in html
    assert "consolidate" in html
    assert '<dd id="run-turns">3</dd>' in html
    assert '<dd id="run-files">2</dd>' in html and "<code>deploy.md</code>" in html
    assert '<dd id="run-sessions">5</dd>' in html
    assert '<dd id="run-elapsed">1 min 15 s</dd>' in html
    assert "<html" not in html  # a fragment, not a page


def test_a_finished_dream_stops_polling_and_links_its_proposal(world):
    run = running_dream(world, phase="updating")
    Run.objects.filter(pk=run.pk).update(
        status=RunStatus.PROPOSED,
        finished_at=timezone.now(),
        summary="Improved 2 memories: a.md, b.md",
        dream_id="20261202-1405-9f3a",
    )

    html = world.client("carol").get(fragment_url(run)).content.decode()

    assert "hx-trigger" not in html
    assert "Improved 2 memories: a.md, b.md" in html
    assert reverse("dashboard:proposal", args=["acme", "20261202-1405-9f3a"]) in html


def test_a_maintainer_cancels_a_running_dream(world):
    run = running_dream(world)

    page = world.client("alice").get(fragment_url(run)).content.decode()
    response = world.client("alice").post(
        reverse("dashboard:dream-run-cancel", args=["acme", run.pk]), follow=True
    )

    assert "Cancel the dream" in page
    run.refresh_from_db()
    assert run.cancel_requested
    assert "Cancel requested" in response.content.decode()
    assert "Cancel the dream" not in response.content.decode()
    assert "cancelling" in response.content.decode()


def test_cancel_leaves_a_finished_dream_alone(world):
    run = running_dream(world)
    Run.objects.filter(pk=run.pk).update(status=RunStatus.PROPOSED, finished_at=timezone.now())

    world.client("alice").post(reverse("dashboard:dream-run-cancel", args=["acme", run.pk]))

    run.refresh_from_db()
    assert not run.cancel_requested


def test_viewers_see_progress_without_a_cancel_button(world):
    run = running_dream(world)

    html = world.client("carol").get(fragment_url(run)).content.decode()

    assert "Cancel the dream" not in html


def test_a_run_of_another_kind_or_project_is_404(world):
    merge = Run.objects.create(project=world.acme, kind=RunKind.MERGE)
    elsewhere = Run.objects.create(project=world.other, kind=RunKind.DREAM)
    client = world.client("alice")

    assert client.get(reverse("dashboard:dream-run", args=["acme", merge.pk])).status_code == 404
    assert (
        client.get(reverse("dashboard:dream-run", args=["acme", elsewhere.pk])).status_code == 404
    )
