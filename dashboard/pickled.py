"""Answers the web processes share through a file in the repository's git directory
(``<git dir>/memsync/``): Django's cache is per process unless a shared one is
configured, so each gunicorn worker, and each restart, would read them from Git again.

Pickle, as Django's file cache stores: the files are the server's own, in a git
directory no push writes. A file that is missing, damaged or of another shape reads as
absent; a write is atomic (written aside, renamed), so a reader never sees half of one.
"""

from __future__ import annotations

import pickle
import tempfile
from pathlib import Path


def load(path: Path) -> object | None:
    try:
        with path.open("rb") as file:
            return pickle.load(file)  # noqa: S301 (our own file, see above)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError,
            IndexError, TypeError, ValueError):  # fmt: skip
        return None


def store(path: Path, value: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, delete=False, suffix=".tmp") as out:
        pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
    Path(out.name).replace(path)
