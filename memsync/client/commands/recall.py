"""``memsync recall``: the few memories relevant to a query (SPEC R1, R2).

    memsync recall DIR "query" [--json] [--limit N]
    memsync recall --hook            (Claude Code's UserPromptSubmit hook)

The local ranking narrows the memories of DIR (and its ``team/``) to a short list;
with ``ANTHROPIC_API_KEY`` set, the model picks from that list, otherwise the ranking
answers. The hook asks a model only when given ``--model`` (``memsync hooks install
--recall-model``): it runs before every prompt, and the SDK's import alone costs
seconds. In hook mode the hook's JSON arrives on stdin (``prompt``, ``session_id``,
``cwd``); the memory directory is the project's, found as Claude Code finds it
(``memsync.client.claude``: settings, then ``<config>/projects/<sanitized root>/memory``),
memories already shown in the session are not shown again, and the answer is
Claude Code's hook output with the memories as ``additionalContext``, wrapped in
``<memsync-recall>…</memsync-recall>`` so a transcript upload can drop them
(``memsync.extract.privacy``). A hook must
never break a session: every failure is a line on stderr and exit status 0.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memsync.agent.model import DEFAULT_MODEL
from memsync.client.errors import CommandError

DEFAULT_BASE_URL = "https://api.anthropic.com"
HOOK_EVENT = "UserPromptSubmit"
# Claude Code shows a hook's additionalContext whole up to about 10,000 characters and
# only a 2 KB preview beyond, so the memories, wrapper included, are fitted below that.
MAX_HOOK_CONTEXT = 9_800
# A hook runs before every prompt: the side query may not hold the user up for long.
HOOK_API_TIMEOUT = 8.0
SURFACED_MAX_AGE = 7 * 86_400


def hook_command() -> str:
    """The command line ``memsync hooks install --recall`` puts in Claude Code's settings:
    this installation's ``memsync`` script by absolute path (a hook does not run in the
    virtualenv's shell), else ``memsync`` from PATH."""
    script = Path(sys.executable).with_name("memsync")
    if script.exists():
        return f"{shlex.quote(str(script))} recall --hook"
    return "memsync recall --hook"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "recall", help="show the memories relevant to a query (or run as a Claude Code hook)"
    )
    parser.add_argument("directory", type=Path, nargs="?", help="the memory directory")
    parser.add_argument("query", nargs="?", help="what the memories should help with")
    parser.add_argument(
        "--hook", action="store_true", help="Claude Code UserPromptSubmit hook: JSON on stdin"
    )
    parser.add_argument(
        "--memory-dir", type=Path, help="with --hook: use this directory instead of the project's"
    )
    parser.add_argument("--limit", type=int, default=5, help="at most this many (1–5)")
    parser.add_argument(
        "--surfaced", action="append", default=[], metavar="FILE", help="already shown; skip it"
    )
    parser.add_argument(
        "--tool", action="append", default=[], metavar="NAME", help="a recently used tool"
    )
    parser.add_argument("--model", help=f"default: $MEMSYNC_MODEL or {DEFAULT_MODEL}")
    parser.add_argument(
        "--no-model", action="store_true", help="rank locally even when an API key is set"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run_recall)


def run_recall(args: argparse.Namespace) -> int:
    if args.hook:
        return run_hook(args)
    if args.directory is None or args.query is None:
        raise CommandError('usage: memsync recall DIR "query" [--json], or memsync recall --hook')
    if not args.directory.is_dir():
        raise CommandError(f"{args.directory} is not a directory")
    if not 1 <= args.limit <= 5:
        raise CommandError("--limit must be between 1 and 5")
    result = _recall(
        args.directory,
        args.query,
        limit=args.limit,
        surfaced=args.surfaced,
        tools=args.tool,
        model=None if args.no_model else (args.model or _default_model()),
        timeout=60.0,
        absolute=False,
    )
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
        return 0
    if not result.memories:
        print("no relevant memories")
    else:
        print(result.context().rstrip())
    if result.fallback:
        print(f"memsync: the model's choice was not used ({result.fallback})", file=sys.stderr)
    return 0


def run_hook(args: argparse.Namespace) -> int:
    """Never fails a Claude Code session: problems go to stderr, the exit status is 0."""
    try:
        event = json.loads(sys.stdin.read() or "{}")
        if not isinstance(event, dict):
            raise ValueError("the hook input is not a JSON object")
        prompt = event.get("prompt")
        cwd = event.get("cwd")
        session = str(event.get("session_id") or "")
        if not isinstance(prompt, str) or not prompt.strip():
            return 0
        directory = args.memory_dir or _project_memory_dir(cwd)
        if directory is None or not directory.is_dir():
            return 0
        surfaced_file = _surfaced_file(session) if session else None
        surfaced = _load_surfaced(surfaced_file)
        result = _recall(
            directory,
            prompt,
            limit=5,
            surfaced=surfaced,
            tools=args.tool,
            model=None if args.no_model else args.model,
            timeout=HOOK_API_TIMEOUT,
            absolute=True,
        )
        context, shown = _fitted_context(result)
        if not shown:
            return 0
        output = {"hookSpecificOutput": {"hookEventName": HOOK_EVENT, "additionalContext": context}}
        print(json.dumps(output, ensure_ascii=False))
        if surfaced_file is not None:
            _save_surfaced(surfaced_file, [*surfaced, *shown])
    except Exception as error:  # a hook must not break the session, whatever happened
        print(f"memsync recall: {type(error).__name__}: {error}", file=sys.stderr)
    return 0


def _recall(
    directory: Path,
    query: str,
    *,
    limit: int,
    surfaced: Sequence[str],
    tools: Sequence[str],
    model: str | None,
    timeout: float,
    absolute: bool,
) -> Any:
    from memsync.recall.recall import model_selector, recall
    from memsync.recall.sources import disk_source

    source = disk_source(directory, _index_location(directory))
    selector = None
    key = os.environ.get("ANTHROPIC_API_KEY", "")
    if key and model:
        from memsync.agent import connect

        base_url = os.environ.get("ANTHROPIC_BASE_URL") or DEFAULT_BASE_URL
        client = connect(key, base_url=base_url, max_retries=0, timeout=timeout)
        selector = model_selector(client, model, limit=limit)
    root = directory.resolve()
    return recall(
        source.index(),
        query,
        read=source.read,
        now=datetime.now(UTC),
        selector=selector,
        already_surfaced=surfaced,
        recent_tools=tools,
        limit=limit,
        display_path=(lambda path: str(root / path)) if absolute else None,
    )


def _index_location(directory: Path) -> Path | None:
    """Where the recall index of `directory` is kept between calls: inside its Git
    directory (None: the default), else in the user's cache, one file per directory."""
    from memsync.memory import sanitize_path
    from memsync.recall.disk import default_location

    if default_location(directory) is not None:
        return None
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    name = sanitize_path(str(directory.resolve()))
    return Path(cache) / "memsync" / "recall-index" / f"{name}.sqlite"


def _fitted_context(result: Any) -> tuple[str, list[str]]:
    """The wrapped context within MAX_HOOK_CONTEXT: whole memories, best first, as many
    as fit (the first is cut if alone it is too long); and the paths it shows."""
    from memsync.extract.privacy import wrap_recall

    room = MAX_HOOK_CONTEXT - len(wrap_recall(""))
    memories = list(result.memories)
    while memories:
        result.memories = memories
        context = result.context()
        if len(context) <= room:
            return wrap_recall(context), [memory.path for memory in memories]
        if len(memories) == 1:
            return wrap_recall(context[:room]), [memories[0].path]
        memories = memories[:-1]
    return "", []


def _default_model() -> str:
    return os.environ.get("MEMSYNC_MODEL") or DEFAULT_MODEL


def _project_memory_dir(cwd: object) -> Path | None:
    """The project's memory directory, found as Claude Code finds it (settings, Git root)."""
    from memsync.client.claude import ClaudeCode

    if not isinstance(cwd, str) or not cwd:
        return None
    return ClaudeCode(os.environ, Path.home()).memory_location(Path(cwd)).path


def _surfaced_file(session: str) -> Path:
    from memsync.memory import sanitize_path

    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "memsync" / "recall" / f"{sanitize_path(session)}.json"


def _load_surfaced(path: Path | None) -> list[str]:
    if path is None:
        return []
    try:
        names = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [name for name in names if isinstance(name, str)] if isinstance(names, list) else []


def _save_surfaced(path: Path, names: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(sorted(set(names))), encoding="utf-8")
    temporary.replace(path)
    # Sessions end without telling the hook; their lists are dropped after a week.
    cutoff = time.time() - SURFACED_MAX_AGE
    for old in path.parent.glob("*.json"):
        try:
            if old.stat().st_mtime < cutoff:
                old.unlink()
        except OSError:
            continue
