"""The command lines of memsync's long-running processes, in one place.

``deploy/docker-compose.yml``, the systemd units, ``scripts/demo`` and the tests' worker
fixture all run these; ``tests/ops/test_deploy.py`` checks the deployment files say the
same thing, so production runs what the tests ran.
"""

from __future__ import annotations

CELERY_APP = "memsync.celery"
DEFAULT_QUEUES = ("memsync", "dreams")


def web_command(bind: str = "0.0.0.0:8000", workers: int = 3) -> list[str]:
    # Threads, so a long git push or clone streaming through one request does not
    # hold a whole worker process; the timeout allows big packs on slow links.
    return [
        "gunicorn", "memsync.wsgi:application", "--bind", bind, "--workers", str(workers),
        "--worker-class", "gthread", "--threads", "4", "--timeout", "300",
        "--access-logfile", "-",
    ]  # fmt: skip


def worker_command(queues: tuple[str, ...] = DEFAULT_QUEUES, *extra: str) -> list[str]:
    return [
        "celery", "-A", CELERY_APP, "worker", "--queues", ",".join(queues),
        "--loglevel", "INFO", *extra,
    ]  # fmt: skip


def beat_command(schedule: str) -> list[str]:
    return ["celery", "-A", CELERY_APP, "beat", "--loglevel", "INFO", "--schedule", schedule]
