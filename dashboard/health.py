"""``/healthz`` for load balancers: database, Redis, data directory, Git.

Public on purpose (a load balancer has no account) and reveals nothing but which check
failed. 200 when every check passes, 503 otherwise.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from memsync.store.plumbing import git_version


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _redis() -> None:
    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
    try:
        client.ping()
    finally:
        client.close()


def _data_dir() -> None:
    settings.PROJECTS_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=settings.DATA_DIR, prefix=".healthz-") as probe:
        probe.write(b"ok")
        probe.flush()


def _git() -> None:
    git_version()


CHECKS: dict[str, Callable[[], None]] = {
    "database": _database,
    "redis": _redis,
    "data_dir": _data_dir,
    "git": _git,
}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    results: dict[str, dict[str, object]] = {}
    for name, check in CHECKS.items():
        started = time.perf_counter()
        try:
            check()
            results[name] = {"ok": True}
        except Exception as error:  # any failure is a failed check
            results[name] = {"ok": False, "error": f"{type(error).__name__}: {error}"[:300]}
        results[name]["ms"] = round((time.perf_counter() - started) * 1000, 1)
    healthy = all(result["ok"] for result in results.values())
    return JsonResponse({"ok": healthy, "checks": results}, status=200 if healthy else 503)
