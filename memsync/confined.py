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

Two things make many operations cheap without loosening any of that: `held` keeps the
root open for a block of work (a dream reads and writes thousands of files; each
still walks its components one by one), and ``write(..., in_place=True)`` writes into
an existing plain file through a descriptor opened without following links and
checked to be that very file with no other name (no new inode, no rename: about a
tenth of the cost on ext4). It is not atomic, so it is only for a directory thrown
away when its writer fails, such as a dream's worktree.

Paths are relative, ``/``-separated, as Git names them; the root itself is
server-chosen and may be reached through links of its own (``/tmp`` on some hosts).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path, PurePath

_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC
_DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW
# O_NONBLOCK: opening a FIFO planted in the tree must not hang the worker; it is then
# refused as "not a regular file" below.
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW
_FILE_MODE = 0o644
_READ_CHUNK = 1 << 16


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
        self._root_fd: int | None = None

    def __repr__(self) -> str:
        return f"ConfinedRoot({str(self.root)!r})"

    # -- paths ---------------------------------------------------------------

    def parts(self, path: str | PurePath) -> list[str]:
        """The components of a relative path; ``..``, absolute and empty paths refused."""
        text = path.as_posix() if isinstance(path, PurePath) else str(path)
        if "\0" in text:
            raise ConfinementError(repr(text), "the path contains a NUL byte")
        if text.startswith("/"):  # what makes a POSIX path absolute
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

    @contextlib.contextmanager
    def held(self) -> Iterator[ConfinedRoot]:
        """The root opened once for every operation in the block, instead of once per
        operation (from one thread: the descriptor is this object's). Paths below it
        are walked as always; a root renamed meanwhile is still the one opened."""
        if self._root_fd is not None:
            yield self
            return
        fd = self._root_fd = self._open_root()
        try:
            yield self
        finally:
            self._root_fd = None
            os.close(fd)

    def _open_root(self) -> int:
        if self._root_fd is not None:
            return self._root_fd
        return os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)

    def _release(self, fd: int) -> None:
        """Close a directory descriptor this object opened, but not the held root."""
        if fd != self._root_fd:
            os.close(fd)

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
                self._release(fd)
                fd = child
        except BaseException:
            self._release(fd)
            raise
        return fd

    def _parent(self, path: str | PurePath, *, create: bool = False) -> tuple[int, str, str]:
        """(descriptor of the parent directory, leaf name, the path as shown)."""
        if type(path) is str and _is_plain_name(path):
            # A name directly in the root (most of a dream's thousands of files): what
            # `parts` and the walk below give for it, without building either.
            return self._open_root(), path, path
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
            self._release(fd)

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
            self._release(fd)
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
            self._release(fd)
        try:
            mode = os.fstat(file_fd).st_mode
            if not stat.S_ISREG(mode):
                if _kind(mode) is EntryKind.DIRECTORY:
                    raise IsADirectoryError(errno.EISDIR, "is a directory", shown)
                raise ConfinementError(shown, f"`{shown}` is not a regular file")
            return _read_all(file_fd)
        finally:
            os.close(file_fd)

    def read_text(
        self, path: str | PurePath, encoding: str = "utf-8", errors: str = "strict"
    ) -> str:
        return self.read_bytes(path).decode(encoding, errors)

    # -- writing -------------------------------------------------------------

    def mkdirs(self, path: str | PurePath) -> None:
        """Make ``path`` and its missing parents; a link on the way raises."""
        self._release(self._open_directory(self.parts(path), create=True))

    def write(
        self,
        path: str | PurePath,
        data: bytes | str,
        *,
        mkdirs: bool = True,
        in_place: bool = False,
    ) -> None:
        """Replace ``path`` atomically with ``data`` (UTF-8 when text).

        A symlink at ``path`` is refused, not replaced: it says the tree holds
        something a member planted, which the caller reports. With ``in_place``, an
        existing plain file is overwritten through its own descriptor instead
        (`_overwrite`): not atomic, so only for a directory discarded on failure.
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
                if stat.S_ISLNK(info.st_mode):
                    self._refuse_link(fd, name, shown)
                if stat.S_ISDIR(info.st_mode):
                    raise IsADirectoryError(errno.EISDIR, "is a directory", shown)
                if in_place and _overwrite(fd, name, info, payload):
                    return
                mode = stat.S_IMODE(info.st_mode)
            temporary = f".{name[:80]}.{os.urandom(6).hex()}.tmp"
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
            self._release(fd)

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
            self._release(fd)


def _is_plain_name(path: str) -> bool:
    """Whether `ConfinedRoot.parts` gives ``[path]``: one component, nothing it refuses
    (a NUL byte, a ``/`` and so an absolute path, ``..``), nothing it drops (``.``)."""
    return "/" not in path and "\0" not in path and path not in ("", ".", "..")


def _read_all(fd: int) -> bytes:
    """Everything left in the file: plain reads, without a buffered file object (a
    dream reads thousands of small files, where that object costs more than the read)."""
    chunks = []
    while chunk := os.read(fd, _READ_CHUNK):
        chunks.append(chunk)
    return b"".join(chunks)


def _overwrite(directory_fd: int, name: str, seen: os.stat_result, payload: bytes) -> bool:
    """Write ``payload`` into the plain file ``name`` that ``seen`` describes, through a
    descriptor of that very file; False (nothing written) when it is anything else.

    Only a regular file with no other name qualifies: writing through a hard link would
    change the file under its other name too, which may be outside the root. The file
    is opened without following a link (one swapped in since ``seen`` fails the open)
    and must still be the inode ``seen`` describes; O_NONBLOCK keeps a FIFO swapped
    in from blocking. The new bytes are written first, then the old tail cut, which
    frees no block the new content reuses (cheaper than truncating to nothing)."""
    if not stat.S_ISREG(seen.st_mode) or seen.st_nlink != 1:
        return False
    try:
        file_fd = os.open(
            name, os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | _NOFOLLOW, dir_fd=directory_fd
        )
    except OSError:
        return False
    try:
        opened = os.fstat(file_fd)
        same = (opened.st_dev, opened.st_ino) == (seen.st_dev, seen.st_ino)
        if not same or not stat.S_ISREG(opened.st_mode) or opened.st_nlink != 1:
            return False
        written = 0
        while written < len(payload):
            written += os.write(file_fd, memoryview(payload)[written:])
        os.ftruncate(file_fd, len(payload))
    finally:
        os.close(file_fd)
    return True
