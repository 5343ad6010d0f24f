"""Keeping the team block of the private ``MEMORY.md`` in step with the team clone.

After ``memsync link`` and every ``memsync pull`` the block (see
`memsync.memory.managed`) is regenerated from the team clone: one ``team/<file>.md``
entry per team memory, titled and described as the team's own ``MEMORY.md`` does
(else by the memory's ``name`` and ``description``), ranked by type then recency.
Recency is the file's mtime, which the pull has just set to the memory's last commit
time on the team's ``main``.

What memsync wrote last time is kept in the clone's Git directory, so a line the agent
added or reworded inside the block is recognised as the agent's and moved out of the
block instead of being overwritten.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from memsync.memory import INDEX_FILENAME, MemoryDirectory, is_topic_path
from memsync.memory.managed import (
    BlockResult,
    TeamEntry,
    generated_lines,
    with_team_block,
    without_team_block,
)

RECORD_NAME = "memsync-team-block"


@dataclass(frozen=True)
class BlockUpdate:
    index: Path
    shown: int
    hidden: int
    moved_out: list[str]  # lines the agent had written inside the block
    changed: bool


def team_entries(team_dir: Path) -> list[TeamEntry]:
    """Every team memory (top-level topic file) with the title and hook to show."""
    directory = MemoryDirectory.read(team_dir, scope="team")
    titles: dict[str, tuple[str, str]] = {}
    if directory.index is not None:
        for entry in directory.index.entries:
            if entry.file is not None and is_topic_path(entry.file):
                titles.setdefault(entry.file, (entry.title, entry.hook))
    entries = []
    for path, memory in directory.files.items():
        if not memory.is_text:
            continue
        title, hook = titles.get(path, (memory.name or path.removesuffix(".md"), ""))
        hook = hook or memory.description or ""
        try:
            mtime = (team_dir / path).stat().st_mtime
        except OSError:
            continue
        modified = datetime.fromtimestamp(mtime, tz=UTC)
        entries.append(TeamEntry(path, title, hook, memory.memory_type, modified))
    return entries


def refresh_team_block(memory_dir: Path, team_dir: Path) -> BlockUpdate:
    """Regenerate the block in ``memory_dir/MEMORY.md`` from the clone in ``team_dir``."""
    index = memory_dir / INDEX_FILENAME
    before = _read(index)
    record = _record_path(team_dir)
    last = _read(record) if record is not None else ""
    last_written = last.splitlines() if last else None
    result: BlockResult = with_team_block(before, team_entries(team_dir), last_written)
    changed = result.text != before
    if changed:
        _write_atomically(index, result.text)
    if record is not None:
        _write_atomically(record, "\n".join(generated_lines(result.text)) + "\n")
    return BlockUpdate(index, result.shown, result.hidden, result.kept_from_block, changed)


def remove_team_block(memory_dir: Path) -> bool:
    """Drop the block (the agent's own lines in it stay, as private lines)."""
    index = memory_dir / INDEX_FILENAME
    before = _read(index)
    after = without_team_block(before)
    if after == before:
        return False
    _write_atomically(index, after)
    return True


def _record_path(team_dir: Path) -> Path | None:
    git_dir = team_dir / ".git"
    return git_dir / RECORD_NAME if git_dir.is_dir() else None


def _read(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8", "surrogateescape")
    except FileNotFoundError:
        return ""


def _write_atomically(path: Path, text: str) -> None:
    """A Claude Code session starting meanwhile reads the old file or the new one,
    never half of one; the file keeps its permissions."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else None
    with tempfile.NamedTemporaryFile("wb", dir=path.parent, delete=False, suffix=".tmp") as out:
        out.write(text.encode("utf-8", "surrogateescape"))
    if mode is not None:
        Path(out.name).chmod(mode)
    Path(out.name).replace(path)
