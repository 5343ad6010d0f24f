"""Template filters for index entries: say each thing once."""

from __future__ import annotations

import re

from django import template

from memsync.recall.terms import STOP_WORDS

register = template.Library()

_WORD = re.compile(r"[^\W_]+")
# A description whose words the entry's title and hook already mostly say adds nothing:
# "When releases go out and who signs them off" under "Release train — when releases go
# out, who signs off".
REPEATED_SHARE = 0.6


def _words(text: str) -> set[str]:
    return {w for w in (m.lower() for m in _WORD.findall(text)) if w not in STOP_WORDS}


@register.filter
def says_more(description: str | None, shown: str) -> bool:
    """Whether ``description`` says more than ``shown`` (the entry's title and hook).

    A number or version the shown text lacks is a fact of its own ("CSCM 373-01",
    "PostgreSQL 16"), however much of the wording repeats: such a description is shown."""
    words = _words(description or "")
    if not words:
        return False
    known = _words(shown)
    if any(any(char.isdigit() for char in word) and word not in known for word in words):
        return True
    stems = {word[:5] for word in known}
    repeated = sum(1 for word in words if word in known or word[:5] in stems)
    return repeated / len(words) < REPEATED_SHARE
