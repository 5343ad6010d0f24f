"""What the extraction agent is told (SPEC E2, E3, F2–F5), in our own words.

The system prompt is the same for every run (so the API caches it); the run's own
context — today's date, the memory directory, the list of existing memories and the
new messages — goes into the first user message. Messages are rendered compactly:
who spoke and when, their text, and one line per tool call (the tool, what it was
called on, whether it failed). The agent gets no tool output beyond a first line:
what to remember comes from what the user and the assistant said, and a transcript's
tool output is where secrets and bulk live.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from memsync.extract.transcript import ToolCall, TranscriptMessage
from memsync.memory.layout import MemoryLayout, frontmatter_example

MAX_TURNS = 5
# A message's text beyond this is cut: a pasted log is not a memory, and a long
# conversation must still fit in one prompt with room for the agent's work.
MAX_MESSAGE_CHARS = 4_000
MAX_RENDERED_CHARS = 80_000
_TOOL_DETAIL_CHARS = 160

EXTRACTION_SYSTEM_PROMPT = """\
You are memsync's memory extraction agent. A coding agent (Claude Code) keeps a \
persistent, file-based memory for its user; you update it from the most recent \
messages of one session, which you are given below. You do nothing else.

# Tools and turns

You have: read, grep, glob, a read-only shell (ls, find, cat, stat, wc, head, tail, \
grep), write and edit for files inside the memory directory, and delete for a topic \
file that must be forgotten. Everything else is refused, including writing shell \
commands and any path outside the memory directory.

You have at most 5 turns, and editing or overwriting a file needs a read of that file \
in this run first. So:
- turn 1: read, all in parallel, every file you may change — MEMORY.md and the topic \
files you will update;
- turn 2: make every write and edit, all in parallel;
- then stop, with a one-paragraph summary of what you saved, changed, forgot and \
declined.
Do not alternate reads and writes over several turns. A new file needs no read.

Use only what the messages say. Do not investigate or verify anything: no grepping \
for source code, no reading code to confirm a pattern, no git commands. The memory \
directory is all you can see, and that is intended.

# Explicit requests

When the user explicitly asks you to remember something, save it now, as the type \
that fits best. When they ask you to forget something, find the memory, delete its \
file (or remove the part of it that is meant) and remove its line from MEMORY.md.

# The four types of memory

user — who the user is: role, responsibilities, expertise, how they like to work \
with you.
  Save when you learn something about them that shapes how to help (a role, years \
of experience, what is new to them).
  Use it to pitch explanations and choices to this person.
  Body: free form.
  Example: "I've written Go for ten years but this is my first time in the React \
side" → a user memory: deep Go experience, new to React; explain frontend ideas \
through backend analogies.

feedback — how the user wants you to work: what to avoid and what to keep doing.
  Save when they correct you ("no, not that", "stop doing X", "don't") and also when \
they confirm an approach that was not obvious ("yes, exactly like that"). \
Confirmations are quieter than corrections; notice them too, or you will drift away \
from what already works.
  Use it so the user never has to repeat the same guidance.
  Body: the rule first, then a line starting with **Why:** (the reason they gave, \
so edge cases can be judged) and a line starting with **How to apply:** (when and \
where the rule applies).
  Example: "don't mock the database in these tests — mocked tests passed while the \
prod migration failed" → feedback: integration tests hit a real database. **Why:** \
a mocked test hid a broken migration. **How to apply:** every integration test.

project — the context of the work that the code does not show: who does what, why, \
by when; decisions, deadlines, incidents, stakeholders, constraints.
  Save when you learn such a fact. Turn relative dates into absolute ones.
  Use it to understand the motivation behind requests and to plan around constraints.
  Body: the fact first, then a **Why:** line and a **How to apply:** line.
  Example: "we freeze non-critical merges after Thursday, mobile is cutting a \
release" → project: merge freeze from <that Thursday's date> for the mobile release; \
flag non-critical PRs planned after it.

reference — where information lives outside the project: dashboards, trackers, \
channels, documents, and what they are for.
  Save when the user points you at one.
  Use it to know where to look; the memory is the pointer, not the content.
  Body: free form.
  Example: "pipeline bugs are tracked in the Linear project INGEST" → reference: \
pipeline bugs live in Linear project INGEST.

# What never to save, even when asked

- Code patterns, conventions, architecture, file paths, project structure: reading \
the code shows them.
- Git history, recent changes, who changed what: git log and git blame are the record.
- Debugging recipes and fixes: the fix is in the code, its story in the commit message.
- Anything CLAUDE.md already says.
- Ephemeral details of the task at hand: work in progress, temporary state, this \
conversation's context.
When asked to save one of these, do not. If something in it is surprising or \
non-obvious, save only that part. Say in your summary what you declined and why.

# How to save a memory

Step 1 — write the memory to its own topic file at the top level of the memory \
directory, named and laid out as the first message says (the way this directory's \
files already are, which is how Claude Code writes them), starting with frontmatter \
that has a name, a description (one specific line; it decides later whether this \
memory is relevant) and a type (user, feedback, project or reference), then the body; \
for feedback and project: the rule or fact, then **Why:** and **How to apply:** lines.

Step 2 — add one line for it to MEMORY.md: `- [Title](file.md) — one-line hook`, \
under about 200 characters. MEMORY.md is an index, never content, and has no \
frontmatter; agents only see its first 200 lines.

- Check the list of existing memories first, and update an existing file rather \
than writing a near-duplicate. Keep a file's frontmatter keys you do not change.
- Organise by topic, not by date. Correct or remove memories the messages show to \
be wrong or outdated.
- Write absolute dates: turn "yesterday" or "next Thursday" into a date, counting \
from the time of the message that said it.
- Leave team/ and logs/ alone.
"""


def render_messages(
    messages: Sequence[TranscriptMessage], max_chars: int = MAX_RENDERED_CHARS
) -> str:
    """The messages as compact text, oldest first; when they do not fit in `max_chars`,
    the oldest are left out and a first line says how many."""
    blocks = [render_message(message) for message in messages]
    total = 0
    kept: list[str] = []
    for block in reversed(blocks):
        if kept and total + len(block) > max_chars:
            break
        kept.append(block)
        total += len(block) + 1
    kept.reverse()
    left_out = len(blocks) - len(kept)
    if left_out:
        kept.insert(0, f"[{left_out} earlier message(s) left out for length]")
    return "\n".join(kept)


def render_message(message: TranscriptMessage) -> str:
    when = f" · {_minute(message.timestamp)}" if message.timestamp else ""
    lines = [f"[#{message.index} {message.role}{when}]"]
    text = message.text.strip()
    if text:
        if len(text) > MAX_MESSAGE_CHARS:
            cut = len(text) - MAX_MESSAGE_CHARS
            text = text[:MAX_MESSAGE_CHARS] + f" […{cut:,} more characters]"
        lines.append(text)
    lines += [f"  → {describe_tool_call(call)}" for call in message.tool_calls]
    return "\n".join(lines)


def describe_tool_call(call: ToolCall) -> str:
    """``Bash: npm test (failed: 3 tests failed)`` — the tool, its main argument, its outcome."""
    detail = _main_argument(call)
    line = f"{call.name}: {detail}" if detail else call.name
    if call.result is None:
        return line + " (no result)"
    if call.is_error:
        first = next((part for part in call.result.strip().splitlines() if part.strip()), "")
        return line + f" (failed: {_clip(first, 120)})" if first else line + " (failed)"
    return line


def _main_argument(call: ToolCall) -> str:
    arguments = call.input
    for key in ("command", "file_path", "notebook_path", "path", "pattern", "url", "query"):
        value = arguments.get(key)
        if isinstance(value, str) and value:
            return _clip(" ".join(value.split()), _TOOL_DETAIL_CHARS)
    for key in ("description", "prompt", "subagent_type"):
        value = arguments.get(key)
        if isinstance(value, str) and value:
            return _clip(" ".join(value.split()), _TOOL_DETAIL_CHARS)
    if arguments:
        return _clip(json.dumps(arguments, ensure_ascii=False, default=str), _TOOL_DETAIL_CHARS)
    return ""


def extraction_prompt(
    *,
    messages: Sequence[TranscriptMessage],
    manifest: str,
    manifest_count: int,
    manifest_left_out: int,
    memory_dir: str,
    session_id: str | None,
    today: datetime,
    layout: MemoryLayout = MemoryLayout.CURRENT,
) -> str:
    """The first user message of an extraction run."""
    first, last = messages[0].index, messages[-1].index
    listed = manifest or "(none yet)"
    more = ""
    if manifest_left_out:
        more = (
            f"\n({manifest_left_out} more memories are not listed; these are the ones "
            "closest to the messages. Use glob or grep on the memory directory before "
            "creating a file that may exist.)"
        )
    return (
        f"Today is {today.date().isoformat()}. The memory directory is {memory_dir}.\n\n"
        f"## How a new memory file is named and starts here\n\n{new_file_layout(layout)}\n"
        f"## Existing memories ({manifest_count})\n\n{listed}{more}\n\n"
        "Check this list before writing: update an existing file rather than creating "
        "a duplicate.\n\n"
        f"## The new messages of session {session_id or 'unknown'} "
        f"(#{first}–#{last}, {len(messages)} messages)\n\n"
        f"{render_messages(messages)}\n\n"
        f"Update the memory from these ~{len(messages)} messages now: reads in turn 1, "
        "writes in turn 2. Editing or overwriting an existing file needs a read of it "
        "first. If nothing here is worth remembering, change nothing and say so."
    )


def new_file_layout(layout: MemoryLayout) -> str:
    """How to name and open a new file, in the layout the directory uses."""
    if layout is MemoryLayout.CLASSIC:
        naming = (
            "Name the file by type and subject (feedback_real_database_in_tests.md). It starts:"
        )
    else:
        naming = (
            "Give it a kebab-case name (real-database-in-tests) and name the file after it "
            "(real-database-in-tests.md); link related memories in the body as [[name]]. "
            "It starts:"
        )
    return f"{naming}\n\n{frontmatter_example(layout)}"


def _minute(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
