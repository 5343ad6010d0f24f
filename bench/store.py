"""Benchmark the Git store against raw git, measured in the same run.

    python bench/store.py [--files 10000] [--rounds 30]

Builds a repository of N memory files and N commits (with git fast-import), then prints:
  * the median latency of an extraction-sized commit (3 files + MEMORY.md) through
    MemoryRepo against raw `git add` + `git commit` on an identical clone;
  * MemoryRepo.ages() for every file (its one pass over main's first-parent line, cache
    off) against one raw `git log --first-parent --raw` of the same line; and, for
    information, ages() after one new commit.
Ratios, not milliseconds, are the result: the disk here is noisy.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path

from memsync.store import CommitKind, MemoryRepo

from stack import build_history, median_ms


def write_extraction(path: Path, round_: int) -> list[str]:
    names = [f"bench_{round_}_{n}.md" for n in range(3)]
    for name in names:
        (path / name).write_text(f"---\nname: {name}\ndescription: d\ntype: user\n---\n\nx\n")
    with (path / "MEMORY.md").open("a") as index:
        index.write("".join(f"- [{n}]({n}) — hook\n" for n in names))
    return [*names, "MEMORY.md"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=30)
    options = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="memsync-bench-") as tmp:
        base = Path(tmp)
        started = time.perf_counter()
        build_history(base / "origin", options.files)
        for name in ("raw", "memsync"):
            subprocess.run(
                ["git", "clone", "-q", str(base / "origin"), str(base / name)], check=True
            )
        repo = MemoryRepo.init(base / "memsync")
        raw = base / "raw"
        print(
            f"built {options.files} files / {options.files} commits "
            f"in {time.perf_counter() - started:.1f}s"
        )

        raw_times, repo_times = [], []
        for round_ in range(options.rounds):
            paths = write_extraction(raw, round_)
            t0 = time.perf_counter()
            subprocess.run(["git", "add", "--", *paths], cwd=raw, check=True)
            subprocess.run(
                ["git", "commit", "-q", "-m", f"extract: round {round_}"], cwd=raw, check=True
            )
            raw_times.append(time.perf_counter() - t0)

            paths = write_extraction(repo.path, round_)
            t0 = time.perf_counter()
            repo.commit(
                CommitKind.EXTRACT, f"round {round_}", [("Memsync-Session", "bench")], paths=paths
            )
            repo_times.append(time.perf_counter() - t0)

        raw_log, ages_times = [], []
        for _ in range(max(5, options.rounds // 3)):
            t0 = time.perf_counter()
            subprocess.run(
                ["git", "log", "--first-parent", "--raw", "--no-abbrev", "--format=%H %ct"],
                cwd=repo.path,
                check=True,
                stdout=subprocess.DEVNULL,
            )
            raw_log.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            ages = repo.ages(cached=False)  # the one pass over the whole history
            ages_times.append(time.perf_counter() - t0)
        assert len(ages) >= options.files

        # Information: once its cache is warm, ages() after a new commit walks only that one.
        repo.ages()
        incremental = []
        for round_ in range(5):
            repo.commit(CommitKind.EXTRACT, f"after {round_}", paths=write_extraction(repo.path,
                        1000 + round_))  # fmt: skip
            t0 = time.perf_counter()
            repo.ages()
            incremental.append(time.perf_counter() - t0)

        commit_ratio = median_ms(repo_times) / median_ms(raw_times)
        ages_ratio = median_ms(ages_times) / median_ms(raw_log)
        print(
            f"commit (3 files + MEMORY.md): MemoryRepo {median_ms(repo_times):.1f} ms, "
            f"raw git add+commit {median_ms(raw_times):.1f} ms, ratio {commit_ratio:.2f}"
        )
        print(
            f"ages() of {len(ages)} files: MemoryRepo {median_ms(ages_times):.1f} ms, "
            f"raw git log --first-parent --raw {median_ms(raw_log):.1f} ms, ratio {ages_ratio:.2f}"
        )
        print(
            f"  ages() after one new commit, from its cache: {median_ms(incremental):.1f} ms, "
            f"ratio {median_ms(incremental) / median_ms(raw_log):.3f} (information)"
        )


if __name__ == "__main__":
    main()
