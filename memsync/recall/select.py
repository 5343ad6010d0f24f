"""The model's choice among a manifest of memories (SPEC R1): one side query, no tools.

The model sees the query, the manifest (one line per memory, newest first) and the
tools used recently, and answers ``{"selected_memories": ["file.md", …]}``. What
comes back is checked, never trusted: names that are not in the manifest are dropped
(a model can invent a plausible file name), repeats are dropped, at most `limit` are
kept. An answer that is not that JSON object, or an API failure, is reported as a
failed `Selection`; recall then falls back to the local ranking rather than show
nothing. An empty list is a valid answer: nothing in the manifest helps.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the SDK takes seconds to import; a recall without a key never needs it
    import anthropic

SELECTION_SYSTEM_PROMPT = """\
You choose which saved memories will help an AI coding agent with the request it \
just received. You get the request, then a list of memory files, one per line: type, \
file name, when it was last saved, and a one-line description.

Answer with JSON only, in this exact shape: {"selected_memories": ["file.md", ...]}

- List at most {limit} file names, copied exactly from the list, most useful first.
- Judge from the file names and descriptions alone. Pick a memory only when you are \
confident it will help with this request; when unsure, leave it out. An empty list is \
a good answer when nothing clearly helps.
- When recently used tools are listed, skip memories that merely explain how to use \
those tools (the agent is already using them), but do pick memories that warn about \
them: known problems, gotchas, things that went wrong before.
"""

_JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


@dataclass
class Selection:
    """What the side query chose; `failure` says why it could not be used."""

    names: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)  # named by the model, not in the list
    failure: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    model: str | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None


def selection_prompt(query: str, manifest: str, recent_tools: Sequence[str] = ()) -> str:
    text = f"Request: {query.strip()}\n\nAvailable memories:\n{manifest}\n"
    if recent_tools:
        text += f"\nRecently used tools: {', '.join(recent_tools)}\n"
    return text


def parse_selection(text: str, valid: Collection[str], limit: int) -> Selection:
    """The names an answer selects, checked against `valid`; a failed Selection if the
    answer is not ``{"selected_memories": [<strings>]}`` (a code fence around it is fine)."""
    match = _JSON_OBJECT.search(text)
    if match is None:
        return Selection(failure="the answer holds no JSON object")
    try:
        answer = json.loads(match.group(0))
    except json.JSONDecodeError as error:
        return Selection(failure=f"the answer is not valid JSON ({error.msg})")
    chosen = answer.get("selected_memories") if isinstance(answer, dict) else None
    if not isinstance(chosen, list) or not all(isinstance(name, str) for name in chosen):
        return Selection(failure='the answer has no "selected_memories" list of names')
    names: list[str] = []
    dropped: list[str] = []
    for raw in chosen:
        name = raw.strip()
        if name not in valid:
            dropped.append(name)
        elif name not in names and len(names) < limit:
            names.append(name)
    return Selection(names=names, dropped=dropped)


def select_memories(
    client: anthropic.Anthropic,
    *,
    model: str,
    query: str,
    manifest: str,
    valid: Collection[str],
    recent_tools: Sequence[str] = (),
    limit: int = 5,
    max_tokens: int = 512,
) -> Selection:
    """Ask `model` which of the `manifest`'s memories help with `query`."""
    import anthropic

    try:
        response = client.messages.create(
            model=model,
            max_tokens=max_tokens,
            system=SELECTION_SYSTEM_PROMPT.replace("{limit}", str(limit)),
            messages=[{"role": "user", "content": selection_prompt(query, manifest, recent_tools)}],
        )
    except anthropic.APIError as error:
        return Selection(failure=f"the side query failed: {_describe(error)}", model=model)
    text = "".join(block.text for block in response.content if block.type == "text")
    selection = parse_selection(text, valid, limit)
    selection.model = model
    selection.usage = {
        "input_tokens": response.usage.input_tokens,
        "output_tokens": response.usage.output_tokens,
    }
    return selection


def _describe(error: anthropic.APIError) -> str:
    import anthropic

    if isinstance(error, anthropic.APIStatusError):
        return f"HTTP {error.status_code}"
    if isinstance(error, anthropic.APIConnectionError):
        return "the API could not be reached"
    return type(error).__name__
