"""The tool loop: ask the model, run the tools it calls, send the results back, repeat.

Shared by extraction (SPEC E2: at most 5 turns) and the dream (D3, D7: progress
and cancel). A turn is one Messages API call. The run stops when the model ends
its turn, at the turn limit, when the token budget is exceeded, or when the
caller cancels between turns; tool calls of the last turn are still executed,
since the tokens for them are already spent and their writes are the point.

Prompt caching: the system prompt, the tool definitions and, each turn, the newest
message carry ``cache_control`` (three of the API's four breakpoints), so every
turn re-reads the growing conversation from the cache instead of paying for it
again.

Nothing here reads settings or the environment; the caller brings the client.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import anthropic

from memsync.agent.tools import Denial, ToolSet

DEFAULT_BASE_URL = "https://api.anthropic.com"

END_TURN = "end_turn"
MAX_TURNS = "max_turns"
BUDGET = "budget"
CANCELLED = "cancelled"
MAX_TOKENS = "max_tokens"

_EPHEMERAL = {"type": "ephemeral"}


def connect(
    api_key: str,
    *,
    base_url: str = DEFAULT_BASE_URL,
    max_retries: int = 2,
    timeout: float = 120.0,
) -> anthropic.Anthropic:
    """An SDK client with every setting explicit, so the SDK consults no environment variable
    for them (it would read ANTHROPIC_BASE_URL when no base_url is given)."""
    return anthropic.Anthropic(
        api_key=api_key, base_url=base_url, max_retries=max_retries, timeout=timeout
    )


@dataclass
class Usage:
    """Tokens summed over a run's turns, as the API reports them."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0

    @property
    def total(self) -> int:
        """Every token the model took in or gave out: uncached, cache-written and cache-read
        input, and output. This is what a token budget counts."""
        return (
            self.input_tokens
            + self.output_tokens
            + self.cache_read_input_tokens
            + self.cache_creation_input_tokens
        )

    def add(self, reported: anthropic.types.Usage) -> None:
        self.input_tokens += reported.input_tokens
        self.output_tokens += reported.output_tokens
        self.cache_read_input_tokens += reported.cache_read_input_tokens or 0
        self.cache_creation_input_tokens += reported.cache_creation_input_tokens or 0


@dataclass(frozen=True)
class TurnReport:
    """What `on_turn` receives after each turn (its tool calls included)."""

    turn: int
    usage: Usage
    files_read: list[str]
    files_touched: list[str]


@dataclass
class AgentResult:
    turns: int
    usage: Usage
    stop_reason: str
    stop_message: str
    final_text: str
    files_read: list[str] = field(default_factory=list)
    files_written: list[str] = field(default_factory=list)
    files_deleted: list[str] = field(default_factory=list)
    denials: list[Denial] = field(default_factory=list)
    tool_calls: int = 0

    @property
    def files_touched(self) -> list[str]:
        return sorted({*self.files_written, *self.files_deleted})


class AgentError(Exception):
    """The API could not be used: unreachable, refused the key, or failed after retries.

    `partial` is the run up to the failure: tokens already spent, files already written.
    """

    def __init__(
        self, message: str, *, status_code: int | None = None, partial: AgentResult | None = None
    ) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.partial = partial


def run_agent(
    client: anthropic.Anthropic,
    *,
    model: str,
    system: str | Sequence[str],
    prompt: str,
    tools: ToolSet,
    max_turns: int,
    max_tokens_per_turn: int = 8192,
    token_budget: int | None = None,
    on_turn: Callable[[TurnReport], None] | None = None,
    should_cancel: Callable[[], bool] | None = None,
) -> AgentResult:
    """Run the model with `tools` until it stops, the limits stop it, or the caller cancels.

    `system` may be several blocks (stable instructions first, then per-run context); the
    cache breakpoint goes on the last. `tools` records what the run read and changed and
    must not be shared between runs.
    """
    if max_turns < 1:
        raise ValueError("max_turns must be at least 1")
    run = _Run(client, model, tools, max_tokens_per_turn)
    return run.go(system, prompt, max_turns, token_budget, on_turn, should_cancel)


class _Run:
    def __init__(
        self, client: anthropic.Anthropic, model: str, tools: ToolSet, max_tokens: int
    ) -> None:
        self.client = client
        self.model = model
        self.tools = tools
        self.max_tokens = max_tokens
        self.usage = Usage()
        self.turns = 0
        self.tool_calls = 0
        self.final_text = ""

    def go(
        self,
        system: str | Sequence[str],
        prompt: str,
        max_turns: int,
        token_budget: int | None,
        on_turn: Callable[[TurnReport], None] | None,
        should_cancel: Callable[[], bool] | None,
    ) -> AgentResult:
        request: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": _system_blocks(system),
            "tools": _cached_tools(self.tools.definitions()),
        }
        messages: list[dict[str, Any]] = [
            {"role": "user", "content": [{"type": "text", "text": prompt}]}
        ]
        for turn in range(1, max_turns + 1):
            if should_cancel is not None and should_cancel():
                return self.result(CANCELLED, f"cancelled before turn {turn}")
            response = self.ask({**request, "messages": _with_breakpoint(messages)})
            self.turns = turn
            self.usage.add(response.usage)
            self.final_text = "\n".join(b.text for b in response.content if b.type == "text")
            messages.append({"role": "assistant", "content": _as_params(response.content)})
            calls = [block for block in response.content if block.type == "tool_use"]
            if response.stop_reason != "tool_use" or not calls:
                self.report(on_turn)
                reason = response.stop_reason or END_TURN
                return self.result(reason, _ending(reason, turn, self.max_tokens))
            messages.append({"role": "user", "content": [self.call(block) for block in calls]})
            self.report(on_turn)
            if token_budget is not None and self.usage.total > token_budget:
                return self.result(
                    BUDGET,
                    f"stopped after turn {turn}: {self.usage.total:,} tokens used, "
                    f"over the budget of {token_budget:,}",
                )
        return self.result(MAX_TURNS, f"stopped at the turn limit ({max_turns} turns)")

    def ask(self, request: dict[str, Any]) -> anthropic.types.Message:
        try:
            return self.client.messages.create(**request)
        except anthropic.APIStatusError as error:
            detail = getattr(error, "api_message", None) or _error_message(error.body) or error
            raise AgentError(
                f"the Anthropic API answered HTTP {error.status_code}: {detail}",
                status_code=error.status_code,
                partial=self.result("error", "the API failed"),
            ) from error
        except anthropic.APIConnectionError as error:
            raise AgentError(
                f"could not reach the Anthropic API at {self.client.base_url}: {error.message}",
                partial=self.result("error", "the API could not be reached"),
            ) from error
        except anthropic.APIError as error:
            raise AgentError(
                f"the Anthropic API gave an unusable answer: {error.message}",
                partial=self.result("error", "the API's answer was unusable"),
            ) from error

    def call(self, block: anthropic.types.ToolUseBlock) -> dict[str, Any]:
        self.tool_calls += 1
        outcome = self.tools.run(block.name, block.input)
        result: dict[str, Any] = {
            "type": "tool_result",
            "tool_use_id": block.id,
            "content": outcome.text,
        }
        if outcome.is_error:
            result["is_error"] = True
        return result

    def report(self, on_turn: Callable[[TurnReport], None] | None) -> None:
        if on_turn is not None:
            on_turn(
                TurnReport(
                    turn=self.turns,
                    usage=replace(self.usage),
                    files_read=self.tools.files_read,
                    files_touched=self.tools.files_touched,
                )
            )

    def result(self, stop_reason: str, stop_message: str) -> AgentResult:
        return AgentResult(
            turns=self.turns,
            usage=replace(self.usage),
            stop_reason=stop_reason,
            stop_message=stop_message,
            final_text=self.final_text,
            files_read=self.tools.files_read,
            files_written=self.tools.files_written,
            files_deleted=self.tools.files_deleted,
            denials=list(self.tools.denials),
            tool_calls=self.tool_calls,
        )


def _system_blocks(system: str | Sequence[str]) -> list[dict[str, Any]]:
    texts = [system] if isinstance(system, str) else list(system)
    if not texts:
        raise ValueError("the system prompt must have at least one block")
    blocks: list[dict[str, Any]] = [{"type": "text", "text": text} for text in texts]
    blocks[-1]["cache_control"] = dict(_EPHEMERAL)
    return blocks


def _cached_tools(definitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    tools = copy.deepcopy(definitions)
    if tools:
        tools[-1]["cache_control"] = dict(_EPHEMERAL)
    return tools


def _with_breakpoint(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The conversation with a cache breakpoint on its newest block only: the API allows
    four breakpoints, so the previous turns' markers must not accumulate."""
    last = messages[-1]
    content = [dict(block) for block in last["content"]]
    content[-1]["cache_control"] = dict(_EPHEMERAL)
    return [*messages[:-1], {**last, "content": content}]


def _as_params(content: Sequence[anthropic.types.ContentBlock]) -> list[dict[str, Any]]:
    params: list[dict[str, Any]] = []
    for block in content:
        if block.type == "text":
            params.append({"type": "text", "text": block.text})
        elif block.type == "tool_use":
            params.append(
                {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
            )
        else:
            params.append(block.model_dump(mode="json", exclude_none=True))
    return params


def _ending(reason: str, turn: int, max_tokens: int) -> str:
    if reason == END_TURN:
        return f"finished after {turn} turn{'s' if turn != 1 else ''}"
    if reason == MAX_TOKENS:
        return f"the reply of turn {turn} was cut at max_tokens ({max_tokens:,} tokens)"
    return f"the model stopped at turn {turn} ({reason})"


def _error_message(body: object) -> str | None:
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return error["message"]
    return None
