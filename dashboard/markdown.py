"""Memory bodies as HTML: Markdown through markdown-it-py, then through the nh3 sanitizer.

Memory content is untrusted: an agent wrote it from a conversation, and a member may
push anything that passes the secret scan. Raw HTML in the Markdown is not rendered
(markdown-it escapes it with ``html=False``), and the result goes through nh3 anyway, so
a parser quirk cannot smuggle a tag, an event handler or a ``javascript:`` URL past us.
"""

from __future__ import annotations

from functools import lru_cache

import nh3
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt

SAFE_URL_SCHEMES = frozenset({"http", "https", "mailto"})

_TAGS = frozenset(
    {
        "a", "blockquote", "br", "code", "del", "em", "h1", "h2", "h3", "h4", "h5", "h6",
        "hr", "li", "ol", "p", "pre", "s", "strong", "table", "tbody", "td", "th", "thead",
        "tr", "ul",
    }
)  # fmt: skip
_ATTRIBUTES = {
    "a": {"href", "title"},
    "code": {"class"},  # language-xyz from fenced code blocks
    "ol": {"start"},
    "td": {"style"},
    "th": {"style"},
}
# Table cell alignment is the only inline style markdown-it emits.
_CSS_PROPERTIES = frozenset({"text-align"})

_parser = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable(
    ["table", "strikethrough"]
)


# markdown-it's inline scanning is superlinear on hostile input (240 KB of "[" took 6 s a
# page view). Real memory bodies are a few KB; past this size a body is shown as plain
# text, which costs microseconds whatever it holds.
RENDER_LIMIT_CHARS = 20_000


def render_markdown(text: str) -> SafeString:
    """Sanitized HTML for a memory body; safe to put in a template as it is.

    Rendered once per distinct body (the same blob is shown on many pages and views).
    """
    if len(text) > RENDER_LIMIT_CHARS:
        return _plain(text)
    return _render(text)


def _plain(text: str) -> SafeString:
    notice = (
        f'<p class="notice">Shown as plain text: {len(text):,} characters is over the '
        f"{RENDER_LIMIT_CHARS:,}-character limit for rendering Markdown.</p>"
    )
    return mark_safe(f'{notice}<pre class="memory-plain">{escape(text)}</pre>')  # noqa: S308


@lru_cache(maxsize=512)
def _render(text: str) -> SafeString:
    html = _parser.render(text)
    clean = nh3.clean(
        html,
        tags=set(_TAGS),
        attributes={tag: set(names) for tag, names in _ATTRIBUTES.items()},
        url_schemes=set(SAFE_URL_SCHEMES),
        link_rel="noopener noreferrer nofollow",
        filter_style_properties=set(_CSS_PROPERTIES),
        strip_comments=True,
    )
    return mark_safe(clean)  # noqa: S308 - nh3 output is the sanitized form
