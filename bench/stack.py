"""What the benches share: a throwaway memsync stack and a large history built fast.

Not a bench itself. ``python bench/<name>.py`` puts this folder on ``sys.path``, so
each bench imports it as ``stack``.
"""

from __future__ import annotations

import math
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from memsync import bundled_redis
from memsync.processes import web_command

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def installed_environment() -> dict[str, str]:
    """This process's environment as an installed memsync runs in: with bytecode cached.
    A session started with PYTHONDONTWRITEBYTECODE=1 would otherwise make each memsync
    process compile every module it imports from source (about 50 ms on this machine),
    which no installed client pays: pip compiles the bytecode when it installs."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def cpu_now() -> float:
    """CPU seconds used so far by this process and the children it has waited for."""
    own = time.process_time()
    children = os.times()
    return own + children.children_user + children.children_system


def percentile(samples: list[float], fraction: float) -> float:
    """The nearest-rank percentile: the smallest sample with at least `fraction` of the
    samples at or below it (p95 of 20 requests is the 19th slowest, not the slowest)."""
    ordered = sorted(samples)
    rank = math.ceil(fraction * len(ordered))
    return ordered[min(len(ordered), max(rank, 1)) - 1]


def wait_for_http(url: str, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{process.args} exited early")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{url} did not answer in {timeout}s")


@dataclass
class Stack:
    """A memsync of its own: data directory, SQLite, a bundled Redis, and its processes."""

    base: Path
    env: dict[str, str]
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def manage(self, *args: str) -> str:
        return subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), *args],
            env=self.env, check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip

    def project_dir(self, slug: str) -> Path:
        return self.base / "data" / "projects" / slug

    def start(self, name: str, command: list[str]) -> subprocess.Popen[bytes]:
        logs = self.base / "logs"
        logs.mkdir(exist_ok=True)
        process = subprocess.Popen(
            [sys.executable, "-m", *command], env=self.env,
            stdout=(logs / f"{name}.log").open("wb"), stderr=subprocess.STDOUT,
        )  # fmt: skip
        self.processes.append(process)
        return process

    def start_web(self, workers: int = 2) -> str:
        """gunicorn with memsync's production command line; its base URL."""
        port = free_port()
        web = self.start("web", web_command(f"127.0.0.1:{port}", workers=workers))
        wait_for_http(f"http://127.0.0.1:{port}/healthz", web)
        return f"http://127.0.0.1:{port}"


@contextmanager
def throwaway_stack(prefix: str) -> Iterator[Stack]:
    """A stack in a temporary directory, migrated; every process stopped on the way out."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        base = Path(tmp)
        redis_dir = base / "redis"
        env = {
            **os.environ,
            "MEMSYNC_DATA_DIR": str(base / "data"),
            "REDIS_URL": bundled_redis.ensure_running(redis_dir),
            "DJANGO_SETTINGS_MODULE": "memsync.settings",
            "MEMSYNC_DREAM_ENABLED": "0",
        }
        env.pop("DATABASE_URL", None)
        stack = Stack(base, env)
        try:
            stack.manage("migrate", "-v0")
            yield stack
        finally:
            for process in stack.processes:
                process.terminate()
            for process in stack.processes:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
            bundled_redis.stop(redis_dir)


def build_history(path: Path, files: int, *, branch: str = "main") -> None:
    """N commits on `branch` of the repository at `path` (made if missing), commit i
    adding memory file i; every 100th also rewrites MEMORY.md. One `git fast-import`."""
    if not path.exists():
        subprocess.run(["git", "init", "-q", "-b", branch, str(path)], check=True)
    parent = subprocess.run(
        ["git", "rev-parse", "--verify", "-q", branch], cwd=path, capture_output=True, text=True
    ).stdout.strip()
    lines: list[bytes] = []
    start = 1_700_000_000
    index: list[str] = []
    for i in range(files):
        data = f"---\nname: memory {i}\ndescription: fact {i}\ntype: project\n---\n\n{i}\n".encode()
        message = f"extract: memory {i}".encode()
        lines.append(f"commit refs/heads/{branch}\n".encode())
        lines.append(f"committer Bench <bench@example.com> {start + i * 60} +0000\n".encode())
        lines.append(b"data %d\n%s\n" % (len(message), message))
        if i == 0 and parent:
            lines.append(f"from {parent}\n".encode())
        lines.append(f"M 100644 inline memory_{i:05d}.md\n".encode())
        lines.append(b"data %d\n%s\n" % (len(data), data))
        index.append(f"- [Memory {i}](memory_{i:05d}.md) — fact number {i}")
        if i % 100 == 99 or i == files - 1:
            text = ("\n".join(index[-150:]) + "\n").encode()
            lines.append(b"M 100644 inline MEMORY.md\n")
            lines.append(b"data %d\n%s\n" % (len(text), text))
    subprocess.run(["git", "fast-import", "--quiet"], cwd=path, input=b"".join(lines), check=True)
    subprocess.run(["git", "checkout", "-q", "-f", branch], cwd=path, check=True)
