"""One identity per user: a commit's author line mapped to the dashboard user it belongs
to, whether Git wrote it as ``bob <bob@…>`` (a push from bob's machine) or ``Bob Chen
<bob@…>`` (bob acting in the dashboard)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import User

from .models import Project


@dataclass(frozen=True)
class Person:
    name: str  # what the page shows
    username: str | None  # None for an author who is no dashboard user


class People:
    """The users of one project, found by the email or the name on a commit."""

    def __init__(self, users: Iterable[User]) -> None:
        self._users = sorted(users, key=lambda user: user.username)
        self._by_email = {u.email.lower(): u for u in self._users if u.email}
        self._by_name = {u.username.lower(): u for u in self._users}
        full_names = {u.get_full_name().lower(): u for u in self._users if u.get_full_name()}
        self._by_name.update(full_names)

    @classmethod
    def of(cls, project: Project) -> People:
        return cls(User.objects.filter(memberships__project=project))

    @property
    def usernames(self) -> list[str]:
        return [user.username for user in self._users]

    def who(self, name: str, email: str) -> Person:
        user = self._by_email.get(email.lower()) or self._by_name.get(name.lower())
        if user is None:
            return Person(name or email, None)
        return Person(user.get_full_name() or user.username, user.username)

    def author_patterns(self, username: str) -> tuple[str, ...]:
        """Fixed strings that find this user's commits in ``git log --author``."""
        user = self._by_name.get(username.lower())
        if user is None:
            return ()
        patterns = [f"{user.username} <"]
        if user.email:
            patterns.append(f"<{user.email}>")
        if user.get_full_name():
            patterns.append(f"{user.get_full_name()} <")
        return tuple(patterns)
