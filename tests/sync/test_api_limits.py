"""Hostile or broken input to the sessions API gets a 4xx naming what is wrong, never a
500, and nothing is stored from it (issue 10, item 7). An upload while Redis is
unreachable is stored, and its extraction is queued later by the sweep.
"""

from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.parse
from base64 import b64encode
from pathlib import Path

import pytest
from django.test import Client

from dashboard.models import Project, Run, RunKind, SessionRecord
from dashboard.recovery import unextracted_uploads
from dashboard.request_limits import MAX_DEPTH, MAX_INT
from dashboard.tasks.sync import sweep_unmerged_pushes
from tests.sync.conftest import GitServer, Team, make_team, start_server

SESSION = b'"session_id": "s1", "touched_at": "2026-12-01T10:00:00Z"'


@pytest.fixture
def team(transactional_db: None, tmp_path: Path) -> Team:
    made = make_team(f"lim-{tmp_path.name[-12:]}", {"alice": "maintainer", "bob": "member"})
    Project.objects.filter(pk=made.project.pk).update(allow_transcripts=True)
    made.project.refresh_from_db()
    return made


def post(client: Client, team: Team, raw: bytes):
    return client.post(
        f"/api/projects/{team.slug}/sessions",
        data=raw,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {team.tokens['bob']}",
    )


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"[" * 100_000 + b"]" * 100_000, f"nested deeper than {MAX_DEPTH} levels"),
        (b"{" + SESSION + b', "x": ' + b"[" * 40 + b"]" * 40 + b"}", f"x{'[0]' * 32}: nested"),
        (b"{" + SESSION + b', "messages": 2147483648}', "messages: 2147483648 is out of range"),
        (b"{" + SESSION + b', "messages": ' + b"9" * 4000 + b"}", "a 4000-digit number is out"),
        (b"{" + SESSION + b', "messages": ' + b"9" * 5000 + b"}", "the body is not valid JSON"),
        (b"{" + SESSION + b', "messages": NaN}', "the body is not valid JSON: NaN is not"),
        (b"{" + SESSION + b', "messages": 1e999}', "not valid JSON: 1e999 is too large"),
        (b"{" + SESSION + b', "transcript": "ok \\ud800 then"}', "transcript: a lone surrogate"),
        (b'{"session_id": "s1\\udfff", "touched_at": "2026-12-01"}', "session_id: a lone"),
        (b'{"session_id": "s1", "touched_at": "0001-01-01T00:00:00+05:00"}', "touched_at: '0001"),
        (b"\xff\xfe{}", "the body is not valid JSON"),
    ],
)
def test_bad_input_is_a_400_naming_what_is_wrong_and_stores_nothing(
    team: Team, client: Client, raw: bytes, message: str
):
    response = post(client, team, raw)

    assert response.status_code == 400, response.content[:300]
    assert message in response.json()["error"]
    assert not SessionRecord.objects.exists()
    assert not team.project.transcripts_dir.exists()


def test_the_largest_count_a_column_holds_is_taken(team: Team, client: Client):
    response = post(client, team, b"{" + SESSION + b', "messages": %d}' % MAX_INT)

    assert response.status_code == 201
    assert SessionRecord.objects.get().messages == MAX_INT


def test_a_declared_oversized_body_is_refused_before_it_is_read(team: Team, client: Client):
    response = client.generic(
        "POST",
        f"/api/projects/{team.slug}/sessions",
        data=b"{}",
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {team.tokens['bob']}",
        CONTENT_LENGTH=str(200 * 1024 * 1024),
    )

    assert response.status_code == 413
    assert "over the limit of 16,842,752 bytes (209,715,200 sent)" in response.json()["error"]


def _chunked_post(server: GitServer, path: str, token: str, chunks) -> tuple[int, dict]:
    """POST with ``Transfer-Encoding: chunked`` (no length), as a streaming client does;
    the answer is read even when the server stops reading the body early."""
    url = urllib.parse.urlsplit(server.url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
    connection.putrequest("POST", path)
    connection.putheader("Authorization", f"Bearer {token}")
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Transfer-Encoding", "chunked")
    connection.endheaders()
    try:
        for chunk in chunks:
            connection.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        connection.send(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server answered and closed without reading the rest
    response = connection.getresponse()
    return response.status, json.loads(response.read())


@pytest.mark.worker
def test_a_50_mib_chunked_body_is_a_413_naming_the_limit(team: Team, git_server: GitServer):
    block = b" " * (1024 * 1024)

    status, body = _chunked_post(
        git_server,
        f"/api/projects/{team.slug}/sessions",
        team.tokens["bob"],
        (block for _ in range(50)),
    )

    assert status == 413
    assert body == {"error": "request body over the limit of 16,842,752 bytes"}
    assert not SessionRecord.objects.exists()


@pytest.mark.worker
def test_a_small_chunked_body_is_read_whole(team: Team, git_server: GitServer):
    report = {"session_id": "chunky", "touched_at": "2026-12-01T10:00:00Z", "messages": 3}
    raw = json.dumps(report).encode()

    status, body = _chunked_post(
        git_server,
        f"/api/projects/{team.slug}/sessions",
        team.tokens["bob"],
        (raw[n : n + 10] for n in range(0, len(raw), 10)),
    )

    assert status == 201, body
    assert SessionRecord.objects.get().session_id == "chunky"


def _dead_address() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"  # nothing listens there once the socket closes


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.parametrize("held", [False, True], ids=["redacted-inline", "held-for-the-worker"])
def test_an_upload_while_redis_is_down_is_stored_and_extracted_after_the_sweep(
    team: Team, tmp_path: Path, settings, celery_worker, held: bool
):
    # Held: redacted by the worker (too large for the request), so the sweep must queue
    # the lost redaction first, and the extraction after it.
    inline_bytes = "0" if held else str(settings.MEMSYNC_INLINE_REDACTION_BYTES)
    server = start_server(
        tmp_path,
        env={"REDIS_URL": _dead_address(), "MEMSYNC_INLINE_REDACTION_BYTES": inline_bytes},
    )
    transcript = json.dumps({"type": "user", "message": {"role": "user", "content": "hi"}})
    body = json.dumps(
        {
            "session_id": "offline-1",
            "touched_at": "2026-12-01T10:00:00Z",
            "messages": 1,
            "transcript": transcript + "\n",
        }
    ).encode()
    pair = b64encode(f"bob:{team.tokens['bob']}".encode()).decode()
    url = urllib.parse.urlsplit(server.url)
    try:
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
        connection.request(
            "POST",
            f"/api/projects/{team.slug}/sessions",
            body=body,
            headers={"Authorization": f"Basic {pair}", "Content-Type": "application/json"},
        )
        response = connection.getresponse()
        answer = json.loads(response.read())
    finally:
        server.process.terminate()
        server.process.wait(timeout=30)

    assert response.status == 201, answer
    assert answer["transcript"]["stored"] is True
    record = SessionRecord.objects.get(session_id="offline-1")
    if held:
        assert len(list(team.project.inbox_dir.iterdir())) == 1
    else:
        assert (team.project.base_dir / record.transcript).is_file()
    assert not Run.objects.filter(kind=RunKind.EXTRACT).exists()
    assert "in on_commit()" in server.log()  # the broker failure is logged, not raised

    settings.MEMSYNC_ABANDONED_RUN_SECONDS = 0
    assert unextracted_uploads() == ([] if held else [record])
    summary = sweep_unmerged_pushes()

    assert ("1 redactions queued" if held else "1 extractions queued") in summary
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        run = Run.objects.filter(kind=RunKind.EXTRACT, finished_at__isnull=False).first()
        if run is not None:
            break
        time.sleep(0.2)
    assert run is not None and run.detail["session"] == "offline-1"
    assert unextracted_uploads() == []
    assert list(team.project.inbox_dir.glob("*")) == []
