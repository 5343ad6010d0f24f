"""File access shared by the agent's tools: text under a cap, walking the tree, globs.

Paths reaching these functions have already been resolved by the `Sandbox`. The
walk does not follow symbolic links and skips ``.git``; a tool that opens what
the walk yields still sends the path back through the sandbox, because a link
found on the way may point anywhere.
"""

from __future__ import annotations

import fnmatch
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from memsync.agent.sandbox import GIT_DIR_NAME

# SPEC T4 refuses pushes of files over 250,000 bytes; nothing larger is a memory.
MAX_READ_BYTES = 256_000
_SNIFF_BYTES = 8192


class ToolFailure(Exception):
    """A tool could not do what the model asked; the model sees this message."""


def require_file(path: Path, shown: str) -> os.stat_result:
    """The stat of a regular file at `path`, or a `ToolFailure` saying what it is instead."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise ToolFailure(f"{shown}: no such file") from None
    if stat.S_ISDIR(info.st_mode):
        raise ToolFailure(f"{shown} is a directory; list it with glob or ls")
    if not stat.S_ISREG(info.st_mode):
        raise ToolFailure(f"{shown} is not a regular file")
    return info


def looks_binary(path: Path) -> bool:
    with path.open("rb") as handle:
        return b"\x00" in handle.read(_SNIFF_BYTES)


def read_text(path: Path, shown: str, max_bytes: int = MAX_READ_BYTES) -> str:
    """The whole text of a file, refusing directories, binaries and files over `max_bytes`.

    Invalid UTF-8 is shown with replacement characters rather than refused: F6 says
    such a file is still a memory, and the model may need to see it to report it.
    """
    info = require_file(path, shown)
    if info.st_size > max_bytes:
        raise ToolFailure(
            f"{shown} is {info.st_size:,} bytes, over the {max_bytes:,}-byte limit for "
            "reading whole files; use grep, or head/tail in the shell, to see parts of it"
        )
    data = path.read_bytes()
    if b"\x00" in data[:_SNIFF_BYTES]:
        raise ToolFailure(f"{shown} looks like a binary file (it contains NUL bytes); not shown")
    return data.decode("utf-8", errors="replace")


def iter_lines(path: Path, shown: str) -> Iterator[str]:
    """Lines of a text file of any size, without their line endings."""
    require_file(path, shown)
    if looks_binary(path):
        raise ToolFailure(f"{shown} looks like a binary file (it contains NUL bytes); not shown")
    with path.open(encoding="utf-8", errors="replace", newline="") as handle:
        for line in handle:
            yield line.rstrip("\r\n")


def walk(start: Path) -> Iterator[tuple[Path, int]]:
    """Everything under `start` with its depth (`start` itself is depth 0), sorted, top-down.

    Directories are entered only when they are real directories: a symlink is yielded
    as an entry but never descended into. ``.git`` is neither yielded nor entered.
    """
    yield start, 0
    if not start.is_symlink() and start.is_dir():
        yield from _walk_below(start, 1)


def _walk_below(directory: Path, depth: int) -> Iterator[tuple[Path, int]]:
    try:
        names = sorted(child.name for child in directory.iterdir())
    except OSError:
        return
    for name in names:
        if name == GIT_DIR_NAME:
            continue
        child = directory / name
        yield child, depth
        if not child.is_symlink() and child.is_dir():
            yield from _walk_below(child, depth + 1)


def glob_matches(pattern: str, relative: str) -> bool:
    """Whether a POSIX relative path matches a glob where ``**`` spans directories."""
    return _match_parts(_split(pattern), _split(relative))


def _split(path: str) -> list[str]:
    return [part for part in path.split("/") if part not in ("", ".")]


def _match_parts(pattern: list[str], parts: list[str]) -> bool:
    if not pattern:
        return not parts
    head, rest = pattern[0], pattern[1:]
    if head == "**":
        return any(_match_parts(rest, parts[skip:]) for skip in range(len(parts) + 1))
    return bool(parts) and fnmatch.fnmatchcase(parts[0], head) and _match_parts(rest, parts[1:])
