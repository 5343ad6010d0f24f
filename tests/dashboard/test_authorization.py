"""Authorization on every route (SPEC W4): the matrix of every URL pattern in the
URLconf × every persona × method, each answer checked.

The patterns are read from the URLconf, so a new view without a rule here fails
``test_every_url_pattern_has_a_rule``. Django's admin is the one namespace covered as a
whole: it is staff-only, and no persona is staff.

Personas: alice maintains acme, bob is a member, carol a viewer, mallory maintains
another project (an outsider to acme), and anonymous. Pages redirect anonymous users to
the login page; the Git and API routes answer 401 instead, and refuse a browser
session: they accept only tokens.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from dashboard.models import AccessToken, ConflictItem, Membership, Run, RunKind, RunStatus
from memsync.store import CommitKind
from tests.dashboard.world import (
    World,
    commit_memories,
    dream,
    entry,
    member_commit,
    merge_member,
    topic,
)

LOGIN = "→login"  # a redirect to the login page
ANONYMOUS = "anonymous"
# The acting maintainer goes last: her POST may change what the others would see.
ORDER = (ANONYMOUS, "mallory", "carol", "bob", "alice")

READ = {"alice": 200, "bob": 200, "carol": 200, "mallory": 404, ANONYMOUS: LOGIN}
MAINTAIN_PAGE = {"alice": 200, "bob": 403, "carol": 403, "mallory": 404, ANONYMOUS: LOGIN}
ACT = {"alice": 302, "bob": 403, "carol": 403, "mallory": 404, ANONYMOUS: LOGIN}
CONTRIBUTE = {"alice": 302, "bob": 302, "carol": 403, "mallory": 404, ANONYMOUS: LOGIN}
NOT_THIS_METHOD = {"alice": 405, "bob": 405, "carol": 405, "mallory": 405, ANONYMOUS: LOGIN}
SIGNED_IN = {"alice": 200, "bob": 200, "carol": 200, "mallory": 200, ANONYMOUS: LOGIN}
PUBLIC = {"alice": 200, "bob": 200, "carol": 200, "mallory": 200, ANONYMOUS: 200}
TOKENS_ONLY = {"alice": 401, "bob": 401, "carol": 401, "mallory": 401, ANONYMOUS: 401}


@dataclass
class Scene:
    """Everything the routes need to point at: made once per pattern, for real."""

    world: World
    extraction: str
    dream_id: str
    run_id: int
    conflict_id: int
    bob_token_id: int
    carol_membership_id: int
    tokens: dict[str, str] = field(default_factory=dict)


def build_scene(world: World) -> Scene:
    repo = world.repo()
    commit_memories(
        repo,
        {"MEMORY.md": entry("Notes", "notes.md", "notes").encode(), "notes.md": b"v1\n"},
    )
    member_commit(world.acme, "bob", {"notes.md": b"bob's version\n"}, "bob edits notes")
    extraction = commit_memories(
        repo, {"notes.md": b"main's version\n"}, CommitKind.EXTRACT, "s1 — saved 1 memory"
    )
    merge_member(world.acme, "bob")
    conflict = ConflictItem.objects.get(project=world.acme, path="notes.md")
    outcome = dream(world.acme, {"dreamt.md": topic("dreamt", "A dreamt memory")})
    run = Run.objects.create(
        project=world.acme,
        kind=RunKind.DREAM,
        status=RunStatus.RUNNING,
        progress={"phase": "updating", "turns": 2},
    )
    tokens = {name: AccessToken.issue(world.users[name], "matrix")[1] for name in world.users}
    bob_token = AccessToken.objects.filter(user=world.users["bob"]).first()
    assert bob_token is not None
    carol = Membership.objects.get(project=world.acme, user=world.users["carol"])
    User.objects.create_user("newcomer", "newcomer@example.com", "pw")
    return Scene(
        world, extraction, outcome.dream_id, run.pk, conflict.pk, bob_token.pk, carol.pk, tokens
    )


@dataclass(frozen=True)
class Case:
    method: str
    expect: dict[str, int | str]
    data: dict[str, object] = field(default_factory=dict)
    query: str = ""
    token: bool = False  # send the persona's token instead of the browser session


@dataclass(frozen=True)
class Rule:
    args: Callable[[Scene], list[object]]
    cases: tuple[Case, ...]


def acme(_: Scene) -> list[object]:
    return ["acme"]


def none(_: Scene) -> list[object]:
    return []


def page(expect: dict[str, int | str] = READ) -> tuple[Case, ...]:
    return (Case("GET", expect), Case("POST", NOT_THIS_METHOD))


def action(expect: dict[str, int | str] = ACT, **data: object) -> tuple[Case, ...]:
    return (Case("POST", expect, data), Case("GET", NOT_THIS_METHOD))


RULES: dict[str, Rule] = {
    "login": Rule(
        none, (Case("GET", PUBLIC), Case("POST", PUBLIC, {"username": "x", "password": "y"}))
    ),
    "logout": Rule(
        none,
        (
            Case("GET", dict.fromkeys(ORDER, 405)),
            Case("POST", dict.fromkeys(ORDER, LOGIN)),
        ),
    ),
    "healthz": Rule(none, (Case("GET", PUBLIC),)),
    "favicon": Rule(none, (Case("GET", dict.fromkeys(ORDER, 301)),)),
    "dashboard:projects": Rule(none, page(SIGNED_IN)),
    "dashboard:tokens": Rule(none, page(SIGNED_IN)),
    "dashboard:token-create": Rule(none, action(SIGNED_IN, name="laptop")),
    "dashboard:token-revoke": Rule(
        lambda s: [s.bob_token_id],
        action({"alice": 404, "bob": 302, "carol": 404, "mallory": 404, ANONYMOUS: LOGIN}),
    ),
    "dashboard:index": Rule(acme, page()),
    "dashboard:memory": Rule(lambda s: ["acme", "notes.md"], page()),
    "dashboard:blame": Rule(lambda s: ["acme", "notes.md"], page()),
    # Editing is the maintainer's; members propose through their branch (issue 13).
    "dashboard:memory-edit": Rule(
        lambda s: ["acme", "notes.md"],
        (Case("GET", MAINTAIN_PAGE), Case("POST", ACT, {"text": topic("notes", "Notes").decode()})),
    ),
    "dashboard:memory-preview": Rule(
        lambda s: ["acme", "notes.md"],
        action({**ACT, "alice": 200}, text=topic("notes", "Notes").decode()),
    ),
    "dashboard:memory-delete": Rule(
        lambda s: ["acme", "notes.md"], (Case("GET", MAINTAIN_PAGE), Case("POST", ACT))
    ),
    "dashboard:memory-confirm": Rule(lambda s: ["acme", "notes.md"], action()),
    "dashboard:history": Rule(acme, page()),
    "dashboard:activity": Rule(acme, page()),
    "dashboard:commit": Rule(lambda s: ["acme", s.extraction], page()),
    "dashboard:commit-revert": Rule(
        lambda s: ["acme", s.extraction], (Case("GET", MAINTAIN_PAGE), Case("POST", ACT))
    ),
    "dashboard:proposals": Rule(acme, page()),
    "dashboard:proposal": Rule(lambda s: ["acme", s.dream_id], page()),
    "dashboard:proposal-approve": Rule(lambda s: ["acme", s.dream_id], action(keep=["dreamt.md"])),
    "dashboard:proposal-reject": Rule(lambda s: ["acme", s.dream_id], action()),
    # Reviewing (docs/requirements.md, "Reviewing a dream"): members and maintainers
    # comment and mark files viewed; only maintainers request changes; viewers read.
    "dashboard:proposal-comment": Rule(
        lambda s: ["acme", s.dream_id], action(CONTRIBUTE, body="Looks right.")
    ),
    "dashboard:proposal-viewed": Rule(
        lambda s: ["acme", s.dream_id], action(CONTRIBUTE, path="dreamt.md", viewed="1")
    ),
    "dashboard:proposal-request-changes": Rule(
        lambda s: ["acme", s.dream_id], action(body="Keep the old wording.")
    ),
    "dashboard:dream-start": Rule(acme, action()),
    "dashboard:dream-run": Rule(lambda s: ["acme", s.run_id], page()),
    "dashboard:dream-run-progress": Rule(lambda s: ["acme", s.run_id], page()),
    "dashboard:dream-run-cancel": Rule(lambda s: ["acme", s.run_id], action()),
    "dashboard:team": Rule(acme, page()),
    "dashboard:conflict": Rule(lambda s: ["acme", s.conflict_id], page()),
    "dashboard:conflict-resolve": Rule(lambda s: ["acme", s.conflict_id], action(choice="theirs")),
    "dashboard:members": Rule(acme, page(MAINTAIN_PAGE)),
    # A newcomer in no project yet: any maintainer may add them (dashboard/forms.py).
    "dashboard:member-add": Rule(acme, action(username="newcomer", role="viewer")),
    "dashboard:member-role": Rule(lambda s: ["acme", s.carol_membership_id], action(role="member")),
    "dashboard:member-remove": Rule(lambda s: ["acme", s.carol_membership_id], action()),
    # Token routes: a browser session alone is refused; the persona's token is judged by
    # the persona's role.
    "git": Rule(
        lambda s: ["acme", "info/refs"],
        (
            Case("GET", TOKENS_ONLY, query="service=git-upload-pack"),
            Case(
                "GET",
                {"alice": 200, "bob": 200, "carol": 200, "mallory": 404, ANONYMOUS: 401},
                query="service=git-upload-pack",
                token=True,
            ),
            Case(
                "GET",
                {"alice": 200, "bob": 200, "carol": 403, "mallory": 404, ANONYMOUS: 401},
                query="service=git-receive-pack",
                token=True,
            ),
        ),
    ),
    "api:status": Rule(
        acme,
        (
            Case("GET", TOKENS_ONLY),
            Case(
                "GET",
                {"alice": 200, "bob": 200, "carol": 200, "mallory": 404, ANONYMOUS: 401},
                token=True,
            ),
        ),
    ),
    "api:sessions": Rule(
        acme,
        (
            Case("POST", TOKENS_ONLY),
            Case(
                "POST",
                {"alice": 201, "bob": 201, "carol": 403, "mallory": 404, ANONYMOUS: 401},
                token=True,
            ),
        ),
    ),
    "recall_api:recall": Rule(
        acme,
        (
            Case("GET", TOKENS_ONLY, query="q=notes"),
            Case(
                "GET",
                {"alice": 200, "bob": 200, "carol": 200, "mallory": 404, ANONYMOUS: 401},
                query="q=notes",
                token=True,
            ),
        ),
    ),
    "api:whoami": Rule(
        none,
        (
            Case("GET", TOKENS_ONLY),
            Case("GET", {**dict.fromkeys(ORDER, 200), ANONYMOUS: 401}, token=True),
            Case("POST", {**dict.fromkeys(ORDER, 405)}, token=True),
        ),
    ),
    "api:not-found": Rule(lambda s: ["nothing/here"], (Case("GET", dict.fromkeys(ORDER, 404)),)),
}


def url_patterns(
    resolver: URLResolver | None = None, namespace: str = ""
) -> Iterator[tuple[str, URLPattern]]:
    for entry_ in (resolver or get_resolver()).url_patterns:
        if isinstance(entry_, URLResolver):
            inner = entry_.namespace or ""
            yield from url_patterns(entry_, f"{namespace}{inner}:" if inner else namespace)
        elif entry_.name:
            yield f"{namespace}{entry_.name}", entry_
        else:
            yield f"{namespace}<unnamed {entry_.pattern}>", entry_


def staff_only(name: str) -> bool:
    return name.startswith("admin:")


def test_every_url_pattern_has_a_rule():
    names = {name for name, _ in url_patterns() if not staff_only(name)}

    assert names - set(RULES) == set(), "a view without an authorization rule"
    assert set(RULES) - names == set(), "a rule for a view that no longer exists"


def request(scene: Scene, persona: str, url: str, case: Case) -> tuple[int, str]:
    client = Client()
    headers: dict[str, str] = {}
    if persona != ANONYMOUS:
        if case.token:
            pair = f"{persona}:{scene.tokens[persona]}".encode()
            headers["HTTP_AUTHORIZATION"] = "Basic " + base64.b64encode(pair).decode()
        else:
            client.force_login(scene.world.users[persona])
    target = f"{url}?{case.query}" if case.query else url
    if case.method == "GET":
        response = client.get(target, **headers)
    elif url.startswith("/api/"):
        response = client.post(
            target,
            data={"session_id": f"s-{persona}", "touched_at": "2026-01-01T00:00:00Z",
                  "messages": 3},
            content_type="application/json",
            **headers,
        )  # fmt: skip
    else:
        response = client.post(target, case.data, **headers)
    return response.status_code, response.get("Location", "")


@pytest.mark.parametrize("name", sorted(RULES))
def test_each_persona_gets_the_right_answer(name, world):
    scene = build_scene(world)
    rule = RULES[name]
    url = reverse(name, args=rule.args(scene))
    wrong = []
    for case in rule.cases:
        for persona in ORDER:
            status, location = request(scene, persona, url, case)
            got: int | str = status
            if status == 302 and location.startswith(reverse("login")):
                got = LOGIN
            if got != case.expect[persona]:
                wrong.append(f"{case.method} {url} as {persona}: {got}, expected "
                             f"{case.expect[persona]}")  # fmt: skip
    assert not wrong, "\n".join(wrong)


def test_the_admin_is_closed_to_every_persona(world):
    for persona in ORDER:
        client = Client()
        if persona != ANONYMOUS:
            client.force_login(world.users[persona])
        response = client.get(reverse("admin:index"))
        assert response.status_code == 302 and "/admin/login/" in response["Location"], persona


@pytest.mark.parametrize(
    "name", sorted(n for n, r in RULES.items() if n.startswith("dashboard:")
                   and any(c.method == "POST" and c.expect["alice"] != 405 for c in r.cases))
)  # fmt: skip
def test_every_state_change_needs_the_csrf_token(name, world):
    scene = build_scene(world)
    rule = RULES[name]
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.users["alice"] if name != "dashboard:token-revoke" else
                       world.users["bob"])  # fmt: skip
    post = next(case for case in rule.cases if case.method == "POST")

    response = client.post(reverse(name, args=rule.args(scene)), post.data)

    assert response.status_code == 403
    assert b"CSRF" in response.content


def test_another_projects_pages_are_404_to_an_outsider_and_open_to_its_own(world):
    mallory, alice = world.client("mallory"), world.client("alice")

    assert mallory.get(reverse("dashboard:index", args=["other"])).status_code == 200
    assert alice.get(reverse("dashboard:index", args=["other"])).status_code == 404
    assert alice.get(reverse("dashboard:index", args=["nope"])).status_code == 404
    assert b"Other" not in alice.get(reverse("dashboard:projects")).content
