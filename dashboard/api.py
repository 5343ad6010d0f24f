"""The JSON API for the ``memsync`` client (SPEC T5): session reports and team status.

Token auth only (HTTP Basic ``username:token`` or ``Authorization: Bearer <token>``),
never a session cookie, so the endpoints are CSRF-exempt. Every error is JSON
``{"error": "<message>"}`` with its status: 400 malformed body or field (naming the
field), 401 no valid token, 403 role too low or transcripts not accepted, 404 no such
project for this user, 405 wrong method, 409 a session reported by someone else, 413
an oversized body, 422 a transcript still carrying memsync's injected recall context.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt

from memsync.extract.privacy import RECALL_CLOSE, RECALL_OPEN, recall_blocks
from memsync.extract.uploads import TranscriptInbox, write_atomically
from memsync.secrets.transcripts import redact_transcript
from memsync.store import StoreError, refs
from memsync.sync.status import BranchState, team_status

from .auth import WWW_AUTHENTICATE, authenticate, membership_for
from .models import ConflictItem, ConflictStatus, Membership, Role, SessionRecord
from .queue import queue_dream_gate_check, queue_redaction
from .request_limits import MAX_INT, BodyError, json_object
from .services.extraction import request_extraction
from .sync import open_repository

_ENVELOPE_BYTES = 64 * 1024
SESSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
# Client clocks drift; a report further ahead than this would skew the dream's gate.
FUTURE_TOLERANCE = timedelta(hours=1)

Handler = Callable[[HttpRequest, Membership], JsonResponse]


class ApiError(Exception):
    def __init__(self, status: int, message: str, **headers: str) -> None:
        super().__init__(message)
        self.status = status
        self.headers = headers

    def response(self) -> JsonResponse:
        return error(self.status, str(self), **self.headers)


def transcript_limit() -> int:
    return settings.MEMSYNC_MAX_TRANSCRIPT_BYTES


def error(status: int, message: str, **headers: str) -> JsonResponse:
    response = JsonResponse({"error": message}, status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def endpoint(method: str, role: Role) -> Callable[[Handler], Callable[..., JsonResponse]]:
    """Method check, token auth and the project role, each failing as a JSON error."""

    def decorate(handler: Handler) -> Callable[..., JsonResponse]:
        @csrf_exempt
        @functools.wraps(handler)
        def view(request: HttpRequest, slug: str) -> JsonResponse:
            if request.method != method:
                return error(405, f"use {method} here", Allow=method)
            auth = authenticate(request)
            if auth is None:
                return error(
                    401, "a valid access token is required", WWW_Authenticate=WWW_AUTHENTICATE
                )
            try:
                membership = membership_for(auth.user, slug, role)
                return handler(request, membership)
            except Http404 as missing:
                return error(404, str(missing))
            except PermissionDenied as denied:
                return error(403, str(denied))
            except ApiError as failure:
                return failure.response()

        return view

    return decorate


@csrf_exempt
def whoami(request: HttpRequest) -> JsonResponse:
    """``GET /api/whoami``: whose token this is and their projects — what ``memsync login``
    checks a token with before storing it."""
    if request.method != "GET":
        return error(405, "use GET here", Allow="GET")
    auth = authenticate(request)
    if auth is None:
        return error(401, "a valid access token is required", WWW_Authenticate=WWW_AUTHENTICATE)
    memberships = Membership.objects.filter(user=auth.user).select_related("project")
    return JsonResponse(
        {
            "username": auth.user.get_username(),
            "projects": [
                {"slug": m.project.slug, "name": m.project.name, "role": m.role}
                for m in memberships.order_by("project__slug")
            ],
        }
    )


def not_found(request: HttpRequest, path: str = "") -> JsonResponse:
    return error(404, f"no API endpoint at {request.path}")


# --- POST /api/projects/<slug>/sessions ---------------------------------------------------


@endpoint("POST", Role.MEMBER)
def sessions(request: HttpRequest, membership: Membership) -> JsonResponse:
    """Report a Claude Code session (upserted by id); optionally its redacted transcript."""
    project = membership.project
    report = _session_report(_json_body(request))
    transcript = report.pop("transcript")
    if transcript is not None:
        if not project.allow_transcripts:
            raise ApiError(403, f"project {project.slug} does not accept transcripts")
        if len(transcript.encode("utf-8")) > transcript_limit():
            raise ApiError(413, f"transcript over {transcript_limit():,} bytes")
        _refuse_injected_context(transcript)
    user = membership.user
    with transaction.atomic():
        record, created = SessionRecord.objects.get_or_create(
            project=project,
            session_id=report["session_id"],
            defaults={
                "user": user,
                "touched_at": report["touched_at"],
                "messages": report["messages"],
            },
        )
        if record.user_id != user.pk:
            raise ApiError(409, f"session {record.session_id} was reported by another user")
        # A late report (an older hook run) never moves a session back.
        record.touched_at = max(record.touched_at, report["touched_at"])
        record.messages = max(record.messages, report["messages"])
        stored = None
        if transcript is not None:
            stored = _store_transcript(record, transcript)
        record.save()
        queue_dream_gate_check(project.pk, "session")
        if stored is not None and stored["redaction"] == "done":
            request_extraction(record)  # a held upload is queued by its redaction
    return JsonResponse(
        {
            "session_id": record.session_id,
            "touched_at": record.touched_at.isoformat(),
            "messages": record.messages,
            "created": created,
            "transcript": stored,
        },
        status=201 if created else 200,
    )


def _refuse_injected_context(transcript: str) -> None:
    """A transcript must arrive without what memsync's recall hook injected (private
    memories among it): the client removes it; one that did not is refused whole."""
    blocks = recall_blocks(transcript)
    if blocks:
        raise ApiError(
            422,
            f"transcript still carries {blocks} block(s) of memories memsync's recall hook "
            f"injected ({RECALL_OPEN}…{RECALL_CLOSE}), which may hold private memories; "
            "nothing was stored. Update memsync on this machine: it removes them before "
            "uploading.",
        )


def _json_body(request: HttpRequest) -> dict[str, Any]:
    try:
        return json_object(request, transcript_limit() + _ENVELOPE_BYTES)
    except BodyError as refused:
        raise ApiError(refused.status, str(refused)) from None


def _session_report(body: dict[str, Any]) -> dict[str, Any]:
    session_id = body.get("session_id")
    if not isinstance(session_id, str) or not SESSION_ID.match(session_id):
        raise ApiError(
            400,
            "session_id: required, 1–100 letters, digits, '.', '_' or '-', not starting with '.'",
        )
    touched = body.get("touched_at")
    if not isinstance(touched, str):
        raise ApiError(400, "touched_at: required, an ISO 8601 date and time")
    try:
        touched_at = datetime.fromisoformat(touched)
    except ValueError:
        raise ApiError(400, f"touched_at: {touched!r} is not an ISO 8601 date and time") from None
    if touched_at.tzinfo is None:
        touched_at = touched_at.replace(tzinfo=UTC)
    try:
        touched_at = touched_at.astimezone(UTC)
    except OverflowError:  # year 1 with a positive offset, year 9999 with a negative one
        raise ApiError(400, f"touched_at: {touched!r} is out of range") from None
    if touched_at > timezone.now() + FUTURE_TOLERANCE:
        raise ApiError(400, "touched_at: is in the future")
    messages = body.get("messages", 0)
    if isinstance(messages, bool) or not isinstance(messages, int) or messages < 0:
        raise ApiError(400, "messages: must be a whole number, 0 or more")
    if messages > MAX_INT:
        raise ApiError(400, f"messages: {messages} is over the maximum of {MAX_INT:,}")
    transcript = body.get("transcript")
    if transcript is not None and not isinstance(transcript, str):
        raise ApiError(400, "transcript: must be text (the session's JSONL)")
    return {
        "session_id": session_id,
        "touched_at": touched_at,
        "messages": messages,
        "transcript": transcript,
    }


def _store_transcript(record: SessionRecord, transcript: str) -> dict[str, Any]:
    """Redact and store a small upload now; hold a large one for the worker."""
    project = record.project
    if len(transcript) > settings.MEMSYNC_INLINE_REDACTION_BYTES:
        inbox = TranscriptInbox(project.inbox_dir, project.transcripts_dir)
        held = inbox.hold(record.session_id, transcript)
        queue_redaction(record.pk, held)
        return {"stored": True, "redaction": "queued"}
    name = f"{record.session_id}.jsonl"
    clean, findings = redact_transcript(transcript, path=name)
    directory = project.transcripts_dir
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / name
    write_atomically(target, clean)
    record.transcript = target.relative_to(project.base_dir).as_posix()
    return {
        "stored": True,
        "redaction": "done",
        "redactions": len(findings),
        "rules": sorted({finding.rule_id for finding in findings}),
    }


# --- GET /api/projects/<slug>/status ------------------------------------------------------


@endpoint("GET", Role.VIEWER)
def status(request: HttpRequest, membership: Membership) -> JsonResponse:
    """``main``'s commit, members' branches waiting to merge, open proposals, conflicts."""
    project = membership.project
    try:
        state = team_status(open_repository(project))
    except StoreError:
        raise ApiError(404, f"project {project.slug} has no repository yet") from None
    conflicts = ConflictItem.objects.filter(project=project, status=ConflictStatus.OPEN)
    main = state.main
    return JsonResponse(
        {
            "project": project.slug,
            "name": project.name,
            "role": membership.role,
            "allow_transcripts": project.allow_transcripts,
            "main": None
            if main is None
            else {
                "commit": main.sha,
                "subject": main.subject,
                "author": main.author_name,
                "date": main.date.isoformat(),
            },
            "pending_merges": [
                {"member": branch.name.removeprefix(refs.MEMBERS), **_branch(branch)}
                for branch in state.pending_merges
            ],
            "proposals": [_branch(branch) for branch in state.proposals],
            "conflicts": [
                {
                    "id": item.pk,
                    "member": item.member,
                    "path": item.path,
                    "ref": item.ref,
                    "created_at": item.created_at.isoformat(),
                }
                for item in conflicts.order_by("created_at")
            ],
        }
    )


def _branch(branch: BranchState) -> dict[str, Any]:
    return {"branch": branch.name, "commit": branch.commit, "ahead": branch.ahead}
