"""``manage.py memsync_project create SLUG [--name NAME] [--allow-transcripts]``."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_slug
from django.db import transaction

from dashboard.models import Project
from dashboard.sync import create_repository


class Command(BaseCommand):
    help = "Create a project: its row and its Git repository, with memsync's hooks installed."

    def add_arguments(self, parser: ArgumentParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
        create = actions.add_parser("create", help="create a project and its repository")
        create.add_argument("slug", help="short name used in URLs: /git/<slug>.git")
        create.add_argument("--name", help="display name (default: the slug)")
        create.add_argument(
            "--allow-transcripts",
            action="store_true",
            help="members may upload (redacted) session transcripts",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        slug: str = options["slug"]
        try:
            validate_slug(slug)
        except ValidationError:
            raise CommandError(
                f"{slug!r} is not a valid slug: use letters, digits, '-' and '_'"
            ) from None
        if Project.objects.filter(slug=slug).exists():
            raise CommandError(f"project {slug!r} already exists")
        with transaction.atomic():
            project = Project.objects.create(
                slug=slug,
                name=options["name"] or slug,
                allow_transcripts=options["allow_transcripts"],
            )
            repo = create_repository(project)
        self.stdout.write(f"created project {slug} with its repository at {repo.path}")
        self.stdout.write(f"clone it with: git clone <server>/git/{slug}.git")
