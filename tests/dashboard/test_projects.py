"""The project list: each of the user's projects with its health at a glance."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone

from dashboard.models import Run, RunKind, RunStatus
from tests.dashboard.world import commit_memories, dream, entry, member_commit, merge_member, topic


def test_it_shows_memories_problems_open_dreams_conflicts_and_last_runs(world):
    repo = world.repo()
    commit_memories(
        repo,
        {
            "MEMORY.md": (entry("A", "a.md", "a") + entry("Gone", "gone.md", "dead")).encode(),
            "a.md": topic("a", "A memory"),
            "notes.md": b"one\n",
        },
    )
    member_commit(world.acme, "bob", {"notes.md": b"bob\n"}, "bob")
    commit_memories(repo, {"notes.md": b"main\n"})
    merge_member(world.acme, "bob")
    dream(world.acme, {"a.md": topic("a", "A better memory")})
    Run.objects.create(
        project=world.acme, kind=RunKind.DREAM, status=RunStatus.PROPOSED,
        finished_at=timezone.now(),
    )  # fmt: skip

    html = world.client("carol").get(reverse("dashboard:projects")).content.decode()

    row = html.split("<strong>Acme</strong>", 1)[1].split("</tr>", 1)[0]
    cells = [cell.split(">", 1)[1] for cell in row.split("<td")[1:]]
    assert cells[0].startswith("2")  # a.md and notes.md
    assert 'class="count bad">2<' in cells[1]  # a dead link (error), notes.md not indexed
    assert 'class="count warn">1<' in cells[2]
    assert 'class="count bad">1<' in cells[3]
    assert "proposed" in cells[4] and "ago" in cells[4]
    assert "ago" in cells[5]
    assert "Other" not in html


def test_a_user_without_projects_is_told_how_to_join(world):
    from django.contrib.auth.models import User

    User.objects.create_user("newcomer", "n@example.com", "pw")
    client = world.client(None)
    client.login(username="newcomer", password="pw")

    html = client.get(reverse("dashboard:projects")).content.decode()

    assert "You are not a member of any project yet." in html


def test_anonymous_visitors_are_sent_to_the_login_page(world):
    response = world.client(None).get(reverse("dashboard:projects"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
