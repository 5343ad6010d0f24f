"""``memsync extract``: turn new messages of Claude Code sessions into memories (SPEC E).

    memsync extract DIR --transcript FILE [--engine deterministic|anthropic] [--json]
    memsync extract DIR --sessions-dir DIR [...]

DIR is a memsync repository (``memsync init``), usually Claude Code's memory directory
``~/.claude/projects/<project>/memory``. Each session's cursor lives in
``DIR/.git/memsync-extract.json``, so a session is analysed from where the last run
stopped; ``--sessions-dir`` processes every ``<session>.jsonl`` there touched since.
Without ``ANTHROPIC_API_KEY`` the engine is ``deterministic`` (explicit "remember" /
"forget" requests only). Exit status: 0, or 1 when an extraction failed or was refused.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from memsync.agent.model import DEFAULT_MODEL
from memsync.client.errors import CommandError

DEFAULT_BASE_URL = "https://api.anthropic.com"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "extract", help="save memories from the new messages of Claude Code sessions"
    )
    parser.add_argument("directory", type=Path, help="the memory directory (a memsync repository)")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--transcript", type=Path, help="one session transcript (.jsonl)")
    source.add_argument(
        "--sessions-dir",
        type=Path,
        help="every <session>.jsonl in this directory touched since the last extraction",
    )
    parser.add_argument(
        "--engine",
        choices=("deterministic", "anthropic"),
        help="default: anthropic when ANTHROPIC_API_KEY is set, else deterministic",
    )
    parser.add_argument("--model", help=f"default: $MEMSYNC_MODEL or {DEFAULT_MODEL}")
    parser.add_argument(
        "--every", type=int, default=1, metavar="N", help="extract every N turns (default 1)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run_extract)


def preload() -> None:
    """Import what an extraction imports as it runs (the warm helper does, once, so
    that each call it serves starts with them: ``memsync.client.helper_process``)."""
    import memsync.extract.deterministic
    import memsync.extract.run
    import memsync.extract.skip
    import memsync.extract.state
    import memsync.extract.transcript
    import memsync.store.repo  # noqa: F401


def run_extract(args: argparse.Namespace) -> int:
    from memsync.extract.state import ExtractionState, session_files, state_lock
    from memsync.store import MemoryRepo, StoreError

    if args.every < 1:
        raise CommandError("--every must be at least 1")
    try:
        repo = MemoryRepo(args.directory)
    except StoreError as error:
        raise CommandError(f"{error} (memsync init {args.directory})") from error
    if args.transcript is not None:
        if not args.transcript.is_file():
            raise CommandError(f"no transcript at {args.transcript}")
        transcripts = [args.transcript]
    else:
        if not args.sessions_dir.is_dir():
            raise CommandError(f"{args.sessions_dir} is not a directory")
        transcripts = session_files(args.sessions_dir)
    engine = _engine(args)
    git_dir = repo.git_dir
    results: list[dict[str, Any]] = []
    with state_lock(git_dir):
        state = ExtractionState.load(git_dir)
        for path in transcripts:
            if args.sessions_dir is not None and not state.is_touched(path):
                continue
            result = _extract_one(repo, path, engine, state, args.every)
            if result["status"] != "failed":
                # A failed run keeps the session "touched", so the next run retries it.
                state.record(path.stem, result["cursor"], path)
                state.save()
            results.append(result)
    _print(results, args)
    return 1 if any(r["status"] in ("failed", "refused") for r in results) else 0


def _extract_one(repo: Any, path: Path, engine: Any, state: Any, every: int) -> dict[str, Any]:
    from memsync.extract.run import extract_session
    from memsync.extract.skip import session_memory_dir
    from memsync.extract.transcript import read_transcript

    since = state.cursor(path.stem)
    transcript = read_transcript(path, since=since, memory_dir=repo.path)
    if not transcript.memory_writes:
        # The session may have named this directory by another path (a symlinked
        # ~/.claude, another user's home in a copied transcript).
        named = session_memory_dir(transcript)
        if named is not None:
            transcript = transcript.seen_from(named)
    result = extract_session(
        repo,
        transcript,
        engine,
        since=since,
        every_turns=every,
        claude_md=_claude_md(transcript.cwd),
    )
    found = result.to_dict()
    found["transcript"] = str(path)
    found["problems"] = [{"line": p.line, "message": p.message} for p in transcript.problems]
    return found


def _engine(args: argparse.Namespace) -> Any:
    from memsync.extract.deterministic import DeterministicEngine

    key = os.environ.get("ANTHROPIC_API_KEY", "")
    name = args.engine or ("anthropic" if key else "deterministic")
    if name == "deterministic":
        return DeterministicEngine()
    if not key:
        raise CommandError("--engine anthropic needs ANTHROPIC_API_KEY in the environment")
    from memsync.agent import connect
    from memsync.extract.llm import AnthropicEngine

    client = connect(key, base_url=os.environ.get("ANTHROPIC_BASE_URL") or DEFAULT_BASE_URL)
    model = args.model or os.environ.get("MEMSYNC_MODEL") or DEFAULT_MODEL
    return AnthropicEngine(client, model=model)


def _claude_md(cwd: str | None) -> str:
    """The project's CLAUDE.md files, when this machine has the project: F5 says what
    they already hold is never saved as a memory."""
    if not cwd:
        return ""
    texts = []
    for candidate in (Path(cwd) / "CLAUDE.md", Path(cwd) / ".claude" / "CLAUDE.md"):
        try:
            texts.append(candidate.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
    return "\n".join(texts)


def _print(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    if args.json:
        print(json.dumps({"results": results}, indent=2, ensure_ascii=False))
        return
    if not results:
        print("no session touched since the last extraction")
    for result in results:
        session = result["session"] or result["transcript"]
        line = f"{session}: {result['summary']}"
        if result["commit"]:
            line += f" (commit {result['commit'][:10]})"
        print(line)
        for path in result["saved"]:
            print(f"  saved {path}")
        for path in result["forgotten"]:
            print(f"  forgot {path}")
        for refusal in result["refused"]:
            print(f"  refused {refusal['text']!r}: {refusal['reason']}")
        for denial in result["denials"]:
            print(f"  denied {denial}")
        for problem in result["problems"]:
            print(
                f"  {result['transcript']}:{problem['line']}: {problem['message']}", file=sys.stderr
            )
