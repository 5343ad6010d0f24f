"""The Claude Code memory format (SPEC F): topic files, `MEMORY.md`, problems,
freshness, relative dates and path sanitizing. Pure Python: no Git, no Django, no
environment variables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memsync.lazy import lazy_exports

if TYPE_CHECKING:
    from memsync.memory.dates import RelativeDate, find_relative_dates, rewrite_relative_dates
    from memsync.memory.directory import (
        MemoryDirectory,
        is_log_path,
        is_topic_path,
    )
    from memsync.memory.folders import LOGS_DIRNAME, TEAM_DIRNAME
    from memsync.memory.freshness import (
        FRESHNESS_NOTE,
        age_days,
        age_label,
        freshness_header,
        freshness_note,
    )
    from memsync.memory.index import (
        INDEX_FILENAME,
        IndexEntry,
        MemoryIndex,
        format_entry,
        link_file,
    )
    from memsync.memory.limits import (
        MAX_ENTRY_CHARS,
        MAX_INDEX_LINES,
        MAX_INDEX_UNITS,
        index_fits,
        size_label,
        utf16_len,
    )
    from memsync.memory.paths import MAX_SANITIZED_LENGTH, djb2_hash, sanitize_path
    from memsync.memory.problems import Problem, ProblemCode, Severity
    from memsync.memory.subindex import SUBINDEX_DIRNAME, entry_path, is_subindex_path
    from memsync.memory.topic import MEMORY_TYPES, REQUIRED_FIELDS, STRUCTURED_TYPES, MemoryFile

# Loaded on first use: a Claude Code hook that only needs `sanitize_path` must not
# pay for YAML, dates and the index parser (see bench/hooks.py).
_SOURCES = {
    "RelativeDate": "memsync.memory.dates",
    "find_relative_dates": "memsync.memory.dates",
    "rewrite_relative_dates": "memsync.memory.dates",
    "LOGS_DIRNAME": "memsync.memory.folders",
    "TEAM_DIRNAME": "memsync.memory.folders",
    "MemoryDirectory": "memsync.memory.directory",
    "is_log_path": "memsync.memory.directory",
    "is_topic_path": "memsync.memory.directory",
    "FRESHNESS_NOTE": "memsync.memory.freshness",
    "age_days": "memsync.memory.freshness",
    "age_label": "memsync.memory.freshness",
    "freshness_header": "memsync.memory.freshness",
    "freshness_note": "memsync.memory.freshness",
    "INDEX_FILENAME": "memsync.memory.index",
    "MAX_ENTRY_CHARS": "memsync.memory.limits",
    "MAX_INDEX_LINES": "memsync.memory.limits",
    "MAX_INDEX_UNITS": "memsync.memory.limits",
    "index_fits": "memsync.memory.limits",
    "size_label": "memsync.memory.limits",
    "utf16_len": "memsync.memory.limits",
    "IndexEntry": "memsync.memory.index",
    "MemoryIndex": "memsync.memory.index",
    "format_entry": "memsync.memory.index",
    "link_file": "memsync.memory.index",
    "MAX_SANITIZED_LENGTH": "memsync.memory.paths",
    "djb2_hash": "memsync.memory.paths",
    "sanitize_path": "memsync.memory.paths",
    "Problem": "memsync.memory.problems",
    "ProblemCode": "memsync.memory.problems",
    "Severity": "memsync.memory.problems",
    "SUBINDEX_DIRNAME": "memsync.memory.subindex",
    "entry_path": "memsync.memory.subindex",
    "is_subindex_path": "memsync.memory.subindex",
    "MEMORY_TYPES": "memsync.memory.topic",
    "REQUIRED_FIELDS": "memsync.memory.topic",
    "STRUCTURED_TYPES": "memsync.memory.topic",
    "MemoryFile": "memsync.memory.topic",
}


__getattr__ = lazy_exports(__name__, _SOURCES)


__all__ = [
    "FRESHNESS_NOTE",
    "INDEX_FILENAME",
    "LOGS_DIRNAME",
    "MAX_ENTRY_CHARS",
    "MAX_INDEX_LINES",
    "MAX_INDEX_UNITS",
    "MAX_SANITIZED_LENGTH",
    "MEMORY_TYPES",
    "REQUIRED_FIELDS",
    "STRUCTURED_TYPES",
    "SUBINDEX_DIRNAME",
    "TEAM_DIRNAME",
    "IndexEntry",
    "MemoryDirectory",
    "MemoryFile",
    "MemoryIndex",
    "Problem",
    "ProblemCode",
    "RelativeDate",
    "Severity",
    "age_days",
    "age_label",
    "djb2_hash",
    "entry_path",
    "find_relative_dates",
    "format_entry",
    "freshness_header",
    "freshness_note",
    "index_fits",
    "is_log_path",
    "is_subindex_path",
    "is_topic_path",
    "link_file",
    "rewrite_relative_dates",
    "sanitize_path",
    "size_label",
    "utf16_len",
]
