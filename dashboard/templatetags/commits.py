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


@register.simple_tag(takes_context=True)
def author_of(context: template.Context, commit: CommitInfo) -> str:
    """The author as one name per user, when the page knows its project's ``people``
    (the commit's own name otherwise)."""
    people = context.get("people")
    if not isinstance(people, People):
        return commit.author_name or commit.author_email
    return people.who(commit.author_name, commit.author_email).name
