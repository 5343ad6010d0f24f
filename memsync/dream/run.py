"""One dream, start to finish (SPEC D2, D5, D7): pure domain, no Django, no settings.

Both locks (Redis first when there is a client: it is cluster-wide and one round trip)
→ a worktree on a new branch ``dream/<id>`` from ``main`` → the engine → one ``dream``
commit on that branch, the proposal → release. ``main`` is never written, except on a
developer machine where changes made outside memsync are first committed (``manual``)
so the dream starts from what is on disk.

Losing either lock returns ``locked`` at once: a dream never waits behind another.
Failure or cancel removes the worktree and the branch, rolls the file lock back to its
prior mtime (so the time gate still passes next time) and releases the Redis lock.
"""

from __future__ import annotations

import hashlib
import secrets
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from memsync.dream.canaries import CanaryCache, CanaryResult, read_tree, run_canaries
from memsync.dream.counts import (
    MemoryCounts,
    hides_entries,
    visible_trailer,
)
from memsync.dream.engine import DreamCancelled, DreamContext, DreamEngine, EngineResult, Scope
from memsync.dream.gates import Gate
from memsync.dream.locks import ConsolidationLock, RedisDreamLock, redis_lock_key
from memsync.dream.progress import ProgressCallback, RunProgress
from memsync.store import (
    LOCK_FILE_NAME,
    MAIN,
    CommitKind,
    Identity,
    MemoryRepo,
    StoreError,
    refs,
    trailers,
)

DREAM_AUTHOR = Identity("memsync dream", "dream@memsync.invalid")


class DreamStatus(StrEnum):
    PROPOSED = "proposed"
    NO_CHANGES = "no-changes"
    SKIPPED = "skipped"
    LOCKED = "locked"
    FAILED = "failed"
    CANCELLED = "cancelled"


def new_dream_id(now: datetime | None = None) -> str:
    """Sortable by time, unique enough: ``20261202-1405-9f3a``."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    return f"{moment:%Y%m%d-%H%M}-{secrets.token_hex(2)}"


def default_worktrees_dir(repo_path: Path) -> Path:
    """Inside ``.git/``: out of sight of Claude Code, which reads the memory directory."""
    return Path(repo_path) / ".git" / "memsync" / "worktrees"


def canary_cache_dir(repo_path: Path) -> Path:
    """Where main's canary answers are kept between dreams (`CanaryCache`)."""
    return Path(repo_path) / ".git" / "memsync" / "canaries"


def local_lock_name(repo_path: Path) -> str:
    """The Redis lock name of a memory directory that is not a server project."""
    digest = hashlib.sha256(str(Path(repo_path).resolve()).encode()).hexdigest()[:16]
    return f"path-{digest}"


@dataclass(frozen=True)
class DreamRequest:
    repo_path: Path
    engine: DreamEngine
    worktrees_dir: Path | None = None  # default: default_worktrees_dir(repo_path)
    scope: Scope = Scope.PERSONAL
    sessions: tuple[str, ...] = ()  # what the session gate found; reviewed by the engine
    transcripts_dir: Path | None = None
    code_dir: Path | None = None  # a code checkout: memories citing what it lacks are stale
    # What the time gate read (ns; 0 = no lock file). None when the gates were bypassed
    # (a manual dream): then no "another consolidation finished meanwhile" check.
    gate_mtime_ns: int | None = None
    redis: Any = None  # a redis-py client, or None on a machine without Redis
    redis_key: str | None = None  # default: from the repository path
    redis_ttl_seconds: float = 120.0
    record_outside_changes: bool = False  # developer machine: commit edits made on disk
    dream_id: str | None = None
    now: datetime | None = None


@dataclass
class DreamOutcome:
    status: DreamStatus
    dream_id: str
    reason: str = ""
    gate: str | None = None
    branch: str | None = None
    commit: str | None = None
    base: str | None = None
    files_touched: list[str] = field(default_factory=list)
    summary: str = ""
    engine: str | None = None
    model: str | None = None
    sessions: int = 0
    turns: int = 0
    usage: dict[str, int] = field(default_factory=dict)
    before: MemoryCounts | None = None
    after: MemoryCounts | None = None
    notes: list[str] = field(default_factory=list)
    error: str | None = None
    canaries: CanaryResult | None = None

    def visible(self) -> dict[str, Any] | None:
        """Entries the agent sees in MEMORY.md before → after; `lowered` flags a dream
        that hides entries (merged-away memories aside)."""
        if self.before is None or self.after is None:
            return None
        return {
            "before": self.before.visible_entries or 0,
            "after": self.after.visible_entries or 0,
            "lowered": hides_entries(self.before, self.after),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": str(self.status),
            "dream_id": self.dream_id or None,
            "gate": self.gate,
            "reason": self.reason,
            "branch": self.branch,
            "commit": self.commit,
            "base": self.base,
            "files_touched": list(self.files_touched),
            "summary": self.summary,
            "engine": self.engine,
            "model": self.model,
            "sessions": self.sessions,
            "turns": self.turns,
            "usage": dict(self.usage),
            "before": self.before.to_dict() if self.before else None,
            "after": self.after.to_dict() if self.after else None,
            "visible_entries": self.visible(),
            "canaries": self.canaries.to_dict() if self.canaries else None,
            "notes": list(self.notes),
            "error": self.error,
        }


def run_dream(
    request: DreamRequest,
    *,
    on_progress: ProgressCallback | None = None,
    cancelled: Callable[[], bool] | None = None,
    on_locked: Callable[[], None] | None = None,
) -> DreamOutcome:
    """Run one dream under both locks; every ending is an outcome, never an exception
    (except BaseExceptions such as KeyboardInterrupt, which still clean up first).

    ``on_locked`` is called once both locks are held, before anything changes: the
    moment the caller knows no other dream of this memory is running."""
    now = request.now or datetime.now(UTC)
    dream_id = request.dream_id or new_dream_id(now)
    try:
        repo = MemoryRepo(request.repo_path)
    except StoreError as error:
        return DreamOutcome(DreamStatus.FAILED, dream_id, reason=str(error), error=str(error))
    file_lock = ConsolidationLock(repo.path / LOCK_FILE_NAME)
    redis_lock: RedisDreamLock | None = None
    if request.redis is not None:
        key = request.redis_key or redis_lock_key(local_lock_name(repo.path))
        redis_lock = RedisDreamLock(request.redis, key, ttl_seconds=request.redis_ttl_seconds)
        try:
            acquired = redis_lock.acquire()
        except Exception as error:  # redis-py's connection and timeout errors
            reason = f"cannot take the Redis lock: {type(error).__name__}: {error}"
            return DreamOutcome(DreamStatus.FAILED, dream_id, reason=reason, error=reason)
        if not acquired:
            holder = RedisDreamLock.current_holder(request.redis, key) or "another worker"
            return DreamOutcome(
                DreamStatus.LOCKED,
                dream_id,
                gate=str(Gate.LOCKS),
                reason=f"another dream of this memory holds the Redis lock ({holder})",
            )
    try:
        prior_ns = file_lock.try_acquire()
        if prior_ns is None:
            return DreamOutcome(
                DreamStatus.LOCKED, dream_id, gate=str(Gate.LOCKS), reason=file_lock.refusal or ""
            )
        if request.gate_mtime_ns is not None and prior_ns != request.gate_mtime_ns:
            # Another consolidation finished between our gate check and our acquisition
            # (Claude Code has this race): its stamp goes back, and we do not dream twice.
            file_lock.rollback(prior_ns)
            return DreamOutcome(
                DreamStatus.SKIPPED,
                dream_id,
                gate=str(Gate.TIME),
                reason="another consolidation finished after the gates were checked",
            )
        checks: list[Callable[[], bool]] = [cancelled] if cancelled else []
        if redis_lock is not None:
            lock = redis_lock
            checks.append(lambda: lock.lost)
        progress = RunProgress(
            dream_id,
            sessions_reviewed=len(request.sessions),
            on_change=on_progress,
            cancel_checks=tuple(checks),
        )
        outcome: DreamOutcome | None = None
        try:
            if on_locked is not None:
                on_locked()
            outcome = _dream(repo, request, dream_id, now, progress)
            stopped = outcome.status in (DreamStatus.CANCELLED, DreamStatus.FAILED)
            if stopped and redis_lock is not None and redis_lock.lost:
                outcome.status = DreamStatus.FAILED
                outcome.reason = "the Redis lock expired while dreaming; stopped"
                outcome.error = outcome.reason
            return outcome
        finally:
            if outcome is not None and outcome.status in (
                DreamStatus.PROPOSED,
                DreamStatus.NO_CHANGES,
            ):
                file_lock.release()
            else:
                file_lock.rollback(prior_ns)
    finally:
        if redis_lock is not None:
            redis_lock.release()


def _dream(
    repo: MemoryRepo, request: DreamRequest, dream_id: str, now: datetime, progress: RunProgress
) -> DreamOutcome:
    worktrees_dir = request.worktrees_dir or default_worktrees_dir(repo.path)
    branch = refs.dream_branch(dream_id)
    worktree = worktrees_dir / f"dream-{dream_id}"
    engine_name = getattr(request.engine, "name", type(request.engine).__name__)
    outcome = DreamOutcome(
        DreamStatus.FAILED,
        dream_id,
        engine=engine_name,
        sessions=len(request.sessions),
    )
    progress.phase("starting")
    created = False
    keep_branch = False
    try:
        sweep_abandoned(repo, worktrees_dir)
        if request.record_outside_changes:
            _record_outside_changes(repo)
        if progress.cancelled():
            raise DreamCancelled("cancelled before the engine started")
        worktrees_dir.mkdir(parents=True, exist_ok=True)
        outcome.base = repo.rev_parse(MAIN)
        workspace = repo.add_worktree(worktree, branch, MAIN)
        created = True
        outcome.before = MemoryCounts.of_directory(worktree)
        main_files = read_tree(worktree)
        context = DreamContext(
            workdir=worktree,
            scope=request.scope,
            now=now,
            last_changed=repo.ages(MAIN),
            sessions=request.sessions,
            transcripts_dir=request.transcripts_dir,
            code_dir=request.code_dir,
        )
        result = request.engine.consolidate(context, progress)
        _take_result(outcome, result)
        if progress.cancelled():
            raise DreamCancelled("cancelled after the engine finished")
        outcome.after = MemoryCounts.of_directory(worktree)
        progress.phase("canaries")
        outcome.canaries = run_canaries(
            main_files,
            read_tree(worktree),
            context.last_changed,
            now,
            cache=CanaryCache(canary_cache_dir(repo.path)),
        )
        if outcome.canaries.at_risk:
            outcome.summary = f"At risk: {outcome.canaries.sentence()} " + outcome.summary
        visible = outcome.visible()
        if visible and visible["lowered"]:
            outcome.summary = (
                f"Warning: the agent would see fewer memories: {visible['before']} entries of "
                f"MEMORY.md before, {visible['after']} after. " + outcome.summary
            )
        commit = workspace.commit(
            CommitKind.DREAM,
            f"consolidate memories (dream {dream_id}, {outcome.engine})",
            _trailers(dream_id, outcome),
            author=DREAM_AUTHOR,
            body=outcome.summary,
        )
        if commit is None:
            outcome.status = DreamStatus.NO_CHANGES
            outcome.reason = "the engine found nothing to change"
            return outcome
        keep_branch = True
        outcome.status = DreamStatus.PROPOSED
        outcome.branch = branch
        outcome.commit = commit
        outcome.files_touched = [stat.path for stat in workspace.commit_info(commit).files]
        outcome.reason = f"proposed on {branch}: {len(outcome.files_touched)} files changed"
        return outcome
    except DreamCancelled as stop:
        outcome.status = DreamStatus.CANCELLED
        outcome.reason = str(stop) or "cancelled"
        outcome.error = outcome.reason
        return outcome
    except Exception as error:
        outcome.status = DreamStatus.FAILED
        outcome.reason = f"{type(error).__name__}: {error}"
        outcome.error = "".join(traceback.format_exception(error)[-3:]).strip()
        return outcome
    finally:
        if created:
            repo.remove_worktree(worktree)
            if not keep_branch and repo.rev_parse(refs.head_ref(branch)) is not None:
                repo.delete_branch(branch)
        outcome.files_touched = outcome.files_touched or []
        outcome.turns = max(outcome.turns, progress.turns)


def _take_result(outcome: DreamOutcome, result: EngineResult) -> None:
    outcome.summary = result.summary
    outcome.engine = result.engine or outcome.engine
    outcome.model = result.model
    outcome.turns = result.turns
    outcome.usage = dict(result.usage)
    outcome.notes = list(result.notes)


def _trailers(dream_id: str, outcome: DreamOutcome) -> list[tuple[str, str]]:
    usage = outcome.usage
    tokens = " ".join(
        f"{label}={_usage(usage, *keys)}"
        for label, keys in (
            ("in", ("input", "input_tokens")),
            ("out", ("output", "output_tokens")),
            ("cache_read", ("cache_read", "cache_read_input_tokens")),
            ("cache_write", ("cache_write", "cache_creation", "cache_creation_input_tokens")),
        )
    )
    assert outcome.before is not None and outcome.after is not None
    return [
        trailers.DREAM(dream_id),
        trailers.ENGINE(outcome.engine or "unknown"),
        trailers.MODEL(outcome.model or "none"),
        trailers.SESSIONS(outcome.sessions),
        trailers.TOKENS(tokens),
        trailers.BEFORE(outcome.before.trailer()),
        trailers.AFTER(outcome.after.trailer()),
        trailers.VISIBLE(visible_trailer(outcome.before, outcome.after)),
        *(outcome.canaries.trailers() if outcome.canaries else []),
    ]


def _usage(usage: dict[str, int], *keys: str) -> int:
    for key in keys:
        if key in usage:
            return int(usage[key])
    return 0


def _record_outside_changes(repo: MemoryRepo) -> None:
    current = repo.current_branch()
    if current != MAIN:
        raise StoreError(
            f"{repo.path} has {current or 'a detached HEAD'} checked out; "
            f"a dream starts from {MAIN}, so switch back to it first"
        )
    repo.commit(CommitKind.MANUAL, "record changes made outside memsync")


def sweep_abandoned(repo: MemoryRepo, worktrees_dir: Path) -> list[str]:
    """Remove what a dream killed mid-way left behind: its worktree, and a ``dream/``
    branch that never got its dream commit. Only call it holding both locks: then no
    other dream of this repository is running. Returns the branches removed."""
    if worktrees_dir.is_dir():
        for entry in sorted(worktrees_dir.iterdir()):
            if entry.name.startswith("dream-"):
                repo.remove_worktree(entry)
    removed = []
    for name, tip in repo.branches(refs.DREAMS).items():
        dream_id = refs.parse_dream_branch(name)
        if trailers.DREAM.last(repo.commit_info(tip)) != dream_id:
            repo.delete_branch(name)
            removed.append(name)
    return removed
