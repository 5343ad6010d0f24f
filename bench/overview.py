"""Benchmark the project overview's walk of history against raw git, in the same run.

    python bench/overview.py [--commits 10000]

Builds a repository of N commits (bench/store.py's history: commit i adds memory i,
every 100th rewrites MEMORY.md), then prints the time of ``branch_overview`` with its
cache cleared (one ``git log --first-parent --raw`` plus one ``cat-file --batch`` of
the sampled index versions) against that raw ``git log`` alone, the time of a second
call (the cache), of a call one commit later (only that commit is walked), and
``changes_since`` for the last week.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memsync.memory import INDEX_FILENAME, is_topic_path
from memsync.store import CommitKind, MemoryRepo
from memsync.store.overview import CACHE_NAME, branch_overview, changes_since

from stack import build_history


def timed(action) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commits", type=int, default=10_000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "memory"
        build_history(path, options.commits)
        repo = MemoryRepo(path)
        head = repo.rev_parse("main")
        assert head is not None
        cache = path / ".git" / "memsync" / CACHE_NAME
        raw = timed(lambda: subprocess.run(
            ["git", "log", "--first-parent", "--raw", "-z", "--no-renames", "main"],
            cwd=path, check=True, capture_output=True,
        ))  # fmt: skip
        cold = timed(lambda: branch_overview(repo, head, is_topic_path, INDEX_FILENAME))
        warm = timed(lambda: branch_overview(repo, head, is_topic_path, INDEX_FILENAME))
        overview = branch_overview(repo, head, is_topic_path, INDEX_FILENAME)
        week = timed(lambda: changes_since(repo, head, datetime.now(UTC) - timedelta(days=7)))
        (path / "new.md").write_text("---\nname: new\ndescription: d\ntype: user\n---\n")
        moved = repo.commit(CommitKind.EXTRACT, "one more")
        assert moved is not None
        step = timed(lambda: branch_overview(repo, moved, is_topic_path, INDEX_FILENAME))
        cache.unlink()
    print(f"{options.commits} commits, {len(overview.samples)} samples, "
          f"{overview.samples[-1].memories} memories at the end")  # fmt: skip
    print(f"raw git log --first-parent --raw:  {raw * 1000:8.0f} ms")
    print(f"branch_overview, cache cleared:    {cold * 1000:8.0f} ms  ({cold / raw:.1f}× raw)")
    print(f"branch_overview, from its cache:   {warm * 1000:8.0f} ms")
    print(f"branch_overview, one commit later: {step * 1000:8.0f} ms")
    print(f"changes_since (last 7 days):       {week * 1000:8.0f} ms")


if __name__ == "__main__":
    main()
