"""The JSON API: session reports (with redacted transcripts) and team status."""

from __future__ import annotations

import json
from base64 import b64encode
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from dashboard.models import AccessToken, ConflictItem, Project, SessionRecord
from memsync.store import CommitKind
from memsync.store.gitcmd import GitRunner
from tests.sync.conftest import Team, make_team

pytestmark = pytest.mark.django_db

AWS_KEY = "AKIA" + "Z7QRSTUVWX4ABCDE"


@pytest.fixture
def team(tmp_path: Path) -> Team:
    return make_team(
        f"api-{tmp_path.name[-12:]}",
        {"alice": "maintainer", "bob": "member", "carol": "viewer"},
        outsiders=("mallory",),
    )


def bearer(team: Team, name: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {team.tokens[name]}"}


def basic(team: Team, name: str) -> dict[str, str]:
    pair = b64encode(f"{name}:{team.tokens[name]}".encode()).decode()
    return {"HTTP_AUTHORIZATION": f"Basic {pair}"}


def report(client: Client, team: Team, body: object, who: str = "bob", raw: bytes | None = None):
    data = raw if raw is not None else json.dumps(body)
    return client.post(
        f"/api/projects/{team.slug}/sessions",
        data=data,
        content_type="application/json",
        **bearer(team, who),
    )


def session(**fields: object) -> dict[str, object]:
    return {"session_id": "7f3c2a1e-0b9d", "touched_at": "2026-12-01T10:00:00Z", "messages": 12}


def test_it_records_a_session_and_asks_the_dream_gate(
    team: Team, client: Client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        response = report(client, team, session())

    assert response.status_code == 201
    assert response.json() == {
        "session_id": "7f3c2a1e-0b9d",
        "touched_at": "2026-12-01T10:00:00+00:00",
        "messages": 12,
        "created": True,
        "transcript": None,
    }
    record = SessionRecord.objects.get(project=team.project)
    assert record.user.username == "bob" and record.messages == 12
    assert record.touched_at == datetime(2026, 12, 1, 10, tzinfo=UTC)
    assert len(callbacks) == 1  # the gate check, enqueued once the row is committed


def test_it_updates_a_reported_session_without_moving_it_back(team: Team, client: Client):
    report(client, team, session())
    later = {**session(), "touched_at": "2026-12-01T12:00:00+00:00", "messages": 40}
    older = {**session(), "touched_at": "2026-12-01T09:00:00", "messages": 5}

    assert report(client, team, later).status_code == 200
    assert report(client, team, older).status_code == 200

    record = SessionRecord.objects.get(project=team.project)
    assert record.touched_at == datetime(2026, 12, 1, 12, tzinfo=UTC)
    assert record.messages == 40
    assert SessionRecord.objects.count() == 1


def test_it_accepts_basic_auth_as_git_sends_it(team: Team, client: Client):
    response = client.post(
        f"/api/projects/{team.slug}/sessions",
        data=json.dumps(session()),
        content_type="application/json",
        **basic(team, "bob"),
    )

    assert response.status_code == 201


def test_it_stores_an_uploaded_transcript_with_secrets_redacted(team: Team, client: Client):
    Project.objects.filter(pk=team.project.pk).update(allow_transcripts=True)
    line = {"type": "user", "message": {"role": "user", "content": f"my key is {AWS_KEY} ok"}}
    transcript = json.dumps(line) + "\n" + json.dumps({"type": "assistant"}) + "\n"

    response = report(client, team, {**session(), "transcript": transcript})

    assert response.status_code == 201
    assert response.json()["transcript"] == {
        "stored": True,
        "redaction": "done",
        "redactions": 1,
        "rules": ["aws-access-token"],
    }
    stored = team.project.transcripts_dir / "7f3c2a1e-0b9d.jsonl"
    text = stored.read_text()
    assert AWS_KEY not in text
    assert "[REDACTED:aws-access-token]" in text
    assert [json.loads(row)["type"] for row in text.splitlines()] == ["user", "assistant"]
    record = SessionRecord.objects.get(project=team.project)
    assert record.transcript == "transcripts/7f3c2a1e-0b9d.jsonl"


def test_it_refuses_a_transcript_where_uploads_are_off(team: Team, client: Client):
    response = report(client, team, {**session(), "transcript": "{}\n"})

    assert response.status_code == 403
    assert response.json() == {"error": f"project {team.slug} does not accept transcripts"}
    assert not SessionRecord.objects.exists()
    assert not team.project.transcripts_dir.exists()


def test_it_refuses_a_transcript_still_carrying_recalled_memories(team: Team, client: Client):
    Project.objects.filter(pk=team.project.pk).update(allow_transcripts=True)
    attachment = {
        "type": "attachment",
        "attachment": {
            "type": "hook_additional_context",
            "content": [
                "<memsync-recall>\nMemory: /m/private.md:\nPRIVATE_7c1d\n</memsync-recall>"
            ],
        },
    }
    # \u003c is how a JSON writer may spell "<": still the same block.
    escaped = json.dumps(attachment, ensure_ascii=True).replace("<", "\\u003c")

    plain = report(client, team, {**session(), "transcript": json.dumps(attachment) + "\n"})
    hidden = report(client, team, {**session(), "transcript": escaped + "\n"})

    for response in (plain, hidden):
        assert response.status_code == 422
        assert "1 block(s) of memories memsync's recall hook injected" in response.json()["error"]
        assert "nothing was stored" in response.json()["error"]
    assert not team.project.transcripts_dir.exists()
    assert SessionRecord.objects.filter(project=team.project).count() == 0


def test_it_refuses_an_oversized_transcript(team: Team, client: Client, settings):
    Project.objects.filter(pk=team.project.pk).update(allow_transcripts=True)
    settings.MEMSYNC_MAX_TRANSCRIPT_BYTES = 1000

    response = report(client, team, {**session(), "transcript": "x" * 1001})
    huge = report(client, team, None, raw=b" " * 70_000)

    assert response.status_code == 413
    assert response.json() == {"error": "transcript over 1,000 bytes"}
    assert huge.status_code == 413
    assert huge.json()["error"].startswith("request body over")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"{not json", "the body is not valid JSON"),
        (b"[1, 2]", "the body must be a JSON object"),
        (b'{"touched_at": "2026-12-01T10:00:00Z"}', "session_id: required"),
        (b'{"session_id": "../etc", "touched_at": "2026-12-01"}', "session_id: required"),
        (b'{"session_id": "s1"}', "touched_at: required"),
        (b'{"session_id": "s1", "touched_at": "last tuesday"}', "touched_at: 'last tuesday' is"),
        (b'{"session_id": "s1", "touched_at": "2999-01-01T00:00:00Z"}', "touched_at: is in the"),
        (b'{"session_id": "s1", "touched_at": "2026-12-01", "messages": -1}', "messages: must"),
        (b'{"session_id": "s1", "touched_at": "2026-12-01", "messages": true}', "messages: must"),
        (b'{"session_id": "s1", "touched_at": "2026-12-01", "transcript": 3}', "transcript: must"),
    ],
)
def test_it_names_what_is_wrong_with_a_report(team: Team, client: Client, body: bytes, message):
    response = report(client, team, None, raw=body)

    assert response.status_code == 400
    assert response.json()["error"].startswith(message)


def test_it_refuses_reporting_someone_elses_session(team: Team, client: Client):
    report(client, team, session(), who="bob")

    response = report(client, team, session(), who="alice")

    assert response.status_code == 409
    assert SessionRecord.objects.get().user.username == "bob"


def test_it_answers_without_a_valid_token_with_401(team: Team, client: Client):
    url = f"/api/projects/{team.slug}/status"
    AccessToken.objects.filter(user__username="carol").update(revoked_at=timezone.now())

    missing = client.get(url)
    wrong = client.get(url, HTTP_AUTHORIZATION="Bearer msk_nope")
    revoked = client.get(url, **bearer(team, "carol"))
    garbled = client.get(url, HTTP_AUTHORIZATION="Basic !!!")

    for response in (missing, wrong, revoked, garbled):
        assert response.status_code == 401
        assert response.json() == {"error": "a valid access token is required"}
        assert response["WWW-Authenticate"] == 'Basic realm="memsync"'


def test_it_does_not_accept_a_browser_session_instead_of_a_token(team: Team, client: Client):
    client.force_login(team.users["alice"])

    response = client.get(f"/api/projects/{team.slug}/status")

    assert response.status_code == 401


def test_it_refuses_a_viewer_reporting_sessions(team: Team, client: Client):
    response = report(client, team, session(), who="carol")

    assert response.status_code == 403
    assert response.json() == {
        "error": f"carol is a viewer of {team.slug}; this needs the member role"
    }


def test_it_hides_projects_from_outsiders(team: Team, client: Client):
    outsider = client.get(f"/api/projects/{team.slug}/status", **bearer(team, "mallory"))
    missing = client.get("/api/projects/nothing-here/status", **bearer(team, "mallory"))

    assert outsider.status_code == missing.status_code == 404
    assert outsider.json() == {"error": f"no project '{team.slug}' here"}
    assert missing.json() == {"error": "no project 'nothing-here' here"}


def test_it_answers_a_wrong_method_and_an_unknown_endpoint_in_json(team: Team, client: Client):
    wrong = client.get(f"/api/projects/{team.slug}/sessions", **bearer(team, "bob"))
    unknown = client.get("/api/projects/x/everything", **bearer(team, "bob"))

    assert wrong.status_code == 405
    assert wrong["Allow"] == "POST"
    assert wrong.json() == {"error": "use POST here"}
    assert unknown.status_code == 404
    assert unknown.json() == {"error": "no API endpoint at /api/projects/x/everything"}


def test_it_reports_main_pending_merges_proposals_and_conflicts(team: Team, client: Client):
    repo = team.repo
    main = repo.rev_parse("main")
    repo.create_branch("members/bob")
    (repo.path / "x.md").write_text("x\n")
    GitRunner(repo.path).run("checkout", "-q", "members/bob")
    bob_tip = repo.commit(CommitKind.SYNC, "bob's change")
    GitRunner(repo.path).run("checkout", "-q", "main")
    repo.create_branch("members/alice")  # nothing main lacks: not pending
    repo.create_branch("dream/7")
    GitRunner(repo.path).run("checkout", "-q", "dream/7")
    (repo.path / "y.md").write_text("y\n")
    dream_tip = repo.commit(CommitKind.DREAM, "a proposal")
    GitRunner(repo.path).run("checkout", "-q", "main")
    conflict = ConflictItem.objects.create(
        project=team.project, member="bob", path="x.md", main_commit=main, member_commit=bob_tip
    )

    response = client.get(f"/api/projects/{team.slug}/status", **bearer(team, "carol"))

    assert response.status_code == 200
    body = response.json()
    assert body["main"]["commit"] == main
    assert body["main"]["subject"] == repo.commit_info(main).subject
    assert body["role"] == "viewer" and body["allow_transcripts"] is False
    assert body["pending_merges"] == [
        {"member": "bob", "branch": "members/bob", "commit": bob_tip, "ahead": 1}
    ]
    assert body["proposals"] == [{"branch": "dream/7", "commit": dream_tip, "ahead": 1}]
    assert [(c["id"], c["path"], c["member"]) for c in body["conflicts"]] == [
        (conflict.pk, "x.md", "bob")
    ]


def test_it_refreshes_last_used_at_at_most_once_a_minute(team: Team, client: Client):
    url = f"/api/projects/{team.slug}/status"
    client.get(url, **bearer(team, "carol"))
    token = AccessToken.objects.get(user__username="carol")
    first = token.last_used_at
    client.get(url, **bearer(team, "carol"))
    token.refresh_from_db()
    assert token.last_used_at == first
    AccessToken.objects.filter(pk=token.pk).update(last_used_at=first - timedelta(minutes=2))

    client.get(url, **bearer(team, "carol"))

    token.refresh_from_db()
    assert token.last_used_at > first


def test_whoami_names_the_tokens_user_and_their_projects(client, team):
    token = AccessToken.issue(team.users["bob"], "laptop")[1]

    answer = client.get("/api/whoami", HTTP_AUTHORIZATION=f"Bearer {token}")
    refused = client.get("/api/whoami", HTTP_AUTHORIZATION="Bearer msk_wrong")

    assert answer.status_code == 200
    assert answer.json()["username"] == "bob"
    assert {"slug": team.slug, "name": team.project.name, "role": "member"} in answer.json()[
        "projects"
    ]
    assert refused.status_code == 401 and refused.json() == {
        "error": "a valid access token is required"
    }
