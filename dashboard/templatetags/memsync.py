"""Small template filters for commits and lookups; everything they return is escaped,
or sanitized (``sanitized_markdown``).

Templates name Git things through these (backed by `memsync.store.refs` and
`memsync.store.trailers`), never by spelling them out.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Mapping

from django import template
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.safestring import SafeString

from memsync.memory.index import INDEX_FILENAME
from memsync.store import CommitInfo, Hunk, LineKind, refs, trailers

from ..markdown import render_markdown

register = template.Library()

SHORT_SHA = 10


@register.filter
def short(sha: str | None) -> str:
    return (sha or "")[:SHORT_SHA]


@register.filter
def trailer(commit: CommitInfo, label: str) -> str:
    """The last value of a memsync trailer named by its label, e.g.
    ``commit|trailer:"session"``; an unknown label fails the page loudly."""
    return trailers.by_label(label).last(commit) or ""


@register.filter
def shown_trailers(commit: CommitInfo) -> list[tuple[str, str, bool]]:
    """(label, value, names a commit) for each trailer but the kind, which the page
    already shows as a badge."""
    return [
        (key.removeprefix(trailers.PREFIX), value, key == trailers.REVERTS.name)
        for key, value in commit.trailers
        if key != trailers.KIND.name
    ]


@register.filter
def member_branch(username: str) -> str:
    return refs.member_branch(username)


@register.simple_tag
def nav_url(viewname: str, *args: object) -> str:
    """``{% url %}`` for the links the header of every page repeats: a dozen reversals
    were half the time of rendering the page around its content. The same arguments
    give the same path while the URLconf and the script prefix are the same, so each
    path is reversed once per process."""
    return _reversed(get_urlconf(), get_script_prefix(), viewname, tuple(map(str, args)))


@functools.lru_cache(maxsize=1024)
def _reversed(urlconf: str | None, prefix: str, viewname: str, args: tuple[str, ...]) -> str:
    return reverse(viewname, urlconf=urlconf, args=args)


@register.simple_tag
def index_file() -> str:
    """The index file's name (``MEMORY.md``), for pages that talk about it."""
    return INDEX_FILENAME


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


_MARKS = {LineKind.ADDED: "+", LineKind.DELETED: "−"}


@register.simple_tag
def diff_rows(hunk: Hunk) -> SafeString:
    """A hunk's lines as table rows, the text escaped as the template engine escapes.
    Built here rather than by a template loop: a few hundred lines took a third of a
    commit page's time in the template engine."""
    rows = []
    for line in hunk.lines:
        old = "" if line.old_number is None else line.old_number
        new = "" if line.new_number is None else line.new_number
        mark = _MARKS.get(line.kind, "&nbsp;")
        rows.append(
            f'\n      <tr class="dl {line.kind}"><td class="num">{old}</td>'
            f'<td class="num">{new}</td><td class="mark">{mark}</td>'
            f'<td class="code"><code>{html.escape(line.text)}</code></td></tr>\n      '
        )
    return SafeString("".join(rows))
