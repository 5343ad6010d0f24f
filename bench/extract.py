"""``memsync extract`` of one memory against a raw commit, on a large repository.

    python bench/extract.py [--files 10000] [--rounds 10]

Builds a repository of N memory files and N commits (with git fast-import) and three
clones of it, then, for each round, saves one memory three ways:

* raw: write the memory file, add its line to ``MEMORY.md``, ``git add`` + ``git
  commit`` (the baseline: what one saved memory costs Git itself);
* the CLI: ``memsync extract DIR --transcript FILE --engine deterministic`` as a new
  process, the transcript holding one "Remember that …" (a new session each round),
  with no warm helper (``MEMSYNC_NO_HELPER=1``): the whole process, start and imports;
* the CLI served by the repository's warm helper (``memsync.client.helper_process``,
  started by the first call): the client process plus what the helper and the child it
  forks for the call spent, read from ``/proc/<helper pid>/stat`` (its utime, stime,
  cutime and cstime, in clock ticks of 10 ms) before and after each call;
* the library: `extract_session` in this process (transcript read, engine, commit).

The first extraction of each clone builds the recall index kept on disk (recall
builds it too, before the first prompt); it is printed apart as "cold". The rest
are medians over the rounds, of wall time and of CPU time (the process and the git
processes it waits for). Ratios, not milliseconds, are the result, and on a shared
machine the CPU ratio is the steadier one: wall time there mostly measures the
neighbours. The CLI runs with its bytecode cached, as an installed memsync does
(`stack.installed_environment`).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from memsync.extract.deterministic import DeterministicEngine
from memsync.extract.run import extract_session
from memsync.extract.transcript import read_transcript
from memsync.store import MemoryRepo

from stack import ROOT, build_history, cpu_now, installed_environment, median_ms

sys.path.insert(0, str(ROOT))  # for tests.extract.sessions
from tests.extract.sessions import SessionLog

MEMSYNC = Path(sys.executable).with_name("memsync")
# Made-up subjects, one per round, so each round saves a new memory (not an update).
_SERVICES = [
    "ledger",
    "billing",
    "atlas",
    "harbor",
    "quartz",
    "falcon",
    "meadow",
    "tundra",
    "cobalt",
    "saffron",
]
_DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def statement(round_: int) -> str:
    service = f"{_SERVICES[round_ % len(_SERVICES)]}{round_}"
    day = _DAYS[round_ % len(_DAYS)]
    return f"the {service} service deploys from the release branch every {day} at noon"


def measured(action: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds `action` took (its git and memsync processes included)."""
    wall, cpu = time.perf_counter(), cpu_now()
    action()
    return time.perf_counter() - wall, cpu_now() - cpu


def raw_commit(path: Path, round_: int) -> None:
    """Write one memory and its index line, then git add + git commit."""
    name = f"raw_{round_}.md"
    fact = statement(round_)
    (path / name).write_text(f"---\nname: {name}\ndescription: {fact}\ntype: project\n---\n\n.\n")
    with (path / "MEMORY.md").open("a") as index:
        index.write(f"- [{name}]({name}) — {fact}\n")
    subprocess.run(["git", "add", "--", name, "MEMORY.md"], cwd=path, check=True)
    subprocess.run(["git", "commit", "-q", "-m", f"extract: {name}"], cwd=path, check=True)


def transcript(sessions: Path, round_: int, clone: str) -> Path:
    log = SessionLog(session_id=f"bench-{clone}-{round_}")
    log.turn(f"Remember that {statement(round_)}.")
    return log.write(sessions)


def cli_extract(repo: Path, path: Path, *, helper: bool = False) -> None:
    environment = {k: v for k, v in installed_environment().items() if "ANTHROPIC_" not in k}
    environment.pop("MEMSYNC_NO_HELPER", None)
    if not helper:
        environment["MEMSYNC_NO_HELPER"] = "1"
    done = subprocess.run(
        [str(MEMSYNC), "extract", str(repo), "--transcript", str(path), "--engine",
         "deterministic"],
        capture_output=True, text=True, env=environment,
    )  # fmt: skip
    if done.returncode != 0 or "saved 1 memory" not in done.stdout:
        raise SystemExit(f"memsync extract did not save one memory:\n{done.stdout}{done.stderr}")


def helper_pid(repo: Path, timeout: float = 30) -> int:
    """The pid of the repository's warm helper, once it listens."""
    directory = repo / ".git" / "memsync" / "helper"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (directory / "socket").exists() and (directory / "pid").exists():
            return int((directory / "pid").read_text())
        time.sleep(0.05)
    raise SystemExit(f"no warm helper started for {repo} (see {directory / 'log'})")


def helper_cpu(pid: int) -> float:
    """CPU seconds the helper and the children it waited for (each call's) used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    # After the name: state is field 3 of stat(5); utime, stime, cutime, cstime 14–17.
    ticks = sum(int(value) for value in fields[11:15])
    return ticks / os.sysconf("SC_CLK_TCK")


def measured_with_helper(pid: int, action: Callable[[], object]) -> tuple[float, float]:
    """`measured`, plus the CPU the helper spent meanwhile."""
    before = helper_cpu(pid)
    wall, cpu = measured(action)
    return wall, cpu + helper_cpu(pid) - before


def library_extract(repo: MemoryRepo, path: Path) -> None:
    result = extract_session(
        repo, read_transcript(path, since=0, memory_dir=repo.path), DeterministicEngine(), since=0
    )
    if result.status != "saved" or len(result.saved) != 1:
        raise SystemExit(f"extract_session did not save one memory: {result.to_dict()}")


def process_floor() -> None:
    """A process that only starts the CLI (its --help): what no extraction can go below."""
    environment = installed_environment()
    subprocess.run([str(MEMSYNC), "--help"], check=True, capture_output=True, env=environment)


def report(
    label: str, samples: list[tuple[float, float]], baseline: list[tuple[float, float]]
) -> str:
    """``label: W ms, ratio R; CPU C ms, ratio Q`` against the baseline's medians."""
    wall, cpu = (median_ms([sample[i] for sample in samples]) for i in (0, 1))
    base_wall, base_cpu = (median_ms([sample[i] for sample in baseline]) for i in (0, 1))
    return (
        f"{label}: {wall:.1f} ms, ratio {wall / base_wall:.2f}; "
        f"CPU {cpu:.1f} ms, ratio {cpu / base_cpu:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=10)
    options = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="memsync-bench-") as tmp:
        base = Path(tmp)
        started = time.perf_counter()
        build_history(base / "origin", options.files)
        for name in ("raw", "cli", "warm", "library"):
            subprocess.run(
                ["git", "clone", "-q", str(base / "origin"), str(base / name)], check=True
            )
        cli_repo = MemoryRepo.init(base / "cli")
        warm_repo = MemoryRepo.init(base / "warm")
        library_repo = MemoryRepo.init(base / "library")
        sessions = base / "sessions"
        print(
            f"built {options.files:,} files / {options.files:,} commits "
            f"in {time.perf_counter() - started:.1f}s"
        )

        # Once before measuring: the first run of an installed client found its bytecode.
        process_floor()
        names = ("cli", "warm", "library")
        first = {name: transcript(sessions, 0, name) for name in names}
        cold_cli = measured(lambda: cli_extract(cli_repo.path, first["cli"]))
        # The first call runs in its own process and starts the helper for the next.
        cold_warm = measured(lambda: cli_extract(warm_repo.path, first["warm"], helper=True))
        pid = helper_pid(warm_repo.path)
        cold_library = measured(lambda: library_extract(library_repo, first["library"]))
        raw, cli, warm, library, floor = [], [], [], [], []
        try:
            for round_ in range(1, options.rounds + 1):
                raw.append(measured(lambda r=round_: raw_commit(base / "raw", r)))
                paths = {name: transcript(sessions, round_, name) for name in names}
                cli.append(measured(lambda p=paths: cli_extract(cli_repo.path, p["cli"])))
                warm.append(
                    measured_with_helper(
                        pid, lambda p=paths: cli_extract(warm_repo.path, p["warm"], helper=True)
                    )
                )
                library.append(
                    measured(lambda p=paths: library_extract(library_repo, p["library"]))
                )
                floor.append(measured(process_floor))
            served = (warm_repo.path / ".git" / "memsync" / "helper" / "log").read_text()
        finally:
            os.kill(pid, signal.SIGTERM)
        if served.count(": exit 0 in ") != options.rounds:
            raise SystemExit(f"the warm helper did not serve every round:\n{served}")

    print(report("raw write + git add + git commit (the baseline)", raw, raw))
    print(report("memsync extract (the whole process)", cli, raw))
    print(report("memsync extract (warm helper)", warm, raw))
    print(report("extract_session (in process)", library, raw))
    print(report("  memsync --help, for information (starting the CLI)", floor, raw))
    print(
        f"cold (the recall index built): memsync extract {cold_cli[0] * 1000:.0f} ms, "
        f"CPU {cold_cli[1] * 1000:.0f} ms; extract_session {cold_library[0] * 1000:.0f} ms, "
        f"CPU {cold_library[1] * 1000:.0f} ms; the call that started the warm helper "
        f"{cold_warm[0] * 1000:.0f} ms, CPU {cold_warm[1] * 1000:.0f} ms (the helper's own "
        "start not counted)"
    )


if __name__ == "__main__":
    main()
