"""Team (SPEC T2, W4): members' branches with their merge state, and conflicts reviewed
side by side and resolved by keeping main's side, the member's, or an edit."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from dashboard.models import ConflictItem, ConflictStatus
from memsync.store import MAIN, CommitKind
from tests.dashboard.world import commit_memories, entry, member_commit, merge_member
from tests.support.refs import refs_written_long_ago


def conflicted(world) -> ConflictItem:
    repo = world.repo()
    commit_memories(
        repo,
        {"MEMORY.md": entry("Notes", "notes.md", "n").encode(), "notes.md": b"one\ntwo\n"},
    )
    member_commit(world.acme, "bob", {"notes.md": b"one\ntwo, says bob\n"}, "bob's notes")
    commit_memories(repo, {"notes.md": b"one\ntwo, says main\n"}, CommitKind.EXTRACT)
    merge_member(world.acme, "bob")
    return ConflictItem.objects.get(project=world.acme, path="notes.md")


def resolve(world, conflict: ConflictItem, **data):
    url = reverse("dashboard:conflict-resolve", args=["acme", conflict.pk])
    return world.client("alice").post(url, data, follow=True)


def test_the_team_page_lists_members_branches_with_ahead_behind_and_last_merge(world):
    commit_memories(world.repo(), {"a.md": b"a\n"})
    member_commit(world.acme, "bob", {"b.md": b"b\n"}, "bob adds b")
    merge_member(world.acme, "bob")
    member_commit(world.acme, "bob", {"c.md": b"c\n"}, "bob adds c")
    member_commit(world.acme, "carol", {"d.md": b"d\n"}, "carol adds d")

    html = world.client("carol").get(reverse("dashboard:team", args=["acme"])).content.decode()

    bob_row = html.split("<code>members/bob</code>", 1)[1].split("</tr>", 1)[0]
    carol_row = html.split("<code>members/carol</code>", 1)[1].split("</tr>", 1)[0]
    assert '<span class="count warn">1</span> commit' in bob_row
    assert "ago</a>" in bob_row  # the last merge, linked
    assert "never" in carol_row


def test_a_conflict_shows_both_sides_side_by_side(world):
    conflict = conflicted(world)

    html = (
        world.client("carol")
        .get(reverse("dashboard:conflict", args=["acme", conflict.pk]))
        .content.decode()
    )

    assert "main's version" in html and "bob's version" in html
    changed = html.split('<tr class="sb changed">', 1)[1].split("</tr>", 1)[0]
    assert "two, says main" in changed and "two, says bob" in changed
    assert '<tr class="sb same">' in html
    assert "A maintainer resolves this conflict." in html  # carol cannot


def test_keeping_mine_makes_a_merge_commit_with_mains_side(world):
    conflict = conflicted(world)
    repo = world.repo()

    response = resolve(world, conflict, choice="mine")

    conflict.refresh_from_db()
    assert conflict.status == ConflictStatus.RESOLVED and conflict.resolution == "mine"
    assert repo.read(MAIN, "notes.md") == b"one\ntwo, says main\n"
    head = repo.commit_info(MAIN)
    assert head.kind == "merge" and conflict.resolution_commit == head.sha
    assert "Resolved: <strong>mine</strong> by alice" in response.content.decode()


def test_keeping_theirs_takes_the_members_side(world):
    conflict = conflicted(world)

    resolve(world, conflict, choice="theirs")

    assert world.repo().read(MAIN, "notes.md") == b"one\ntwo, says bob\n"


def test_an_edit_is_saved_with_unix_line_endings(world):
    conflict = conflicted(world)

    resolve(world, conflict, choice="edit", content="one\r\ntwo, as agreed\r\n")

    assert world.repo().read(MAIN, "notes.md") == b"one\ntwo, as agreed\n"
    conflict.refresh_from_db()
    assert conflict.resolution == "edit"


def test_an_empty_edit_is_refused_and_nothing_changes(world):
    conflict = conflicted(world)
    head = world.repo().rev_parse(MAIN)

    response = resolve(world, conflict, choice="edit", content="")

    assert "Write the text to keep, or pick one side." in response.content.decode()
    assert world.repo().rev_parse(MAIN) == head


def test_an_edit_with_a_secret_is_refused_without_showing_it(world):
    conflict = conflicted(world)
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"

    response = resolve(world, conflict, choice="edit", content=f"token: {secret}\n")

    html = response.content.decode()
    assert "Not resolved" in html and secret not in html
    conflict.refresh_from_db()
    assert conflict.status == ConflictStatus.OPEN


def test_a_resolved_conflict_is_not_resolved_twice(world):
    conflict = conflicted(world)
    resolve(world, conflict, choice="mine")
    head = world.repo().rev_parse(MAIN)

    response = resolve(world, conflict, choice="theirs")

    assert world.repo().rev_parse(MAIN) == head
    assert "This conflict was already resolved." in response.content.decode()


def test_members_cannot_resolve(world):
    conflict = conflicted(world)
    url = reverse("dashboard:conflict-resolve", args=["acme", conflict.pk])

    assert world.client("bob").post(url, {"choice": "theirs"}).status_code == 403
    conflict.refresh_from_db()
    assert conflict.status == ConflictStatus.OPEN


def conflict_row(world, path: str, *, by: str | None = None, days_ago: int = 0) -> ConflictItem:
    """A conflict as a merge records it; resolved by ``by`` when given."""
    when = timezone.now() - timedelta(days=days_ago)
    return ConflictItem.objects.create(
        project=world.acme, member="bob", path=path, main_commit="a" * 40,
        member_commit="b" * 40, ref=f"refs/memsync/conflicts/{path}", created_at=when,
        status=ConflictStatus.RESOLVED if by else ConflictStatus.OPEN,
        resolution="mine" if by else "", resolved_by=world.users[by] if by else None,
        resolved_at=when if by else None,
    )  # fmt: skip


def test_the_team_page_reads_its_conflicts_and_their_resolvers_in_one_query(
    world, django_assert_max_num_queries
):
    conflict_row(world, "open.md")
    for days, name in enumerate(("alice", "bob", "carol")):
        conflict_row(world, f"by-{name}.md", by=name, days_ago=days + 1)
    client = world.client("carol")

    # The session, its user, carol's membership, then the conflicts.
    with django_assert_max_num_queries(4):
        html = client.get(reverse("dashboard:team", args=["acme"])).content.decode()

    open_part, resolved_part = html.split("<h2>Resolved conflicts</h2>")
    assert "open.md" in open_part
    assert [name for name in ("alice", "bob", "carol") if f"by {name}" in resolved_part] == [
        "alice", "bob", "carol",
    ]  # fmt: skip
    assert resolved_part.index("by-alice.md") < resolved_part.index("by-carol.md")  # newest first


def test_the_team_page_lists_the_twenty_newest_resolved_conflicts(world):
    for days in range(22):
        conflict_row(world, f"resolved-{days:02d}-days-ago.md", by="alice", days_ago=days)

    html = world.client("carol").get(reverse("dashboard:team", args=["acme"])).content.decode()

    resolved = html.split("<h2>Resolved conflicts</h2>")[1]
    assert resolved.count("<li>") == 20
    assert "resolved-19-days-ago.md" in resolved and "resolved-20-days-ago.md" not in resolved


def test_the_team_page_starts_no_git_while_no_branch_moves(world, tmp_path, monkeypatch):
    member_commit(world.acme, "bob", {"b.md": b"b\n"}, "bob adds b")
    refs_written_long_ago(world.repo().path / ".git")
    client = world.client("carol")
    url = reverse("dashboard:team", args=["acme"])
    client.get(url)  # reads the branches, their last merges and how far each is ahead
    trace = tmp_path / "git-trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))

    pages = [client.get(url).content.decode() for _ in range(3)]

    assert all("<code>members/bob</code>" in page for page in pages)
    assert not trace.exists(), trace.read_text()


def test_the_team_page_shows_a_branch_pushed_after_it_read_the_branches(world):
    member_commit(world.acme, "bob", {"b.md": b"b\n"}, "bob adds b")
    refs_written_long_ago(world.repo().path / ".git")
    client = world.client("carol")
    url = reverse("dashboard:team", args=["acme"])
    assert "members/carol" not in client.get(url).content.decode()

    member_commit(world.acme, "carol", {"c.md": b"c\n"}, "carol adds c")
    right_after = client.get(url).content.decode()
    refs_written_long_ago(world.repo().path / ".git")
    later = client.get(url).content.decode()

    assert "<code>members/carol</code>" in right_after and "<code>members/carol</code>" in later
