"""A memory repository's warm helper: runs ``memsync extract`` calls with their modules
already imported (started by ``memsync.client.helper_client``, never by hand).

One per repository, in its own session, holding ``<repo>/.git/memsync/helper/lock``. It
imports the extraction once, then serves one call at a time: it checks the caller's uid
(``SO_PEERCRED``) and build, answers READY, and on GO forks a child that takes the
call's stdin, stdout and stderr, directory, umask and environment and runs the same
code the command runs in-process (``memsync.client.cli.run_command``). The helper
itself stays as it was imported: nothing of one call reaches the next, and a call that
crashes (even by a signal) is reported to its caller while the helper serves on.

It exits when idle for its timeout, when its socket is gone or replaced (the
repository removed, say), when its own files change (a new memsync installed: the next
call starts the new one), and on SIGTERM after the call it is running. It writes a
line per call to ``log`` beside the socket.
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import io
import os
import select
import signal
import socket
import sys
import time
import traceback
from collections.abc import Iterator
from pathlib import Path

from memsync.client import helper_client as wire

# How often an idle helper looks at its socket and its own files.
_CHECK_SECONDS = 5.0
# A helper that is exiting (another build's call found it) still holds the lock briefly.
_LOCK_WAIT_SECONDS = 3.0
_LOG_LIMIT_BYTES = 1024 * 1024
_REQUEST_TIMEOUT = 10.0


def code_stamp() -> frozenset[tuple[str, int, int]]:
    """Every module file of this memsync with its size and mtime: a new install or an
    edited checkout changes it. Read before each call (os.scandir: about 0.6 ms)."""
    found = []
    folders = [str(Path(__file__).resolve().parents[1])]
    while folders:
        with os.scandir(folders.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if not entry.name.startswith(("__", ".")):
                        folders.append(entry.path)
                elif entry.name.endswith(".py"):
                    status = entry.stat(follow_symlinks=False)
                    found.append((entry.path, status.st_size, status.st_mtime_ns))
    return frozenset(found)


def preload() -> None:
    """Import what an extraction imports as it runs, so that every child starts warm."""
    from memsync.client.cli import build_parser
    from memsync.client.commands.extract import preload as preload_extract

    build_parser("extract")
    preload_extract()


class Helper:
    """The serving loop of one repository's helper."""

    def __init__(self, repository: Path, directory: int, idle: float) -> None:
        self.repository = repository
        self.directory = directory
        self.idle = idle
        self.stamp = wire.build_stamp()
        self.code = code_stamp()
        self.stopping = False
        self.busy = False
        self.served = 0
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket_inode = 0

    def listen(self) -> None:
        """Bind a new socket (0600) under a temporary name and rename it over whatever
        was there: a caller finds no socket, a stale one, or one that listens."""
        partial = f".{wire.SOCKET_NAME}.{os.getpid()}"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial, dir_fd=self.directory)
        mask = os.umask(0o177)
        try:
            self.listener.bind(wire.in_dir(self.directory, partial))
        finally:
            os.umask(mask)
        self.listener.listen(16)
        os.rename(partial, wire.SOCKET_NAME, src_dir_fd=self.directory, dst_dir_fd=self.directory)
        self.socket_inode = os.stat(wire.SOCKET_NAME, dir_fd=self.directory).st_ino
        _write_beside(self.directory, wire.PID_NAME, f"{os.getpid()}\n")

    def serve(self) -> str:
        """Serve calls until a reason to stop; the reason."""
        last = time.monotonic()
        while not self.stopping:
            left = self.idle - (time.monotonic() - last)
            if left <= 0:
                return f"idle for {self.idle:g} s"
            with contextlib.suppress(InterruptedError):
                ready, _, _ = select.select([self.listener], [], [], min(left, _CHECK_SECONDS))
            reason = self.gone()
            if reason:
                return reason
            if ready:
                reason = self.accept()
                last = time.monotonic()
                if reason:
                    return reason
        return "stopped (SIGTERM)"

    def gone(self) -> str | None:
        try:
            inode = os.stat(wire.SOCKET_NAME, dir_fd=self.directory).st_ino
        except OSError:
            inode = 0
        if inode != self.socket_inode:
            return "its socket was removed or replaced"
        if self.code_changed():
            return "memsync's files changed"
        return None

    def code_changed(self) -> bool:
        try:
            return code_stamp() != self.code
        except OSError:  # removed, being replaced
            return True

    def accept(self) -> str | None:
        """One call; a reason to stop after it, if any."""
        try:
            connection, _ = self.listener.accept()
        except OSError:
            return None
        with connection:
            connection.settimeout(_REQUEST_TIMEOUT)
            received = _receive(connection)
            if received is None:
                return None
            call, descriptors = received
            try:
                return self.answer(connection, call, descriptors)
            finally:
                for descriptor in descriptors:
                    os.close(descriptor)

    def answer(self, connection: socket.socket, call: Call, descriptors: list[int]) -> str | None:
        if call.stamp != self.stamp or self.code_changed():
            with contextlib.suppress(OSError):
                connection.sendall(wire.STALE)
            return "a call from another memsync build"
        try:
            connection.sendall(wire.READY)
            if wire.read_exactly(connection, 1) != wire.GO:
                return None  # the caller runs the command itself
        except OSError:
            return None
        connection.settimeout(None)
        self.served += 1
        started = time.monotonic()
        self.busy = True
        try:
            pid = os.fork()
        except OSError as error:
            self.busy = False
            _log(f"call {self.served}: could not fork: {error}")
            return None  # the caller reports the helper stopped
        if pid == 0:
            connection.close()
            self.listener.close()
            os._exit(_run_child(call, descriptors))
        for descriptor in descriptors:
            os.close(descriptor)
        descriptors.clear()
        with contextlib.suppress(OSError):
            connection.sendall(wire.PID + pid.to_bytes(4, "big", signed=True))
        status = _wait(pid)
        kind, number = (wire.SIGNALLED, -status) if status < 0 else (wire.STATUS, status)
        with contextlib.suppress(OSError):
            connection.sendall(kind + number.to_bytes(4, "big", signed=True))
        outcome = f"killed by signal {-status}" if status < 0 else f"exit {status}"
        _log(
            f"call {self.served}: {' '.join(call.arguments)} (pid {pid}): {outcome} "
            f"in {time.monotonic() - started:.3f} s"
        )
        self.busy = False
        return "stopped (SIGTERM)" if self.stopping else None

    def terminate(self) -> None:
        """SIGTERM: stop now when idle, after the running call otherwise."""
        self.stopping = True
        if not self.busy:
            raise SystemExit(0)

    def close(self) -> None:
        self.listener.close()
        # Only what is still this helper's: a newer helper may have replaced them.
        with contextlib.suppress(OSError):
            if os.stat(wire.SOCKET_NAME, dir_fd=self.directory).st_ino == self.socket_inode:
                os.unlink(wire.SOCKET_NAME, dir_fd=self.directory)
        with contextlib.suppress(OSError, ValueError):
            if int(Path(wire.in_dir(self.directory, wire.PID_NAME)).read_text()) == os.getpid():
                os.unlink(wire.PID_NAME, dir_fd=self.directory)


class Call:
    """One call as :func:`memsync.client.helper_client.request` sent it."""

    def __init__(self, body: bytes) -> None:
        parts = body.split(b"\0")
        head = [part.decode("utf-8", "surrogateescape") for part in parts[:10]]
        self.stamp, self.cwd, mask = head[:3]
        self.umask = int(mask)
        self.encodings = [(head[3 + 2 * i], head[4 + 2 * i]) for i in range(3)]
        count = int(head[9])
        self.arguments = [os.fsdecode(part) for part in parts[10 : 10 + count]]
        environment = parts[10 + count :]
        if len(environment) % 2 or len(self.arguments) != count:
            raise ValueError("a malformed call")
        self.environment = dict(zip(environment[::2], environment[1::2], strict=True))


def _receive(connection: socket.socket) -> tuple[Call, list[int]] | None:
    """The call and the caller's stdio; None (and nothing run) for a caller of another
    user, or a request that is not one."""
    descriptors: list[int] = []
    try:
        if wire.peer_uid(connection) != os.getuid():
            _log("refused a caller of another user")
            return None
        head, descriptors, _, _ = socket.recv_fds(connection, 4, 3)
        while 0 < len(head) < 4 and (more := connection.recv(4 - len(head))):
            head += more
        size = int.from_bytes(head, "big")
        if len(descriptors) != 3 or len(head) != 4 or size > wire.MAX_REQUEST_BYTES:
            raise ValueError("a malformed call")
        body = wire.read_exactly(connection, size)
        if len(body) != size:
            raise ValueError("a truncated call")
        return Call(body), descriptors
    except (OSError, ValueError, IndexError):
        for descriptor in descriptors:
            os.close(descriptor)
        return None


def _wait(pid: int) -> int:
    """The child's exit status, or minus the signal that killed it."""
    while True:
        try:
            _, status = os.waitpid(pid, 0)
        except InterruptedError:
            continue
        if os.WIFSIGNALED(status):
            return -os.WTERMSIG(status)
        return os.waitstatus_to_exitcode(status)


def _run_child(call: Call, descriptors: list[int]) -> int:
    """In the forked child: become the caller's process, run the command, its status."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    status = 1
    try:
        for target, descriptor in enumerate(descriptors):
            os.dup2(descriptor, target)
            os.close(descriptor)
        os.chdir(call.cwd)
        os.umask(call.umask)
        os.environb.clear()
        os.environb.update(call.environment)
        # The streams the caller would have had: its encodings; stderr, and stdout on a
        # terminal, line-buffered (as Python makes them).
        streams = []
        for fd, (encoding, errors) in enumerate(call.encodings):
            raw = io.FileIO(fd, "rb" if fd == 0 else "wb", closefd=False)
            buffer = io.BufferedReader(raw) if fd == 0 else io.BufferedWriter(raw)
            streams.append(
                io.TextIOWrapper(
                    buffer, encoding=encoding or None, errors=errors or None,
                    line_buffering=fd == 2 or os.isatty(fd),
                )
            )  # fmt: skip
        sys.stdin, sys.stdout, sys.stderr = streams
        status = _run_command(call.arguments)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
    return status


def _run_command(arguments: list[str]) -> int:
    """What Python would exit with, had ``memsync ARGUMENTS`` run in this process."""
    from memsync.client.cli import run_command

    try:
        return run_command(arguments)
    except SystemExit as stop:
        if stop.code is None or isinstance(stop.code, int):
            return stop.code or 0
        print(stop.code, file=sys.stderr)
        return 1


def _write_beside(directory: int, name: str, text: str) -> None:
    partial = f".{name}.{os.getpid()}"
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC
    descriptor = os.open(partial, flags, 0o600, dir_fd=directory)
    try:
        os.write(descriptor, text.encode())
    finally:
        os.close(descriptor)
    os.rename(partial, name, src_dir_fd=directory, dst_dir_fd=directory)


def _log(text: str) -> None:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
    print(f"{stamp} [{os.getpid()}] {text}", file=sys.stderr, flush=True)


def _open_log(directory: int) -> None:
    """The log as stdout and stderr, started again once past its limit."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
    descriptor = os.open(wire.LOG_NAME, flags, 0o600, dir_fd=directory)
    if os.fstat(descriptor).st_size > _LOG_LIMIT_BYTES:
        os.truncate(descriptor, 0)
    for target in (1, 2):
        os.dup2(descriptor, target)
    os.close(descriptor)


@contextlib.contextmanager
def _sole_helper(directory: int) -> Iterator[bool]:
    """Whether this is the repository's only helper (the lock held while it runs)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    descriptor = os.open(wire.LOCK_NAME, flags, 0o600, dir_fd=directory)
    try:
        deadline = time.monotonic() + _LOCK_WAIT_SECONDS
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    yield False
                    return
                time.sleep(0.05)
        yield True
    finally:
        os.close(descriptor)


def main(arguments: list[str]) -> int:
    """``REPOSITORY IDLE_SECONDS``, as ``memsync.client.helper_client.start_helper``
    passes them."""
    repository = Path(arguments[0])
    idle = float(arguments[1])
    if wire.repository_of(["extract", str(repository)], "/") is None:
        return 2
    directory = wire.open_helper_dir(str(repository / ".git"), create=False)
    if directory is None:
        return 2
    _open_log(directory)
    os.chdir("/")  # nothing of the caller's directory kept busy
    with _sole_helper(directory) as sole:
        if not sole:
            _log("another helper serves this repository")
            return 0
        try:
            helper = Helper(repository, directory, idle)
            signal.signal(signal.SIGTERM, lambda *_: helper.terminate())
            preload()
            # Children only read what was imported: kept out of the collector, those
            # objects' pages are not copied into every child by its first collection.
            gc.freeze()
            helper.listen()
        except Exception:
            _log(f"could not start:\n{traceback.format_exc()}")
            # Calls run without a helper for a while (helper_client.RETRY_SECONDS).
            _write_beside(directory, wire.FAILED_NAME, f"{os.getpid()}\n")
            return 1
        with contextlib.suppress(FileNotFoundError):
            os.unlink(wire.FAILED_NAME, dir_fd=directory)
        _log(f"serving {repository} (idle timeout {idle:g} s)")
        try:
            reason = helper.serve()
        except SystemExit:
            reason = "stopped (SIGTERM)"
        finally:
            helper.close()
        _log(f"exiting after {helper.served} calls: {reason}")
    return 0
