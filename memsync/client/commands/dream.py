"""The dream on a local memory directory, no server needed (SPEC D1–D8, issue 3 item 7):
``dream``, ``proposals``, ``approve``, ``reject``, ``revert``.

This handler is the one place that reads the environment for them: ``ANTHROPIC_API_KEY``
(without it the default engine is deterministic), ``ANTHROPIC_BASE_URL``,
``MEMSYNC_MODEL``, ``REDIS_URL`` (when set, the dream takes the Redis lock too), and
``MEMSYNC_DREAM_MIN_HOURS`` / ``MEMSYNC_DREAM_MIN_SESSIONS`` for the gates.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from pathlib import Path
from typing import Any

from memsync.agent.model import DEFAULT_MODEL
from memsync.client.errors import CommandError
from memsync.store.refs import dream_branch

DEFAULT_MAX_TURNS = 30
DEFAULT_TOKEN_BUDGET = 400_000
FAILED_STATUSES = {"failed", "cancelled"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    dream = subparsers.add_parser(
        "dream",
        help=f"consolidate a memory directory into a proposal on branch {dream_branch('<id>')}",
    )
    dream.add_argument("directory", type=Path)
    dream.add_argument(
        "--engine",
        help="deterministic, anthropic, or a custom engine as module:factory "
        "(default: anthropic when ANTHROPIC_API_KEY is set, else deterministic)",
    )
    dream.add_argument(
        "--force", action="store_true", help="skip the gates (a manual dream); locks still apply"
    )
    dream.add_argument(
        "--sessions-dir",
        type=Path,
        help="Claude Code transcripts of this project (default: the parent of a memory/ dir)",
    )
    dream.add_argument("--current-session", help="a session id not to count (the one running)")
    dream.add_argument(
        "--scope",
        choices=["personal", "team"],
        default="personal",
        help="team prunes conservatively (SPEC D4)",
    )
    dream.add_argument(
        "--code",
        type=Path,
        metavar="PATH",
        help="a code checkout: memories citing files, scripts or symbols it lacks are "
        "flagged as possibly stale",
    )
    dream.add_argument("--json", action="store_true", help="print one JSON object")
    dream.set_defaults(handler=run_dream_command)

    proposals = subparsers.add_parser("proposals", help="list dream proposals and their fate")
    proposals.add_argument("directory", type=Path)
    proposals.add_argument("--json", action="store_true", help="print a JSON array")
    proposals.set_defaults(handler=run_proposals)

    approve = subparsers.add_parser("approve", help="merge a dream proposal into main")
    approve.add_argument("directory", type=Path)
    approve.add_argument("dream_id", metavar="ID")
    approve.add_argument(
        "--drop", action="append", default=[], metavar="PATH", help="leave this file out"
    )
    approve.add_argument("--by", help="who approves (default: the current user)")
    approve.set_defaults(handler=run_approve)

    reject = subparsers.add_parser("reject", help="close a dream proposal, keeping its commit")
    reject.add_argument("directory", type=Path)
    reject.add_argument("dream_id", metavar="ID")
    reject.add_argument("--by", help="who rejects (default: the current user)")
    reject.add_argument("--reason", default="", help="why, kept with the rejection")
    reject.set_defaults(handler=run_reject)

    revert = subparsers.add_parser(
        "revert", help="undo an adopted dream (ID) or a commit (REV), keeping later edits"
    )
    revert.add_argument("directory", type=Path)
    revert.add_argument("rev", metavar="REV")
    revert.set_defaults(handler=run_revert)


def _env_number(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError:
        raise CommandError(f"{name}={raw!r} is not a number") from None


def _open_repo(directory: Path) -> Any:
    from memsync.store import MemoryRepo, StoreError

    try:
        return MemoryRepo(directory)
    except StoreError as error:
        raise CommandError(str(error)) from error


def _redis_client() -> Any:
    url = os.environ.get("REDIS_URL", "").strip()
    if not url:
        return None
    # redis is a server dependency; a developer machine that points at one needs the extra.
    try:
        import redis
    except ImportError:
        raise CommandError(
            "REDIS_URL is set but the redis package is not installed "
            "(pip install 'memsync[server]', or unset REDIS_URL)"
        ) from None

    return redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=10)


def run_dream_command(args: argparse.Namespace) -> int:
    from memsync.dream.engine import Scope
    from memsync.dream.engine_choice import EngineUnavailable, get_engine
    from memsync.dream.gates import GateConfig, evaluate_gates
    from memsync.dream.locks import ConsolidationLock, redis_lock_key
    from memsync.dream.run import (
        DreamOutcome,
        DreamRequest,
        DreamStatus,
        local_lock_name,
        run_dream,
    )
    from memsync.dream.sessions import ScanStateFile
    from memsync.extract.sessions import (
        NoTranscripts,
        TranscriptDirectory,
        default_transcripts_dir,
    )
    from memsync.store import LOCK_FILE_NAME

    repo = _open_repo(args.directory)
    if args.code is not None and not args.code.is_dir():
        raise CommandError(f"--code {args.code} is not a directory")
    sessions_dir: Path | None = args.sessions_dir or default_transcripts_dir(repo.path)
    source = TranscriptDirectory(sessions_dir) if sessions_dir else NoTranscripts()
    lock = ConsolidationLock(repo.path / LOCK_FILE_NAME)
    client = _redis_client()
    redis_key = redis_lock_key(local_lock_name(repo.path))

    gate_mtime_ns: int | None = None
    if args.force:
        last = lock.last_consolidated()
        sessions = tuple(
            s for s in source.sessions_touched_since(last) if s != args.current_session
        )
    else:
        config = GateConfig(
            min_hours=_env_number("MEMSYNC_DREAM_MIN_HOURS", 24),
            min_sessions=int(_env_number("MEMSYNC_DREAM_MIN_SESSIONS", 5)),
        )
        probes = [lambda: _describe(lock.holder())]
        if client is not None:
            probes.append(lambda: _redis_holder(client, redis_key))
        decision = evaluate_gates(
            config,
            repo.path / LOCK_FILE_NAME,
            throttle=ScanStateFile.for_repository(repo.path),
            sessions=source,
            current_session=args.current_session,
            lock_probes=probes,
        )
        if not decision.passed:
            skipped = DreamOutcome(
                DreamStatus.SKIPPED,
                "",
                gate=str(decision.gate),
                reason=decision.reason,
                sessions=len(decision.sessions),
            )
            return _report(skipped.to_dict(), args.json)
        sessions, gate_mtime_ns = decision.sessions, decision.last_consolidated_ns

    api_key = os.environ.get("ANTHROPIC_API_KEY", "").strip() or None
    try:
        engine = get_engine(
            args.engine or "auto",
            api_key=api_key,
            base_url=os.environ.get("ANTHROPIC_BASE_URL", "").strip() or None,
            model=os.environ.get("MEMSYNC_MODEL", "").strip() or DEFAULT_MODEL,
            max_turns=int(_env_number("MEMSYNC_DREAM_MAX_TURNS", DEFAULT_MAX_TURNS)),
            token_budget=int(_env_number("MEMSYNC_DREAM_TOKEN_BUDGET", DEFAULT_TOKEN_BUDGET)),
        )
    except EngineUnavailable as error:
        failed = DreamOutcome(DreamStatus.FAILED, "", reason=str(error), error=str(error))
        return _report(failed.to_dict(), args.json)

    outcome = run_dream(
        DreamRequest(
            repo_path=repo.path,
            engine=engine,
            scope=Scope(args.scope),
            sessions=sessions,
            transcripts_dir=sessions_dir if sessions_dir and sessions_dir.is_dir() else None,
            gate_mtime_ns=gate_mtime_ns,
            redis=client,
            redis_key=redis_key,
            record_outside_changes=True,
            code_dir=args.code.resolve() if args.code is not None else None,
        )
    )
    return _report(outcome.to_dict(), args.json, directory=args.directory)


def _redis_holder(client: Any, key: str) -> str | None:
    from memsync.dream.locks import RedisDreamLock

    try:
        holder = RedisDreamLock.current_holder(client, key)
    except Exception as error:  # redis-py's connection errors: the gate stays closed
        return f"cannot reach Redis at REDIS_URL: {error}"
    return f"a dream holds the Redis lock ({holder})" if holder else None


def _describe(holder: object | None) -> str | None:
    return f"the consolidation lock is held by {holder}" if holder is not None else None


def _report(result: dict[str, Any], as_json: bool, directory: Path | None = None) -> int:
    status = result["status"]
    if as_json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    elif status == "proposed":
        files = result["files_touched"]
        print(f"Proposed dream {result['dream_id']} on {result['branch']} ({len(files)} files).")
        if result["summary"]:
            print(result["summary"])
        print(f"Review with `memsync proposals {directory}`; adopt with ", end="")
        print(f"`memsync approve {directory} {result['dream_id']}`.")
    elif status in FAILED_STATUSES:
        print(f"memsync: dream {status}: {result['reason']}", file=sys.stderr)
    else:
        print(f"{status}: {result['reason']}")
    return 1 if status in FAILED_STATUSES else 0


def run_proposals(args: argparse.Namespace) -> int:
    from memsync.dream.proposals import list_proposals

    proposals = list_proposals(_open_repo(args.directory))
    if args.json:
        print(json.dumps([p.to_dict() for p in proposals], indent=2, ensure_ascii=False))
        return 0
    if not proposals:
        print("no dream proposals")
    for proposal in proposals:
        summary = proposal.summary.splitlines()[0] if proposal.summary else ""
        print(
            f"{proposal.id}  {proposal.status:<10}  {len(proposal.files):>3} files  "
            f"{proposal.engine or '?':<13}  {summary}"
        )
        if proposal.conflicts:
            print(f"    conflicts with main: {', '.join(proposal.conflicts)}")
        if proposal.at_risk and proposal.canaries is not None:
            print(f"    at risk: {proposal.canaries.sentence()}")
        if proposal.visible_lowered:
            print(f"    hides entries from the agent: {proposal.visible_before} -> "
                  f"{proposal.visible_after} visible in MEMORY.md")  # fmt: skip
    return 0


def run_approve(args: argparse.Namespace) -> int:
    from memsync.dream.adoption import ProposalError, approve

    repo = _open_repo(args.directory)
    try:
        approval = approve(
            repo, args.dream_id, approver=args.by or getpass.getuser(), exclude=args.drop
        )
    except ProposalError as error:
        raise CommandError(str(error)) from error
    if not approval.adopted:
        print(
            f"memsync: dream {args.dream_id} conflicts with main in "
            f"{', '.join(approval.conflicts)}; nothing was merged and the proposal is kept",
            file=sys.stderr,
        )
        return 1
    dropped = f", without {', '.join(approval.dropped)}" if approval.dropped else ""
    print(f"Adopted dream {args.dream_id} into main as {approval.commit}{dropped}.")
    return 0


def run_reject(args: argparse.Namespace) -> int:
    from memsync.dream.adoption import ProposalError, reject

    repo = _open_repo(args.directory)
    try:
        ref = reject(repo, args.dream_id, by=args.by or getpass.getuser(), reason=args.reason)
    except ProposalError as error:
        raise CommandError(str(error)) from error
    print(f"Rejected dream {args.dream_id}; its commit is kept as {ref}.")
    return 0


def run_revert(args: argparse.Namespace) -> int:
    from memsync.dream.adoption import ProposalError, revert
    from memsync.store import StoreError

    repo = _open_repo(args.directory)
    try:
        result = revert(repo, args.rev)
    except (ProposalError, StoreError) as error:
        raise CommandError(str(error)) from error
    if result.status == "conflict":
        paths = ", ".join(conflict.path for conflict in result.conflicts)
        print(
            f"memsync: reverting {args.rev} conflicts with later edits in {paths}; nothing changed",
            file=sys.stderr,
        )
        return 1
    if result.status == "up-to-date":
        print(f"{args.rev} has nothing left to revert.")
        return 0
    print(f"Reverted {args.rev} with commit {result.commit}.")
    return 0
