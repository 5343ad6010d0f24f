"""Installing memsync's Git hooks and receive settings in a project repository.

Every project repository gets a ``pre-receive`` hook (refs policy and content checks)
and a ``post-receive`` hook (queue the merge into ``main``), both running the server's
own Python. :func:`install_hooks` runs when a repository is created and at each
``manage.py migrate`` (``dashboard.sync.configure_repository``, under the repository's
lock), never on a request: two processes rewriting ``.git/config`` at once fail with
"could not lock config file", and a push would get a 500. The hooks name the
interpreter by a stable path (:func:`stable_python`), so every server process writes
the same text whichever spelling of the interpreter started it.

Each hook script first offers the hook to the web worker's warm hook server when the
Git endpoint names one (``memsync/sync/hookclient.py``, ``memsync/sync/hookserver.py``)
and runs it cold when none takes it.
"""

from __future__ import annotations

import os
import shlex
import sys
import tempfile
from pathlib import Path

import memsync
from memsync.store.plumbing import ensure_config
from memsync.store.repo import GITATTRIBUTES
from memsync.sync.hookclient import NOT_SERVED

HOOK_MODULES = {
    "pre-receive": "memsync.sync.prereceive",
    "post-receive": "memsync.sync.postreceive",
}
# A memory repository holds small text files: a pack over this is refused by Git
# before it is even stored in quarantine.
MAX_PUSH_BYTES = 100 * 1024 * 1024
# Git's fsck checks of tree entries that the pre-receive hook makes itself, on every
# tree the push brings (`memsync/sync/trees.py`, `memsync.secrets.check_path`): Git
# would refuse these before the hook runs, naming an object id instead of the file and
# the rule. Every other fsck check stays an error.
CRAFTED_TREE_CHECKS = (
    "badFilemode",
    "duplicateEntries",
    "emptyName",
    "fullPathname",
    "hasDot",
    "hasDotdot",
    "hasDotgit",
    "nullSha1",
    "treeNotSorted",
    "zeroPaddedFilemode",
)
RECEIVE_CONFIG = {
    # Malformed objects are refused before the hooks run.
    "receive.fsckObjects": "true",
    **{f"receive.fsck.{check}": "ignore" for check in CRAFTED_TREE_CHECKS},
    "receive.maxInputSize": str(MAX_PUSH_BYTES),
}
SOURCE_ROOT = Path(memsync.__file__).resolve().parent.parent
# The server's own attributes (``info/attributes`` outranks every ``.gitattributes``). A
# member's ``.gitattributes`` is memory like any file, but on the server it would change
# how Git stores, checks out, merges and shows files: ``working-tree-encoding=UTF-16LE``
# re-encoded every checkout (extraction and dreams then read garbage), ``merge=union``
# concatenated conflicting edits into ``main`` past review, ``-diff`` hid changes from
# History, ``filter``/``ident``/``eol``/``text`` rewrite content on the way in or out.
# ``!attr`` puts each back to unspecified — Git's defaults — for every path; the index
# merge driver is then set again for ``MEMORY.md`` (a later line wins).
SERVER_ATTRIBUTES = (
    "# Written by memsync (memsync.sync.hooks): members' .gitattributes cannot change\n"
    "# how the server stores, checks out, merges or shows files.\n"
    "* !working-tree-encoding !filter !merge !diff !eol !text !crlf !ident"
    " !conflict-marker-size\n"
    f"{GITATTRIBUTES}"
)


def stable_python() -> str:
    """The interpreter, spelled the same by every process of one installation.

    ``sys.executable`` is however the process was started (``python``, ``python3.11``,
    a symlinked path to the same virtualenv); ``sys.prefix``'s ``bin/python`` is the
    environment's own name for it. Outside a virtualenv that name may not exist.
    """
    candidate = Path(sys.prefix) / "bin" / "python"
    return str(candidate) if candidate.exists() else sys.executable


def hook_script(hook: str, python: str, source_root: Path) -> str:
    """The hook: handed to the server's warm hook server when the server's Git endpoint
    names one (``memsync/sync/hookclient.py``), run cold otherwise (a push that did not
    come through the endpoint, a server not started yet or gone)."""
    root = shlex.quote(str(source_root))
    client = shlex.quote(str(source_root / "memsync" / "sync" / "hookclient.py"))
    return (
        "#!/bin/sh\n"
        "# Installed by memsync (memsync.sync.hooks) when the repository was created and\n"
        "# at each `manage.py migrate`: edits here do not last.\n"
        'if [ -n "${MEMSYNC_HOOK_SERVER:-}" ]; then\n'
        f"\t{shlex.quote(python)} -I -S {client} {hook}\n"
        "\tstatus=$?\n"
        f'\t[ "$status" -eq {NOT_SERVED} ] || exit "$status"\n'
        "fi\n"
        f"PYTHONPATH={root}${{PYTHONPATH:+:$PYTHONPATH}}\n"
        "export PYTHONPATH\n"
        f"exec {shlex.quote(python)} -m {HOOK_MODULES[hook]}\n"
    )


def install_hooks(
    git_dir: Path, *, python: str | None = None, source_root: Path = SOURCE_ROOT
) -> bool:
    """Make ``git_dir`` run memsync's hooks; True when anything had to be written.

    Besides the hooks: ``core.hooksPath`` points at them (a global setting on the
    server cannot divert them), ``info/attributes`` pins :data:`SERVER_ATTRIBUTES` (a
    member's push that edits ``.gitattributes`` cannot turn the index merge driver off,
    nor re-encode, filter or union-merge files), and receive checks objects and caps
    the pack size. Call it at
    creation or migration, holding the repository's lock: it may write ``.git/config``.
    """
    git_dir = Path(git_dir).resolve()
    changed = restore_hook_files(git_dir, python=python, source_root=source_root)
    settings = {"core.hooksPath": str(git_dir / "hooks"), **RECEIVE_CONFIG}
    return ensure_config(git_dir, settings) or changed


def restore_hook_files(
    git_dir: Path, *, python: str | None = None, source_root: Path = SOURCE_ROOT
) -> bool:
    """Put back memsync's hook and attribute files where they differ (a hand edit, a
    deleted file); True when any was. Cheap when nothing changed (three small reads),
    and safe on a request path: each file is replaced by a rename, no config is written,
    and every process of one installation wants the same text (:func:`stable_python`).
    """
    git_dir = Path(git_dir).resolve()
    hooks_dir = git_dir / "hooks"
    python = python or stable_python()
    wanted = {
        hooks_dir / name: (hook_script(name, python, source_root), 0o755) for name in HOOK_MODULES
    }
    wanted[git_dir / "info" / "attributes"] = (SERVER_ATTRIBUTES, 0o644)
    changed = False
    for path, (text, mode) in wanted.items():
        if _reads(path) != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            _write(path, text, mode=mode)
            changed = True
    return changed


def _reads(path: Path) -> str | None:
    try:
        return path.read_text()
    except (FileNotFoundError, UnicodeDecodeError):
        return None


def _write(path: Path, text: str, *, mode: int) -> None:
    # Written beside and renamed over, so a push arriving meanwhile runs the old hook
    # or the new one, never half of one.
    # Each writer has its own partial file: two processes putting a hook back at once
    # each rename a whole one.
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    partial = Path(name)
    try:
        with os.fdopen(handle, "w") as out:
            out.write(text)
        partial.chmod(mode)
        partial.replace(path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
