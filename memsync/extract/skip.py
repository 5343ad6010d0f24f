"""When extraction does not run (SPEC E4), decided before anything is spent.

- No new messages: nothing to analyse.
- A subagent's session: subagents never trigger extraction (the main session's
  extraction sees the subagent's answer as a tool result).
- The main agent already wrote into the memory directory in these messages: it saved
  what it meant to save, and a second writer would duplicate or fight it.
- Throttle: extraction runs every N turns (default 1, i.e. every turn). A turn ends
  each time the assistant answers and the user speaks again, and at the end of the
  messages if the assistant spoke last — Claude Code's Stop hook fires at those points.

Skipping for the first three moves the cursor past the messages (they are dealt
with); a throttled span keeps its cursor, so the next run sees these turns too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath, PurePosixPath

from memsync.extract.transcript import Transcript, TranscriptMessage
from memsync.memory import sanitize_path

_FILE_PATH_KEYS = ("file_path", "notebook_path")


@dataclass(frozen=True)
class SkipDecision:
    reason: str
    advance: bool  # move the cursor past these messages


def count_turns(messages: Sequence[TranscriptMessage]) -> int:
    turns = 0
    for position, message in enumerate(messages):
        if message.role != "assistant":
            continue
        following = messages[position + 1] if position + 1 < len(messages) else None
        if following is None or following.role == "user":
            turns += 1
    return turns


def skip_reason(transcript: Transcript, *, every_turns: int = 1) -> SkipDecision | None:
    """Why extraction should not run on `transcript`'s new messages; None to run it."""
    if transcript.is_subagent:
        return SkipDecision("a subagent's session never triggers extraction", advance=True)
    if not transcript.messages:
        return SkipDecision("no new messages", advance=True)
    if transcript.memory_writes:
        written = sorted({PurePath(write.path).name for write in transcript.memory_writes})
        return SkipDecision(
            "the main agent already wrote memory in these messages (" + ", ".join(written) + ")",
            advance=True,
        )
    if every_turns > 1:
        turns = count_turns(transcript.messages)
        if turns < every_turns:
            return SkipDecision(
                f"throttled: {turns} of {every_turns} turns since the last extraction",
                advance=False,
            )
    return None


def session_memory_dir(transcript: Transcript) -> str | None:
    """Where the session's own memory directory was, as the session's tools named it.

    Claude Code keeps a project's memory in ``<config>/projects/<sanitized root>/memory``,
    the root being the working directory or the Git checkout above it. On another
    machine (the server) the config directory is unknown, so the directory is found in
    the paths the session's file tools used. None when no tool touched it.
    """
    if not transcript.cwd:
        return None
    cwd = PurePosixPath(transcript.cwd)
    names = "|".join(
        re.escape(sanitize_path(str(root))) for root in (cwd, *cwd.parents) if root.name
    )
    if not names:
        return None
    marker = re.compile(r"^(?P<dir>.*/projects/(?:" + names + r")/memory)(?:/|$)")
    for call in transcript.tool_calls:
        for key in _FILE_PATH_KEYS:
            value = call.input.get(key)
            if isinstance(value, str):
                match = marker.match(os.path.normpath(value))
                if match:
                    return match["dir"]
    return None
