"""Real Celery worker processes for tests, against the test database and the run's Redis.

A test that uses a worker needs committed data (``transactional_db``): the worker is
another process with its own database connection.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection


def test_database_url() -> str:
    """The URL of the database the tests are using right now (the test database)."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{user}{password}@{host}{port}/{db['NAME']}"


@dataclass
class WorkerProcess:
    name: str
    queues: str
    process: subprocess.Popen[bytes]
    log_path: Path
    extra_env: dict[str, str] = field(default_factory=dict)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self, signal: int = 9) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal)
            self.process.wait(timeout=30)

    def kill_tree(self, signal: int = 9) -> list[int]:
        """Kill the worker and everything it started (pool processes, their git
        commands): a machine losing power mid-task. Returns the pids killed."""
        pids = [self.process.pid, *descendants(self.process.pid)]
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal)
        self.process.wait(timeout=30)
        return pids

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``, from ``/proc`` (children before grandchildren)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, queue = [], [pid]
    while queue:
        children = parents.get(queue.pop(0), [])
        found += children
        queue += children
    return found


def start_worker(
    log_dir: Path,
    *,
    queues: str = "memsync,dreams",
    concurrency: int = 1,
    name: str | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 60.0,
    extra: tuple[str, ...] = (),
) -> WorkerProcess:
    """Start ``celery worker`` and wait until it answers a ping."""
    from memsync.celery import app
    from memsync.processes import worker_command

    name = name or f"test-{uuid.uuid4().hex[:8]}@localhost"
    log_path = log_dir / f"{name.split('@')[0]}.log"
    worker_env = {
        **os.environ,
        "DATABASE_URL": test_database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "MEMSYNC_DATA_DIR": str(settings.DATA_DIR),
        **(env or {}),
    }
    with log_path.open("wb") as log:
        # The production command line (memsync.processes), run by this interpreter.
        command = worker_command(
            tuple(queues.split(",")), "-n", name, f"--concurrency={concurrency}",
            "--pool=prefork", "--without-mingle", "--without-gossip", *extra,
        )  # fmt: skip
        process = subprocess.Popen(
            [sys.executable, "-m", *command],
            env=worker_env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    worker = WorkerProcess(name, queues, process, log_path, env or {})
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"celery worker exited early:\n{worker.log()[-4000:]}")
        if app.control.ping(destination=[name], timeout=0.5):
            return worker
    worker.stop()
    raise RuntimeError(f"celery worker did not answer within {timeout}s:\n{worker.log()[-4000:]}")


def purge_queues(queues: tuple[str, ...]) -> None:
    """Drop every message waiting in `queues` on the run's broker."""
    from memsync.celery import app

    with app.connection_for_write() as connection:
        for queue in queues:
            connection.default_channel.queue_purge(queue)


@pytest.fixture
def celery_worker_factory(
    transactional_db: None, tmp_path: Path
) -> Iterator[Callable[..., WorkerProcess]]:
    """Start as many workers as a test needs; all are stopped at the end. The queues
    start empty: a nudge an earlier test left in the broker (a gate check, a facts
    warm-up) names a project id that SQLite may have given again, after a rolled-back
    test, to this test's project, and a worker would act on it first."""
    purge_queues(("memsync", "dreams"))
    started: list[WorkerProcess] = []

    def start(**kwargs: object) -> WorkerProcess:
        worker = start_worker(tmp_path, **kwargs)  # type: ignore[arg-type]
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


@pytest.fixture
def celery_worker(celery_worker_factory: Callable[..., WorkerProcess]) -> WorkerProcess:
    """One worker on the default queue."""
    return celery_worker_factory()
