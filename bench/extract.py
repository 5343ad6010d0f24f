"""``memsync extract`` of one memory against a raw commit, on a large repository.

    python bench/extract.py [--files 10000] [--rounds 10]

Builds a repository of N memory files and N commits (with git fast-import) and three
clones of it, then, for each round, saves one memory three ways:

* raw: write the memory file, add its line to ``MEMORY.md``, ``git add`` + ``git
  commit`` (the baseline: what one saved memory costs Git itself);
* the CLI: ``memsync extract DIR --transcript FILE --engine deterministic`` as a new
  process, the transcript holding one "Remember that …" (a new session each round);
* the library: `extract_session` in this process (transcript read, engine, commit).

The first extraction of each clone builds the recall index kept on disk (recall
builds it too, before the first prompt); it is printed apart as "cold". The rest
are medians over the rounds. Ratios, not milliseconds, are the result: the disk here
is noisy.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from memsync.extract.deterministic import DeterministicEngine
from memsync.extract.run import extract_session
from memsync.extract.transcript import read_transcript
from memsync.store import MemoryRepo

from stack import ROOT, build_history, median_ms

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


def raw_commit(path: Path, round_: int) -> float:
    """Write one memory and its index line, then git add + git commit; the seconds taken."""
    started = time.perf_counter()
    name = f"raw_{round_}.md"
    fact = statement(round_)
    (path / name).write_text(f"---\nname: {name}\ndescription: {fact}\ntype: project\n---\n\n.\n")
    with (path / "MEMORY.md").open("a") as index:
        index.write(f"- [{name}]({name}) — {fact}\n")
    subprocess.run(["git", "add", "--", name, "MEMORY.md"], cwd=path, check=True)
    subprocess.run(["git", "commit", "-q", "-m", f"extract: {name}"], cwd=path, check=True)
    return time.perf_counter() - started


def transcript(sessions: Path, round_: int, clone: str) -> Path:
    log = SessionLog(session_id=f"bench-{clone}-{round_}")
    log.turn(f"Remember that {statement(round_)}.")
    return log.write(sessions)


def cli_extract(repo: Path, path: Path) -> float:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    started = time.perf_counter()
    done = subprocess.run(
        [str(MEMSYNC), "extract", str(repo), "--transcript", str(path), "--engine",
         "deterministic"],
        capture_output=True, text=True, env=environment,
    )  # fmt: skip
    elapsed = time.perf_counter() - started
    if done.returncode != 0 or "saved 1 memory" not in done.stdout:
        raise SystemExit(f"memsync extract did not save one memory:\n{done.stdout}{done.stderr}")
    return elapsed


def library_extract(repo: MemoryRepo, path: Path) -> float:
    started = time.perf_counter()
    result = extract_session(
        repo, read_transcript(path, since=0, memory_dir=repo.path), DeterministicEngine(), since=0
    )
    elapsed = time.perf_counter() - started
    if result.status != "saved" or len(result.saved) != 1:
        raise SystemExit(f"extract_session did not save one memory: {result.to_dict()}")
    return elapsed


def process_floor() -> float:
    """A process that only starts the CLI (its --help): what no extraction can go below."""
    started = time.perf_counter()
    subprocess.run([str(MEMSYNC), "--help"], check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=10)
    options = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="memsync-bench-") as tmp:
        base = Path(tmp)
        started = time.perf_counter()
        build_history(base / "origin", options.files)
        for name in ("raw", "cli", "library"):
            subprocess.run(
                ["git", "clone", "-q", str(base / "origin"), str(base / name)], check=True
            )
        cli_repo = MemoryRepo.init(base / "cli")
        library_repo = MemoryRepo.init(base / "library")
        sessions = base / "sessions"
        print(
            f"built {options.files:,} files / {options.files:,} commits "
            f"in {time.perf_counter() - started:.1f}s"
        )

        cold_cli = cli_extract(cli_repo.path, transcript(sessions, 0, "cli"))
        cold_library = library_extract(library_repo, transcript(sessions, 0, "library"))
        raw, cli, library, floor = [], [], [], []
        for round_ in range(1, options.rounds + 1):
            raw.append(raw_commit(base / "raw", round_))
            cli.append(cli_extract(cli_repo.path, transcript(sessions, round_, "cli")))
            library.append(library_extract(library_repo, transcript(sessions, round_, "library")))
            floor.append(process_floor())

    baseline = median_ms(raw)
    print(f"raw write + git add + git commit: {baseline:.1f} ms (the baseline)")
    print(
        f"memsync extract (the whole process): {median_ms(cli):.1f} ms, "
        f"ratio {median_ms(cli) / baseline:.2f}; cold (recall index built) "
        f"{cold_cli * 1000:.0f} ms, ratio {cold_cli * 1000 / baseline:.1f}"
    )
    print(
        f"extract_session (in process): {median_ms(library):.1f} ms, "
        f"ratio {median_ms(library) / baseline:.2f}; cold {cold_library * 1000:.0f} ms, "
        f"ratio {cold_library * 1000 / baseline:.1f}"
    )
    print(
        f"  memsync --help, for information (starting the CLI): {median_ms(floor):.1f} ms, "
        f"ratio {median_ms(floor) / baseline:.2f}"
    )


if __name__ == "__main__":
    main()
