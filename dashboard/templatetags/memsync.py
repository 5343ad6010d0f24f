"""Small template filters for commits and lookups; everything they return is escaped."""

from __future__ import annotations

from collections.abc import Mapping

from django import template

from memsync.store import CommitInfo

register = template.Library()

SHORT_SHA = 10


@register.filter
def short(sha: str | None) -> str:
    return (sha or "")[:SHORT_SHA]


@register.filter
def trailer(commit: CommitInfo, key: str) -> str:
    """The last value of a commit trailer, e.g. ``commit|trailer:"Memsync-Session"``."""
    return commit.trailer(key) or ""


@register.filter
def lookup(mapping: Mapping[str, object] | None, key: str) -> object:
    return mapping.get(key) if mapping else None


@register.filter
def author_line(commit: CommitInfo) -> str:
    return commit.author_name or commit.author_email
