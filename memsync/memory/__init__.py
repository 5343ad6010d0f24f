"""The Claude Code memory format (SPEC F): topic files, `MEMORY.md`, problems,
freshness, relative dates and path sanitizing. Pure Python: no Git, no Django, no
environment variables."""

from memsync.memory.dates import RelativeDate, find_relative_dates, rewrite_relative_dates
from memsync.memory.directory import (
    LOGS_DIRNAME,
    TEAM_DIRNAME,
    MemoryDirectory,
    is_log_path,
    is_topic_path,
)
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
