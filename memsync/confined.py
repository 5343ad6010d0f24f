"""Reading and writing inside one directory, never through a symbolic link (issue 10).

A memory repository is member input: its tree may hold symlinks (pushed before pushes
refused them, or written by a client) and the server must not follow any of them. A
lexical check is not enough: a chain such as ``x/y -> ..``, ``u1 -> x/y/..``,
``MEMORY.md -> u1/…/victim`` looks harmless link by link and still leaves the root.

So a `ConfinedRoot` never resolves a path: it opens the root, then each component
relative to the directory before it with ``O_NOFOLLOW`` (``dir_fd``), and refuses the
first symlink it meets, dangling or not, with a `ConfinementError` that names the
path and the link. Absolute paths and ``..`` are refused before any I/O. Writes go
to a temporary file in the same directory, then ``os.replace`` by directory
descriptor: a rename replaces a link instead of following it, so even a link that
appears between the check and the write cannot redirect the data.

Paths are relative, ``/``-separated, as Git names them; the root itself is
server-chosen and may be reached through links of its own (``/tmp`` on some hosts).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path, PurePath, PurePosixPath

_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC
_DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW
# O_NONBLOCK: opening a FIFO planted in the tree must not hang the worker; it is then
# refused as "not a regular file" below.
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW
_FILE_MODE = 0o644


class ConfinementError(Exception):
    """A path that would leave the root, or pass through a symbolic link."""

    def __init__(self, path: str, reason: str, link: str | None = None) -> None:
        self.path = path
        self.link = link
        self.reason = reason
        super().__init__(f"{path}: {reason}")


class EntryKind(StrEnum):
    FILE = "file"
    DIRECTORY = "directory"
    LINK = "link"
    OTHER = "other"  # a FIFO, socket or device: never memory


@dataclass(frozen=True)
class Entry:
    name: str
    kind: EntryKind


def _kind(mode: int) -> EntryKind:
    if stat.S_ISLNK(mode):
        return EntryKind.LINK
    if stat.S_ISDIR(mode):
        return EntryKind.DIRECTORY
    if stat.S_ISREG(mode):
        return EntryKind.FILE
    return EntryKind.OTHER


class ConfinedRoot:
    """Files under ``root``, reached without following any symlink below it."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)

    def __repr__(self) -> str:
        return f"ConfinedRoot({str(self.root)!r})"

    # -- paths ---------------------------------------------------------------

    def parts(self, path: str | PurePath) -> list[str]:
        """The components of a relative path; ``..``, absolute and empty paths refused."""
        text = path.as_posix() if isinstance(path, PurePath) else str(path)
        if "\0" in text:
            raise ConfinementError(repr(text), "the path contains a NUL byte")
        if text.startswith("/") or PurePosixPath(text).is_absolute():
            raise ConfinementError(text, "the path is absolute")
        parts = [part for part in text.split("/") if part not in ("", ".")]
        if ".." in parts:
            raise ConfinementError(text, "the path has a `..` component")
        return parts

    def relative(self, path: Path | str) -> str:
        """``path`` (absolute under the root, or already relative) as a relative path."""
        candidate = Path(path)
        if candidate.is_absolute():
            try:
                candidate = candidate.relative_to(self.root)
            except ValueError:
                raise ConfinementError(str(path), f"the path is outside {self.root}") from None
        return candidate.as_posix()

    # -- descriptors ---------------------------------------------------------

    def _open_root(self) -> int:
        return os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)

    def _refuse_link(self, fd: int, name: str, shown: str) -> None:
        """Raise `ConfinementError` when ``name`` in ``fd`` is a symlink; else return."""
        try:
            info = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            return
        if stat.S_ISLNK(info.st_mode):
            try:
                target = os.readlink(name, dir_fd=fd)
            except OSError:
                target = "?"
            why = f"`{shown}` is a symbolic link (to `{target}`); links are not followed"
            raise ConfinementError(shown, why, shown)

    def _open_directory(self, parts: list[str], *, create: bool = False) -> int:
        """A descriptor of the directory ``parts`` names, every step without following links."""
        fd = self._open_root()
        walked: list[str] = []
        try:
            for name in parts:
                walked.append(name)
                shown = "/".join(walked)
                try:
                    child = os.open(name, _DIRECTORY_FLAGS, dir_fd=fd)
                except FileNotFoundError:
                    self._refuse_link(fd, name, shown)  # a dangling link is not "absent"
                    if not create:
                        raise FileNotFoundError(errno.ENOENT, "no such directory", shown) from None
                    # Made concurrently: then it is opened (and checked) below all the same.
                    with contextlib.suppress(FileExistsError):
                        os.mkdir(name, 0o755, dir_fd=fd)
                    child = os.open(name, _DIRECTORY_FLAGS, dir_fd=fd)
                except OSError as error:
                    # ELOOP: the name is a link; ENOTDIR: a link or a plain file.
                    self._refuse_link(fd, name, shown)
                    raise NotADirectoryError(errno.ENOTDIR, "not a directory", shown) from error
                os.close(fd)
                fd = child
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _parent(self, path: str | PurePath, *, create: bool = False) -> tuple[int, str, str]:
        """(descriptor of the parent directory, leaf name, the path as shown)."""
        parts = self.parts(path)
        if not parts:
            raise ConfinementError(str(path) or ".", "the path names the root itself")
        shown = "/".join(parts)
        return self._open_directory(parts[:-1], create=create), parts[-1], shown

    # -- queries -------------------------------------------------------------

    def kind(self, path: str | PurePath) -> EntryKind | None:
        """What ``path`` is (a `LINK` only for the last component), None when absent.

        A symlink among the directories above it raises `ConfinementError`.
        """
        parts = self.parts(path)
        if not parts:
            return EntryKind.DIRECTORY
        try:
            fd = self._open_directory(parts[:-1])
        except (FileNotFoundError, NotADirectoryError):
            return None
        try:
            return _kind(os.stat(parts[-1], dir_fd=fd, follow_symlinks=False).st_mode)
        except FileNotFoundError:
            return None
        finally:
            os.close(fd)

    def _require_plain(self, path: str | PurePath, kind: EntryKind | None) -> EntryKind | None:
        if kind is EntryKind.LINK:
            shown = "/".join(self.parts(path))
            raise ConfinementError(
                shown, f"`{shown}` is a symbolic link; links are not followed", shown
            )
        return kind

    def exists(self, path: str | PurePath) -> bool:
        """Whether a file or directory is at ``path``; a link there (even dangling) raises."""
        return self._require_plain(path, self.kind(path)) is not None

    def is_file(self, path: str | PurePath) -> bool:
        return self._require_plain(path, self.kind(path)) is EntryKind.FILE

    def is_dir(self, path: str | PurePath) -> bool:
        return self._require_plain(path, self.kind(path)) is EntryKind.DIRECTORY

    def scan(self, path: str | PurePath = "") -> list[Entry]:
        """The entries of a directory, sorted by name, links reported as `LINK`."""
        fd = self._open_directory(self.parts(path))
        try:
            with os.scandir(fd) as found:
                entries = [
                    Entry(entry.name, _kind(entry.stat(follow_symlinks=False).st_mode))
                    for entry in found
                ]
        finally:
            os.close(fd)
        return sorted(entries, key=lambda entry: entry.name)

    def listdir(self, path: str | PurePath = "") -> list[str]:
        return [entry.name for entry in self.scan(path)]

    def walk(
        self, path: str | PurePath = "", *, skip: frozenset[str] = frozenset({".git"})
    ) -> Iterator[tuple[str, Entry]]:
        """(relative path, entry) for everything below ``path``, links not entered.

        Directories named in ``skip`` are neither yielded nor entered.
        """
        base = "/".join(self.parts(path))
        for entry in self.scan(base):
            if entry.name in skip:
                continue
            relative = f"{base}/{entry.name}" if base else entry.name
            yield relative, entry
            if entry.kind is EntryKind.DIRECTORY:
                yield from self.walk(relative, skip=skip)

    # -- reading -------------------------------------------------------------

    def read_bytes(self, path: str | PurePath) -> bytes:
        fd, name, shown = self._parent(path)
        try:
            try:
                file_fd = os.open(name, _READ_FLAGS, dir_fd=fd)
            except OSError as error:
                if error.errno in (errno.ELOOP, errno.ENOENT, errno.ENOTDIR):
                    self._refuse_link(fd, name, shown)
                if error.errno == errno.ENOENT:
                    raise FileNotFoundError(errno.ENOENT, "no such file", shown) from None
                raise
        finally:
            os.close(fd)
        with os.fdopen(file_fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                kind = _kind(os.fstat(handle.fileno()).st_mode)
                if kind is EntryKind.DIRECTORY:
                    raise IsADirectoryError(errno.EISDIR, "is a directory", shown)
                raise ConfinementError(shown, f"`{shown}` is not a regular file")
            return handle.read()

    def read_text(
        self, path: str | PurePath, encoding: str = "utf-8", errors: str = "strict"
    ) -> str:
        return self.read_bytes(path).decode(encoding, errors)

    # -- writing -------------------------------------------------------------

    def mkdirs(self, path: str | PurePath) -> None:
        """Make ``path`` and its missing parents; a link on the way raises."""
        os.close(self._open_directory(self.parts(path), create=True))

    def write(self, path: str | PurePath, data: bytes | str, *, mkdirs: bool = True) -> None:
        """Replace ``path`` atomically with ``data`` (UTF-8 when text).

        A symlink at ``path`` is refused, not replaced: it says the tree holds
        something a member planted, which the caller reports.
        """
        payload = data.encode("utf-8") if isinstance(data, str) else data
        fd, name, shown = self._parent(path, create=mkdirs)
        try:
            mode = _FILE_MODE
            try:
                info = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                pass
            else:
                self._refuse_link(fd, name, shown)
                if stat.S_ISDIR(info.st_mode):
                    raise IsADirectoryError(errno.EISDIR, "is a directory", shown)
                mode = stat.S_IMODE(info.st_mode)
            temporary = f".{name[:80]}.{secrets.token_hex(6)}.tmp"
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
            file_fd = os.open(temporary, flags, mode, dir_fd=fd)
            try:
                with os.fdopen(file_fd, "wb") as handle:
                    handle.write(payload)
                os.replace(temporary, name, src_dir_fd=fd, dst_dir_fd=fd)
            except BaseException:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(temporary, dir_fd=fd)
                raise
        finally:
            os.close(fd)

    def unlink(self, path: str | PurePath, *, missing_ok: bool = False) -> None:
        """Remove the file at ``path``.

        A link as the last component is removed itself (that never touches its
        target), so a writer can clear one it was told to delete; a link above it
        raises like everywhere else.
        """
        try:
            fd, name, shown = self._parent(path)
        except (FileNotFoundError, NotADirectoryError):
            if missing_ok:
                return
            raise
        try:
            os.unlink(name, dir_fd=fd)
        except FileNotFoundError:
            if not missing_ok:
                raise FileNotFoundError(errno.ENOENT, "no such file", shown) from None
        finally:
            os.close(fd)
