"""How much of ``MEMORY.md`` Claude Code loads, counted as Claude Code counts it.

One home for the limits, used by ``memsync check``/``ls``, the dream's index budget,
the team block of a private index and the dashboard, so they never disagree.

Measured against Claude Code 2.1.332 (``tests/claude_code``):

* it loads the first 200 lines and warns ``MEMORY.md is N lines (limit: 200)``;
* it measures size as a JavaScript string's ``length`` — UTF-16 code units, not
  bytes — with a limit of 25,000 (``MEMORY.md is 34.4KB (limit: 24.4KB)``): 180 lines
  of Chinese (39,204 UTF-8 bytes, 15,804 units) load whole;
* its own prompt asks for index entries "under ~200 chars".
"""

from __future__ import annotations

MAX_INDEX_LINES = 200
MAX_INDEX_UNITS = 25_000
MAX_ENTRY_CHARS = 200


def utf16_len(text: str) -> int:
    """The length of ``text`` as JavaScript sees it: characters outside the Basic
    Multilingual Plane (emoji, rare CJK) count twice. A lone surrogate (an undecodable
    byte carried through ``surrogateescape``) counts once, as in JavaScript."""
    if text.isascii():
        return len(text)
    # UTF-16 spends two code units on a character past the BMP and one on anything
    # else, lone surrogates included ("surrogatepass"): the encoder counts in C what a
    # loop over characters would count in Python, on every index line of a dream.
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def index_fits(text: str) -> bool:
    """Whether Claude Code loads all of ``text`` as ``MEMORY.md``, with no warning."""
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    return lines <= MAX_INDEX_LINES and utf16_len(text) <= MAX_INDEX_UNITS


def size_label(units: int) -> str:
    """``24.4KB``: a size in Claude Code's words (units / 1024, one decimal)."""
    return f"{units / 1024:.1f}KB"
