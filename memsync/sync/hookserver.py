"""A warm process that runs memsync's Git hooks: ``python -m memsync.sync.hookserver``.

Started by the server's Git endpoint (``dashboard/githttp.py``, one per web worker
process) through :class:`HookServer`; its socket is passed to every ``git
receive-pack`` in ``MEMSYNC_HOOK_SERVER``. It imports what the hooks need once — the
push inspection with its secret rules, the memory format, Celery's Redis transport —
and compiles the rules by scanning a sample, then forks one child per hook that
``memsync/sync/hookclient.py`` hands over. The child takes the hook's stdin, stdout and
stderr (passed over the socket), its environment (Git's quarantine variables, the
pusher) and its working directory, runs the same ``main()`` the cold hook runs, and
sends back its exit status. A fork of a process that has imported everything costs a
few milliseconds, against ~0.8 s for a cold pre-receive (issue 14).

The server is single-threaded (children are forked from it, never from a threaded web
worker), runs with the small environment Git itself gets, runs only memsync's own two
hooks, and exits when the process that started it is gone. Whoever can reach its
socket (a private directory) could already run the hooks themselves.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import IO

from memsync.sync.hooks import HOOK_MODULES, SOURCE_ROOT, stable_python

ADDRESS_VARIABLE = "MEMSYNC_HOOK_SERVER"
SOCKET_NAME = "hooks.sock"
# How often the server looks whether the process that started it is still there.
_PARENT_CHECK_SECONDS = 1.0
_LISTEN_BACKLOG = 128
# A request holds the hook's name, directory and environment.
_MAX_REQUEST_BYTES = 1024 * 1024
# A server that stopped is started again at most this often.
_RESTART_SECONDS = 30.0
# Sent by the child just before the hook runs: until then the client may run it itself.
STARTED = b"+"


def preload() -> None:
    """Import and exercise what the hooks use, so that every forked child starts warm."""
    from memsync.memory import MemoryFile
    from memsync.secrets import check_blob, check_path
    from memsync.secrets.metadata import check_commit

    for module in HOOK_MODULES.values():
        importlib.import_module(module)
    sample = b"---\nname: warm\ndescription: a sample\ntype: project\n---\n\nBody.\n"
    check_path("warm.md")
    check_blob("warm.md", sample)
    MemoryFile.parse("warm.md", sample)
    identity = b"Warm <warm@example.invalid> 0 +0000"
    check_commit("0" * 40, b"tree " + b"0" * 40 + b"\nauthor " + identity + b"\n\nwarm\n")
    # The post-receive hook publishes through Celery's Redis transport; a first message
    # to kombu's in-memory transport loads what Celery imports on first use.
    from memsync.sync.postreceive import publish

    importlib.import_module("kombu.transport.redis")
    publish("memory://", "memsync.hookserver.warm", "memsync-hookserver-warm", [])


def serve(address: Path, parent: int) -> None:
    """Accept hooks on ``address`` until the process ``parent`` is gone."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    # Bound under a temporary name and renamed: a client finds either no socket (and
    # runs its hook cold) or one that is listening.
    partial = address.with_name(f".{address.name}.{os.getpid()}")
    partial.unlink(missing_ok=True)
    listener.bind(str(partial))
    listener.listen(_LISTEN_BACKLOG)
    partial.replace(address)
    try:
        while os.getppid() == parent:
            ready, _, _ = select.select([listener], [], [], _PARENT_CHECK_SECONDS)
            _reap()
            if ready:
                _fork_for(listener)
    finally:
        listener.close()
        address.unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            address.parent.rmdir()  # the private directory made for it, now empty


def _fork_for(listener: socket.socket) -> None:
    try:
        connection, _ = listener.accept()
    except OSError:
        return
    try:
        pid = os.fork()
    except OSError:
        connection.close()  # the client runs its hook cold
        return
    if pid == 0:
        status = 1
        try:
            listener.close()
            status = _run_hook(connection)
        finally:
            os._exit(status)
    connection.close()


def _reap() -> None:
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def _run_hook(connection: socket.socket) -> int:
    """In the forked child: become the hook the client handed over, run it, answer."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    received = _receive(connection)
    if received is None:
        return 1  # nothing ran: the client runs the hook itself
    module, cwd, env, descriptors = received
    # The server's own stderr (the web log) stays reachable for the timing line; the
    # hook's stdin, stdout and stderr become fds 0, 1 and 2.
    log = os.dup(2)
    for target, descriptor in enumerate(descriptors):
        os.dup2(descriptor, target)
        os.close(descriptor)
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    sys.argv = [module]
    connection.sendall(STARTED)
    started = time.monotonic()
    try:
        status = int(importlib.import_module(module).main())
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else 1
    except BaseException:
        traceback.print_exc()
        status = 1
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    with contextlib.suppress(OSError):
        connection.sendall(bytes([status & 0xFF]))
    elapsed = time.monotonic() - started
    with contextlib.suppress(OSError):
        os.write(
            log, f"memsync hook server: {module} exited {status} in {elapsed:.3f} s\n".encode()
        )
    return status


def _receive(connection: socket.socket) -> tuple[str, str, dict[str, str], list[int]] | None:
    """The hook's module, directory, environment and stdio descriptors."""
    try:
        head, descriptors, _, _ = socket.recv_fds(connection, 4, 3)
        while 0 < len(head) < 4 and (more := connection.recv(4 - len(head))):
            head += more
        size = int.from_bytes(head, "big")
        if len(descriptors) != 3 or len(head) != 4 or size > _MAX_REQUEST_BYTES:
            return None
        body = b""
        while len(body) < size and (more := connection.recv(size - len(body))):
            body += more
        # What ``memsync/sync/hookclient.py`` sends: hook, directory, then names and
        # values of its environment, NUL-separated.
        hook, cwd, *environment = (os.fsdecode(part) for part in body.split(b"\0"))
        if len(environment) % 2:
            return None
        module = HOOK_MODULES[hook]
        env = dict(zip(environment[::2], environment[1::2], strict=True))
    except (OSError, ValueError, KeyError):
        return None
    return module, cwd, env, descriptors


class HookServer:
    """The hook server of the calling process: started on first use, started again if
    it died, stopped by :meth:`stop` (and on its own when the caller is gone)."""

    def __init__(self, environment: Mapping[str, str], *, log: IO[bytes] | None = None) -> None:
        """``environment``: what the server may see of the caller's (the variables Git
        itself is given); the hooks get each push's own environment anyway. ``log``:
        where the server writes a line per hook (the caller's stderr by default)."""
        self._log = log
        path = environment.get("PYTHONPATH")
        self._environment = {
            **environment,
            # The same code the cold hooks run (``memsync.sync.hooks.hook_script``).
            "PYTHONPATH": f"{SOURCE_ROOT}:{path}" if path else str(SOURCE_ROOT),
        }
        self._guard = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._directory: Path | None = None
        self._owner = 0
        self._next_start = 0.0

    def address(self) -> str | None:
        """The socket to name in ``MEMSYNC_HOOK_SERVER``; None while nothing listens on
        it yet (hooks then start cold, as they do outside the server)."""
        with self._guard:
            if not self._running() and self._may_start():
                self._start()
            if self._directory is None:
                return None
            socket_path = self._directory / SOCKET_NAME
            return str(socket_path) if socket_path.exists() else None

    def _running(self) -> bool:
        # A forked copy of the caller (another web worker) starts a server of its own.
        mine = self._owner == os.getpid()
        return mine and self._process is not None and self._process.poll() is None

    def _may_start(self) -> bool:
        # A server that cannot start (its socket path too long, say) is not started on
        # every push again: until the next try, hooks start cold.
        return self._owner != os.getpid() or time.monotonic() >= self._next_start

    def _start(self) -> None:
        if self._owner == os.getpid():
            self._remove_directory()
        self._owner = os.getpid()
        self._next_start = time.monotonic() + _RESTART_SECONDS
        self._directory = Path(tempfile.mkdtemp(prefix="memsync-hooks-"))
        self._process = subprocess.Popen(
            [stable_python(), "-m", __name__, str(self._directory / SOCKET_NAME)],
            env=self._environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
        )

    def stop(self) -> None:
        with self._guard:
            if self._owner != os.getpid():
                return
            if self._process is not None and self._process.poll() is None:
                self._process.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self._process.wait(timeout=5)
            self._remove_directory()

    def _remove_directory(self) -> None:
        if self._directory is not None:
            with contextlib.suppress(OSError):
                (self._directory / SOCKET_NAME).unlink(missing_ok=True)
                self._directory.rmdir()
            self._directory = None


def main() -> int:
    address = Path(sys.argv[1])
    parent = os.getppid()
    preload()
    # Children only read what was imported: kept out of the collector, those objects'
    # pages are not copied into every child by its first collection.
    gc.freeze()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    serve(address, parent)
    return 0


if __name__ == "__main__":
    sys.exit(main())
