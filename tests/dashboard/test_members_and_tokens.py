"""Members and roles (maintainers only) and personal access tokens."""

from __future__ import annotations

import base64
import re

from django.contrib.auth.models import User
from django.urls import reverse

from dashboard.models import AccessToken, Membership, Role, hash_token


def same_page(a: str, b: str) -> bool:
    """Equal but for the per-response CSRF tokens."""
    token = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
    return token.sub("", a) == token.sub("", b)


def members_url() -> str:
    return reverse("dashboard:members", args=["acme"])


def membership(world, name: str) -> Membership:
    return Membership.objects.get(project=world.acme, user=world.users[name])


def test_a_maintainer_adds_a_member_by_username(world):
    User.objects.create_user("dave", "dave@example.com", "pw")

    response = world.client("alice").post(
        reverse("dashboard:member-add", args=["acme"]),
        {"username": "dave", "role": "viewer"},
        follow=True,
    )

    assert Membership.objects.get(project=world.acme, user__username="dave").role == "viewer"
    assert "Added dave as viewer." in response.content.decode()
    assert world.client(None).login(username="dave", password="pw")


def test_adding_an_unknown_or_existing_user_says_why(world):
    url = reverse("dashboard:member-add", args=["acme"])
    alice = world.client("alice")

    unknown = alice.post(url, {"username": "nobody", "role": "member"}).content.decode()
    twice = alice.post(url, {"username": "bob", "role": "viewer"}).content.decode()

    assert "There is no user named “nobody” you can add." in unknown
    assert "bob is already a member." in twice
    assert membership(world, "bob").role == Role.MEMBER


def test_a_maintainer_cannot_find_or_add_users_of_projects_they_cannot_see(world):
    # erin works only on "other"; alice maintains only "acme".
    erin = User.objects.create_user("erin", "erin@example.com", "pw")
    Membership.objects.create(project=world.other, user=erin, role=Role.MEMBER)
    url = reverse("dashboard:member-add", args=["acme"])

    hidden = world.client("alice").post(url, {"username": "erin", "role": "member"})
    unknown = world.client("alice").post(url, {"username": "nobody", "role": "member"})

    assert not Membership.objects.filter(project=world.acme, user=erin).exists()
    assert "There is no user named “erin” you can add." in hidden.content.decode()
    # The same answer as for a name nobody has: the form reveals nothing.
    assert same_page(hidden.content.decode().replace("erin", "nobody"), unknown.content.decode())
    staff = world.users["alice"]
    staff.is_staff = True
    staff.save()
    world.client("alice").post(url, {"username": "erin", "role": "member"})
    assert Membership.objects.filter(project=world.acme, user=erin).exists()


def test_a_maintainer_changes_a_role_and_removes_a_member(world):
    alice = world.client("alice")
    carol = membership(world, "carol")

    alice.post(reverse("dashboard:member-role", args=["acme", carol.pk]), {"role": "member"})
    assert membership(world, "carol").role == Role.MEMBER

    alice.post(reverse("dashboard:member-remove", args=["acme", carol.pk]))
    assert not Membership.objects.filter(pk=carol.pk).exists()
    assert world.client("carol").get(reverse("dashboard:index", args=["acme"])).status_code == 404


def test_the_last_maintainer_cannot_step_down_or_be_removed(world):
    alice = world.client("alice")
    own = membership(world, "alice")

    demoted = alice.post(
        reverse("dashboard:member-role", args=["acme", own.pk]), {"role": "viewer"}, follow=True
    )
    removed = alice.post(reverse("dashboard:member-remove", args=["acme", own.pk]), follow=True)

    assert membership(world, "alice").role == Role.MAINTAINER
    assert "A project needs a maintainer" in demoted.content.decode()
    assert "A project needs a maintainer" in removed.content.decode()


def test_a_membership_of_another_project_is_404(world):
    mallory = Membership.objects.get(project=world.other, user=world.users["mallory"])

    response = world.client("alice").post(
        reverse("dashboard:member-remove", args=["acme", mallory.pk])
    )

    assert response.status_code == 404
    assert Membership.objects.filter(pk=mallory.pk).exists()


def test_a_new_token_is_shown_once_and_only_its_digest_is_stored(world):
    bob = world.client("bob")

    response = bob.post(reverse("dashboard:token-create"), {"name": "laptop"})
    html = response.content.decode()
    clear = html.split('<code class="token" id="issued-token">', 1)[1].split("<", 1)[0]

    assert clear.startswith("msk_")
    assert response["Cache-Control"] == "no-store"
    token = AccessToken.objects.get(user=world.users["bob"], name="laptop")
    assert token.digest == hash_token(clear)
    assert clear not in bob.get(reverse("dashboard:tokens")).content.decode()
    pair = base64.b64encode(f"bob:{clear}".encode()).decode()
    status = world.client(None).get(
        reverse("api:status", args=["acme"]), HTTP_AUTHORIZATION=f"Basic {pair}"
    )
    assert status.status_code == 200


def test_revoking_a_token_locks_its_clients_out(world):
    token, clear = AccessToken.issue(world.users["bob"], "ci")
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {clear}"}
    api = reverse("api:status", args=["acme"])
    assert world.client(None).get(api, **bearer).status_code == 200

    response = world.client("bob").post(
        reverse("dashboard:token-revoke", args=[token.pk]), follow=True
    )

    token.refresh_from_db()
    assert token.revoked_at is not None
    assert world.client(None).get(api, **bearer).status_code == 401
    html = response.content.decode()
    assert "Revoked “ci”" in html and "revoked" in html


def test_the_tokens_page_shows_when_each_token_was_last_used(world):
    _, clear = AccessToken.issue(world.users["bob"], "desktop")
    AccessToken.issue(world.users["bob"], "unused")
    world.client(None).get(
        reverse("api:status", args=["acme"]), HTTP_AUTHORIZATION=f"Bearer {clear}"
    )

    html = world.client("bob").get(reverse("dashboard:tokens")).content.decode()

    desktop = html.split("<td>desktop</td>", 1)[1].split("</tr>", 1)[0]
    unused = html.split("<td>unused</td>", 1)[1].split("</tr>", 1)[0]
    assert "0\xa0minutes ago" in desktop.split("</td>")[2]
    assert "never" in unused


def test_nobody_sees_or_revokes_another_users_token(world):
    token, _ = AccessToken.issue(world.users["bob"], "bobs")

    page = world.client("alice").get(reverse("dashboard:tokens")).content.decode()
    response = world.client("alice").post(reverse("dashboard:token-revoke", args=[token.pk]))

    assert "bobs" not in page
    assert response.status_code == 404
    token.refresh_from_db()
    assert token.revoked_at is None
