"""Installing memsync's Git hooks and receive settings in a project repository.

Every project repository gets a ``pre-receive`` hook (refs policy and content checks)
and a ``post-receive`` hook (queue the merge into ``main``), both running the server's
own Python. :func:`install_hooks` is idempotent and cheap when nothing changed (three
small file reads), so the server calls it whenever it opens a repository: a moved
virtualenv or an upgraded memsync rewrites the hooks on the next push.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import memsync
from memsync.store.repo import GITATTRIBUTES

HOOK_MODULES = {
    "pre-receive": "memsync.sync.prereceive",
    "post-receive": "memsync.sync.postreceive",
}
# A memory repository holds small text files: a pack over this is refused by Git
# before it is even stored in quarantine.
MAX_PUSH_BYTES = 100 * 1024 * 1024
RECEIVE_CONFIG = {
    # Malformed objects are refused before the hooks run.
    "receive.fsckObjects": "true",
    "receive.maxInputSize": str(MAX_PUSH_BYTES),
}
_SOURCE_ROOT = Path(memsync.__file__).resolve().parent.parent


def hook_script(module: str, python: str, source_root: Path) -> str:
    root = shlex.quote(str(source_root))
    return (
        "#!/bin/sh\n"
        "# Installed by memsync (memsync.sync.hooks) and rewritten whenever the server\n"
        "# opens this repository: edits here do not last.\n"
        f"PYTHONPATH={root}${{PYTHONPATH:+:$PYTHONPATH}}\n"
        "export PYTHONPATH\n"
        f"exec {shlex.quote(python)} -m {module}\n"
    )


def install_hooks(
    git_dir: Path, *, python: str = sys.executable, source_root: Path = _SOURCE_ROOT
) -> bool:
    """Make ``git_dir`` run memsync's hooks; True when anything had to be written.

    Besides the hooks: ``core.hooksPath`` points at them (a global setting on the
    server cannot divert them), ``MEMORY.md`` is routed to the index merge driver in
    ``info/attributes`` too (a member's push that edits ``.gitattributes`` cannot turn
    the driver off), and receive checks objects and caps the pack size.
    """
    git_dir = Path(git_dir).resolve()
    hooks_dir = git_dir / "hooks"
    wanted = {
        hooks_dir / name: hook_script(module, python, source_root)
        for name, module in HOOK_MODULES.items()
    }
    attributes = git_dir / "info" / "attributes"
    wanted_attributes = {attributes: GITATTRIBUTES}
    if all(_reads(path) == text for path, text in {**wanted, **wanted_attributes}.items()):
        return False
    hooks_dir.mkdir(parents=True, exist_ok=True)
    for path, text in wanted.items():
        _write(path, text, mode=0o755)
    attributes.parent.mkdir(parents=True, exist_ok=True)
    _write(attributes, GITATTRIBUTES, mode=0o644)
    settings = {"core.hooksPath": str(hooks_dir), **RECEIVE_CONFIG}
    for key, value in settings.items():
        subprocess.run(["git", f"--git-dir={git_dir}", "config", key, value], check=True)
    return True


def _reads(path: Path) -> str | None:
    try:
        return path.read_text()
    except (FileNotFoundError, UnicodeDecodeError):
        return None


def _write(path: Path, text: str, *, mode: int) -> None:
    # Written beside and renamed over, so a push arriving meanwhile runs the old hook
    # or the new one, never half of one.
    partial = path.with_name(f".{path.name}.memsync-new")
    partial.write_text(text)
    partial.chmod(mode)
    partial.replace(path)
