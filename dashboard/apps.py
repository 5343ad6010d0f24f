from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _configure_repositories(sender: AppConfig, **kwargs: Any) -> None:
    # A deploy runs `manage.py migrate`: the moment to rewrite what the server keeps in
    # each repository's git directory (hooks, receive settings, attributes), once, and
    # never on a request.
    from .sync import configure_all_repositories

    configure_all_repositories()


class DashboardConfig(AppConfig):
    name = "dashboard"
    verbose_name = "memsync dashboard"

    def ready(self) -> None:
        # Celery's Django example imports the app from the project package's __init__;
        # memsync loads it here instead so the command-line client stays light.
        from memsync.celery import app  # noqa: F401

        # Registered in every process, so dashboard/queue.py enqueues them by name.
        from . import tasks  # noqa: F401

        post_migrate.connect(_configure_repositories, sender=self)
