"""Read a Claude Code session transcript into the messages extraction looks at (SPEC E1).

Claude Code appends one JSON object per line to `<session>.jsonl`. What the reader
makes of them:

- Only `type: "user"` and `type: "assistant"` entries become messages; `summary`,
  `system`, `file-history-snapshot`, `progress` and any other type are skipped
  silently, and unknown fields anywhere are ignored.
- Claude Code writes one line per content block while a response streams, all
  carrying the same `message.id`; those lines are joined into one message, even
  when tool results were written between them.
- A `tool_use` block is paired with the `tool_result` (in a later user line) whose
  `tool_use_id` answers it. A user line that only carries tool results is not a
  user message.
- Skipped entirely: meta lines (`isMeta`: expanded slash-command prompts and other
  text Claude Code injects), compaction summaries (`isCompactSummary`: a restatement
  of earlier messages, already seen by an earlier extraction), `isVisibleInTranscriptOnly`
  lines, synthetic API-error replies (`isApiErrorMessage`), and sidechain lines
  (`isSidechain`: a subagent's own conversation; the main agent sees only the
  subagent's final answer, as a tool result).
- Noise inside user text, removed before deciding whether a user message exists:
  the output of local commands (`<local-command-stdout>`, `<local-command-stderr>`,
  `<local-command-caveat>`), the `!` shell mode (`<bash-input>`, `<bash-stdout>`,
  `<bash-stderr>`), `<system-reminder>` blocks, and the "[Request interrupted by
  user…]" markers. A slash command (`<command-name>`, `<command-message>`,
  `<command-args>`) is what the user typed: with arguments it becomes the user message
  `/name args` (the arguments carry intent, e.g. `/orchestrator update CLAUDE.md`);
  without arguments (`/init`, `/clear`, `/model`) it is noise. A user message that is
  empty after this is not a message.
- A line that cannot be read (not UTF-8, bad JSON, not an object, no entry type, no
  message, content that is neither text nor a list) becomes a `TranscriptProblem`
  with its 1-based line number and is skipped; the reader never raises on content.

A subagent's transcript (`agent-*.jsonl`, or a file in which every entry is a
sidechain entry) is read with its sidechain lines as its messages and is flagged
`is_subagent`, because subagent sessions never trigger extraction (SPEC E4).

The cursor. Messages are numbered 0, 1, 2, … in file order as they are kept, and the
numbering only depends on lines already written, so it is stable while the file
grows. A caller stores `transcript.next_cursor` (for example in the session row)
after processing, and on the next run calls
`read_transcript(path, since=stored_cursor)` to get only the messages added since.
Read after a turn has ended (Claude Code's Stop hook): an assistant response whose
streamed lines were only partly written when it was read is counted once, and blocks
appended to it later are not seen again.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path, PurePath
from typing import Any, Literal

Role = Literal["user", "assistant"]

# File tools whose `file_path` (or `notebook_path`) says where the main agent wrote.
# Shell redirections are not recognised: Claude Code's own mutual exclusion check
# looks at these tools too.
_WRITING_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})

# Flags that mark a user/assistant entry as not part of the conversation the user had.
_SKIPPED_FLAGS = ("isMeta", "isCompactSummary", "isVisibleInTranscriptOnly", "isApiErrorMessage")

_NOISE_BLOCK = re.compile(
    r"<(local-command-stdout|local-command-stderr|local-command-caveat|bash-input|"
    r"bash-stdout|bash-stderr|system-reminder|command-message|command-name|command-args)>"
    r".*?</\1>",
    re.DOTALL,
)
_COMMAND_NAME = re.compile(r"<command-name>(.*?)</command-name>", re.DOTALL)
_COMMAND_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.DOTALL)
_INTERRUPTED = "[Request interrupted by user"


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    input: dict[str, Any]
    result: str | None
    is_error: bool


@dataclass(frozen=True)
class TranscriptMessage:
    index: int
    uuid: str
    role: Role
    timestamp: datetime | None
    text: str
    tool_calls: tuple[ToolCall, ...]
    session_id: str | None


@dataclass(frozen=True)
class TranscriptProblem:
    line: int
    message: str


@dataclass(frozen=True)
class MemoryWrite:
    """A file tool call by which the agent wrote into the memory directory."""

    message_index: int
    tool_call: ToolCall
    path: str


@dataclass
class Transcript:
    session_id: str | None
    messages: list[TranscriptMessage]
    problems: list[TranscriptProblem]
    cwd: str | None
    is_subagent: bool
    # Store this and pass it back as `since` to read only later messages.
    next_cursor: int = 0
    # Successful (or still unanswered) Write/Edit calls into the memory directory
    # among the returned messages; empty when no memory directory was given.
    memory_writes: list[MemoryWrite] = field(default_factory=list)
    lines_read: int = 0

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [call for message in self.messages for call in message.tool_calls]

    def seen_from(self, memory_dir: Path | str) -> Transcript:
        """These messages with the memory directory as the session saw it, found once
        they were read (`memsync.extract.skip.session_memory_dir`): its writes listed
        in `memory_writes` as `read_transcript(..., memory_dir=...)` lists them."""
        return replace(self, memory_writes=_memory_writes(self.messages, memory_dir))


@dataclass
class _Draft:
    """A message being assembled while its lines stream in."""

    index: int
    uuid: str
    role: Role
    timestamp: datetime | None
    session_id: str | None
    texts: list[str] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)

    def freeze(self) -> TranscriptMessage:
        return TranscriptMessage(
            index=self.index,
            uuid=self.uuid,
            role=self.role,
            timestamp=self.timestamp,
            text="\n\n".join(self.texts),
            tool_calls=tuple(self.tool_calls),
            session_id=self.session_id,
        )


class _Conversation:
    """One numbered sequence of messages: the main chain, or a subagent's sidechain."""

    def __init__(self, since: int) -> None:
        self.since = since
        self.count = 0
        self.entries = 0
        self.drafts: list[_Draft] = []
        # message.id → its draft, or None for a message before the cursor whose
        # later streamed lines must still not open a new message.
        self._by_message_id: dict[str, _Draft | None] = {}
        self._waiting: dict[str, tuple[_Draft, int]] = {}

    def _open(self, entry: dict[str, Any], role: Role) -> _Draft | None:
        index = self.count
        self.count += 1
        if index < self.since:
            return None
        uuid = entry.get("uuid")
        session_id = entry.get("sessionId")
        draft = _Draft(
            index=index,
            uuid=uuid if isinstance(uuid, str) else "",
            role=role,
            timestamp=_timestamp(entry.get("timestamp")),
            session_id=session_id if isinstance(session_id, str) else None,
        )
        self.drafts.append(draft)
        return draft

    def add_assistant(self, entry: dict[str, Any], content: str | list[Any]) -> None:
        self.entries += 1
        texts: list[str] = []
        calls: list[ToolCall] = []
        for kind, block in _blocks(content):
            if kind == "text":
                texts.append(block["text"])
            elif kind == "tool_use" and isinstance(block.get("id"), str):
                tool_input = block.get("input")
                calls.append(
                    ToolCall(
                        id=block["id"],
                        name=str(block.get("name", "")),
                        input=tool_input if isinstance(tool_input, dict) else {},
                        result=None,
                        is_error=False,
                    )
                )
        texts = [text for text in texts if text.strip()]
        # Thinking-only and empty lines open no message, so they cannot shift numbering.
        if not texts and not calls:
            return
        message_id = entry["message"].get("id")
        draft: _Draft | None
        if isinstance(message_id, str) and message_id in self._by_message_id:
            draft = self._by_message_id[message_id]
        else:
            draft = self._open(entry, "assistant")
            if isinstance(message_id, str):
                self._by_message_id[message_id] = draft
        if draft is None:
            return
        draft.texts.extend(texts)
        for call in calls:
            self._waiting[call.id] = (draft, len(draft.tool_calls))
            draft.tool_calls.append(call)

    def add_user(self, entry: dict[str, Any], content: str | list[Any]) -> None:
        self.entries += 1
        texts: list[str] = []
        for kind, block in _blocks(content):
            if kind == "text":
                texts.append(block["text"])
            elif kind == "tool_result":
                self._answer(block)
        spoken = [text for text in (_spoken_text(raw) for raw in texts) if text]
        if not spoken:
            return
        draft = self._open(entry, "user")
        if draft is not None:
            draft.texts.extend(spoken)

    def _answer(self, block: dict[str, Any]) -> None:
        waiting = self._waiting.pop(str(block.get("tool_use_id")), None)
        if waiting is None:
            return
        draft, position = waiting
        draft.tool_calls[position] = replace(
            draft.tool_calls[position],
            result=_result_text(block.get("content")),
            is_error=block.get("is_error") is True,
        )


def read_transcript(
    source: Path | os.PathLike[str] | Iterable[str],
    *,
    since: int = 0,
    memory_dir: Path | str | None = None,
) -> Transcript:
    """Read a transcript file (or its lines) into messages with index ≥ `since`.

    `memory_dir` is the memory directory as the session saw it (an absolute path on
    the machine that wrote the transcript); Write/Edit calls into it are listed in
    `memory_writes`, so extraction can skip a span the main agent already saved.
    Bad lines become `problems`; only a file that cannot be opened raises (OSError).
    """
    if isinstance(source, str | bytes):
        raise TypeError("read_transcript takes a Path or an iterable of lines, not a string")
    name = None
    if isinstance(source, os.PathLike):
        path = Path(source)
        name = path.name
        lines: Iterable[str | bytes] = _file_lines(path)
    else:
        lines = source
    # Claude Code names subagent transcripts agent-<id>.jsonl; in them every line is
    # the subagent's own, so the sidechain flag carries no information.
    agent_file = name is not None and name.startswith("agent-")
    main = _Conversation(since)
    side: _Conversation | None = None if agent_file else _Conversation(since)
    problems: list[TranscriptProblem] = []
    session_id: str | None = None
    cwd: str | None = None
    line_number = 0
    for line_number, raw in enumerate(lines, start=1):
        entry = _entry(raw, line_number, problems)
        if entry is None:
            continue
        if session_id is None and isinstance(entry.get("sessionId"), str):
            session_id = entry["sessionId"]
        if cwd is None and isinstance(entry.get("cwd"), str):
            cwd = entry["cwd"]
        kind = entry.get("type")
        if not isinstance(kind, str):
            problems.append(TranscriptProblem(line_number, "entry has no type"))
            continue
        if kind not in ("user", "assistant"):
            continue
        if any(entry.get(flag) is True for flag in _SKIPPED_FLAGS):
            continue
        message = entry.get("message")
        if not isinstance(message, dict):
            problems.append(TranscriptProblem(line_number, f"{kind} entry has no message"))
            continue
        content = message.get("content")
        if not isinstance(content, str | list):
            problems.append(
                TranscriptProblem(
                    line_number, "message content is neither text nor a list of blocks"
                )
            )
            continue
        conversation: _Conversation | None = main
        if not agent_file and entry.get("isSidechain") is True:
            # Sidechain lines matter only if the whole file turns out to be a
            # subagent's; once the main chain has spoken, they are dropped unread.
            conversation = side if main.entries == 0 else None
        elif side is not None:
            side = None
        if conversation is None:
            continue
        if kind == "assistant":
            conversation.add_assistant(entry, content)
        else:
            conversation.add_user(entry, content)

    is_subagent = agent_file
    chosen = main
    if side is not None and main.entries == 0 and side.entries > 0:
        is_subagent = True
        chosen = side
    if session_id is None and name is not None:
        session_id = PurePath(name).stem
    messages = [draft.freeze() for draft in chosen.drafts]
    return Transcript(
        session_id=session_id,
        messages=messages,
        problems=problems,
        cwd=cwd,
        is_subagent=is_subagent,
        next_cursor=max(chosen.count, since),
        memory_writes=_memory_writes(messages, memory_dir) if memory_dir is not None else [],
        lines_read=line_number,
    )


def _file_lines(path: Path) -> Iterator[bytes]:
    # Binary mode: a line of invalid UTF-8 is one problem, not an exception that
    # would end the iteration; the file is streamed, never read whole.
    with path.open("rb") as stream:
        yield from stream


def _entry(
    raw: str | bytes, line_number: int, problems: list[TranscriptProblem]
) -> dict[str, Any] | None:
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            problems.append(TranscriptProblem(line_number, f"not UTF-8 (byte {error.start + 1})"))
            return None
    else:
        text = raw
    if not text.strip():
        return None
    try:
        entry = json.loads(text)
    except json.JSONDecodeError as error:
        detail = f"{error.msg} at column {error.colno}"
        if isinstance(raw, bytes) and not raw.endswith(b"\n"):
            detail += " (last line incomplete: the file may still be being written)"
        problems.append(TranscriptProblem(line_number, f"not valid JSON: {detail}"))
        return None
    except RecursionError:
        problems.append(TranscriptProblem(line_number, "not valid JSON: nested too deeply"))
        return None
    if not isinstance(entry, dict):
        problems.append(
            TranscriptProblem(line_number, f"not a JSON object but {type(entry).__name__}")
        )
        return None
    return entry


def _blocks(content: str | list[Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """A message's content as (type, block) pairs; plain-string content is one text
    block, and a text block without text or a block that is not an object is skipped."""
    if isinstance(content, str):
        yield "text", {"type": "text", "text": content}
        return
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text" and not isinstance(block.get("text"), str):
            continue
        yield str(kind), block


def _spoken_text(raw: str) -> str | None:
    """What the user said in one text block, without Claude Code's noise; None if nothing."""
    text = raw
    if "<" in text:
        command = ""
        name = _COMMAND_NAME.search(text)
        args = _COMMAND_ARGS.search(text)
        if name and args and args.group(1).strip():
            command = name.group(1).strip()
            if not command.startswith("/"):
                command = "/" + command
            command = f"{command} {args.group(1).strip()}"
        text = _NOISE_BLOCK.sub("", text).strip()
        text = f"{command}\n\n{text}".strip() if command else text
    text = text.strip()
    if not text or (text.startswith(_INTERRUPTED) and text.endswith("]")):
        return None
    return text


def _result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            block["text"]
            for block in content
            if isinstance(block, dict) and isinstance(block.get("text"), str)
        ]
        return "\n".join(parts)
    return ""


def _timestamp(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def _memory_writes(messages: list[TranscriptMessage], memory_dir: Path | str) -> list[MemoryWrite]:
    # Transcript paths come from the developer's machine and need not exist here, so
    # containment is decided on normalised paths; the real path is added for a
    # memory directory reached through a symlink on this machine.
    roots = {PurePath(os.path.normpath(memory_dir))}
    if Path(memory_dir).exists():
        roots.add(PurePath(os.path.realpath(memory_dir)))
    writes = []
    for message in messages:
        for call in message.tool_calls:
            if call.name not in _WRITING_TOOLS or call.is_error:
                continue
            target = call.input.get("file_path") or call.input.get("notebook_path")
            if not isinstance(target, str) or not PurePath(target).is_absolute():
                continue
            written = PurePath(os.path.normpath(target))
            if any(written.is_relative_to(root) for root in roots):
                writes.append(MemoryWrite(message.index, call, target))
    return writes
