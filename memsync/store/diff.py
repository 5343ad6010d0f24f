"""Diffs as data: files with status, hunks and numbered lines, ready for a template.

One ``git diff --raw -z --patch`` call gives both the exact paths (NUL-separated, never
quoted) and the patches, in the same order; the paths come from the raw part so names
with spaces, quotes or non-ASCII characters need no unquoting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import zip_longest
from pathlib import PurePosixPath

from memsync.memory.index import INDEX_FILENAME

_HUNK_HEADER = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")
_STATUS = {"A": "added", "D": "deleted", "M": "modified", "T": "type-changed"}


class LineKind(StrEnum):
    CONTEXT = "context"
    ADDED = "added"
    DELETED = "deleted"


@dataclass(frozen=True)
class DiffLine:
    kind: LineKind
    text: str
    old_number: int | None
    new_number: int | None


@dataclass(frozen=True)
class Hunk:
    old_start: int
    old_count: int
    new_start: int
    new_count: int
    section: str
    lines: tuple[DiffLine, ...]


@dataclass(frozen=True)
class FileDiff:
    path: str
    status: str  # added, deleted, modified, type-changed
    old_mode: str
    new_mode: str
    old_sha: str
    new_sha: str
    binary: bool = False
    hunks: tuple[Hunk, ...] = ()
    old_missing_newline: bool = False  # the old side ends without a final newline
    new_missing_newline: bool = False

    @property
    def is_index(self) -> bool:
        return PurePosixPath(self.path).name == INDEX_FILENAME

    @property
    def empty(self) -> bool:
        """Text file with no content change to show (an empty file added or deleted)."""
        return not self.binary and not self.hunks

    @property
    def additions(self) -> int:
        return sum(1 for h in self.hunks for line in h.lines if line.kind is LineKind.ADDED)

    @property
    def deletions(self) -> int:
        return sum(1 for h in self.hunks for line in h.lines if line.kind is LineKind.DELETED)

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "status": self.status,
            "binary": self.binary,
            "empty": self.empty,
            "additions": self.additions,
            "deletions": self.deletions,
            "old_missing_newline": self.old_missing_newline,
            "new_missing_newline": self.new_missing_newline,
            "hunks": [
                {
                    "old_start": h.old_start,
                    "old_count": h.old_count,
                    "new_start": h.new_start,
                    "new_count": h.new_count,
                    "lines": [
                        {"kind": str(line.kind), "text": line.text, "old": line.old_number,
                         "new": line.new_number}
                        for line in h.lines
                    ],
                }
                for h in self.hunks
            ],
        }  # fmt: skip


@dataclass(frozen=True)
class Diff:
    base: str | None
    head: str
    files: tuple[FileDiff, ...] = field(default=())

    @property
    def index_files(self) -> tuple[FileDiff, ...]:
        return tuple(f for f in self.files if f.is_index)

    def file(self, path: str) -> FileDiff | None:
        return next((f for f in self.files if f.path == path), None)

    def to_dict(self) -> dict[str, object]:
        return {"base": self.base, "head": self.head, "files": [f.to_dict() for f in self.files]}


def _order(diff: FileDiff) -> tuple[int, int, str]:
    """Index files first (the root index before team/MEMORY.md), then by path."""
    return (0 if diff.is_index else 1, diff.path.count("/"), diff.path)


def parse_diff(output: bytes, base: str | None, head: str) -> Diff:
    records, patch = _split_raw(output)
    sections = _split_sections(patch)
    files = []
    for position, (old_mode, new_mode, old_sha, new_sha, status, path) in enumerate(records):
        section = sections[position] if position < len(sections) else []
        files.append(_file_diff(path, status, old_mode, new_mode, old_sha, new_sha, section))
    return Diff(base=base, head=head, files=tuple(sorted(files, key=_order)))


def _split_raw(output: bytes) -> tuple[list[tuple[str, str, str, str, str, str]], bytes]:
    records = []
    position = 0
    while position < len(output) and output[position : position + 1] == b":":
        header_end = output.index(b"\0", position)
        path_end = output.index(b"\0", header_end + 1)
        header = output[position + 1 : header_end].decode()
        old_mode, new_mode, old_sha, new_sha, status = header.split(" ")
        path = output[header_end + 1 : path_end].decode("utf-8", "replace")
        records.append((old_mode, new_mode, old_sha, new_sha, status[0], path))
        position = path_end + 1
    return records, output[position:].lstrip(b"\0")


def _split_sections(patch: bytes) -> list[list[bytes]]:
    sections: list[list[bytes]] = []
    for line in patch.split(b"\n"):
        if line.startswith(b"diff --git "):
            sections.append([])
        elif sections:
            sections[-1].append(line)
    return sections


def _file_diff(
    path: str,
    status: str,
    old_mode: str,
    new_mode: str,
    old_sha: str,
    new_sha: str,
    section: list[bytes],
) -> FileDiff:
    binary = any(line.startswith(b"Binary files ") for line in section)
    hunks: list[Hunk] = []
    old_missing = new_missing = False
    current: list[DiffLine] | None = None
    header: tuple[int, int, int, int, str] | None = None
    old_no = new_no = 0
    last_kind: LineKind | None = None

    def close() -> None:
        if current is not None and header is not None:
            hunks.append(Hunk(*header[:4], section=header[4], lines=tuple(current)))

    for line in section:
        match = _HUNK_HEADER.match(line)
        if match:
            close()
            old_start, old_count, new_start, new_count = (
                int(match.group(1)),
                int(match.group(2) or 1),
                int(match.group(3)),
                int(match.group(4) or 1),
            )
            header = (old_start, old_count, new_start, new_count, _text(match.group(5)).strip())
            current = []
            old_no, new_no = old_start, new_start
            continue
        if current is None:
            continue
        if line.startswith(b"\\"):
            # "\ No newline at end of file" belongs to the line just before it.
            if last_kind in (LineKind.DELETED, LineKind.CONTEXT):
                old_missing = True
            if last_kind in (LineKind.ADDED, LineKind.CONTEXT):
                new_missing = True
            continue
        marker, text = line[:1], _text(line[1:])
        if marker == b"+":
            current.append(DiffLine(LineKind.ADDED, text, None, new_no))
            new_no += 1
            last_kind = LineKind.ADDED
        elif marker == b"-":
            current.append(DiffLine(LineKind.DELETED, text, old_no, None))
            old_no += 1
            last_kind = LineKind.DELETED
        elif marker == b" ":
            current.append(DiffLine(LineKind.CONTEXT, text, old_no, new_no))
            old_no += 1
            new_no += 1
            last_kind = LineKind.CONTEXT
    close()
    return FileDiff(
        path=path,
        status=_STATUS.get(status, status),
        old_mode=old_mode,
        new_mode=new_mode,
        old_sha=old_sha,
        new_sha=new_sha,
        binary=binary,
        hunks=tuple(hunks),
        old_missing_newline=old_missing,
        new_missing_newline=new_missing,
    )


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace").rstrip("\r")


@dataclass(frozen=True)
class SideBySideRow:
    """One row of two versions shown side by side; a side is None where it has no line."""

    kind: str  # same, changed, left-only, right-only
    left_number: int | None
    left: str | None
    right_number: int | None
    right: str | None


def side_by_side(left: str, diff: FileDiff | None) -> list[SideBySideRow]:
    """Both versions of a file aligned line by line: ``left``'s text, and ``diff`` from it
    to the other version (None: they are the same). Lines outside the hunks are read from
    ``left``; inside a hunk, a run of deleted lines sits beside the added run after it."""
    lines = [line.rstrip("\r") for line in left.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()  # the final newline ends the last line; it starts none
    rows: list[SideBySideRow] = []
    old_no = new_no = 1  # the next line of each side not shown yet
    for hunk in diff.hunks if diff is not None else ():
        first_old = hunk.old_start if hunk.old_count else hunk.old_start + 1
        rows += _same(lines, old_no, first_old, new_no - old_no)
        new_no += first_old - old_no
        old_no = first_old
        deleted: list[DiffLine] = []
        added: list[DiffLine] = []
        for line in (*hunk.lines, None):
            if line is not None and line.kind is LineKind.DELETED:
                deleted.append(line)
            elif line is not None and line.kind is LineKind.ADDED:
                added.append(line)
            else:
                rows += [_pair(mine, theirs) for mine, theirs in zip_longest(deleted, added)]
                old_no, new_no = old_no + len(deleted), new_no + len(added)
                deleted, added = [], []
                if line is not None:
                    rows.append(SideBySideRow("same", old_no, line.text, new_no, line.text))
                    old_no, new_no = old_no + 1, new_no + 1
    rows += _same(lines, old_no, len(lines) + 1, new_no - old_no)
    return rows


def _same(lines: list[str], start: int, stop: int, shift: int) -> list[SideBySideRow]:
    """Unchanged rows for left lines ``start`` up to ``stop`` (1-based, ``stop`` excluded)."""
    return [
        SideBySideRow("same", number, lines[number - 1], number + shift, lines[number - 1])
        for number in range(start, stop)
    ]


def _pair(mine: DiffLine | None, theirs: DiffLine | None) -> SideBySideRow:
    kind = "changed" if mine and theirs else ("left-only" if mine else "right-only")
    return SideBySideRow(
        kind,
        mine.old_number if mine else None,
        mine.text if mine else None,
        theirs.new_number if theirs else None,
        theirs.text if theirs else None,
    )
