"""``manage.py memsync_member add SLUG USERNAME --role ROLE [--password P] [--email E]``."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from dashboard.models import Membership, Project, Role


class Command(BaseCommand):
    help = "Add a user to a project with a role (the user is created when missing)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
        add = actions.add_parser("add", help="add USERNAME to project SLUG, or change their role")
        add.add_argument("slug")
        add.add_argument("username")
        add.add_argument("--role", required=True, help="viewer, member or maintainer")
        add.add_argument(
            "--password",
            help="password for the dashboard when the user is created (default: none, "
            "so the user signs in only with access tokens until one is set)",
        )
        add.add_argument("--email", default="", help="email for a created user")

    def handle(self, *args: Any, **options: Any) -> None:
        slug, username, role = options["slug"], options["username"], options["role"]
        if role not in Role.values:
            raise CommandError(f"unknown role {role!r}: use one of {', '.join(Role.values)}")
        project = Project.objects.filter(slug=slug).first()
        if project is None:
            raise CommandError(f"no project {slug!r}; create it with memsync_project create")
        with transaction.atomic():
            user = User.objects.filter(username=username).first()
            if user is None:
                user = User(username=username, email=options["email"])
                if options["password"]:
                    user.set_password(options["password"])
                else:
                    user.set_unusable_password()
                user.full_clean(exclude=["password"])
                user.save()
                self.stdout.write(f"created user {username}")
            membership, created = Membership.objects.update_or_create(
                project=project, user=user, defaults={"role": role}
            )
        verb = "added" if created else "now"
        self.stdout.write(f"{username} {verb} {membership.role} of {slug}")
