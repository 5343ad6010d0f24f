"""Peak RSS of a real Celery worker during one deterministic dream of a large project.

    python bench/dream_worker.py [--memories 10000]

`bench/dream.py --growth` prints the peak RSS of its own process around `run_dream`;
a server dreams inside a Celery worker, which has Django, Celery and the task code
loaded besides. This starts a throwaway memsync (SQLite, a bundled Redis) with a
project of M generated memories (the dream tests' corpus, committed to the project's
repository), the production worker command with one process, asks for a manual
dream, waits for its run to finish, and prints each worker process's peak RSS
(``VmHWM``; the task runs in the pool's child) next to the worker's RSS while idle
before the dream.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from memsync.processes import worker_command

from stack import ROOT, Stack, throwaway_stack

sys.path.insert(0, str(ROOT))  # for tests.dream.corpus
from tests.dream.corpus import build_corpus

SLUG = "bench"
FINISHED = {
    "proposed",
    "merged",
    "succeeded",
    "no-changes",
    "skipped",
    "locked",
    "conflict",
    "failed",
}


def fill_project(stack: Stack, memories: int) -> None:
    """The corpus's files committed on the project's ``main``."""
    repo = stack.project_dir(SLUG) / "repo"
    with tempfile.TemporaryDirectory(prefix="memsync-bench-corpus-") as tmp:
        corpus = build_corpus(Path(tmp) / "memory", memories=memories)
        for path in corpus.root.iterdir():
            if path.is_file():
                shutil.copy2(path, repo / path.name)
    git = ["git", "-C", str(repo), "-c", "user.name=bench", "-c", "user.email=bench@example.com"]
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", f"manual: {memories} memories"], check=True)


def shell(stack: Stack, code: str) -> str:
    """The last line `code` prints (Django's shell may print a line of its own first)."""
    return stack.manage("shell", "-c", code).strip().splitlines()[-1]


def worker_processes(worker: subprocess.Popen[bytes]) -> list[int]:
    children = Path(f"/proc/{worker.pid}/task/{worker.pid}/children").read_text().split()
    return [worker.pid, *map(int, children)]


def rss_mib(pid: int, field: str) -> float:
    found = re.search(rf"{field}:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    return int(found[1]) / 1024 if found else 0.0


def wait_for_run(stack: Stack, run_id: int, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = shell(
            stack, f"from dashboard.models import Run; print(Run.objects.get(pk={run_id}).status)"
        )
        if status in FINISHED:
            return status
        print(f"  run {run_id}: {status}", file=sys.stderr, flush=True)
        time.sleep(2)
    raise SystemExit(f"dream run {run_id} did not finish in {timeout:.0f}s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--timeout", type=float, default=1800)
    options = parser.parse_args()

    with throwaway_stack("memsync-bench-dream-worker-") as stack:
        stack.env["MEMSYNC_DREAM_ENGINE"] = "deterministic"
        stack.env.pop("ANTHROPIC_API_KEY", None)
        stack.manage("memsync_project", "create", SLUG)
        started = time.perf_counter()
        fill_project(stack, options.memories)
        print("project filled", file=sys.stderr, flush=True)
        worker = stack.start("worker", worker_command(("memsync", "dreams"), "--concurrency=1"))
        time.sleep(10)  # the worker and its pool child started and idle
        idle = {pid: rss_mib(pid, "VmRSS") for pid in worker_processes(worker)}
        run_id = int(
            shell(
                stack,
                "from dashboard.models import Project\n"
                "from dashboard.services.dreams import start_manual_dream\n"
                f"print(start_manual_dream(Project.objects.get(slug={SLUG!r})).pk)",
            )
        )
        dreamed = time.perf_counter()
        print(f"dream run {run_id} queued", file=sys.stderr, flush=True)
        status = wait_for_run(stack, run_id, options.timeout)
        took = time.perf_counter() - dreamed
        peaks = {pid: rss_mib(pid, "VmHWM") for pid in worker_processes(worker)}

    print(
        f"{options.memories:,} memories (set up in {dreamed - started:.0f}s); dream run "
        f"{status} in about {took:.0f}s (polled every 2s)"
    )
    for pid, peak in peaks.items():
        role = "worker (main)" if pid == worker.pid else "worker (pool child)"
        print(
            f"  {role}: peak RSS {peak:.0f} MiB; idle before the dream {idle.get(pid, 0):.0f} MiB"
        )


if __name__ == "__main__":
    main()
