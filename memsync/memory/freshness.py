"""How old a memory is, in the words Claude Code uses (SPEC F4, R1).

A memory's age is the time since its last change (for a Git store, the last commit
that touched the file). Ages are whole days, floor(elapsed / 86,400 s), never
negative, so a clock skewed into the future reads as "today".
"""

from __future__ import annotations

from datetime import datetime

SECONDS_PER_DAY = 86_400

FRESHNESS_NOTE = (
    "This memory is {days} days old. Memories are point-in-time observations, not live "
    "state — claims about code behavior or file:line citations may be outdated. Verify "
    "against current code before asserting as fact."
)


def age_days(modified: datetime, now: datetime) -> int:
    if modified.tzinfo is None or now.tzinfo is None:
        # A naive datetime is a guess about the time zone; a day boundary off by
        # hours would change the age an agent is told.
        raise ValueError("age_days needs time-zone aware datetimes")
    elapsed = (now - modified).total_seconds()
    return max(0, int(elapsed // SECONDS_PER_DAY))


def age_label(days: int) -> str:
    if days <= 0:
        return "today"
    if days == 1:
        return "yesterday"
    return f"{days} days ago"


def freshness_note(days: int) -> str | None:
    """The caveat an agent gets with a memory older than a day; None when fresh."""
    if days <= 1:
        return None
    return FRESHNESS_NOTE.format(days=days)


def freshness_header(path: str, days: int) -> str:
    """The line Claude Code 2.1.332 puts above a recalled memory, word for word.

    ``Memory: <path>:``; for a memory older than a day the F4 note comes first, then a
    blank line (measured in ``tests/claude_code``).
    """
    note = freshness_note(days)
    if note is None:
        return f"Memory: {path}:"
    return f"{note}\n\nMemory: {path}:"
