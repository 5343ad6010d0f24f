"""History narrowed by kind, author and file, with git doing the filtering, so a page of
a long history costs one ``git log`` whatever the filters."""

from __future__ import annotations

from dataclasses import dataclass

from . import trailers
from .history import LOG_FORMAT, CommitInfo, parse_log
from .repo import MemoryRepo


@dataclass(frozen=True)
class LogFilter:
    kind: str | None = None
    # Fixed strings matched against the author line ("Name <email>"); any one will do.
    authors: tuple[str, ...] = ()
    path: str | None = None


def filtered_log(
    repo: MemoryRepo, rev: str, where: LogFilter, *, limit: int, skip: int = 0
) -> list[CommitInfo]:
    """Commits reachable from ``rev`` that pass ``where``, newest first, with file stats."""
    if repo.rev_parse(rev) is None:
        return []
    # --fixed-strings: a user's email or a path is never read as a pattern.
    args = ["log", f"--format={LOG_FORMAT}", "--numstat", "-z", "--no-renames", "-F"]
    args += [f"--max-count={limit}", f"--skip={skip}"]
    if where.kind:
        args.append(f"--grep={trailers.KIND.name}: {where.kind}")
    args += [f"--author={author}" for author in where.authors]
    args += [rev, "--"]
    if where.path:
        args.append(where.path)
    return parse_log(repo._git.run_bytes(*args))
