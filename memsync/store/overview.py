"""A branch over time, from one walk of its first-parent history: how many memories it
held, how large its index was and how fresh its memories were at evenly spaced moments,
and who last changed each memory.

The walk is one ``git log --first-parent --raw`` (a merge counts as the change it made
to the branch, as ages do); only the sampled index versions are read, through one
``cat-file --batch``. The answer is kept in ``<git dir>/memsync/overview.json`` with
the commit it describes, so a page reads it again for free until the branch moves.
What counts as a memory is the caller's to say (the store knows no memory format).
"""

from __future__ import annotations

import bisect
import json
import statistics
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from .history import LOG_FORMAT, CommitInfo, parse_log
from .repo import MemoryRepo

CACHE_NAME = "overview.json"
CACHE_VERSION = 1
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


def branch_overview(
    repo: MemoryRepo, head: str, is_memory: Callable[[str], bool], index_path: str
) -> Overview:
    """The overview of the branch at commit ``head``, from the cache when it describes
    ``head``; ``is_memory(path)`` says which paths are memories, ``index_path`` names
    the index file."""
    # Beside ages.json, shared by every worktree of the repository (store-internal).
    cache = repo._common_dir / "memsync" / CACHE_NAME
    found = _load(cache, head, index_path)
    if found is not None:
        return found
    steps = list(_walk(repo.git.run_bytes(*_WALK_ARGS, head, "--")))
    overview = _overview(repo, head, steps, is_memory, index_path)
    _store(cache, overview, index_path)
    return overview


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


def _overview(
    repo: MemoryRepo,
    head: str,
    steps: list[_Step],
    is_memory: Callable[[str], bool],
    index_path: str,
) -> Overview:
    clock = _monotonic([step.time for step in steps])
    picks = _sample_positions(clock, SAMPLES)
    present: dict[str, float] = {}  # memory path → time of its last change
    last: dict[str, LastChange] = {}
    index_blob = _NULL_BLOB
    taken: list[tuple[float, _Step, int, str, float | None]] = []
    wanted = set(picks)
    for position, step in enumerate(steps):
        for path, blob in step.changes:
            if path == index_path:
                index_blob = blob
            elif not is_memory(path):
                continue
            elif blob == _NULL_BLOB:
                present.pop(path, None)
                last.pop(path, None)
            else:
                present[path] = clock[position]
                last[path] = LastChange(
                    step.sha,
                    datetime.fromtimestamp(step.time, tz=UTC),
                    step.author_name,
                    step.author_email,
                    step.kind,
                )
        if position in wanted:
            ages = [(clock[position] - changed) / _DAY for changed in present.values()]
            median = round(statistics.median(ages), 1) if ages else None
            taken.append((clock[position], step, len(present), index_blob, median))
    sizes = _index_sizes(repo, {blob for _, _, _, blob, _ in taken if blob != _NULL_BLOB})
    samples = [
        Sample(
            datetime.fromtimestamp(moment, tz=UTC),
            step.sha,
            count,
            *sizes.get(blob, (0, 0)),
            median,
        )
        for moment, step, count, blob, median in taken
    ]
    return Overview(head, len(steps), samples, last)


def _monotonic(times: list[float]) -> list[float]:
    """Commit times made non-decreasing along the branch: each commit is taken to be no
    later than the one after it. A clock that stepped back, or history imported with old
    dates after a fresh set-up commit, then squeezes the odd commit instead of
    stretching the whole time axis to it."""
    clock = list(times)
    for position in range(len(clock) - 2, -1, -1):
        clock[position] = min(clock[position], clock[position + 1])
    return clock


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
    request = "".join(f"{blob}\n" for blob in ordered).encode()
    out = repo.git.run_with_input(request, "cat-file", "--batch")
    sizes: dict[str, tuple[int, int]] = {}
    position = 0
    for blob in ordered:
        line_end = out.index(b"\n", position)
        header = out[position:line_end].split(b" ")
        position = line_end + 1
        if len(header) == 3 and header[1] == b"blob":
            size = int(header[2])
            text = out[position : position + size].decode("utf-8", "replace")
            position += size + 1
            sizes[blob] = (len(text.splitlines()), len(text.encode("utf-16-le")) // 2)
    return sizes


def changes_since(repo: MemoryRepo, head: str, since: datetime) -> list[CommitInfo]:
    """The first-parent commits of ``head`` made after ``since``, newest first, with the
    files each changed (a merge: against the branch before it)."""
    output = repo.git.run_bytes(
        "log", "--first-parent", f"--since={since.isoformat()}", f"--format={LOG_FORMAT}",
        "--numstat", "-z", "--no-renames", head, "--",
    )  # fmt: skip
    return parse_log(output)


def _load(path: Path, head: str, index_path: str) -> Overview | None:
    try:
        data = json.loads(path.read_text())
        if data["version"] != CACHE_VERSION or data["index_path"] != index_path:
            return None
        if data["commit"] != head:
            return None
        return Overview(
            data["commit"],
            int(data["commits"]),
            [
                Sample(**{**sample, "when": datetime.fromisoformat(sample["when"])})
                for sample in data["samples"]
            ],
            {
                path: LastChange(**{**change, "when": datetime.fromisoformat(change["when"])})
                for path, change in data["last_changes"].items()
            },
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _store(path: Path, overview: Overview, index_path: str) -> None:
    """Atomic: a reader sees the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "version": CACHE_VERSION,
        "index_path": index_path,
        "commit": overview.commit,
        "commits": overview.commits,
        "samples": [asdict(sample) for sample in overview.samples],
        "last_changes": {p: asdict(change) for p, change in overview.last_changes.items()},
    }
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as out:
        json.dump(payload, out, default=lambda value: value.isoformat())
    Path(out.name).replace(path)
