from django.apps import AppConfig


class DashboardConfig(AppConfig):
    name = "dashboard"
    verbose_name = "memsync dashboard"

    def ready(self) -> None:
        # Celery's Django example imports the app from the project package's __init__;
        # memsync loads it here instead so the command-line client stays light.
        from memsync.celery import app  # noqa: F401
