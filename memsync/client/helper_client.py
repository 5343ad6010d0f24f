"""The thin start of ``memsync extract``: hand the call to the repository's warm helper.

Claude Code runs an extraction after turns, each a new process; started cold, most of
its CPU went to Python's start and imports (issue 14: ~230 ms against ~70 ms for the
extraction itself). One warm helper per memory repository
(``memsync.client.helper_process``) has the extraction's modules imported already and
forks a child per call. This side runs before the command line is parsed, imports only
built-in modules, and passes the helper the call's arguments, working directory,
umask and environment, and its own stdin, stdout and stderr (so the child writes to
them directly, as the command run here would), then exits with the child's status.

Whatever goes wrong before the helper agreed to run the call — no helper, a stale
socket, a helper of another memsync build, a busy or dead one, ``MEMSYNC_NO_HELPER=1``
— ends in :func:`served` returning None: the caller runs the command in this process,
exactly as without a helper. Once this side said "go" the call belongs to the helper and
is never run twice. A call that found no helper starts one for the next call.

Where: ``<repo>/.git/memsync/helper/`` (0700, never through a symlink, owned by this
user) holds ``socket`` (0600), ``pid`` and ``log``. Both sides check the other's uid
(``SO_PEERCRED``): the request carries the environment, API keys included.
"""

# pathlib and contextlib would double this module's imports, the thin path's whole point.
# ruff: noqa: PTH100, PTH109, PTH112, PTH118, PTH120, PTH123, SIM105

from __future__ import annotations

import _socket
import os
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

PROTOCOL = "memsync-helper-1"
HELPER_DIR = ("memsync", "helper")  # under the repository's .git
SOCKET_NAME = "socket"
PID_NAME = "pid"
LOG_NAME = "log"
LOCK_NAME = "lock"
FAILED_NAME = "failed"  # written by a helper that could not start
# After a helper failed to start, calls run without one for this long before the next try.
RETRY_SECONDS = 60.0
DISABLE_VARIABLE = "MEMSYNC_NO_HELPER"
IDLE_VARIABLE = "MEMSYNC_HELPER_IDLE"
DEFAULT_IDLE_SECONDS = 600.0
# A memsync repository routes its index through memsync's merge driver (memsync.store).
REPOSITORY_MARK = b"merge=memsync-index"
# How long a call waits for a busy helper before running the command itself.
ACCEPT_TIMEOUT = 5.0
MAX_REQUEST_BYTES = 4 * 1024 * 1024

# The answers, one byte each (then a 4-byte number for PID and STATUS).
READY = b"R"  # the helper will run the call once told GO
STALE = b"S"  # another memsync build, or its code changed: it exits, run the call here
GO = b"G"
PID = b"P"  # the child running the call
STATUS = b"X"  # the child's exit status; SIGNALLED: killed by the signal that follows
SIGNALLED = b"K"

# ``memsync extract``'s options that take a value, and those that do not; anything else
# (an abbreviation, --help, "--") is left to the command run here.
_VALUED = frozenset({"--transcript", "--sessions-dir", "--engine", "--model", "--every"})
_FLAGS = frozenset({"--json"})
_STDIO = (0, 1, 2)


def served(arguments: Sequence[str]) -> int | None:
    """The exit status of the call run by the repository's warm helper; None when it
    did not run it (the caller then runs the command itself)."""
    if os.environ.get(DISABLE_VARIABLE, "") not in ("", "0"):
        return None
    try:
        cwd = os.getcwd()
    except OSError:
        return None
    repository = repository_of(arguments, cwd)
    if repository is None:
        return None
    directory = open_helper_dir(os.path.join(repository, ".git"), create=True)
    if directory is None:
        return None
    try:
        return _hand_over(arguments, cwd, repository, directory)
    finally:
        os.close(directory)


def repository_of(arguments: Sequence[str], cwd: str) -> str | None:
    """The memsync repository an ``extract`` call names, resolved; None for any other
    call, or when the directory is not a memsync repository."""
    if len(arguments) < 2 or arguments[0] != "extract":
        return None
    positionals = []
    rest = iter(arguments[1:])
    for argument in rest:
        if not argument.startswith("-"):
            positionals.append(argument)
        elif argument.split("=", 1)[0] in _VALUED:
            if "=" not in argument:
                next(rest, None)
        elif argument not in _FLAGS:
            return None
    if len(positionals) != 1:
        return None
    repository = os.path.realpath(os.path.join(cwd, positionals[0]))
    try:
        with open(os.path.join(repository, ".gitattributes"), "rb") as attributes:
            marked = REPOSITORY_MARK in attributes.read(65536)
    except OSError:
        return None
    return repository if marked and os.path.isdir(os.path.join(repository, ".git")) else None


def open_helper_dir(git_dir: str, *, create: bool) -> int | None:
    """A descriptor of ``<git_dir>/memsync/helper``, made if missing; None when a part
    of it is a symlink, or it belongs to another user."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        descriptor = os.open(git_dir, flags)
    except OSError:
        return None
    try:
        for name in HELPER_DIR:
            if create:
                try:
                    os.mkdir(name, 0o700, dir_fd=descriptor)
                except FileExistsError:
                    pass
            inner = os.open(name, flags, dir_fd=descriptor)
            os.close(descriptor)
            descriptor = inner
        status = os.fstat(descriptor)
        if status.st_uid != os.getuid():
            os.close(descriptor)
            return None
        if status.st_mode & 0o777 != 0o700:
            os.fchmod(descriptor, 0o700)
    except OSError:
        os.close(descriptor)
        return None
    return descriptor


def in_dir(directory: int, name: str) -> str:
    """A path to ``name`` inside the open ``directory``: short whatever the repository's
    path (a socket's path has 108 bytes at most), and never through a swapped symlink."""
    return f"/proc/self/fd/{directory}/{name}"


def build_stamp() -> str:
    """Which memsync this is: a helper serves only calls of its own build (it also
    exits when its files change under it, ``memsync.client.helper_process``)."""
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return f"{PROTOCOL}|{sys.executable}|{sys.version}|{package}"


def peer_uid(connection: _socket.socket) -> int:
    credentials = connection.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
    return int.from_bytes(credentials[4:8], sys.byteorder)


def request(arguments: Sequence[str], cwd: str) -> bytes:
    """What the helper needs to run the call as this process would, NUL-separated (no
    argument, path or environment variable can hold a NUL): the build, the directory,
    the umask, stdio's encodings, the arguments and the environment."""
    mask = os.umask(0o022)
    os.umask(mask)
    streams = []
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        streams += [getattr(stream, "encoding", None) or "", getattr(stream, "errors", None) or ""]
    head = [build_stamp(), cwd, str(mask), *streams, str(len(arguments))]
    environment = [part for pair in os.environb.items() for part in pair]
    return b"\0".join(
        [*(part.encode("utf-8", "surrogateescape") for part in head),
         *(os.fsencode(argument) for argument in arguments), *environment]
    )  # fmt: skip


def _hand_over(arguments: Sequence[str], cwd: str, repository: str, directory: int) -> int | None:
    connection = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM | _socket.SOCK_CLOEXEC)
    try:
        try:
            connection.settimeout(ACCEPT_TIMEOUT)
            connection.connect(in_dir(directory, SOCKET_NAME))
        except (FileNotFoundError, ConnectionRefusedError):
            # None yet, or a socket its helper left behind: a helper for the next call.
            start_helper(repository, directory)
            return None
        except OSError:
            return None
        try:
            if peer_uid(connection) != os.getuid():
                return None
            body = request(arguments, cwd)
            fds = b"".join(fd.to_bytes(4, sys.byteorder) for fd in _STDIO)
            rights = (_socket.SOL_SOCKET, _socket.SCM_RIGHTS, fds)
            connection.sendmsg([len(body).to_bytes(4, "big")], [rights])
            connection.sendall(body)
            answer = read_exactly(connection, 1)
            if answer == STALE:
                start_helper(repository, directory)
            if answer != READY:
                return None
            # From here the call is the helper's: it runs it once it has read this.
            connection.sendall(GO)
        except OSError:
            return None
        connection.settimeout(None)
        return _outcome(connection, directory)
    finally:
        connection.close()


def _outcome(connection: _socket.socket, directory: int) -> int:
    child = 0
    while True:
        try:
            kind = read_exactly(connection, 1)
            number = int.from_bytes(read_exactly(connection, 4), "big", signed=True) if kind else 0
        except KeyboardInterrupt:
            # Interrupt the child as this process would have been: it prints and exits.
            if child:
                try:
                    os.kill(child, 2)  # SIGINT (the signal module imports enum)
                except OSError:
                    pass
            continue
        except OSError:
            kind = b""
        if kind == PID:
            child = number
        elif kind == STATUS:
            return number
        elif kind == SIGNALLED:
            print(f"memsync: error: the command was killed by signal {number}", file=sys.stderr)
            return 128 + number
        else:
            log = os.path.realpath(in_dir(directory, LOG_NAME))
            print(
                "memsync: error: the warm helper stopped while it ran the command; "
                f"its work may be half done (see {log})",
                file=sys.stderr,
            )
            return 1


def read_exactly(connection: _socket.socket, size: int) -> bytes:
    """`size` bytes from `connection`; b"" when it closes first."""
    data = b""
    while len(data) < size:
        more = connection.recv(size - len(data))
        if not more:
            return b""
        data += more
    return data


def idle_seconds() -> float:
    try:
        seconds = float(os.environ.get(IDLE_VARIABLE, "") or DEFAULT_IDLE_SECONDS)
    except ValueError:
        return DEFAULT_IDLE_SECONDS
    return seconds if seconds > 0 else DEFAULT_IDLE_SECONDS


def start_helper(repository: str, directory: int) -> None:
    """Start the repository's helper, detached (its own session, no stdio of ours);
    it runs this same memsync (the directory holding this package comes first on its
    path) and gives way to one already serving. Not again soon after one failed: a
    helper that cannot start would otherwise cost every call a Python start."""
    try:
        failed = os.stat(FAILED_NAME, dir_fd=directory, follow_symlinks=False).st_mtime
    except OSError:
        failed = 0.0
    if time.time() - failed < RETRY_SECONDS:
        return
    source = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    boot = (
        "import os, sys; os.closerange(3, 1 << 16); "
        "sys.path[0:1] = [] if sys.argv[1] in sys.path else [sys.argv[1]]; "
        "from memsync.client.helper_process import main; sys.exit(main(sys.argv[2:]))"
    )
    command = [sys.executable, "-c", boot, source, repository, str(idle_seconds())]
    null = os.O_RDWR
    actions = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, null, 0) for fd in _STDIO]
    try:
        os.posix_spawn(sys.executable, command, os.environ, file_actions=actions, setsid=True)
    except OSError:
        pass
