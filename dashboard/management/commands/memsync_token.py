"""``manage.py memsync_token create USERNAME [--name NAME]`` and ``revoke USERNAME NAME``.

``create`` prints the token once, alone on the last line, so scripts can take it with
``tail -n 1``; only its digest is stored.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from dashboard.models import AccessToken


class Command(BaseCommand):
    help = "Create or revoke a user's access tokens (for git over HTTP and the API)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
        create = actions.add_parser("create", help="issue a token and print it once")
        create.add_argument("username")
        create.add_argument("--name", default="", help="what the token is for (default: cli)")
        revoke = actions.add_parser("revoke", help="revoke the user's active tokens named NAME")
        revoke.add_argument("username")
        revoke.add_argument("name")

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"no user {options['username']!r}; add them with memsync_member")
        if options["action"] == "create":
            name = options["name"] or "cli"
            _, clear = AccessToken.issue(user, name)
            self.stdout.write(f"token {name!r} for {user.username} (shown once, keep it safe):")
            self.stdout.write(clear)
            return
        count = (
            AccessToken.objects.active()
            .filter(user=user, name=options["name"])
            .update(revoked_at=timezone.now())
        )
        if not count:
            raise CommandError(f"{user.username} has no active token named {options['name']!r}")
        self.stdout.write(f"revoked {count} token{'s' if count > 1 else ''} of {user.username}")
