"""The file lock case by case (SPEC D2, Claude Code's semantics) and the Redis lock
between real processes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest
import redis

from memsync.dream.locks import (
    HOLDER_STALE_SECONDS,
    ConsolidationLock,
    RedisDreamLock,
    redis_lock_key,
)

NS = 1_000_000_000


def dead_pid() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


@pytest.fixture
def lock_path(tmp_path: Path) -> Path:
    return tmp_path / "memory" / ".consolidate-lock"


@pytest.fixture
def sleeper():
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield process
    process.kill()
    process.wait()


def stamp(path: Path, body: str, age_seconds: float) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body)
    when = time.time_ns() - int(age_seconds * NS)
    os.utime(path, ns=(when, when))
    return path.stat().st_mtime_ns


def test_it_acquires_a_missing_lock_writing_its_pid_and_reports_no_prior_time(lock_path):
    lock = ConsolidationLock(lock_path)

    assert lock.try_acquire() == 0
    assert lock_path.read_text() == str(os.getpid())


def test_it_unlinks_on_rollback_when_there_was_no_lock_file(lock_path):
    lock = ConsolidationLock(lock_path)
    prior = lock.try_acquire()

    lock.rollback(prior)

    assert not lock_path.exists()
    assert lock.last_consolidated_ns() == 0


def test_it_rolls_back_to_the_exact_prior_mtime(lock_path):
    prior_ns = stamp(lock_path, "", age_seconds=3 * 86400)
    lock = ConsolidationLock(lock_path)

    assert lock.try_acquire() == prior_ns
    assert lock_path.stat().st_mtime_ns > prior_ns  # acquiring stamps now

    lock.rollback(prior_ns)

    assert lock_path.stat().st_mtime_ns == prior_ns
    assert lock_path.read_text() == ""


def test_it_refuses_a_lock_held_by_a_live_process(lock_path, sleeper):
    stamp(lock_path, str(sleeper.pid), age_seconds=5)
    lock = ConsolidationLock(lock_path)

    assert lock.try_acquire() is None
    assert f"PID {sleeper.pid}" in (lock.refusal or "")
    assert lock_path.read_text() == str(sleeper.pid)
    assert lock.holder() is not None


def test_it_reclaims_a_lock_whose_holder_is_dead(lock_path):
    prior = stamp(lock_path, str(dead_pid()), age_seconds=5)
    lock = ConsolidationLock(lock_path)

    assert lock.holder() is None
    assert lock.try_acquire() == prior
    assert lock_path.read_text() == str(os.getpid())


def test_it_reclaims_a_live_holders_lock_older_than_an_hour(lock_path, sleeper):
    # The PID may have been reused by an unrelated process: an hour is the limit.
    prior = stamp(lock_path, str(sleeper.pid), age_seconds=HOLDER_STALE_SECONDS + 5)
    lock = ConsolidationLock(lock_path)

    assert lock.try_acquire() == prior
    assert lock_path.read_text() == str(os.getpid())


def test_it_reclaims_a_lock_with_an_unreadable_body(lock_path):
    prior = stamp(lock_path, "not a pid", age_seconds=5)

    assert ConsolidationLock(lock_path).try_acquire() == prior


RACER = textwrap.dedent(
    """
    import sys, time
    path, pid, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    print("racing", flush=True)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with open(path, "w") as f:   # Claude Code's writeFile: no flock, last writer wins
            f.write(pid)
    """
)


def test_it_gives_up_when_another_writer_wins_the_read_back(lock_path):
    lock_path.parent.mkdir(parents=True)
    # A writer outside memsync (Claude Code itself takes no flock) keeps writing a dead
    # PID: we may reclaim, but whenever its write lands between ours and our read-back,
    # the read-back shows its PID and we must not proceed.
    racer = subprocess.Popen(
        [sys.executable, "-c", RACER, str(lock_path), str(dead_pid()), "20"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert racer.stdout is not None and racer.stdout.readline().strip() == "racing"
        lock = ConsolidationLock(lock_path)
        refusals = []
        deadline = time.monotonic() + 15
        while not refusals and time.monotonic() < deadline:
            prior = lock.try_acquire()
            if prior is None:
                refusals.append(lock.refusal)
            else:
                lock.rollback(prior)
    finally:
        racer.kill()
        racer.wait()

    assert refusals == ["another process took the consolidation lock at the same moment"]


CONTENDER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from memsync.dream.locks import ConsolidationLock
    path, start = Path(sys.argv[1]), float(sys.argv[2])
    time.sleep(max(0.0, start - time.time()))
    print("won" if ConsolidationLock(path).try_acquire() is not None else "lost", flush=True)
    time.sleep(2)  # stay alive so the winner's PID is live while the others try
    """
)


def test_it_lets_exactly_one_of_several_memsync_processes_take_the_lock(lock_path):
    lock_path.parent.mkdir(parents=True)
    start = time.time() + 1.5
    contenders = [
        subprocess.Popen(
            [sys.executable, "-c", CONTENDER, str(lock_path), str(start)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    results = [c.communicate(timeout=60)[0].strip() for c in contenders]

    assert sorted(results) == ["lost", "lost", "lost", "won"]


def test_it_releases_keeping_the_stamp_so_the_same_process_can_dream_again(lock_path):
    lock = ConsolidationLock(lock_path)
    lock.try_acquire()
    stamped = lock.last_consolidated_ns()
    time.sleep(0.01)

    lock.release()

    assert lock_path.read_text() == ""
    assert lock.last_consolidated_ns() == stamped
    assert lock.holder() is None
    assert lock.try_acquire() == stamped


def test_it_records_now_as_the_last_consolidation(lock_path):
    stamp(lock_path, "", age_seconds=7200)
    before = time.time_ns()

    ConsolidationLock(lock_path).record()

    assert lock_path.stat().st_mtime_ns >= before - NS // 100
    assert ConsolidationLock(lock_path).holder() is None


# --- Redis ------------------------------------------------------------------------------


@pytest.fixture
def client():
    connection = redis.Redis.from_url(os.environ["REDIS_URL"])
    yield connection
    connection.close()


@pytest.fixture
def key():
    return redis_lock_key(f"test-{uuid.uuid4().hex[:8]}")


HOLDER = textwrap.dedent(
    """
    import os, sys
    import redis
    from memsync.dream.locks import RedisDreamLock
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    lock = RedisDreamLock(client, sys.argv[1], ttl_seconds=float(sys.argv[2]))
    print("held" if lock.acquire() else "refused", flush=True)
    sys.stdin.readline()
    print("released" if lock.release() else "not ours", flush=True)
    """
)


def start_holder(key: str, ttl: float = 30.0) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", HOLDER, key, str(ttl)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def test_it_refuses_the_redis_lock_another_process_holds_and_takes_it_once_released(client, key):
    holder = start_holder(key)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        ours = RedisDreamLock(client, key, ttl_seconds=30)

        assert ours.acquire() is False
        assert RedisDreamLock.current_holder(client, key).split(":")[1] == str(holder.pid)

        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "released"
        assert ours.acquire() is True
        assert ours.release() is True
    finally:
        holder.kill()
        holder.wait()
    assert client.get(key) is None


def test_it_never_deletes_a_redis_lock_that_another_process_now_owns(client, key):
    ours = RedisDreamLock(client, key, ttl_seconds=0.3, heartbeat=False)
    assert ours.acquire()
    time.sleep(0.5)  # expired: we stalled past our TTL
    holder = start_holder(key)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"

        assert ours.release() is False
        assert ours.extend() is False

        assert RedisDreamLock.current_holder(client, key).split(":")[1] == str(holder.pid)
    finally:
        holder.kill()
        holder.wait()


def test_it_keeps_the_redis_lock_alive_while_the_dream_runs(client, key):
    lock = RedisDreamLock(client, key, ttl_seconds=0.6)
    assert lock.acquire()

    time.sleep(1.5)

    assert client.get(key).decode() == lock.token
    assert lock.lost is False
    assert lock.release() is True
    assert client.get(key) is None


def test_it_notices_when_the_redis_lock_was_lost(client, key):
    lock = RedisDreamLock(client, key, ttl_seconds=0.6)
    assert lock.acquire()

    client.set(key, "someone-else")
    deadline = time.monotonic() + 3
    while not lock.lost and time.monotonic() < deadline:
        time.sleep(0.05)

    assert lock.lost is True
    assert lock.release() is False
    assert client.get(key) == b"someone-else"
