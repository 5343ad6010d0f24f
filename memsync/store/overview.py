"""A branch over time, from its first-parent history: how many memories it held, how
large its index was and how fresh its memories were, day by day, and who last changed
each memory.

The history is walked once (``git log --first-parent --raw``: a merge counts as the
change it made to the branch, as ages do) and what the walk knows is kept in
``<git dir>/memsync/overview.json`` with the commit it describes. When the branch
moves on, only the new commits are walked, so a page on a ten-thousand-commit
repository pays for the whole walk once. Each day keeps its last state; a chart reads
at most ``SAMPLES`` of them, and only those index versions are read (one
``cat-file --batch``). What counts as a memory is the caller's to say (the store knows
no memory format).
"""

from __future__ import annotations

import bisect
import json
import statistics
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from .history import LOG_FORMAT, CommitInfo, parse_log
from .reading import batch_blobs
from .repo import MemoryRepo

CACHE_NAME = "overview.json"
CACHE_VERSION = 3
SAMPLES = 48  # points per chart: enough for a trend, few enough to read every index
_DAY = 86_400.0
_NULL_BLOB = "0" * 40


@dataclass(frozen=True)
class Sample:
    """The branch as it stood at ``when`` (after ``commit``)."""

    when: datetime
    commit: str
    memories: int
    index_lines: int
    index_units: int  # UTF-16 units, as Claude Code measures its index
    median_age_days: float | None  # of the memories present; None when there are none


@dataclass(frozen=True)
class LastChange:
    """The commit on the branch that last changed a file's content."""

    commit: str
    when: datetime
    author_name: str
    author_email: str
    kind: str | None


@dataclass(frozen=True)
class Overview:
    commit: str
    commits: int  # on the branch's first-parent line
    samples: list[Sample]
    last_changes: dict[str, LastChange]  # memory path → its last change


@dataclass
class _Step:
    """One first-parent commit: who, when, and what it did to each path."""

    sha: str
    time: float
    author_name: str
    author_email: str
    kind: str | None
    changes: list[tuple[str, str]]  # (path, new blob id; all zeros when deleted)


@dataclass
class _Day:
    """The branch at the end of one day of its clock."""

    when: float
    commit: str
    memories: int
    index_blob: str
    median_age_days: float | None


@dataclass
class _State:
    """What the walk knows after ``commit``: enough to go on from there."""

    commit: str = ""
    commits: int = 0
    clock: float = 0.0
    index_blob: str = _NULL_BLOB
    present: dict[str, float] = field(default_factory=dict)  # memory → clock of its change
    last: dict[str, LastChange] = field(default_factory=dict)
    days: list[_Day] = field(default_factory=list)


def branch_overview(
    repo: MemoryRepo, head: str, is_memory: Callable[[str], bool], index_path: str
) -> Overview:
    """The overview of the branch at commit ``head``; ``is_memory(path)`` says which
    paths are memories, ``index_path`` names the index file."""
    # Beside ages.json, shared by every worktree of the repository (store-internal).
    cache = repo._common_dir / "memsync" / CACHE_NAME
    state = _load(cache, index_path)
    if state.commit != head:
        if state.commit and repo.is_ancestor(state.commit, head):
            revisions = f"{state.commit}..{head}"
        else:
            state, revisions = _State(), head
        _advance(state, _walk(repo._git.run_bytes(*_WALK_ARGS, revisions, "--")), is_memory,
                 index_path)  # fmt: skip
        state.commit = head
        _store(cache, state, index_path)
    return _overview(repo, state)


_WALK_ARGS = (
    "log",
    "--first-parent",
    "--reverse",
    "--format=%x1e%H%x1f%ct%x1f%an%x1f%ae%x1f%s%x1f",
    "--raw",
    "-z",
    "--no-renames",
    "--no-abbrev",
)


def _walk(output: bytes) -> Iterator[_Step]:
    for chunk in output.split(b"\x1e")[1:]:
        fields = chunk.split(b"\x1f", 5)
        if len(fields) < 6:
            continue
        sha, stamp, name, email, subject = (f.decode("utf-8", "replace") for f in fields[:5])
        records = fields[5].lstrip(b"\0\n").split(b"\0")
        changes = []
        # -z --raw: ":<modes> <old> <new> <status>" then the path, each NUL-terminated.
        for meta, path in zip(records[::2], records[1::2], strict=False):
            parts = meta.lstrip(b"\n").split(b" ")
            if len(parts) >= 5 and parts[0].startswith(b":"):
                changes.append((path.decode("utf-8", "replace"), parts[3].decode()))
        head = subject.split(":", 1)[0]
        kind = head if ":" in subject and head.isalpha() and head.islower() else None
        yield _Step(sha, float(stamp), name, email, kind, changes)


def _advance(
    state: _State, walked: Iterable[_Step], is_memory: Callable[[str], bool], index_path: str
) -> None:
    """Apply the commits after ``state.commit``, oldest first, noting each day's end."""
    steps = list(walked)
    clock = _monotonic([step.time for step in steps], floor=state.clock)
    for position, step in enumerate(steps):
        for path, blob in step.changes:
            if path == index_path:
                state.index_blob = blob
            elif not is_memory(path):
                continue
            elif blob == _NULL_BLOB:
                state.present.pop(path, None)
                state.last.pop(path, None)
            else:
                state.present[path] = clock[position]
                state.last[path] = LastChange(
                    step.sha,
                    datetime.fromtimestamp(step.time, tz=UTC),
                    step.author_name,
                    step.author_email,
                    step.kind,
                )
        day = clock[position] // _DAY
        if position + 1 == len(steps) or clock[position + 1] // _DAY != day:
            _end_day(state, step.sha, clock[position])
    state.commits += len(steps)
    state.clock = clock[-1] if clock else state.clock


def _end_day(state: _State, commit: str, moment: float) -> None:
    ages = [(moment - changed) / _DAY for changed in state.present.values()]
    median = round(statistics.median(ages), 1) if ages else None
    entry = _Day(moment, commit, len(state.present), state.index_blob, median)
    if state.days and state.days[-1].when // _DAY == moment // _DAY:
        state.days[-1] = entry  # the day went on in a later walk
    else:
        state.days.append(entry)


def _overview(repo: MemoryRepo, state: _State) -> Overview:
    picked = [state.days[i] for i in _sample_positions([d.when for d in state.days], SAMPLES)]
    sizes = _index_sizes(repo, {d.index_blob for d in picked if d.index_blob != _NULL_BLOB})
    samples = [
        Sample(
            datetime.fromtimestamp(day.when, tz=UTC),
            day.commit,
            day.memories,
            *sizes.get(day.index_blob, (0, 0)),
            day.median_age_days,
        )
        for day in picked
    ]
    return Overview(state.commit, state.commits, samples, dict(state.last))


def _monotonic(times: list[float], floor: float) -> list[float]:
    """Commit times made non-decreasing along the branch, and never before ``floor`` (the
    clock of the commit walked before): each commit is taken to be no later than the one
    after it. A clock that stepped back, or history imported with old dates after a
    fresh set-up commit, then squeezes the odd commit instead of stretching the whole
    time axis to it."""
    clock = list(times)
    for position in range(len(clock) - 2, -1, -1):
        clock[position] = min(clock[position], clock[position + 1])
    return [max(floor, moment) for moment in clock]


def _sample_positions(clock: list[float], count: int) -> list[int]:
    """Indexes of the commits standing at ``count`` evenly spaced moments from the first
    commit to the last on a non-decreasing ``clock``: the last commit at or before each
    moment (the final one always)."""
    if not clock:
        return []
    start, end = clock[0], clock[-1]
    if count <= 1 or end == start:
        return [len(clock) - 1]
    moments = [start + (end - start) * i / (count - 1) for i in range(count)]
    positions = {bisect.bisect_right(clock, moment) - 1 for moment in moments}
    return sorted(positions | {len(clock) - 1})


def _index_sizes(repo: MemoryRepo, blobs: set[str]) -> dict[str, tuple[int, int]]:
    """Lines and UTF-16 units of each index version, through one ``cat-file --batch``."""
    if not blobs:
        return {}
    ordered = sorted(blobs)
    sizes: dict[str, tuple[int, int]] = {}
    for blob, data in zip(ordered, batch_blobs(repo._git, ordered), strict=True):
        if data is not None:
            text = data.decode("utf-8", "replace")
            sizes[blob] = (len(text.splitlines()), len(text.encode("utf-16-le")) // 2)
    return sizes


def changes_since(repo: MemoryRepo, head: str, since: datetime) -> list[CommitInfo]:
    """The first-parent commits of ``head`` made after ``since``, newest first, with the
    files each changed (a merge: against the branch before it)."""
    output = repo._git.run_bytes(
        "log", "--first-parent", f"--since={since.isoformat()}", f"--format={LOG_FORMAT}",
        "--numstat", "-z", "--no-renames", head, "--",
    )  # fmt: skip
    return parse_log(output)


# The cache holds tuples rather than objects: ten thousand memories load and store in
# tens of milliseconds through the C JSON codec (dataclasses.asdict took a second).
def _load(path: Path, index_path: str) -> _State:
    """The cached state, or an empty one when there is none (or an unreadable one)."""
    try:
        data = json.loads(path.read_text())
        if data["version"] != CACHE_VERSION or data["index_path"] != index_path:
            return _State()
        return _State(
            commit=str(data["commit"]),
            commits=int(data["commits"]),
            clock=float(data["clock"]),
            index_blob=str(data["index_blob"]),
            present={str(p): float(t) for p, t in data["present"].items()},
            last={
                str(p): LastChange(sha, datetime.fromtimestamp(when, tz=UTC), name, email, kind)
                for p, (sha, when, name, email, kind) in data["last"].items()
            },
            days=[_Day(*day) for day in data["days"]],
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return _State()


def _store(path: Path, state: _State, index_path: str) -> None:
    """Atomic: a reader sees the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "version": CACHE_VERSION,
        "index_path": index_path,
        "commit": state.commit,
        "commits": state.commits,
        "clock": state.clock,
        "index_blob": state.index_blob,
        "present": state.present,
        "last": {
            p: (c.commit, c.when.timestamp(), c.author_name, c.author_email, c.kind)
            for p, c in state.last.items()
        },
        "days": [
            (d.when, d.commit, d.memories, d.index_blob, d.median_age_days) for d in state.days
        ],
    }
    text = json.dumps(payload)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as out:
        out.write(text)
    Path(out.name).replace(path)
