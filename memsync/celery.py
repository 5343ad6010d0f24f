"""The Celery application, wired as in Celery's own Django example."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memsync.settings")

app = Celery("memsync")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_configure.connect
def _start_bundled_redis(sender: Celery, **kwargs: object) -> None:
    from django.conf import settings

    if settings.BUNDLED_REDIS_DIR is not None:
        from memsync import bundled_redis

        bundled_redis.ensure_running(settings.BUNDLED_REDIS_DIR)
