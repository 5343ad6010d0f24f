"""``manage.py memsync_demo [--reset]``: the demo project, its people and its history.

For a demo data directory (``scripts/demo`` runs it): it creates the users alice, bob and
carol with the passwords it prints. Without ``--reset`` an existing demo project is kept.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from dashboard.demo.seed import SeedFailed, seed_demo
from dashboard.demo.story import PEOPLE


class Command(BaseCommand):
    help = "Create the demo project with four months of history made by memsync (idempotent)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--reset", action="store_true", help="remove the demo project first and seed it again"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            result = seed_demo(reset=options["reset"], out=self.stdout.write)
        except SeedFailed as failure:
            raise CommandError(f"the demo could not be seeded: {failure}") from failure
        kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(result.commits.items()))
        self.stdout.write(f"project {result.slug}: commits on main: {kinds}")
        self.stdout.write(f"open dream proposals: {', '.join(result.open_proposals) or 'none'}")
        self.stdout.write(f"open conflicts: {', '.join(result.open_conflicts) or 'none'}")
        for persona in PEOPLE:
            self.stdout.write(
                f"login: {persona.username} / {persona.password} ({persona.role} of {result.slug})"
            )
