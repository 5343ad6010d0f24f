"""How a commit reads in a list: what it did to which memories, and only the trailers
that say something (an extraction without a model has no "model none tokens in=0")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memsync.store import CommitInfo, CommitKind, trailers

SHOWN_FILES = 4
_SESSION_PREFIX = re.compile(r"^\S+ — ")  # "<session id> — saved 2 memories"
_EMPTY_VALUES = {"", "none", "unknown", "0"}
_SESSION_CHARS = 8


@dataclass(frozen=True)
class Detail:
    label: str
    value: str
    full: str  # the whole value, for the title attribute


def headline(commit: CommitInfo) -> str:
    """The summary without what the row shows elsewhere: the session id of an extraction
    (its memories are listed instead), the "revert" the kind badge already says."""
    summary = commit.summary
    if commit.kind == CommitKind.EXTRACT and trailers.SESSION.last(commit):
        summary = _SESSION_PREFIX.sub("", summary)
    if commit.kind == CommitKind.REVERT:
        summary = _undid(summary)
    return summary


def _undid(summary: str) -> str:
    """``revert "revert "x""`` → ``undid “undid “x””``: a revert of a revert reads once."""
    match = re.fullmatch(r'revert "(.*)"', summary)
    return f"undid “{_undid(match.group(1))}”" if match else summary


def memory_files(commit: CommitInfo) -> list[str]:
    """The Markdown files the commit changed (against its first parent for a merge)."""
    return [stat.path for stat in commit.files if stat.path.endswith(".md")]


def details(commit: CommitInfo) -> list[Detail]:
    found = []
    session = trailers.SESSION.last(commit)
    if session and session.lower() not in _EMPTY_VALUES:
        found.append(Detail("session", session[:_SESSION_CHARS], session))
    for trailer in (trailers.MEMBER, trailers.DREAM, trailers.MODEL):
        value = trailer.last(commit)
        label = trailer.label.lower()
        if value and value.lower() not in _EMPTY_VALUES:
            found.append(Detail(label, value, value))
    recorded = trailers.TOKENS.last(commit) or ""
    tokens = _tokens(recorded)
    if tokens:
        found.append(Detail("tokens", tokens, recorded))
    return found


def _tokens(value: str) -> str:
    """``in=4210 out=388 cache_read=0 cache_write=0`` → ``in=4210 out=388``; "" if all 0."""
    parts = [part for part in value.split() if part.partition("=")[2] not in _EMPTY_VALUES]
    return " ".join(parts)
