"""The one directory an agent may touch.

Every path a model names goes through `Sandbox` before any file is opened. The
checks run on the string first (NUL, backslash, look-alike characters, ``..``,
absolute paths), then on the disk (symbolic links at any component, hard links),
so a refusal can say exactly what was wrong. Operations then use the path this
class returns, never the model's string: a lexical ``a/../b`` is opened as
``<root>/b``, so a symlinked ``a`` cannot take the ``..`` somewhere else.
Nothing under ``.git`` is read or written; the lock file and the root itself are
never changed.

Look-alikes: SPEC T4 checks paths "after Unicode NFKC folding". A fullwidth
``．．／`` is a harmless name on Linux, but the same files sync to developer
machines and pass through tools that fold; so a character that folds into ``.``,
``/`` or ``\\`` is refused outright, and the ``.git`` and lock-file rules are
checked on the folded spelling too.
"""

from __future__ import annotations

import os
import stat
import unicodedata
from pathlib import Path
from typing import NamedTuple

GIT_DIR_NAME = ".git"
LOCK_FILE_NAME = ".consolidate-lock"

_PATH_SIGNIFICANT = frozenset("./\\\x00")


class SandboxDenied(Exception):
    """A path or command the agent may not use; the message says what and why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _Located(NamedTuple):
    lexical: Path  # root joined with the normalised request, symlinks not followed
    real: Path  # every symlink followed, checked to be inside the root


class Sandbox:
    """Resolves model-supplied paths inside `root`, refusing everything else."""

    def __init__(self, root: Path, writable: bool = True) -> None:
        real = Path(os.path.realpath(root))
        if not real.is_dir():
            raise ValueError(f"sandbox root {root} is not a directory")
        self.root = real
        self.writable = writable
        # Absolute paths the model copies from a prompt may use the unresolved spelling
        # (e.g. /tmp/... where /tmp is a symlink); both name the same directory.
        self._given_root = Path(os.path.normpath(Path(root).absolute()))

    def resolve(self, path: str) -> Path:
        """The real path to read for `path`, or `SandboxDenied`."""
        return self._locate(path).real

    def resolve_for_write(self, path: str) -> Path:
        """The real path to create or overwrite for `path`, or `SandboxDenied`."""
        self.require_writable(path)
        located = self._locate(path)
        self._refuse_protected(path, located)
        return located.real

    def resolve_for_delete(self, path: str) -> Path:
        """The path of a file to unlink: like a write, and never through a symlink.

        Unlinking the real path of ``link.md`` would delete the file it points to,
        not the link the model named.
        """
        self.require_writable(path)
        located = self._locate(path)
        self._refuse_protected(path, located)
        if located.lexical.is_symlink():
            raise SandboxDenied(f"refused to delete {path!r}: it is a symbolic link")
        return located.real

    def require_writable(self, path: str) -> None:
        if not self.writable:
            raise SandboxDenied(
                f"refused to change {path!r}: the memory directory is read-only in this run"
            )

    def relative(self, path: Path) -> str:
        """`path` (inside the root) as the model should see it: POSIX, relative."""
        rel = os.path.relpath(path, self.root)
        return "." if rel == "." else Path(rel).as_posix()

    def contains(self, path: Path) -> bool:
        return _is_within(Path(os.path.realpath(path)), self.root)

    def check_spelling(self, text: str, what: str = "path") -> None:
        """Refuse NUL, backslashes and look-alikes in a path or path pattern."""
        if "\x00" in text:
            raise SandboxDenied(f"refused {what} {text!r}: it contains a NUL byte")
        for char in text:
            if ord(char) < 128:
                continue
            folded = unicodedata.normalize("NFKC", char)
            if any(c in _PATH_SIGNIFICANT for c in folded):
                raise SandboxDenied(
                    f"refused {what} {text!r}: {char!r} (U+{ord(char):04X}) is a look-alike "
                    f"of {folded!r} after Unicode NFKC folding"
                )
        if "\\" in text:
            raise SandboxDenied(
                f"refused {what} {text!r}: backslashes are not allowed in paths (use '/')"
            )

    def _locate(self, path: str) -> _Located:
        if not isinstance(path, str):
            raise SandboxDenied(f"refused path {path!r}: a path must be a string")
        if not path:
            raise SandboxDenied("refused an empty path")
        self.check_spelling(path)
        lexical = self._lexical(path)
        folded = unicodedata.normalize("NFKC", path)
        if folded != path:
            self._lexical(folded, shown=f"{path!r} (NFKC-folded to {folded!r})")
        self._refuse_git(path, lexical)
        real = self._follow_links(path, lexical)
        self._refuse_git(path, real)
        return _Located(lexical, real)

    def _refuse_git(self, path: str, candidate: Path) -> None:
        # .git holds no memory and may hold credentials (a remote URL in .git/config),
        # so the agent neither reads nor writes there.
        if GIT_DIR_NAME in self._folded_parts(candidate):
            raise SandboxDenied(
                f"refused {path!r}: files under .git/ belong to Git, not to the memory"
            )

    def _folded_parts(self, candidate: Path) -> list[str]:
        return [
            unicodedata.normalize("NFKC", part).casefold()
            for part in candidate.relative_to(self.root).parts
        ]

    def _lexical(self, path: str, shown: str | None = None) -> Path:
        shown = shown or repr(path)
        if Path(path).is_absolute():
            normal = Path(os.path.normpath(path))
            for root in (self.root, self._given_root):
                if _is_within(normal, root):
                    return self.root / normal.relative_to(root)
            raise SandboxDenied(
                f"refused {shown}: it is an absolute path outside the memory directory"
            )
        normal = Path(os.path.normpath(self.root / path))
        if not _is_within(normal, self.root):
            raise SandboxDenied(f"refused {shown}: '..' leads out of the memory directory")
        return normal

    def _follow_links(self, path: str, lexical: Path) -> Path:
        current = self.root
        for part in lexical.relative_to(self.root).parts:
            current = current / part
            if current.is_symlink():
                target = Path(os.path.realpath(current))
                if not _is_within(target, self.root):
                    raise SandboxDenied(
                        f"refused {path!r}: {self.relative(current)!r} is a symbolic link "
                        "that points outside the memory directory"
                    )
        real = Path(os.path.realpath(lexical))
        if not _is_within(real, self.root):
            raise SandboxDenied(f"refused {path!r}: it resolves outside the memory directory")
        try:
            info = real.stat()
        except OSError:
            return real
        # A hard link is indistinguishable from the file it shares with, which may be
        # anywhere on the same filesystem; memory files never need one.
        if stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
            raise SandboxDenied(
                f"refused {path!r}: the file has {info.st_nlink} hard links, "
                "and one of them may be outside the memory directory"
            )
        return real

    def _refuse_protected(self, path: str, located: _Located) -> None:
        """What may be read but never changed: the root itself and the lock file."""
        for candidate in (located.lexical, located.real):
            if candidate == self.root:
                raise SandboxDenied(
                    f"refused to change {path!r}: it is the memory directory itself"
                )
            parts = self._folded_parts(candidate)
            if parts[-1] == LOCK_FILE_NAME:
                raise SandboxDenied(
                    f"refused to change {path!r}: {LOCK_FILE_NAME} is the consolidation "
                    "lock, not a memory"
                )


def _is_within(path: Path, root: Path) -> bool:
    return path == root or path.is_relative_to(root)
