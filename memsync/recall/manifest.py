"""Memories as recall sees them, and the manifest a model chooses from (SPEC R1).

Claude Code's side query shows the model one line per memory file, newest first::

    - [feedback] feedback_testing.md (2026-03-28T15:45:00.000Z): Integration tests hit a real DB

The time is the file's last change as JavaScript's ``toISOString()`` writes it (UTC,
milliseconds, ``Z``). A file without a type drops the ``[type]`` and a file without a
description drops the ``: description``, as Claude Code does. Extraction shows its
agent the same lines as the list of existing memories.

A memory directory becomes `RecallDocument`s here: topic files at the top level and,
with a ``team/`` scope, those of ``team/`` as ``team/<file>``. A binary or undecodable
file is no memory to recall; a file without frontmatter still is (SPEC F2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from memsync.recall.rank import RecallDocument

if TYPE_CHECKING:  # the hook's warm path parses no memory: no YAML, no format to import
    from memsync.memory import MemoryDirectory, MemoryFile
    from memsync.memory.layout import MemoryLayout


def iso_time(moment: datetime) -> str:
    """``2026-03-28T15:45:00.000Z``: JavaScript's ``Date.toISOString()``."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def manifest_line(document: RecallDocument) -> str:
    kind = f"[{document.type}] " if document.type else ""
    description = " ".join(document.description.split())
    tail = f": {description}" if description else ""
    return f"- {kind}{document.path} ({iso_time(document.modified)}){tail}"


def newest_first(documents: Iterable[RecallDocument]) -> list[RecallDocument]:
    return sorted(documents, key=lambda d: (-_timestamp(d.modified), d.path))


def format_manifest(documents: Iterable[RecallDocument]) -> str:
    """One `manifest_line` per memory, newest first, as one block of text."""
    return "\n".join(manifest_line(document) for document in newest_first(documents))


def document_for(path: str, memory: MemoryFile, modified: datetime) -> RecallDocument | None:
    """The recall view of one topic file; None for a file that is not text."""
    if not memory.is_text:
        return None
    stem = PurePosixPath(path).name.removesuffix(".md")
    return RecallDocument(
        path=path,
        name=memory.name or stem,
        description=memory.description or "",
        body=memory.body,
        type=memory.memory_type,
        modified=modified,
        layout=layout_of(memory),
    )


def layout_of(memory: MemoryFile) -> MemoryLayout | None:
    """The frontmatter layout a text file with a declared type uses: what
    `memsync.memory.layout.detect_layout` counts."""
    from memsync.memory.layout import MemoryLayout

    if not memory.is_text or memory.type is None:
        return None
    return MemoryLayout.CURRENT if memory.has_nested_type else MemoryLayout.CLASSIC


def directory_documents(
    directory: MemoryDirectory,
    modified: Mapping[str, datetime],
    *,
    prefix: str = "",
    fallback: datetime | None = None,
) -> list[RecallDocument]:
    """Every readable topic file of `directory`, its path prefixed with `prefix`.

    `modified` gives each file's last change (from Git, keyed by the prefixed path);
    a file it lacks gets `fallback`, else the epoch, so it sorts as the oldest.
    """
    oldest = fallback or datetime(1970, 1, 1, tzinfo=UTC)
    documents = []
    for path, memory in sorted(directory.files.items()):
        full = prefix + path
        document = document_for(full, memory, modified.get(full, oldest))
        if document is not None:
            documents.append(document)
    return documents


def read_documents(
    root: Path, modified: Mapping[str, datetime] | None = None, *, team: bool = True
) -> list[RecallDocument]:
    """The memories in a directory on disk, with ``team/`` when `team` and present.

    A file's last change comes from `modified` (Git history) when it names it, else
    from the file's mtime: a plain Claude Code directory, or a file not committed yet.
    """
    from memsync.memory import TEAM_DIRNAME, MemoryDirectory

    known = dict(modified or {})
    scopes = [(root, "")]
    # A linked team/ is not followed (issue 10): MemoryDirectory.read would trust it.
    team_root = root / TEAM_DIRNAME
    if team and team_root.is_dir() and not team_root.is_symlink():
        scopes.append((root / TEAM_DIRNAME, f"{TEAM_DIRNAME}/"))
    documents: list[RecallDocument] = []
    for scope_root, prefix in scopes:
        directory = MemoryDirectory.read(scope_root)
        times = dict(known)
        for path in directory.files:
            if prefix + path not in times:
                times[prefix + path] = _mtime(scope_root / path)
        documents += directory_documents(directory, times, prefix=prefix)
    return documents


def _mtime(path: Path) -> datetime:
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, tz=UTC)
    except OSError:
        return datetime(1970, 1, 1, tzinfo=UTC)


def _timestamp(moment: datetime) -> float:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()
