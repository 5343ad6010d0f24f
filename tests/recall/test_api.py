"""``GET /api/projects/<slug>/recall?q=…`` (SPEC R1, R2): token auth, a viewer may read,
answers from ``main`` as committed, with the model when the server has a key."""

from __future__ import annotations

import base64

import pytest
from django.test import Client

from dashboard.models import AccessToken
from tests.dashboard.world import World, commit_memories, entry, topic
from tests.support.messages_server import text

MEMORIES = {
    "MEMORY.md": (
        entry("Real database", "feedback_real_db.md", "tests hit a real Postgres")
        + entry("Freeze", "project_freeze.md", "merge freeze for the mobile release")
    ).encode(),
    "feedback_real_db.md": topic(
        "Real database", "Integration tests hit a real Postgres database, never mocks", "feedback"
    ),
    "project_freeze.md": topic("Freeze", "Merge freeze for the mobile release on 2025-10-02"),
}


@pytest.fixture
def acme(world: World) -> World:
    commit_memories(world.repo(), MEMORIES)
    return world


def ask(world: World, persona: str | None, query: str = "q=postgres+integration+tests"):
    headers = {}
    if persona is not None:
        _, token = AccessToken.issue(world.users[persona], "cli")
        headers["HTTP_AUTHORIZATION"] = "Bearer " + token
    return Client().get(f"/api/projects/acme/recall?{query}", **headers)


def test_a_viewer_gets_the_relevant_memories_with_their_freshness(acme):
    response = ask(acme, "carol")

    assert response.status_code == 200
    data = response.json()
    assert data["project"] == "acme" and data["commit"] == acme.repo().rev_parse("main")
    assert data["engine"] == "ranking" and data["total"] == 2
    [first, *_] = data["memories"]
    assert first["path"] == "feedback_real_db.md" and first["type"] == "feedback"
    assert first["header"] == "Memory: feedback_real_db.md:"
    assert first["content"].startswith("---\nname: Real database\n")
    assert data["context"].startswith("Memories from memsync")


def test_it_needs_a_token_and_a_membership(acme):
    anonymous = ask(acme, None)
    outsider = ask(acme, "mallory")
    client = Client()
    client.force_login(acme.users["alice"])
    browser = client.get("/api/projects/acme/recall?q=postgres")

    assert anonymous.status_code == 401 and anonymous["WWW-Authenticate"].startswith("Basic")
    assert outsider.status_code == 404 and outsider.json() == {"error": "no project 'acme' here"}
    assert browser.status_code == 401


def test_basic_auth_works_as_git_sends_it(acme):
    _, token = AccessToken.issue(acme.users["bob"], "git")
    pair = base64.b64encode(f"bob:{token}".encode()).decode()

    response = Client().get(
        "/api/projects/acme/recall?q=freeze", HTTP_AUTHORIZATION=f"Basic {pair}"
    )

    assert response.status_code == 200
    assert [m["path"] for m in response.json()["memories"]] == ["project_freeze.md"]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("", "q: required, what the memories should help with"),
        ("q=+++", "q: required, what the memories should help with"),
        ("q=postgres&limit=9", "limit: a whole number from 1 to 5"),
        ("q=postgres&limit=two", "limit: a whole number from 1 to 5"),
    ],
)
def test_bad_parameters_are_named(acme, query, message):
    response = ask(acme, "bob", query)

    assert response.status_code == 400 and response.json() == {"error": message}


def test_it_is_read_only(acme):
    _, token = AccessToken.issue(acme.users["alice"], "cli")

    response = Client().post("/api/projects/acme/recall?q=x", HTTP_AUTHORIZATION=f"Bearer {token}")

    assert response.status_code == 405 and response["Allow"] == "GET"


def test_surfaced_memories_are_skipped(acme):
    response = ask(acme, "bob", "q=postgres+freeze&surfaced=feedback_real_db.md")

    assert [m["path"] for m in response.json()["memories"]] == ["project_freeze.md"]


def test_a_new_commit_on_main_is_seen_at_once(acme):
    ask(acme, "bob", "q=grafana")
    commit_memories(
        acme.repo(),
        {"reference_grafana.md": topic("Grafana", "Latency board in Grafana", "reference")},
    )

    response = ask(acme, "bob", "q=grafana")

    assert [m["path"] for m in response.json()["memories"]] == ["reference_grafana.md"]


def test_with_an_api_key_the_model_chooses(acme, settings, messages_server):
    settings.ANTHROPIC_API_KEY = "test"
    settings.ANTHROPIC_BASE_URL = messages_server.base_url
    settings.MEMSYNC_MODEL = "claude-test"
    messages_server.add([text('{"selected_memories": ["project_freeze.md"]}')])

    chosen = ask(acme, "carol", "q=can+I+merge+on+friday%3F+postgres+tests").json()
    ranked = ask(acme, "carol", "q=postgres+tests&engine=ranking").json()

    assert chosen["engine"] == "model"
    assert [m["path"] for m in chosen["memories"]] == ["project_freeze.md"]
    assert len(messages_server.requests) == 1
    assert ranked["engine"] == "ranking"
