"""The ``anthropic`` extraction engine: a model with the agent sandbox (SPEC E2).

The model gets the extraction prompt, the list of existing memories up front and the
new messages, and works in the memory directory through `memsync.agent`'s tools —
read, grep, glob, the read-only shell, write, edit and delete — for at most 5 turns.
Everything else is refused by the sandbox and reported. Tokens are counted per run
and end up in the commit's trailers.
"""

from __future__ import annotations

from collections.abc import Callable

import anthropic

from memsync.agent import AgentError, AgentResult, Sandbox, ToolSet, TurnReport, run_agent
from memsync.extract.engine import ANTHROPIC, EngineOutcome, ExtractionFailed, ExtractionRequest
from memsync.extract.prompts import EXTRACTION_SYSTEM_PROMPT, MAX_TURNS, extraction_prompt
from memsync.memory import INDEX_FILENAME, MemoryDirectory
from memsync.memory.layout import detect_layout
from memsync.recall.manifest import format_manifest


class AnthropicEngine:
    name = ANTHROPIC

    def __init__(
        self,
        client: anthropic.Anthropic,
        *,
        model: str,
        max_turns: int = MAX_TURNS,
        token_budget: int | None = None,
        on_turn: Callable[[TurnReport], None] | None = None,
    ) -> None:
        self.client = client
        self.model = model
        self.max_turns = max_turns
        self.token_budget = token_budget
        self.on_turn = on_turn

    def extract(self, request: ExtractionRequest) -> EngineOutcome:
        tools = ToolSet(Sandbox(request.workdir), allow_delete=True)
        today = request.messages[-1].timestamp or request.now
        prompt = extraction_prompt(
            messages=request.messages,
            manifest=format_manifest(request.existing),
            manifest_count=len(request.existing) + request.left_out,
            manifest_left_out=request.left_out,
            memory_dir=str(tools.sandbox.root),
            session_id=request.session_id,
            today=today,
            layout=detect_layout(MemoryDirectory.read(request.workdir).files.values()),
        )
        try:
            result = run_agent(
                self.client,
                model=self.model,
                system=EXTRACTION_SYSTEM_PROMPT,
                prompt=prompt,
                tools=tools,
                max_turns=self.max_turns,
                token_budget=self.token_budget,
                on_turn=self.on_turn,
            )
        except AgentError as error:
            partial = self._outcome(error.partial) if error.partial else EngineOutcome(self.name)
            raise ExtractionFailed(str(error), partial) from error
        return self._outcome(result)

    def _outcome(self, result: AgentResult) -> EngineOutcome:
        usage = result.usage
        outcome = EngineOutcome(
            engine=self.name,
            written=[path for path in result.files_written if path != INDEX_FILENAME],
            deleted=list(result.files_deleted),
            model=self.model,
            usage={
                "input_tokens": usage.input_tokens,
                "output_tokens": usage.output_tokens,
                "cache_read_input_tokens": usage.cache_read_input_tokens,
                "cache_creation_input_tokens": usage.cache_creation_input_tokens,
            },
            turns=result.turns,
            denials=[f"{denial.tool}: {denial.reason}" for denial in result.denials],
            stop=result.stop_message,
        )
        if result.final_text.strip():
            outcome.notes.append(result.final_text.strip())
        return outcome
