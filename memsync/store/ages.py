"""Last-change times of every file, from history, kept up to date incrementally.

The first call walks the history once (one ``git log --name-only``); the answer is kept
in ``<git dir>/memsync/ages.json`` with the commit it describes. Later calls for a
descendant of that commit walk only the commits in between, so a dashboard page or a
dream on a repository with ten thousand commits costs the few new ones, not all of them.
A file's age is the newest commit that touched it on any path into ``rev``.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path

from .history import parse_ages

CACHE_NAME = "ages.json"
Walk = Callable[[str], Iterable[bytes]]  # a log range → its NUL-separated records


def _load(path: Path) -> tuple[str, dict[str, float]] | None:
    try:
        data = json.loads(path.read_text())
        return str(data["commit"]), {str(k): float(v) for k, v in data["ages"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _store(path: Path, commit: str, ages: dict[str, datetime]) -> None:
    """Atomic: a reader sees the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {"commit": commit, "ages": {p: when.timestamp() for p, when in ages.items()}}
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as out:
        json.dump(payload, out)
    Path(out.name).replace(path)


def incremental_ages(
    cache: Path,
    head: str,
    files: set[str],
    walk: Walk,
    is_ancestor: Callable[[str, str], bool],
) -> dict[str, datetime]:
    """Ages of ``files`` at commit ``head``; ``walk(range)`` streams a log range."""
    cached = _load(cache)
    if cached is not None and cached[0] == head and files <= cached[1].keys():
        return {p: datetime.fromtimestamp(cached[1][p], tz=UTC) for p in files}
    ages: dict[str, datetime]
    if cached is not None and is_ancestor(cached[0], head):
        recent = parse_ages(walk(f"{cached[0]}..{head}"), files)
        known = {p: datetime.fromtimestamp(t, tz=UTC) for p, t in cached[1].items() if p in files}
        ages = {p: max(filter(None, (recent.get(p), known.get(p)))) for p in recent | known}
        if files - ages.keys():  # a file the cache never saw: walk it all once more
            ages = parse_ages(walk(head), files)
    else:
        ages = parse_ages(walk(head), files)
    _store(cache, head, ages)
    return ages
