"""What memsync put into a session must not leave the machine with its transcript
(issue 11, item 7).

The recall hook adds memories to the model's context, private ones included, and
Claude Code writes hook context into the transcript twice over: as the
``hook_additional_context`` attachment and inside the ``api-request-blob`` copy of the
request. Claude Code also writes the auto-memory ``MEMORY.md`` it loaded, and the model
reads private topic files with tools. Before a transcript is uploaded:

* every ``<memsync-recall>…</memsync-recall>`` block (the recall hook wraps what it
  adds in one, `wrap_recall`) is replaced by `RECALL_REMOVED`;
* every line of a private memory — a Markdown file of the memory directory outside
  ``team/``, at least `MIN_PRIVATE_LINE` characters long and not also a line of a team
  memory — is replaced by `PRIVATE_REMOVED`, wherever it appears: a tool result (with
  or without the Read tool's line numbers), the loaded index, an assistant's quote.

It works on the JSON values, not the raw text: an escaped ``\\u003c`` or a newline
inside a JSON string cannot hide a block, and every line stays valid JSON. Lines
with nothing to remove are passed through byte for byte.

The server refuses a transcript that still has a block (`recall_blocks`): a client
too old to scrub must not leak through it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RECALL_OPEN = "<memsync-recall>"
RECALL_CLOSE = "</memsync-recall>"
RECALL_REMOVED = "[memsync: recalled memories removed before upload]"
PRIVATE_REMOVED = "[memsync: private memory removed before upload]"
# Shorter lines ("---", "type: user", a heading) are shared with ordinary text far
# too often to be removed wherever they appear.
MIN_PRIVATE_LINE = 20
# A memory bigger than this is not a memory (Claude Code's own limits are far below).
MAX_MEMORY_FILE = 512 * 1024
TEAM_DIRNAME = "team"

# An unclosed block (a context cut short) runs to the end of the text.
_BLOCK = re.compile(re.escape(RECALL_OPEN) + r".*?(?:" + re.escape(RECALL_CLOSE) + r"|\Z)", re.S)
# Claude Code's Read tool prefixes each line with its number and a tab.
_LINE_NUMBER = re.compile(r"^\s*\d+(?:\t|→)")


def wrap_recall(context: str) -> str:
    """The recall hook's context as it goes into Claude Code."""
    return f"{RECALL_OPEN}\n{context}\n{RECALL_CLOSE}"


@dataclass(frozen=True)
class PrivateText:
    """The lines of a memory directory's private memories, as they are matched."""

    lines: frozenset[str]

    @classmethod
    def from_directory(cls, memory_dir: Path) -> PrivateText:
        """Private: every ``*.md`` under `memory_dir` except in ``team/`` (and hidden
        folders such as ``.git``); a line a team memory has too is the team's."""
        private: set[str] = set()
        team: set[str] = set()
        for path in _markdown_files(memory_dir):
            relative = path.relative_to(memory_dir).parts
            into = team if relative[0] == TEAM_DIRNAME else private
            into.update(_keys(_read(path)))
        return cls(frozenset(private - team))

    def __bool__(self) -> bool:
        return bool(self.lines)


@dataclass(frozen=True)
class Scrubbed:
    text: str
    recall_blocks: int  # blocks of recalled memories removed
    private_lines: int  # lines of private memories removed


def scrub_transcript(jsonl: str, private: PrivateText | None = None) -> Scrubbed:
    """`jsonl` without memsync's injected context and without private memory text."""
    counts = [0, 0]
    out = []
    for line in jsonl.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        ending = line[len(body) :]
        if not body.strip():
            out.append(line)
            continue
        try:
            value = json.loads(body)
        except ValueError:
            out.append(_scrub_string(body, private, counts) + ending)
            continue
        before = counts.copy()
        cleaned = _walk(value, private, counts)
        if counts == before:
            out.append(line)  # untouched: byte for byte as Claude Code wrote it
        else:
            out.append(json.dumps(cleaned, ensure_ascii=False, separators=(",", ":")) + ending)
    return Scrubbed("".join(out), counts[0], counts[1])


def recall_blocks(jsonl: str) -> int:
    """How many recall blocks `jsonl` still carries (in its JSON values, or in lines
    that are not JSON)."""
    found = 0
    for line in jsonl.splitlines():
        try:
            values: Iterable[str] = _strings(json.loads(line))
        except ValueError:
            values = [line]
        found += sum(len(_BLOCK.findall(value)) for value in values)
    return found


# --- inside ----------------------------------------------------------------------------


def _walk(value: Any, private: PrivateText | None, counts: list[int]) -> Any:
    if isinstance(value, str):
        return _scrub_string(value, private, counts)
    if isinstance(value, list):
        return [_walk(item, private, counts) for item in value]
    if isinstance(value, dict):
        return {key: _walk(item, private, counts) for key, item in value.items()}
    return value


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


def _scrub_string(text: str, private: PrivateText | None, counts: list[int]) -> str:
    if RECALL_OPEN in text:
        text, removed = _BLOCK.subn(RECALL_REMOVED, text)
        counts[0] += removed
    if not private or len(text) < MIN_PRIVATE_LINE:
        return text
    lines = text.split("\n")
    kept: list[str] = []
    removed = 0
    for line in lines:
        if _key(line) in private.lines:
            removed += 1
            if not kept or kept[-1] != PRIVATE_REMOVED:  # one marker for a run of lines
                kept.append(PRIVATE_REMOVED)
        else:
            kept.append(line)
    if not removed:
        return text
    counts[1] += removed
    return "\n".join(kept)


def _key(line: str) -> str:
    return _LINE_NUMBER.sub("", line, count=1).strip()


def _keys(text: str) -> set[str]:
    return {key for key in map(_key, text.splitlines()) if len(key) >= MIN_PRIVATE_LINE}


def _read(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_MEMORY_FILE:
            return ""
        return path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return ""


def _markdown_files(root: Path) -> Iterable[Path]:
    if not root.is_dir():
        return
    for path in sorted(root.rglob("*.md")):
        parts = path.relative_to(root).parts
        if any(part.startswith(".") for part in parts[:-1]) or not path.is_file():
            continue
        yield path
