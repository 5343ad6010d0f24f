"""Small template filters for commits and lookups; everything they return is escaped,
or sanitized (``sanitized_markdown``)."""

from __future__ import annotations

from collections.abc import Mapping

from django import template
from django.utils.safestring import SafeString

from memsync.store import CommitInfo

from ..markdown import render_markdown

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


@register.filter
def sanitized_markdown(text: str) -> SafeString:
    """Untrusted Markdown (a comment, a memory body) as sanitized HTML."""
    return render_markdown(text)


@register.filter
def viewed_in(path: str, review: object) -> bool:
    """Whether this reviewer marked ``path`` viewed; False on pages without a review."""
    viewed = getattr(review, "viewed", None)
    return viewed is not None and path in viewed
