"""The Claude Code memory format (SPEC F): topic files, `MEMORY.md`, problems,
freshness, relative dates and path sanitizing. Pure Python: no Git, no Django, no
environment variables."""

from memsync.memory.index import (
    INDEX_FILENAME,
    MAX_ENTRY_CHARS,
    MAX_INDEX_BYTES,
    MAX_INDEX_LINES,
    IndexEntry,
    MemoryIndex,
    format_entry,
    link_file,
)
from memsync.memory.problems import Problem, ProblemCode, Severity

__all__ = [
    "INDEX_FILENAME",
    "MAX_ENTRY_CHARS",
    "MAX_INDEX_BYTES",
    "MAX_INDEX_LINES",
    "IndexEntry",
    "MemoryIndex",
    "Problem",
    "ProblemCode",
    "Severity",
    "format_entry",
    "link_file",
]
