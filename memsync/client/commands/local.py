"""Commands on a local memory directory: init, check, ls, log, merge-index."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memsync.client.errors import CommandError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    init = subparsers.add_parser(
        "init", help="make a memory directory a memsync Git repository (idempotent)"
    )
    init.add_argument("directory", type=Path)
    init.set_defaults(handler=run_init)

    check = subparsers.add_parser(
        "check", help="report problems and limit breaches (exit 1 when there are any)"
    )
    check.add_argument("directory", type=Path)
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.add_argument(
        "--code",
        type=Path,
        metavar="PATH",
        help="a code checkout: also list memories citing files, scripts or symbols it lacks",
    )
    check.set_defaults(handler=run_check)

    ls = subparsers.add_parser("ls", help="list memories with type, age and freshness")
    ls.add_argument("directory", type=Path)
    ls.add_argument("--json", action="store_true", help="print a JSON array")
    ls.set_defaults(handler=run_ls)

    log = subparsers.add_parser("log", help="history of extractions, dreams, merges, reverts")
    log.add_argument("directory", type=Path)
    log.add_argument("-n", "--limit", type=int, default=50)
    log.add_argument("--json", action="store_true", help="print a JSON array")
    log.set_defaults(handler=run_log)

    merge = subparsers.add_parser(
        "merge-index", help="git merge driver for MEMORY.md (called by git as %%O %%A %%B)"
    )
    merge.add_argument("base", type=Path)
    merge.add_argument("ours", type=Path)
    merge.add_argument("theirs", type=Path)
    merge.set_defaults(handler=run_merge_index)


def run_merge_index(args: argparse.Namespace) -> int:
    """Always exits 0 with a valid index in ``ours``: a MEMORY.md merge never conflicts."""
    from memsync.memory.merge_driver import merge_files

    try:
        merge_files(args.base, args.ours, args.theirs)
    except OSError as error:
        raise CommandError(f"cannot merge MEMORY.md: {error}") from error
    return 0


def _open_repo(directory: Path) -> Any:
    from memsync.store import MemoryRepo, StoreError

    try:
        return MemoryRepo(directory)
    except StoreError as error:
        raise CommandError(str(error)) from error


def run_init(args: argparse.Namespace) -> int:
    from memsync.memory import TEAM_DIRNAME
    from memsync.store import MemoryRepo

    directory: Path = args.directory
    if directory.exists() and not directory.is_dir():
        raise CommandError(f"{directory} exists and is not a directory")
    # A linked team clone lives in team/ with a history of its own: keep it out of the
    # private repository (else Git records it as a gitlink).
    team = directory / TEAM_DIRNAME
    linked = (team / ".git").exists()
    repo = MemoryRepo.init(directory, exclude=[TEAM_DIRNAME] if linked else [])
    print(f"memsync repository ready at {repo.path} (branch main, {len(repo.files())} files)")
    if linked:
        print(f"  {team} is a team clone: kept out of this repository (.git/info/exclude)")
    return 0


def _read_directory(directory: Path) -> Any:
    from memsync.memory import MemoryDirectory

    if not directory.is_dir():
        raise CommandError(f"{directory} is not a directory")
    return MemoryDirectory.read(directory)


def run_check(args: argparse.Namespace) -> int:
    memory = _read_directory(args.directory)
    problems = sorted(memory.problems, key=lambda p: p.sort_key())
    stale = stale_memories(args.directory, args.code) if args.code is not None else []
    if args.json:
        report = {
            "directory": str(args.directory),
            "memories": len(memory.files),
            "problems": [p.to_dict() for p in problems],
        }
        if args.code is not None:
            report["stale"] = [{"path": s.path, "kind": s.kind, "reason": s.reason} for s in stale]
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        for problem in problems:
            print(problem)
        for item in stale:
            print(f"{item.path}: possibly stale: {item.reason}")
        summary = f"{len(memory.files)} memories, {len(problems)} problems"
        if args.code is not None:
            summary += f", {len(stale)} possibly stale"
        print(summary if problems or stale else f"{len(memory.files)} memories, no problems")
    return 1 if problems or stale else 0


def stale_memories(directory: Path, code: Path, *, read_code: bool = True) -> list[Any]:
    """Memories of `directory` (and its ``team/``) that evidence says are stale, the code
    checkout at `code` included (``StaleMemory``s); `read_code` False skips the symbols,
    which take reading every source file."""
    from memsync.dream.staleness import stale_on_disk

    if not code.is_dir():
        raise CommandError(f"--code {code} is not a directory")
    return stale_on_disk(directory, _ages(directory), code, read_code=read_code)


def _ages(directory: Path) -> dict[str, datetime]:
    """Last change per file from Git history when the directory is a repository,
    else from the file's mtime (a plain Claude Code memory directory)."""
    if (directory / ".git").exists():
        repo = _open_repo(directory)
        return dict(repo.ages())
    return {}


def run_ls(args: argparse.Namespace) -> int:
    from memsync.memory import age_days, age_label, freshness_note

    memory = _read_directory(args.directory)
    ages = _ages(args.directory)
    now = datetime.now(UTC)
    linked = memory.index.linked_files() if memory.index is not None else set()
    rows = []
    for path, file in sorted(memory.files.items()):
        modified = ages.get(path) or datetime.fromtimestamp(
            (args.directory / path).stat().st_mtime, tz=UTC
        )
        days = age_days(modified, now)
        rows.append({
            "path": path,
            "name": file.name,
            "type": file.type,
            "description": file.description,
            "age_days": days,
            "age": age_label(days),
            "freshness_note": freshness_note(days),
            "indexed": path in linked,
        })  # fmt: skip
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    for row in rows:
        flag = "" if row["indexed"] else "  (not in MEMORY.md)"
        print(f"{row['path']}  [{row['type'] or '-'}]  {row['age']}{flag}")
        if row["description"]:
            print(f"    {row['description']}")
    if not rows:
        print("no memories")
    return 0


def run_log(args: argparse.Namespace) -> int:
    repo = _open_repo(args.directory)
    commits = repo.log(limit=args.limit)
    if args.json:
        print(json.dumps([c.to_dict() for c in commits], indent=2, ensure_ascii=False))
        return 0
    for commit in commits:
        stats = ", ".join(f"{f.path} +{f.added or 0}/-{f.deleted or 0}" for f in commit.files)
        when = commit.date.astimezone(UTC).strftime("%Y-%m-%d %H:%M")
        print(f"{commit.sha[:10]}  {when}  {commit.kind or '-':8} {commit.summary}")
        print(f"            {commit.author_name}" + (f" · {stats}" if stats else ""))
    return 0
