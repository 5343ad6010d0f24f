"""Ages of every file from its content's history on the first-parent line, cached.

A file's age is the time its current content first appeared on the first-parent line
of ``rev`` (``main``'s own history): the first-parent commit whose version of the file
differs from its parent's and equals today's. So a member's commit that ``main`` did not
take, a file left out of an adopted dream, or a merge that kept ``main``'s side do not
make an old memory look new, and a revert that restores earlier content gives that
content back its age. A "still true" confirmation changes the file, so it renews it.

The first call walks the first-parent line once (one ``git log --first-parent --raw``);
the blobs each path had, with the time each first appeared, are kept in
``<git dir>/memsync/ages-history.json`` with the commit they describe, and the answer
for that commit in ``ages.json`` (the one file a repeated call reads). A later call for a
commit further along that line walks only the commits in between.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

CACHE_NAME = "ages.json"  # the answer for one commit: read on every call, small
HISTORY_NAME = "ages-history.json"  # every blob each path had: read only to extend
# Version 1 held one "newest commit that touched it" time per path; those times are wrong
# under the first-parent rule, so a version-1 cache is ignored and rebuilt.
CACHE_VERSION = 2
NO_BLOB = "0" * 40
Walk = Callable[[str], Iterable[bytes]]  # a log range → its NUL-separated records
Seen = dict[str, dict[str, float]]  # path → blob → when it first appeared on the line


def _load(path: Path, key: str) -> tuple[str, Any] | None:
    try:
        data = json.loads(path.read_text())
        if data["version"] != CACHE_VERSION or not isinstance(data[key], dict):
            return None
        return str(data["commit"]), data[key]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _load_seen(path: Path) -> tuple[str, Seen] | None:
    loaded = _load(path, "seen")
    if loaded is None:
        return None
    try:
        seen = {
            str(p): {str(b): float(t) for b, t in blobs.items()} for p, blobs in loaded[1].items()
        }
    except (ValueError, TypeError, AttributeError):
        return None
    return loaded[0], seen


def _store(path: Path, commit: str, key: str, value: object) -> None:
    """Atomic: a reader sees the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {"version": CACHE_VERSION, "commit": commit, key: value}
    # dumps, then one write: json.dump streams through the pure-Python encoder (ten times
    # slower on a 10,000-file history).
    text = json.dumps(payload)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as out:
        out.write(text)
    Path(out.name).replace(path)


def fold_first_appearances(records: Iterable[bytes], seen: Seen) -> str | None:
    """Add to ``seen`` the blobs a ``git log --first-parent --reverse --raw -z
    --format=%x1e%ct%x1f%P`` stream introduces; return the first parent of the oldest
    commit walked (None for a root commit or an empty walk)."""
    oldest_parent: str | None = None
    started = False
    current = 0.0
    new_blob: str | None = None
    for record in records:
        piece = record.lstrip(b"\n")
        if piece.startswith(b"\x1e"):
            stamp, _, parents = piece[1:].decode().partition("\x1f")
            current = float(stamp)
            if not started:
                oldest_parent = parents.split()[0] if parents.split() else None
                started = True
            new_blob = None
        elif piece.startswith(b":"):
            new_blob = piece.split(b" ")[3].decode()  # ":old-mode new-mode old new status"
        elif new_blob is not None:
            if new_blob != NO_BLOB:  # a deletion leaves no content to date
                path = piece.decode("utf-8", "replace")
                seen.setdefault(path, {}).setdefault(new_blob, current)
            new_blob = None
    return oldest_parent


def _full_walk(walk: Walk, head: str) -> Seen:
    seen: Seen = {}
    fold_first_appearances(walk(head), seen)
    return seen


def _extended(cached: tuple[str, Seen], head: str, walk: Walk) -> Seen | None:
    """The cached history extended to ``head``, or None when the cached commit is not on
    ``head``'s first-parent line (an ancestor through a merge's second parent only)."""
    commit, seen = cached
    if commit == head:
        return seen
    if fold_first_appearances(walk(f"{commit}..{head}"), seen) != commit:
        return None
    return seen


def ages_from(seen: Seen, blobs: dict[str, str]) -> dict[str, datetime]:
    """Each file's age from the time its current blob first appeared."""
    ages = {}
    for path, blob in blobs.items():
        when = seen.get(path, {}).get(blob)
        if when is not None:
            ages[path] = datetime.fromtimestamp(when, tz=UTC)
    return ages


def _cached_answer(cache_dir: Path, head: str, blobs: dict[str, str]) -> dict[str, datetime] | None:
    loaded = _load(cache_dir / CACHE_NAME, "ages")
    if loaded is None or loaded[0] != head or not blobs.keys() <= loaded[1].keys():
        return None
    try:
        return {p: datetime.fromtimestamp(float(loaded[1][p]), tz=UTC) for p in blobs}
    except (ValueError, TypeError, OverflowError):
        return None


def first_parent_ages(
    cache_dir: Path | None,
    head: str,
    blobs: dict[str, str],
    walk: Walk,
    is_ancestor: Callable[[str, str], bool],
) -> dict[str, datetime]:
    """Ages of the files at commit ``head`` (path → blob id there); ``walk(range)``
    streams a first-parent log range. Without a ``cache_dir`` the line is walked in full."""
    if cache_dir is None:
        return ages_from(_full_walk(walk, head), blobs)
    answer = _cached_answer(cache_dir, head, blobs)
    if answer is not None:
        return answer
    cached = _load_seen(cache_dir / HISTORY_NAME)
    seen = None
    if cached is not None and (cached[0] == head or is_ancestor(cached[0], head)):
        seen = _extended(cached, head, walk)
    if seen is None:
        seen = _full_walk(walk, head)
    if cached is None or cached[0] != head:
        _store(cache_dir / HISTORY_NAME, head, "seen", seen)
    ages = ages_from(seen, blobs)
    _store(cache_dir / CACHE_NAME, head, "ages", {p: when.timestamp() for p, when in ages.items()})
    return ages
