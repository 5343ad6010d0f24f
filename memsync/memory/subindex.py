"""Sub-indexes: how an index too big for 200 lines / 25,000 bytes stays complete.

``MEMORY.md`` keeps one entry per group, linking a sub-index file directly in the
``indexes/`` folder of the memory directory (``indexes/projects.md``; ``team/indexes/…``
for the team scope). A sub-index lists the group's entries in the usual
``- [Title](../file.md) — hook`` format, with targets relative to the sub-index's own
folder. Every memory is then at most one intermediate link away from ``MEMORY.md``,
and a reader counts a sub-index's entries as indexed only when ``MEMORY.md`` links it.
"""

from __future__ import annotations

import functools
import posixpath

from memsync.memory.index import link_file

SUBINDEX_DIRNAME = "indexes"


def is_subindex_path(path: str) -> bool:
    """``indexes/<name>.md``, relative to its memory directory."""
    folder, _, name = path.partition("/")
    return folder == SUBINDEX_DIRNAME and name.endswith(".md") and "/" not in name


# Sized like `memsync.memory.entry_line.entry_parts`: every entry of a 10,000-memory dream.
@functools.lru_cache(maxsize=65536)
def entry_path(index_path: str, target: str) -> str | None:
    """The file an entry of ``index_path`` links to, relative to the memory directory;
    None for URLs, anchors and paths that leave the directory."""
    folder = posixpath.dirname(index_path)
    cleaned = target.strip()
    if cleaned.startswith("<") and cleaned.endswith(">"):
        cleaned = cleaned[1:-1].strip()
    if folder and cleaned.startswith("../"):
        return link_file(cleaned[3:])
    resolved = link_file(cleaned)
    if resolved is None or not folder:
        return resolved
    return f"{folder}/{resolved}"


def link_from(index_path: str, path: str) -> str:
    """The link target that reaches ``path`` from an entry in ``index_path``."""
    return f"../{path}" if posixpath.dirname(index_path) else path
