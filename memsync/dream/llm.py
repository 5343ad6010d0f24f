"""The ``anthropic`` dream engine: the four-phase consolidation by a model (SPEC D3, D4, D7).

The model works through `memsync.agent`: the Messages API tool loop with read, grep,
glob, a read-only shell, write, edit and delete, all confined by a `Sandbox` rooted at
the dream's worktree. Refused calls go back to the model as tool errors. Progress comes
from the loop's per-turn callback: each turn, ``updating`` at the first write, each
file touched; a cancel is honoured between turns.

Two rules the sandbox cannot express are enforced around the run: in a personal dream
``team/`` is read-only, and ``CLAUDE.md`` is never edited (SPEC D4). Both are
snapshotted before the model starts and put back afterwards if it changed them; the
notes say so, and those files are not reported as touched.

Transcripts: the sandbox has one root, so ``context.transcripts_dir`` is not offered to
the model; the prompt says so and the model works from logs and memories.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import anthropic

from memsync.agent import AgentResult, Sandbox, ToolSet, TurnReport, connect, run_agent
from memsync.agent.loop import CANCELLED, DEFAULT_BASE_URL, END_TURN
from memsync.confined import ConfinedRoot, EntryKind
from memsync.dream.engine import (
    DreamCancelled,
    DreamContext,
    DreamProgress,
    EngineResult,
    Scope,
)
from memsync.dream.index_edit import SUBINDEX_DIRNAME, is_index_path
from memsync.dream.prompts import CONSOLIDATION_SYSTEM_PROMPT, consolidation_prompt
from memsync.dream.workspace import PROTECTED_NAMES
from memsync.memory import (
    INDEX_FILENAME,
    LOGS_DIRNAME,
    MAX_INDEX_LINES,
    MAX_INDEX_UNITS,
    TEAM_DIRNAME,
    utf16_len,
)

ENGINE_NAME = "anthropic"
MAX_SUMMARY_CHARS = 2_000
_SUMMARY_STARTS = ("Improved ", "Nothing to improve")


class AnthropicEngine:
    """Consolidation by a model through the agent sandbox (SPEC D3)."""

    name = ENGINE_NAME

    def __init__(
        self,
        *,
        api_key: str,
        model: str,
        base_url: str | None = None,
        max_turns: int = 30,
        token_budget: int | None = None,
        max_tokens_per_turn: int = 8192,
        client: anthropic.Anthropic | None = None,
    ) -> None:
        self.api_key = api_key
        self.model = model
        self.base_url = base_url
        self.max_turns = max_turns
        self.token_budget = token_budget
        self.max_tokens_per_turn = max_tokens_per_turn
        self._client = client

    def consolidate(self, context: DreamContext, progress: DreamProgress) -> EngineResult:
        client = self._client or connect(self.api_key, base_url=self.base_url or DEFAULT_BASE_URL)
        guard = _ProtectedFiles.capture(context)
        tools = ToolSet(Sandbox(context.workdir), allow_delete=True)
        reporter = _TurnReporter(progress, guard)
        notes: list[str] = []
        if context.transcripts_dir is not None:
            notes.append(
                "session transcripts were not offered to the model: the agent sandbox has "
                "one root, the worktree"
            )
        progress.phase("orient")
        try:
            result = run_agent(
                client,
                model=self.model,
                system=CONSOLIDATION_SYSTEM_PROMPT,
                prompt=consolidation_prompt(
                    now=context.now,
                    scope=context.scope,
                    sessions=context.sessions,
                    inventory=inventory(context.workdir),
                    transcripts=None,
                ),
                tools=tools,
                max_turns=self.max_turns,
                max_tokens_per_turn=self.max_tokens_per_turn,
                token_budget=self.token_budget,
                on_turn=reporter,
                should_cancel=progress.cancelled,
            )
        finally:
            restored = guard.restore()
        if result.stop_reason == CANCELLED:
            raise DreamCancelled(result.stop_message)
        notes.append(f"the model {result.stop_message}")
        notes += [f"put back {path}: {why}" for path, why in restored.items()]
        notes += [
            f"refused {denial.tool} {denial.request}: {denial.reason}" for denial in result.denials
        ]
        touched = [path for path in result.files_touched if path not in restored]
        return EngineResult(
            summary=_summary(result, touched),
            files_touched=touched,
            engine=ENGINE_NAME,
            model=self.model,
            turns=result.turns,
            usage={
                "input": result.usage.input_tokens,
                "output": result.usage.output_tokens,
                "cache_read": result.usage.cache_read_input_tokens,
                "cache_creation": result.usage.cache_creation_input_tokens,
                "total": result.usage.total,
            },
            notes=notes,
        )


class _TurnReporter:
    """Turns the loop's per-turn reports into dream progress (SPEC D7)."""

    def __init__(self, progress: DreamProgress, guard: _ProtectedFiles) -> None:
        self.progress = progress
        self.guard = guard
        self.reported: set[str] = set()

    def __call__(self, report: TurnReport) -> None:
        self.progress.turn(report.turn)
        for path in report.files_touched:
            if path in self.reported or self.guard.covers(path):
                continue
            if not self.reported:
                self.progress.phase("updating")
            self.reported.add(path)
            self.progress.touched(path)


@dataclass
class _ProtectedFiles:
    """Files the model may read but must not change in this run, as they were."""

    root: Path
    team_read_only: bool
    saved: dict[str, bytes]

    @classmethod
    def capture(cls, context: DreamContext) -> _ProtectedFiles:
        team_read_only = context.scope is not Scope.TEAM
        guard = cls(context.workdir, team_read_only, {})
        for relative in guard._present():
            guard.saved[relative] = guard.confined.read_bytes(relative)
        return guard

    @property
    def confined(self) -> ConfinedRoot:
        # Never through a link (issue 10): links are neither saved nor restored.
        return ConfinedRoot(self.root)

    def covers(self, relative: str) -> bool:
        parts = relative.split("/")
        if parts[-1].casefold() in PROTECTED_NAMES:
            return True
        return self.team_read_only and parts[0] == TEAM_DIRNAME

    def _present(self) -> list[str]:
        return sorted(
            relative
            for relative, entry in self.confined.walk()
            if entry.kind is EntryKind.FILE and self.covers(relative)
        )

    def restore(self) -> dict[str, str]:
        """Put every protected file back as it was; what had changed, and how."""
        restored: dict[str, str] = {}
        why = "team memory is read-only in a personal dream"
        confined = self.confined
        for relative in self._present():
            if relative not in self.saved:
                confined.unlink(relative)
                restored[relative] = _reason(relative, why, "the model created it")
        for relative, data in self.saved.items():
            current = confined.read_bytes(relative) if confined.is_file(relative) else None
            if current == data:
                continue
            confined.write(relative, data)
            change = "the model deleted it" if current is None else "the model changed it"
            restored[relative] = _reason(relative, why, change)
        return restored


def _reason(relative: str, team_rule: str, change: str) -> str:
    if relative.split("/")[-1].casefold() in PROTECTED_NAMES:
        return f"{change}; a dream never edits CLAUDE.md"
    return f"{change}; {team_rule}"


def inventory(workdir: Path) -> str:
    """A few lines on what the directory holds, so the model can plan its first turn.
    Symbolic links are not followed: the model is told only about the worktree."""

    topics = sum(
        1
        for entry in os.scandir(workdir)
        if entry.name.endswith(".md")
        and entry.name != INDEX_FILENAME
        and entry.name.casefold() not in PROTECTED_NAMES
        and entry.is_file(follow_symlinks=False)
    )
    lines = [f"- {topics} topic files beside {INDEX_FILENAME}"]
    confined = ConfinedRoot(workdir)
    if confined.kind(INDEX_FILENAME) is EntryKind.FILE:
        data = confined.read_bytes(INDEX_FILENAME)
        count = len(data.splitlines())
        units = utf16_len(data.decode("utf-8", "surrogateescape"))
        over = count > MAX_INDEX_LINES or units > MAX_INDEX_UNITS
        limit = f" (over the {MAX_INDEX_LINES}-line / {MAX_INDEX_UNITS:,}-character limit)"
        lines.append(
            f"- {INDEX_FILENAME}: {count} lines, {units:,} characters{limit if over else ''}"
        )
    else:
        lines.append(f"- no {INDEX_FILENAME} yet")
    for folder, what in ((SUBINDEX_DIRNAME, "sub-indexes"), (TEAM_DIRNAME, "team files")):
        if confined.kind(folder) is EntryKind.DIRECTORY:
            count = sum(1 for entry in confined.scan(folder) if entry.name.endswith(".md"))
            lines.append(f"- {folder}/: {count} {what}")
    logs = (
        sorted(
            PurePosixPath(relative)
            for relative, entry in confined.walk(LOGS_DIRNAME)
            if entry.kind is EntryKind.FILE
            and relative.endswith(".md")
            and relative.count("/") == 3
        )
        if confined.kind(LOGS_DIRNAME) is EntryKind.DIRECTORY
        else []
    )
    if logs:
        lines.append(f"- {LOGS_DIRNAME}/: {len(logs)} daily logs, the newest {logs[-1].stem}")
    return "\n".join(lines)


def _summary(result: AgentResult, touched: list[str]) -> str:
    """The model's closing summary; when it gave none (a limit stopped it), one made
    from what changed."""
    text = result.final_text.strip()
    if result.stop_reason == END_TURN and text:
        starts = [text.rfind(start) for start in _SUMMARY_STARTS]
        begin = max(starts)
        if begin > 0:
            text = text[begin:]
        if len(text) > MAX_SUMMARY_CHARS:
            text = text[: MAX_SUMMARY_CHARS - 1].rstrip() + "…"
        return text
    memories = [
        path
        for path in touched
        if path.endswith(".md") and not is_index_path(path.removeprefix(f"{TEAM_DIRNAME}/"))
    ]
    names = ", ".join(memories[:10]) + (
        f" and {len(memories) - 10} more" if len(memories) > 10 else ""
    )
    changed = f"Improved {len(memories)} memories: {names}" if memories else "No memory changed"
    return f"{changed}. The dream {result.stop_message} before the model wrote its summary."
