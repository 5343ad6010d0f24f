"""The two locks a dream needs (SPEC D2): the file lock and the Redis lock.

``ConsolidationLock`` is Claude Code's ``.consolidate-lock``: its body is the holder's
PID and its mtime is the time of the last consolidation, so the time gate costs one
``stat``. A holder counts only while its PID runs and the mtime is under an hour old
(a PID can be reused; an hour is longer than any dream). Acquiring writes our PID and
reads it back: two writers both write, the last one wins and the other gives up.

Two additions to Claude Code's lock, both for a server whose worker processes live for
days: the check-write-read-back step runs under an ``flock`` on the memory directory,
so two memsync processes cannot both read "free" and both win (Claude Code, which does
not take it, is still caught by the read-back); and a finished dream *releases* the
lock by emptying its body while keeping the mtime, so the same long-lived worker (whose
PID stays alive) is not locked out of the next dream for an hour.

``RedisDreamLock`` is cluster-wide: ``SET key token NX PX ttl`` with a random owner
token, extended by a heartbeat thread while the dream runs, and released only by its
owner through a compare-and-delete script. If an extension finds the key gone or
someone else's, the lock is *lost*: the dream checks that between steps and stops.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import socket
import stat
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memsync.confined import ConfinedRoot, ConfinementError, EntryKind

HOLDER_STALE_SECONDS = 60 * 60
_NS = 1_000_000_000


def pid_is_running(pid: int) -> bool:
    """True when a process with ``pid`` exists on this machine (signal 0 probes only)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, it is just not ours
    return True


@dataclass(frozen=True)
class LockHolder:
    pid: int
    since_ns: int  # the lock file's mtime

    def __str__(self) -> str:
        minutes = max(0.0, (time.time_ns() - self.since_ns) / _NS / 60)
        return f"PID {self.pid} (for {minutes:.0f} min)"


class ConsolidationLock:
    """``.consolidate-lock`` in a memory directory. Times are nanoseconds since the epoch;
    ``0`` means "there was no lock file" (Claude Code's ``priorMtime === 0``)."""

    def __init__(self, path: Path, *, pid: int | None = None) -> None:
        self.path = Path(path)
        self.pid = os.getpid() if pid is None else pid
        self.refusal: str | None = None  # why the last try_acquire() returned None
        # The file sits in a working tree members push to: it is read and written
        # without following links (issue 10), and a link found in its place, which only
        # a member can have planted, is removed (the link itself, never its target).
        self._folder = ConfinedRoot(self.path.parent)
        self._name = self.path.name

    def last_consolidated_ns(self) -> int:
        """The time gate's one ``stat``: the last consolidation, or 0 if never."""
        try:
            info = self.path.lstat()
        except FileNotFoundError:
            return 0
        return 0 if stat.S_ISLNK(info.st_mode) else info.st_mtime_ns

    def _write(self, text: str) -> None:
        if self._folder.kind(self._name) is EntryKind.LINK:
            self._folder.unlink(self._name)
        self._folder.write(self._name, text)

    def last_consolidated(self) -> datetime | None:
        stamp_ns = self.last_consolidated_ns()
        return datetime.fromtimestamp(stamp_ns / _NS, tz=UTC) if stamp_ns else None

    def holder(self, *, now_ns: int | None = None) -> LockHolder | None:
        """Who holds the lock now: a running PID whose stamp is under an hour old."""
        return _live_holder(self._read(), time.time_ns() if now_ns is None else now_ns)

    def try_acquire(self) -> int | None:
        """Take the lock: the prior mtime (0 when there was no file), or None when a live
        holder has it or another writer won the read-back (``refusal`` says which)."""
        self.refusal = None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._directory_guard():
            state = self._read()
            prior_ns = 0 if state is None else state[0]
            holder = _live_holder(state, time.time_ns())
            if holder is not None:
                self.refusal = f"the consolidation lock is held by {holder}"
                return None
            self._write(str(self.pid))
            try:
                verify = self._folder.read_text(self._name)
            except (OSError, ConfinementError):
                verify = ""
            if _parse_pid(verify) != self.pid:
                self.refusal = "another process took the consolidation lock at the same moment"
                return None
            return prior_ns

    def rollback(self, prior_ns: int) -> None:
        """Undo an acquisition so the time gate still passes next time: restore the prior
        mtime with an empty body, or remove the file when there was none."""
        if prior_ns == 0:
            self._folder.unlink(self._name, missing_ok=True)
            return
        self._write("")
        os.utime(self.path, ns=(prior_ns, prior_ns), follow_symlinks=False)

    def release(self) -> None:
        """A dream finished: keep the stamp of its start as the consolidation time and
        clear the PID, so the lock is free at once."""
        stamp_ns = self.last_consolidated_ns()
        self._write("")
        if stamp_ns:
            os.utime(self.path, ns=(stamp_ns, stamp_ns), follow_symlinks=False)

    def record(self) -> None:
        """Stamp now as the last consolidation without holding the lock."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._write("")
        os.utime(self.path, None, follow_symlinks=False)

    def _read(self) -> tuple[int, int | None] | None:
        try:
            info = self.path.lstat()
            if stat.S_ISLNK(info.st_mode):
                return None  # a planted link: no holder, and replaced when written
            body = self._folder.read_text(self._name)
        except (FileNotFoundError, ConfinementError):
            return None
        return info.st_mtime_ns, _parse_pid(body)

    @contextlib.contextmanager
    def _directory_guard(self) -> Iterator[None]:
        fd = os.open(self.path.parent, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing drops the flock


def _live_holder(state: tuple[int, int | None] | None, now_ns: int) -> LockHolder | None:
    if state is None:
        return None
    mtime_ns, pid = state
    if pid is None or now_ns - mtime_ns >= HOLDER_STALE_SECONDS * _NS:
        return None  # a dead, stale or unreadable holder is reclaimed
    return LockHolder(pid, mtime_ns) if pid_is_running(pid) else None


def _parse_pid(body: str) -> int | None:
    text = body.strip()
    return int(text) if text.isdigit() else None


# Compare-and-set scripts: only the token that set the key may extend or delete it.
_EXTEND = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


def redis_lock_key(name: str) -> str:
    """The Redis key of one memory's dream lock (a project slug, or a local path's hash)."""
    return f"memsync:dream-lock:{name}"


class RedisDreamLock:
    """A cluster-wide lock with a TTL and an owner token. ``client`` is a redis-py client."""

    def __init__(
        self, client: Any, key: str, *, ttl_seconds: float = 120.0, heartbeat: bool = True
    ) -> None:
        self.client = client
        self.key = key
        self.ttl_ms = max(1, round(ttl_seconds * 1000))
        self.token = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(8)}"
        self._heartbeat_enabled = heartbeat
        self._extend = client.register_script(_EXTEND)
        self._release = client.register_script(_RELEASE)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lost = threading.Event()
        self.held = False

    @staticmethod
    def current_holder(client: Any, key: str) -> str | None:
        """Who holds the lock (``host:pid:…``), without taking it: one GET."""
        value = client.get(key)
        if value is None:
            return None
        return value.decode() if isinstance(value, bytes) else str(value)

    @property
    def lost(self) -> bool:
        """True once an extension found the key expired or taken by someone else."""
        return self._lost.is_set()

    def acquire(self) -> bool:
        """Take the lock if it is free; never waits for a holder."""
        if not self.client.set(self.key, self.token, nx=True, px=self.ttl_ms):
            return False
        self.held = True
        if self._heartbeat_enabled:
            self._thread = threading.Thread(
                target=self._beat, name=f"dream-lock-heartbeat {self.key}", daemon=True
            )
            self._thread.start()
        return True

    def extend(self) -> bool:
        """Push the expiry a full TTL ahead; False when the lock is no longer ours."""
        return bool(self._extend(keys=[self.key], args=[self.token, self.ttl_ms]))

    def release(self) -> bool:
        """Delete the key if it still holds our token; True when it did."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if not self.held:
            return False
        self.held = False
        return bool(self._release(keys=[self.key], args=[self.token]))

    def _beat(self) -> None:
        interval = self.ttl_ms / 1000 / 3
        last_success = time.monotonic()
        while not self._stop.wait(interval):
            try:
                if not self.extend():
                    self._lost.set()
                    return
                last_success = time.monotonic()
            except Exception:
                # Redis unreachable: the key may still be ours; it is lost for sure
                # once a whole TTL has passed without an extension.
                if time.monotonic() - last_success >= self.ttl_ms / 1000:
                    self._lost.set()
                    return
