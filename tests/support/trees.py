"""Before/after pictures of directory trees, for tests that must prove nothing escaped."""

from __future__ import annotations

from pathlib import Path


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under `directory` (symlinks as their target string)."""
    files: dict[str, bytes] = {}
    for path in sorted(directory.rglob("*")):
        key = path.relative_to(directory).as_posix()
        if path.is_symlink():
            files[key] = b"-> " + str(path.readlink()).encode()
        elif path.is_file():
            files[key] = path.read_bytes()
    return files
