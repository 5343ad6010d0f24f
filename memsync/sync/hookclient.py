"""The fast start of memsync's Git hooks: hand the hook to a warm hook server.

Git runs a hook as a new process on every push; started cold, memsync's pre-receive
spent most of its time importing the secret rules (detect-secrets and its
dependencies) and the post-receive importing Celery to send one message: about 0.8 s
and 0.4 s of CPU per push, which 20 members pushing at once on two cores turned into
a queue (issue 14). The server's Git endpoint runs a hook server with those modules
already imported (``memsync.sync.hookserver``) and names its socket in
``MEMSYNC_HOOK_SERVER``; this client, run with ``python -I -S`` (no site, nothing but
the standard library), passes it the hook's own stdin, stdout and stderr, its
environment and its working directory, and exits with the status the server's forked
child returns. The hook's code and output are the same either way.

It runs twice on every push, on the cores the pushes share: it imports only built-in
modules (``_socket``): about 8 ms of CPU, 6 of them the interpreter's own start, where
``json`` and ``socket`` (which pull in ``re`` and ``enum``) made it 16 ms. The request
is the hook's name, its directory and its environment as NUL-separated bytes, which
none of them can contain.

Run as a script by path, never imported by memsync: ``python -I -S hookclient.py HOOK``.
Exit status :data:`NOT_SERVED` means the server did not start the hook (there is none,
it could not be reached, or it stopped first) and nothing of stdin was read: the hook
script then runs the hook cold itself (``memsync/sync/hooks.py``).
"""

import _socket
import os
import sys

# sysexits' EX_TEMPFAIL; memsync's hooks themselves only ever exit 0 or 1.
NOT_SERVED = 75
_ADDRESS_VARIABLE = "MEMSYNC_HOOK_SERVER"
# What the server's child sends just before it runs the hook (memsync.sync.hookserver).
_STARTED = b"+"
_STDIO = (0, 1, 2)


def hand_over(hook: str, address: str) -> int:
    """The exit status of ``hook`` run by the server at ``address``; NOT_SERVED when it
    did not start it (then nothing of stdin was read, and the caller may run it)."""
    connection = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        try:
            connection.connect(address)
            body = request(hook)
            # The length travels with the descriptors, the request after it.
            # SCM_RIGHTS carries C ints (``array("i", …)`` would import collections).
            fds = b"".join(fd.to_bytes(4, sys.byteorder) for fd in _STDIO)
            rights = (_socket.SOL_SOCKET, _socket.SCM_RIGHTS, fds)
            connection.sendmsg([len(body).to_bytes(4, "big")], [rights])
            connection.sendall(body)
            started = _read(connection, 1)
        except OSError:
            started = b""
        if started != _STARTED:
            # The server's child runs the hook only after saying so: nothing ran.
            return NOT_SERVED
        status = _read(connection, 1)
        if not status:
            # The child stopped while the hook ran: its work may be half done, so it is
            # not run again; for pre-receive a non-zero status refuses the push.
            print(f"memsync: the {hook} hook stopped before it finished.", flush=True)
            return 1
        return status[0]
    finally:
        connection.close()


def request(hook: str) -> bytes:
    """``hook``, the working directory and each environment variable's name and value,
    NUL-separated (``memsync.sync.hookserver`` reads it back)."""
    environment = [part for pair in os.environb.items() for part in pair]
    cwd = os.getcwdb()  # noqa: PTH109  (pathlib would double this script's imports)
    return b"\0".join([hook.encode(), cwd, *environment])


def _read(connection: _socket.socket, size: int) -> bytes:
    try:
        return connection.recv(size)
    except OSError:
        return b""


def main() -> int:
    hook = sys.argv[1]
    address = os.environ.get(_ADDRESS_VARIABLE, "")
    if not address:
        return NOT_SERVED
    return hand_over(hook, address)


if __name__ == "__main__":
    sys.exit(main())
