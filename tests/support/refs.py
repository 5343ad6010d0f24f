"""Refs as a web process meets them between pushes: written a while ago."""

from __future__ import annotations

import os
import time
from pathlib import Path


def refs_written_long_ago(git_dir: Path) -> None:
    """Every ref folder and ``packed-refs`` of ``git_dir`` as if last written a minute
    ago: past the two seconds within which ``MemoryRepo.refs_stamp`` is not given out."""
    past = time.time_ns() - 60 * 10**9
    refs = git_dir / "refs"
    for path in [git_dir / "packed-refs", refs, *refs.rglob("*")]:
        if path.exists():
            os.utime(path, ns=(past, past))
