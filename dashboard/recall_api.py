"""``GET /api/projects/<slug>/recall?q=…``: the team memories relevant to a query (SPEC R).

Token auth as for the rest of the API (``dashboard.api.endpoint``); a viewer may
read. Parameters: ``q`` (required), ``limit`` (1–5, default 5), ``surfaced`` (file
names already shown, repeated or comma-separated), ``tool`` (recently used tools,
repeated), ``engine=ranking`` to skip the model even when the server has an API key.
Memories are read from ``main`` as committed, through the ranking index that
``dashboard.recall_index`` keeps per commit (the dashboard's search shares it).
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.urls import path

from memsync.recall.recall import MAX_RESULTS, Selector, model_selector, recall
from memsync.store import MAIN, StoreError

from .api import ApiError, endpoint
from .models import Membership, Role
from .recall_index import indexed
from .sync import open_repository

app_name = "recall_api"
MAX_QUERY_CHARS = 2_000


@endpoint("GET", Role.VIEWER)
def recall_view(request: HttpRequest, membership: Membership) -> JsonResponse:
    """The memories of the project's ``main`` worth showing for ``q``, best first."""
    project = membership.project
    query = request.GET.get("q", "").strip()
    if not query:
        raise ApiError(400, "q: required, what the memories should help with")
    if len(query) > MAX_QUERY_CHARS:
        raise ApiError(400, f"q: at most {MAX_QUERY_CHARS:,} characters")
    limit = _limit(request.GET.get("limit"))
    surfaced = [
        name.strip()
        for value in request.GET.getlist("surfaced")
        for name in value.split(",")
        if name.strip()
    ]
    try:
        repo = open_repository(project)
    except StoreError:
        raise ApiError(404, f"project {project.slug} has no repository yet") from None
    commit = repo.rev_parse(MAIN)
    if commit is None:
        raise ApiError(404, f"project {project.slug} has no {MAIN} branch")
    source, index = indexed(repo, commit)
    result = recall(
        index,
        query,
        read=source.read,
        now=datetime.now(UTC),
        selector=None if request.GET.get("engine") == "ranking" else _selector(limit),
        already_surfaced=surfaced,
        recent_tools=request.GET.getlist("tool"),
        limit=limit,
    )
    return JsonResponse({"project": project.slug, "commit": commit, **result.to_dict()})


def _limit(raw: str | None) -> int:
    if raw is None or raw == "":
        return MAX_RESULTS
    # isascii: "²".isdigit() is True, and int() refuses it.
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= MAX_RESULTS:
        raise ApiError(400, f"limit: a whole number from 1 to {MAX_RESULTS}")
    return int(raw)


def _selector(limit: int) -> Selector | None:
    if not settings.ANTHROPIC_API_KEY:
        return None
    from memsync.agent import connect
    from memsync.agent.loop import DEFAULT_BASE_URL

    client = connect(
        settings.ANTHROPIC_API_KEY,
        base_url=settings.ANTHROPIC_BASE_URL or DEFAULT_BASE_URL,
        max_retries=1,
        timeout=20.0,
    )
    return model_selector(client, settings.MEMSYNC_MODEL, limit=limit)


urlpatterns = [
    path("projects/<slug:slug>/recall", recall_view, name="recall"),
]
