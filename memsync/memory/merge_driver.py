"""The git merge driver for ``MEMORY.md``: ``python -m memsync.memory.merge_driver %O %A %B``.

Git calls it with the common ancestor, our version (which it reads back as the result)
and theirs, whenever both sides changed the index. The merge is by entry
(`memsync.memory.merge`), so it never leaves conflict markers: exit 0 with a valid index
in ``%A``. Its own small entry point, so the server's merges do not start the developer
CLI; ``memsync merge-index`` calls the same function for repositories set up before.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .merge import merge_index_bytes


def merge_files(base: Path, ours: Path, theirs: Path) -> None:
    """Merge ``theirs`` into ``ours`` in place; a missing base or theirs reads as empty."""
    base_bytes = base.read_bytes() if base.exists() else b""
    theirs_bytes = theirs.read_bytes() if theirs.exists() else b""
    ours.write_bytes(merge_index_bytes(base_bytes, ours.read_bytes(), theirs_bytes))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 3:
        print("usage: python -m memsync.memory.merge_driver BASE OURS THEIRS", file=sys.stderr)
        return 2
    try:
        merge_files(*(Path(arg) for arg in args))
    except OSError as error:
        # Non-zero: git leaves the file conflicted instead of taking a half-written merge.
        print(f"memsync merge driver: cannot merge MEMORY.md: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
