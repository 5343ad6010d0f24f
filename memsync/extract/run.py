"""One extraction: new messages in, at most one ``extract`` commit out (SPEC E1–E5).

1. The skip rules (E4) decide first, before anything is read or spent.
2. The last `max_messages` new messages, the existing memories (the manifest: all of
   them, or the 200 closest to what the messages talk about when there are more)
   and the engine run against the memory directory — the developer's own, or a
   worktree on the server.
3. Afterwards the index follows the files: a topic file saved without its
   ``MEMORY.md`` line gets one, a forgotten file loses its line. Only top-level
   topic files and ``MEMORY.md`` are committed; anything else an engine wrote
   (``team/``, ``logs/``) is left uncommitted and reported.
4. The changes are screened (the server refuses secrets as for a push), then
   committed as one commit ``extract: <session> — saved N memories`` (or "saved N,
   forgot M") with the session, the message range, the engine, the model and the
   tokens as trailers. No changes, no commit. The cursor advances either way, except
   for a throttled span and a failed run, whose messages are analysed next time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memsync.confined import ConfinedRoot, ConfinementError, EntryKind
from memsync.extract.engine import (
    EngineOutcome,
    ExtractionEngine,
    ExtractionFailed,
    ExtractionRequest,
    Refusal,
)
from memsync.extract.skip import skip_reason
from memsync.extract.transcript import Transcript
from memsync.memory import (
    INDEX_FILENAME,
    TEAM_DIRNAME,
    MemoryFile,
    MemoryIndex,
    is_topic_path,
    rewrite_relative_dates,
)
from memsync.recall.disk import DiskIndex
from memsync.recall.rank import RecallDocument
from memsync.store import CommitKind, Identity, MemoryRepo, trailers

MAX_MESSAGES = 200
MANIFEST_LIMIT = 200  # Claude Code lists at most 200 memory files
_TEAM_PREFIX = f"{TEAM_DIRNAME}/"  # extraction writes the developer's own memories only

SAVED = "saved"
NO_CHANGES = "no-changes"
SKIPPED = "skipped"
REFUSED = "refused"
FAILED = "failed"

Screen = Callable[[Mapping[str, bytes | None]], Sequence[str]]


@dataclass
class ExtractionResult:
    session_id: str | None
    status: str  # saved, no-changes, skipped, refused, failed
    cursor: int  # store this; the next run reads messages from here
    engine: str | None = None
    model: str | None = None
    reason: str | None = None  # why it was skipped, refused or failed
    first_message: int | None = None
    last_message: int | None = None
    saved: list[str] = field(default_factory=list)
    forgotten: list[str] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    denials: list[str] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)
    turns: int = 0
    commit: str | None = None

    @property
    def summary(self) -> str:
        """``saved 2 memories``, ``saved 1, forgot 1``, or what happened instead."""
        if self.status in (SAVED, NO_CHANGES):
            return change_summary(len(self.saved), len(self.forgotten))
        return f"{self.status}: {self.reason}" if self.reason else self.status

    def to_dict(self) -> dict[str, Any]:
        return {
            "session": self.session_id,
            "status": self.status,
            "summary": self.summary,
            "reason": self.reason,
            "engine": self.engine,
            "model": self.model,
            "messages": (
                [self.first_message, self.last_message] if self.first_message is not None else None
            ),
            "cursor": self.cursor,
            "saved": list(self.saved),
            "forgotten": list(self.forgotten),
            "refused": [refusal.to_dict() for refusal in self.refused],
            "notes": list(self.notes),
            "denials": list(self.denials),
            "usage": dict(self.usage),
            "turns": self.turns,
            "commit": self.commit,
        }


def change_summary(saved: int, forgotten: int) -> str:
    if forgotten:
        return f"saved {saved}, forgot {forgotten}"
    return f"saved {saved} {'memory' if saved == 1 else 'memories'}"


def tokens_trailer(usage: Mapping[str, int]) -> str:
    """``in=1200 out=340 cache_read=0 cache_write=800``, as the dream writes it."""
    return (
        f"in={usage.get('input_tokens', 0)} out={usage.get('output_tokens', 0)} "
        f"cache_read={usage.get('cache_read_input_tokens', 0)} "
        f"cache_write={usage.get('cache_creation_input_tokens', 0)}"
    )


def extract_session(
    repo: MemoryRepo,
    transcript: Transcript,
    engine: ExtractionEngine,
    *,
    since: int,
    every_turns: int = 1,
    max_messages: int = MAX_MESSAGES,
    now: datetime | None = None,
    claude_md: str = "",
    screen: Screen | None = None,
    author: Identity | None = None,
) -> ExtractionResult:
    """Extract from the messages `transcript` holds (read from cursor `since`) into the
    checked-out branch of `repo`, unless the skip rules say not to."""
    skipped = skipped_result(transcript, engine, since=since, every_turns=every_turns)
    if skipped is not None:
        return skipped
    return extract_messages(
        repo,
        transcript,
        engine,
        since=since,
        max_messages=max_messages,
        now=now,
        claude_md=claude_md,
        screen=screen,
        author=author,
    )


def skipped_result(
    transcript: Transcript, engine: ExtractionEngine, *, since: int, every_turns: int = 1
) -> ExtractionResult | None:
    """The result of a run the skip rules stop (E4); None when extraction should run."""
    skip = skip_reason(transcript, every_turns=every_turns)
    if skip is None:
        return None
    cursor = transcript.next_cursor if skip.advance else since
    return ExtractionResult(transcript.session_id, SKIPPED, cursor, engine.name, reason=skip.reason)


def extract_messages(
    repo: MemoryRepo,
    transcript: Transcript,
    engine: ExtractionEngine,
    *,
    since: int,
    max_messages: int = MAX_MESSAGES,
    now: datetime | None = None,
    claude_md: str = "",
    screen: Screen | None = None,
    author: Identity | None = None,
    extra_trailers: Sequence[tuple[str, str]] = (),
) -> ExtractionResult:
    """`extract_session` once the skip rules have let the messages through;
    `extra_trailers` are added to the commit's."""
    session = transcript.session_id
    try:
        return _extract(
            repo,
            transcript,
            engine,
            since,
            max_messages,
            now,
            claude_md,
            screen,
            author,
            extra_trailers,
        )
    except ConfinementError as refused:
        # A symlink in the memory directory (issue 10): nothing is read or written
        # through it, the run fails naming it, and its messages wait for a clean tree.
        reason = f"the memory directory holds a symbolic link, which is never followed: {refused}"
        return ExtractionResult(session, FAILED, since, engine.name, reason=reason)


def _extract(
    repo: MemoryRepo,
    transcript: Transcript,
    engine: ExtractionEngine,
    since: int,
    max_messages: int,
    now: datetime | None,
    claude_md: str,
    screen: Screen | None,
    author: Identity | None,
    extra_trailers: Sequence[tuple[str, str]],
) -> ExtractionResult:
    session = transcript.session_id
    messages = tuple(transcript.messages[-max_messages:])
    moment = now or datetime.now(UTC)
    incremental = bool(getattr(engine, "incremental", False))
    existing, left_out = ([], 0) if incremental else _manifest(repo, messages)
    result = ExtractionResult(
        session,
        NO_CHANGES,
        transcript.next_cursor,
        engine.name,
        first_message=messages[0].index,
        last_message=messages[-1].index,
    )
    snapshot = None if incremental else _snapshot(repo.path)
    request = ExtractionRequest(
        workdir=repo.path,
        messages=messages,
        session_id=session,
        now=moment,
        existing=tuple(existing),
        left_out=left_out,
        claude_md=claude_md,
    )
    try:
        outcome = engine.extract(request)
    except ExtractionFailed as failure:
        _take(result, failure.outcome)
        before = _before(repo.path, snapshot, failure.outcome)
        _restore(repo, _touched(failure.outcome), before)
        result.status, result.reason, result.cursor = FAILED, str(failure), since
        return result
    _take(result, outcome)
    before = _before(repo.path, snapshot, outcome)
    kept = _keep_top_level(outcome, result)
    reference = (messages[-1].timestamp or moment).date()
    root = ConfinedRoot(repo.path)
    _absolute_dates(root, [path for path in kept if root.exists(path)], reference)
    _index_follows_files(root, kept)
    changes = _changes(repo, [*kept, INDEX_FILENAME], before)
    result.saved = sorted(p for p, data in changes.items() if data is not None and p in kept)
    result.forgotten = sorted(p for p, data in changes.items() if data is None and p in kept)
    if not changes:
        return result
    findings = list(screen(changes)) if screen is not None else []
    if findings:
        _restore(repo, list(changes), before)
        result.status, result.saved, result.forgotten = REFUSED, [], []
        result.reason = "; ".join(findings)
        return result
    changed = change_summary(len(result.saved), len(result.forgotten))
    result.commit = repo.commit(
        CommitKind.EXTRACT,
        f"{session or 'unknown session'} — {changed}",
        [
            trailers.SESSION(session or "unknown"),
            trailers.MESSAGES(f"{result.first_message}-{result.last_message}"),
            trailers.ENGINE(engine.name),
            trailers.MODEL(outcome.model or "none"),
            trailers.TOKENS(tokens_trailer(outcome.usage)),
            *extra_trailers,
        ],
        paths=sorted(changes),
        author=author,
        body=_commit_body(result),
    )
    result.status = SAVED if result.commit else NO_CHANGES
    return result


def _manifest(repo: MemoryRepo, messages: Sequence[Any]) -> tuple[list[RecallDocument], int]:
    # From the recall index kept between calls: only files changed since the last
    # extraction or recall are read, not the whole directory once more (issue 14).
    disk = DiskIndex(repo.path)
    try:
        paths = [path for path in disk.index.paths() if not path.startswith(_TEAM_PREFIX)]
        if len(paths) <= MANIFEST_LIMIT:
            documents = [d for d in disk.index.documents if not d.path.startswith(_TEAM_PREFIX)]
            return documents, 0
        # Past Claude Code's 200, list the memories closest to what the messages say.
        said = " ".join(message.text for message in messages)[-20_000:]
        hits = disk.index.search(said, MANIFEST_LIMIT + len(disk.index) - len(paths))
        ranked = [hit.document for hit in hits if not hit.document.path.startswith(_TEAM_PREFIX)]
        ranked = ranked[:MANIFEST_LIMIT]
        return ranked, len(paths) - len(ranked)
    finally:
        disk.close()


def _take(result: ExtractionResult, outcome: EngineOutcome) -> None:
    result.engine = outcome.engine
    result.model = outcome.model
    result.refused = list(outcome.refused)
    result.notes = list(outcome.notes)
    result.denials = list(outcome.denials)
    result.usage = dict(outcome.usage)
    result.turns = outcome.turns
    if outcome.stop:
        result.notes.append(outcome.stop)


def _touched(outcome: EngineOutcome) -> list[str]:
    return sorted({*outcome.written, *outcome.deleted, INDEX_FILENAME})


def _keep_top_level(outcome: EngineOutcome, result: ExtractionResult) -> list[str]:
    kept: list[str] = []
    other: list[str] = []
    for path in sorted({*outcome.written, *outcome.deleted}):
        (kept if is_topic_path(path) else other).append(path)
    if other:
        # Left on disk, uncommitted: undoing a write outside the top level could destroy
        # what was there, and team/ is often a clone of its own.
        result.notes.append(
            "not committed: extraction commits top-level topic files only, not " + ", ".join(other)
        )
    return kept


def _absolute_dates(root: ConfinedRoot, paths: Sequence[str], reference: Any) -> None:
    for path in paths:
        memory = MemoryFile.parse(path, root.read_bytes(path))
        if not memory.is_text or memory.errors:
            continue
        body, found = rewrite_relative_dates(memory.body, reference)
        if found:
            root.write(path, memory.replace(body=body).render())


def _index_follows_files(root: ConfinedRoot, paths: Sequence[str]) -> None:
    exists = root.is_file(INDEX_FILENAME)
    index = (
        MemoryIndex.parse_bytes(root.read_bytes(INDEX_FILENAME)) if exists else MemoryIndex.empty()
    )
    updated = index
    for path in paths:
        if not root.exists(path):
            updated = updated.without_entry(path)
        elif updated.entry_for(path) is None:
            memory = MemoryFile.parse(path, root.read_bytes(path))
            title = memory.name or path.removesuffix(".md")
            updated = updated.with_entry(title, path, " ".join((memory.description or "").split()))
    if updated != index or (not exists and len(updated)):
        root.write(INDEX_FILENAME, updated.render_bytes())


def _before(
    workdir: Path, snapshot: dict[str, bytes] | None, outcome: EngineOutcome
) -> dict[str, bytes]:
    """The top-level Markdown files the run may compare or put back, as they were before
    the engine ran: from the copy taken then, or from what an incremental engine kept of
    the files it changed (and ``MEMORY.md`` as it is now, if the engine left it alone).
    Call it before the run writes anything itself."""
    if snapshot is not None:
        return snapshot
    originals = dict(outcome.originals or {})
    if INDEX_FILENAME not in originals:
        root = ConfinedRoot(workdir)
        if root.kind(INDEX_FILENAME) is EntryKind.FILE:
            originals[INDEX_FILENAME] = root.read_bytes(INDEX_FILENAME)
    return {path: data for path, data in originals.items() if data is not None}


def _snapshot(workdir: Path) -> dict[str, bytes]:
    """The top-level Markdown files as they are on disk before the engine runs (committed
    or not: Claude Code writes memories the repository has not seen yet), to tell what
    the engine changed and to put back what a refused or failed run changed. Links are
    left out: they are never read, and a write to one is refused."""
    root = ConfinedRoot(workdir)
    return {
        entry.name: root.read_bytes(entry.name)
        for entry in root.scan()
        if entry.kind is EntryKind.FILE and entry.name.endswith(".md")
    }


def _changes(
    repo: MemoryRepo, paths: Sequence[str], before: Mapping[str, bytes]
) -> dict[str, bytes | None]:
    """What the engine changed, as a commit would record it: a file it deleted that the
    repository never had (written by Claude Code, not committed yet) is no change."""
    tracked: set[str] | None = None  # listed only when a file is gone: forgetting is rare
    root = ConfinedRoot(repo.path)
    changes: dict[str, bytes | None] = {}
    for path in sorted(set(paths)):
        now = root.read_bytes(path) if root.is_file(path) else None
        if now == before.get(path):
            continue
        if now is None and tracked is None:
            tracked = set(repo.files("HEAD"))
        if now is not None or (tracked is not None and path in tracked):
            changes[path] = now
    return changes


def _restore(repo: MemoryRepo, paths: Sequence[str], before: Mapping[str, bytes]) -> None:
    root = ConfinedRoot(repo.path)
    for path in paths:
        if "/" in path:
            continue
        if path in before:
            root.write(path, before[path])
        elif root.kind(path) in (EntryKind.FILE, EntryKind.LINK):
            root.unlink(path)


def _commit_body(result: ExtractionResult) -> str:
    lines = [f"Saved {path}" for path in result.saved]
    lines += [f"Forgot {path}" for path in result.forgotten]
    lines += [f"Refused: {refusal.text} ({refusal.reason})" for refusal in result.refused]
    return "\n".join(lines)
