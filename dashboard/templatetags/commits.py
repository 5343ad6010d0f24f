"""Template filters that present a commit in a list (``dashboard.commit_rows``) and name
its author as the dashboard user (``dashboard.people``); their output is escaped."""

from __future__ import annotations

from django import template

from memsync.store import CommitInfo

from .. import commit_rows
from ..people import People

register = template.Library()


@register.filter
def headline(commit: CommitInfo) -> str:
    return commit_rows.headline(commit)


@register.filter
def memory_files(commit: CommitInfo) -> list[str]:
    return commit_rows.memory_files(commit)


@register.filter
def details(commit: CommitInfo) -> list[commit_rows.Detail]:
    return commit_rows.details(commit)


@register.filter
def author_of(commit: CommitInfo, people: People | None) -> str:
    """The author as one name per user (the commit's own name where no user matches)."""
    if people is None:
        return commit.author_name or commit.author_email
    return people.who(commit.author_name, commit.author_email).name
