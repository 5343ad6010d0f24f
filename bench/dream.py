"""Benchmark the dream's gates and a deterministic dream, against baselines measured in
the same run.

    python bench/dream.py [--projects 10000] [--memories 2000]

Prints three ratios (aims in brackets):
  * a closed-gate check (``evaluate_gates`` stopping at the time gate) against one
    ``os.stat`` of the lock file [<= 3];
  * the beat (``dashboard.dreams.evaluate_all``) over N projects against N
    ``os.stat`` calls [<= 3]. The projects are rows of a SQLite database this script
    creates and migrates in a temporary data directory, each with a fresh
    ``.consolidate-lock`` so every time gate is closed: what is measured is the one
    query, the rows, the path building and the stats (the common case every ten
    minutes). A second line, for information, lets 1% of them past the time gate (their
    session gate then closes: an UPDATE and a SELECT each);
  * a deterministic dream over M generated memories against reading those files once
    [<= 10]: the engine alone on a copy of the directory, and for information the whole
    ``run_dream`` (locks, worktree checkout, file ages from Git, engine, commit).
Ratios, not milliseconds, are the result: the disk here is noisy.

    python bench/dream.py --growth 500,2000,10000

prints only the deterministic dream at each size: the engine's ratio (the median of
three cold runs, each in a new process) and the whole ``run_dream``'s (worktree, ages,
engine, canaries, commit), in wall time and in CPU time (the process's and its git
children's: steadier when other work shares the machine), how each CPU ratio grows
from the smallest size (flat growth: the dream stays linear in the memories), the
peak RSS of the process during the run, and the whole run once more on the same
``main`` (the canary answers then come from the cache the first run kept; the result
is checked to be the same).

    python bench/dream.py --floor 2000

prints what the least a dream reading its memories must do costs against reading the
files once, before any rule runs: parsing the directory, reading each memory's words,
indexing which memories hold each word (the part of the engine's budget they take).

    python bench/dream.py --digest 2000,10000

prints a digest of all a dream of the bench's corpus gives (files, notes, summary,
stale list, canary result, trailers): run it before and after a change meant only to
make the dream faster, and the digests must be equal.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import multiprocessing
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from memsync.dream.engine import DreamContext
    from tests.dream.corpus import Corpus

ROOT = Path(__file__).resolve().parents[1]
# Run as ``python bench/dream.py``, this directory comes first on sys.path; the
# benchmark imports tests.dream.corpus, so put the repository root there instead.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(ROOT)


T = TypeVar("T")


def best_of(function: Callable[[], object], repeats: int) -> float:
    """The median of ``repeats`` timings of ``function``, in seconds."""
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        function()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def bench_closed_gate(directory: Path, loops: int) -> float:
    from memsync.dream.gates import GateConfig, evaluate_gates
    from memsync.dream.sessions import NoTranscripts, ScanStateFile

    lock = directory / ".consolidate-lock"
    lock.write_text("")
    path = str(lock)
    config = GateConfig()
    throttle = ScanStateFile(directory / "scan")
    sessions = NoTranscripts()
    decision = evaluate_gates(config, path, throttle=throttle, sessions=sessions)
    assert decision.gate == "time", decision.reason

    def gates() -> None:
        for _ in range(loops):
            evaluate_gates(config, path, throttle=throttle, sessions=sessions)

    def stats() -> None:
        for _ in range(loops):
            os.stat(path)

    gate_time, stat_time = best_of(gates, 7), best_of(stats, 7)
    ratio = gate_time / stat_time
    print(
        f"closed gate: evaluate_gates {gate_time / loops * 1e6:.2f} µs, "
        f"os.stat {stat_time / loops * 1e6:.2f} µs, ratio {ratio:.2f} (aim <= 3)"
    )
    return ratio


def setup_django(data_dir: Path) -> None:
    os.environ["MEMSYNC_DATA_DIR"] = str(data_dir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memsync.settings")
    os.environ.pop("DATABASE_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def bench_beat(projects: int) -> float:
    from django.conf import settings

    from dashboard.models import Project
    from dashboard.services import dreams
    from memsync.store import LOCK_FILE_NAME

    started = time.perf_counter()
    Project.objects.bulk_create(
        [Project(slug=f"project-{n:05d}", name=f"Project {n}") for n in range(projects)],
        batch_size=2000,
    )
    paths = []
    for n in range(projects):
        repo = Path(settings.PROJECTS_DIR) / f"project-{n:05d}" / "repo"
        repo.mkdir(parents=True)
        (repo / LOCK_FILE_NAME).write_text("")
        paths.append(str(repo / LOCK_FILE_NAME))
    print(f"built {projects} projects in {time.perf_counter() - started:.1f}s")

    report = dreams.evaluate_all()
    assert (report.projects, report.past_time_gate) == (projects, 0), report

    def stats() -> None:
        for path in paths:
            os.stat(path)

    beat_time = best_of(dreams.evaluate_all, 7)
    stat_time = best_of(stats, 7)
    ratio = beat_time / stat_time
    print(
        f"beat over {projects} projects (all time gates closed): {beat_time * 1000:.1f} ms, "
        f"{projects} os.stat {stat_time * 1000:.1f} ms, ratio {ratio:.2f} (aim <= 3)"
    )

    # For information: 1% past the time gate (no sessions, so nothing is queued).
    opened = paths[::100]
    for path in opened:
        os.utime(path, (1, 1))
    some_open = best_of(dreams.evaluate_all, 1)
    print(
        f"  with {len(opened)} projects past the time gate (first beat, scans due): "
        f"{some_open * 1000:.1f} ms, ratio {some_open / stat_time:.2f} (information)"
    )
    return ratio


def deterministic_engine() -> object | None:
    from memsync.dream.engine_choice import EngineUnavailable, get_engine

    try:
        return get_engine(
            "deterministic",
            api_key=None,
            base_url=None,
            model="none",
            max_turns=1,
            token_budget=1,
        )
    except EngineUnavailable as error:
        try:
            from memsync.dream.deterministic import DeterministicEngine
        except ImportError:
            print(f"deterministic dream: skipped ({error})")
            return None
        return DeterministicEngine()


def bench_dream(base: Path, memories: int) -> float | None:
    from memsync.dream.engine import Scope
    from memsync.dream.run import DreamRequest, DreamStatus, run_dream
    from memsync.store import MemoryRepo
    from tests.dream.corpus import RecordingProgress, build_corpus, commit_corpus

    engine = deterministic_engine()
    if engine is None:
        return None
    started = time.perf_counter()
    corpus = build_corpus(base / "corpus", memories=memories)
    commit_corpus(corpus)
    files = [p for p in corpus.root.rglob("*") if p.is_file() and ".git" not in p.parts]
    print(f"built {len(files)} files ({memories} memories) in {time.perf_counter() - started:.1f}s")

    def read_once() -> None:
        for path in files:
            path.read_bytes()

    read_time = best_of(read_once, 7)

    engine_times = []
    for attempt in range(3):
        copy = base / f"copy-{attempt}"
        shutil.copytree(corpus.root, copy, ignore=shutil.ignore_patterns(".git"))
        context = corpus.context(Scope.PERSONAL, workdir=copy)
        started = time.perf_counter()
        result = engine.consolidate(context, RecordingProgress())  # type: ignore[attr-defined]
        engine_times.append(time.perf_counter() - started)
    engine_time = statistics.median(engine_times)
    ratio = engine_time / read_time
    print(
        f"deterministic engine over {memories} memories: {engine_time * 1000:.0f} ms "
        f"({len(result.files_touched)} files touched), reading them once "
        f"{read_time * 1000:.1f} ms, ratio {ratio:.2f} (aim <= 10)"
    )

    MemoryRepo.init(corpus.root)
    run_times = []
    for _ in range(3):
        started = time.perf_counter()
        outcome = run_dream(DreamRequest(repo_path=corpus.root, engine=engine))  # type: ignore[arg-type]
        run_times.append(time.perf_counter() - started)
        assert outcome.status == DreamStatus.PROPOSED, outcome.reason
    run_time = statistics.median(run_times)
    print(
        f"  whole run_dream (locks, worktree, ages, engine, commit): {run_time * 1000:.0f} ms, "
        f"ratio {run_time / read_time:.2f} (information)"
    )
    return ratio


def cpu_seconds() -> float:
    """CPU time of this process and of the children it waited for (git): on a shared
    machine a ratio of CPU times moves far less with the load than one of wall times."""
    # os.times() counts in clock ticks (10 ms): too coarse for reading 500 files, so
    # this process's own time comes from the finer process clock.
    children = os.times()
    return time.process_time() + children.children_user + children.children_system


def _timed(function: Callable[[], T]) -> tuple[T, float, float]:
    """What one call of `function` returns, and its wall and CPU seconds."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = function()
    return result, time.perf_counter() - wall, cpu_seconds() - cpu


def _reset_peak_rss() -> None:
    """Make the kernel's peak RSS of this process start again from its current RSS
    (Linux: writing 5 to clear_refs), so a peak read later is the dream's own."""
    # Elsewhere the peak is the process's since it started.
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def _peak_rss_mib() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_growth(base: Path, sizes: list[int]) -> None:
    from memsync.dream.run import DreamRequest, DreamStatus, run_dream
    from memsync.store import MemoryRepo
    from tests.dream.corpus import build_corpus, commit_corpus

    engine = deterministic_engine()
    if engine is None:
        return
    first: tuple[float, ...] | None = None
    for size in sizes:
        corpus = build_corpus(base / f"growth-{size}", memories=size)
        files = [p for p in corpus.root.rglob("*") if p.is_file()]

        def read_once(files: list[Path] = files) -> None:
            for path in files:
                path.read_bytes()

        reads = [_timed(read_once) for _ in range(5)]
        read_wall = statistics.median(wall for _, wall, _ in reads)
        read_cpu = statistics.median(cpu for _, _, cpu in reads)
        engine_wall, engine_cpu = _cold_engine(corpus, base / f"growth-{size}-copy")
        warm = _warm_engine(base / f"growth-{size}-warm", corpus)

        commit_corpus(corpus)
        MemoryRepo.init(corpus.root)
        _reset_peak_rss()
        request = DreamRequest(repo_path=corpus.root, engine=engine)  # type: ignore[arg-type]
        outcome, run_wall, run_cpu = _timed(partial(run_dream, request))
        assert outcome.status == DreamStatus.PROPOSED, outcome.reason
        peak = _peak_rss_mib()
        # The next dream of the same main (nobody pushed in between): main's canary
        # answers, and this very tree's, come from the cache the first run kept.
        again, again_wall, again_cpu = _timed(partial(run_dream, request))
        assert again.status == DreamStatus.PROPOSED, again.reason
        assert again.canaries == outcome.canaries, (again.canaries, outcome.canaries)
        _change_some(corpus.root, corpus.topic_files)
        _commit_all(corpus.root)
        changed, _, changed_cpu = _timed(partial(run_dream, request))
        assert changed.status == DreamStatus.PROPOSED, changed.reason

        ratios = (
            engine_wall / read_wall,
            engine_cpu / read_cpu,
            run_wall / read_wall,
            run_cpu / read_cpu,
        )
        first = first or ratios
        print(
            f"{size:>6} memories: read once {read_wall * 1000:.1f} ms ({read_cpu * 1000:.1f} ms "
            f"CPU); engine {engine_wall * 1000:.0f} ms, ratio {ratios[0]:.1f}, CPU ratio "
            f"{ratios[1]:.1f} (growth x{ratios[1] / first[1]:.2f}); whole run_dream "
            f"{run_wall * 1000:.0f} ms, ratio {ratios[2]:.1f}, CPU ratio {ratios[3]:.1f} "
            f"(growth x{ratios[3] / first[3]:.2f}); peak RSS of the run {peak:.0f} MiB; "
            f"again on the same main {again_wall * 1000:.0f} ms, ratio "
            f"{again_wall / read_wall:.1f}, CPU ratio {again_cpu / read_cpu:.1f}",
            flush=True,
        )
        print(
            f"        warm (information; the cold lines above are the aim's): engine with the "
            f"readings a previous dream kept {warm[0] * 1000:.0f} ms CPU, CPU ratio "
            f"{warm[0] / read_cpu:.1f}; after {CHANGED_SHARE:.0%} of the memories changed "
            f"{warm[1] * 1000:.0f} ms CPU, CPU ratio {warm[1] / read_cpu:.1f}; whole run_dream "
            f"again on the same main (readings and canaries kept) CPU ratio "
            f"{again_cpu / read_cpu:.1f}, after {CHANGED_SHARE:.0%} of the memories changed "
            f"on main CPU ratio {changed_cpu / read_cpu:.1f}",
            flush=True,
        )
        shutil.rmtree(corpus.root)


# Cold engine runs per size, each in a new process: one run moves by a fifth from one
# to the next, and a second run in the same process finds the caches of words and lines
# the first filled (about an eighth cheaper), so it is no longer cold.
COLD_RUNS = 3


def _cold_engine(corpus: Corpus, copy: Path) -> tuple[float, float]:
    """The engine's wall and CPU seconds over a copy of `corpus`, each the median of
    `COLD_RUNS` runs in a new Python process (nothing read or cached before)."""
    from memsync.dream.engine import Scope

    context = corpus.context(Scope.PERSONAL, workdir=copy)
    spawn = multiprocessing.get_context("spawn")
    runs = []
    for _ in range(COLD_RUNS):
        shutil.copytree(corpus.root, copy)
        with spawn.Pool(1) as pool:
            runs.append(pool.apply(_engine_once, (context,)))
        shutil.rmtree(copy)
    return statistics.median(wall for wall, _ in runs), statistics.median(cpu for _, cpu in runs)


def _engine_once(context: DreamContext) -> tuple[float, float]:
    """Wall and CPU seconds of one deterministic dream of `context` (in a new process)."""
    from tests.dream.corpus import RecordingProgress

    engine = deterministic_engine()
    assert engine is not None, "the deterministic engine ran in the parent process"
    consolidate = engine.consolidate  # type: ignore[attr-defined]
    _, wall, cpu = _timed(partial(consolidate, context, RecordingProgress()))
    return wall, cpu


# The share of memories a "warm" dream finds changed since the previous one.
CHANGED_SHARE = 0.01


def _change_some(root: Path, topic_files: list[str]) -> None:
    """Add a line to `CHANGED_SHARE` of the memories, spread over the directory: one
    word and a number of its own each (the same sentence added to all of them would
    make them look alike, and the dream would compare them all)."""
    step = round(1 / CHANGED_SHARE)
    for number, path in enumerate(topic_files[::step]):
        with (root / path).open("a", encoding="utf-8") as handle:
            handle.write(f"\nRevision {4000 + number}.\n")


def _commit_all(root: Path) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.com",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.com",
    }
    git = ["git", "-C", str(root)]
    subprocess.run([*git, "add", "-A"], check=True, env=env)
    subprocess.run([*git, "commit", "-q", "-m", "some memories changed"], check=True, env=env)


def _warm_engine(base: Path, corpus: Corpus) -> tuple[float, float]:
    """The engine's CPU seconds with the readings a previous dream of the same
    directory kept (`memsync.dream.readings`), and after `CHANGED_SHARE` of the
    memories changed; each checked to give what a dream without them gives."""
    from memsync.dream.deterministic import DeterministicEngine
    from memsync.dream.engine import Scope
    from memsync.dream.readings import AnalysisCache
    from tests.dream.corpus import RecordingProgress

    (base / "git").mkdir(parents=True)
    cache = AnalysisCache(base / "git")

    def dream(name: str, kept: AnalysisCache | None, changed: bool = False) -> tuple[str, float]:
        copy = base / name
        shutil.copytree(corpus.root, copy, ignore=shutil.ignore_patterns(".git"))
        if changed:
            _change_some(copy, corpus.topic_files)
        context = corpus.context(Scope.PERSONAL, workdir=copy)
        engine = DeterministicEngine(cache=kept)
        result, _, cpu = _timed(partial(engine.consolidate, context, RecordingProgress()))
        output = [result.summary, result.files_touched, result.notes, result.stale]
        text = json.dumps([output, _tree_digests(copy)], sort_keys=True, ensure_ascii=False)
        shutil.rmtree(copy)
        return text, cpu

    first, _ = dream("first", cache)
    same, same_cpu = dream("same", cache)
    assert same == first, "a dream with kept readings gave another result"
    changed, changed_cpu = dream("changed", cache, changed=True)
    assert changed == dream("changed-cold", None, changed=True)[0], "kept readings went stale"
    shutil.rmtree(base)
    return same_cpu, changed_cpu


def _tree_digests(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".git" not in path.relative_to(root).parts
    }


# Any run of word characters: the least a reading of a memory's words can be.
_WORD = re.compile(r"\w+")


def bench_floor(base: Path, size: int) -> None:
    """The least a dream that reads its memories' words must do, step by step, against
    reading the files once: parsing the directory (`MemoryDirectory.read`), then one
    tokenisation of each memory, then an index of which memories hold each word (what
    finding any two alike needs). No rule of the dream runs: what these take is out of
    the aim's budget before any rule does."""
    from memsync.memory import MemoryDirectory
    from tests.dream.corpus import build_corpus

    corpus = build_corpus(base / f"floor-{size}", memories=size)
    files = [path for path in corpus.root.rglob("*") if path.is_file()]

    def read_once() -> None:
        for path in files:
            path.read_bytes()

    def words() -> list[set[str]]:
        memories = MemoryDirectory.read(corpus.root, links=False).files.values()
        return [set(_WORD.findall(f"{m.description or ''}\n{m.body}".lower())) for m in memories]

    def held() -> None:
        holders: defaultdict[str, list[int]] = defaultdict(list)
        for number, found in enumerate(words()):
            for word in found:
                holders[word].append(number)

    def cpu(function: Callable[[], object]) -> float:
        return statistics.median(_timed(function)[2] for _ in range(7))

    read = cpu(read_once)
    print(f"{size} memories: read once {read * 1000:.1f} ms CPU (ratio 1.0)")
    steps = {
        "parse the directory": lambda: MemoryDirectory.read(corpus.root, links=False),
        "  and read each memory's words once": words,
        "  and index which memories hold each word": held,
    }
    for name, step in steps.items():
        seconds = cpu(step)
        print(f"  {name}: {seconds * 1000:.1f} ms CPU, ratio {seconds / read:.1f}")


def dream_output(base: Path, size: int) -> str:
    """A digest of everything a deterministic dream of the bench's corpus gives: the
    engine's files, summary, notes and stale list, and the whole run's proposal (tree,
    message with its trailers, canary result, counts). Equal digests before and after
    a change to the dream's speed show its output did not change."""
    from memsync.dream.deterministic import DeterministicEngine
    from memsync.dream.engine import Scope
    from memsync.dream.readings import AnalysisCache
    from memsync.dream.run import DreamRequest, run_dream
    from memsync.store import MemoryRepo
    from tests.dream.corpus import RecordingProgress, build_corpus, commit_corpus

    corpus = build_corpus(base / f"digest-{size}", memories=size)
    copy = base / f"digest-{size}-copy"
    shutil.copytree(corpus.root, copy)
    # Dreamt below with the readings the run keeps, as this one was (commit_corpus
    # moves the last changes to the commits' times, which the index budget reads).
    warm = base / f"digest-{size}-warm"
    shutil.copytree(corpus.root, warm)
    warm_context = corpus.context(Scope.PERSONAL, workdir=warm)
    result = DeterministicEngine().consolidate(
        corpus.context(Scope.PERSONAL, workdir=copy), RecordingProgress()
    )
    commit_corpus(corpus)
    repo = MemoryRepo.init(corpus.root)
    request = DreamRequest(
        repo_path=corpus.root, engine=DeterministicEngine(), dream_id="digest", now=corpus.now
    )
    outcome = run_dream(request)
    proposal = outcome.to_dict()
    # Their ids have the time of the commits in them (`MemoryRepo.init` commits now).
    proposal.pop("commit")
    proposal.pop("base")
    if outcome.commit is not None:
        proposal["message"] = repo.commit_info(outcome.commit).message
        proposal["tree"] = repo.read_many(outcome.commit, repo.files(outcome.commit))
    output = {
        "engine": [result.summary, result.files_touched, result.notes, result.stale],
        "engine_tree": _tree_digests(copy),
        "proposal": proposal,
    }
    # The same dream with the readings the run kept in the repository: the same output.
    kept = DeterministicEngine(cache=AnalysisCache(corpus.root / ".git")).consolidate(
        warm_context, RecordingProgress()
    )
    warm_output = [kept.summary, kept.files_touched, kept.notes, kept.stale]
    assert warm_output == output["engine"], "kept readings gave another engine output"
    assert _tree_digests(warm) == output["engine_tree"], "kept readings gave other files"
    text = json.dumps(output, sort_keys=True, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--projects", type=int, default=10_000)
    parser.add_argument("--memories", type=int, default=2_000)
    parser.add_argument("--loops", type=int, default=20_000)
    parser.add_argument("--growth", help="only the dream's ratios at these sizes: 500,2000,10000")
    parser.add_argument("--digest", help="only a digest of the dream's output at these sizes")
    parser.add_argument("--floor", type=int, help="only what the least a dream must do costs")
    options = parser.parse_args()
    if options.floor:
        with tempfile.TemporaryDirectory(prefix="memsync-bench-dream-") as tmp:
            bench_floor(Path(tmp), options.floor)
        return
    if options.digest:
        with tempfile.TemporaryDirectory(prefix="memsync-bench-dream-") as tmp:
            for size in options.digest.split(","):
                print(f"{int(size):>6} memories: output {dream_output(Path(tmp), int(size))}")
        return
    if options.growth:
        with tempfile.TemporaryDirectory(prefix="memsync-bench-dream-") as tmp:
            bench_growth(Path(tmp), [int(size) for size in options.growth.split(",")])
        return

    with tempfile.TemporaryDirectory(prefix="memsync-bench-dream-") as tmp:
        base = Path(tmp)
        (base / "gate").mkdir()
        ratios = {"closed gate / os.stat": bench_closed_gate(base / "gate", options.loops)}
        setup_django(base / "data")
        ratios["beat / os.stat"] = bench_beat(options.projects)
        dream = bench_dream(base, options.memories)
        if dream is not None:
            ratios["deterministic dream / read once"] = dream
        print("ratios: " + ", ".join(f"{name} {value:.2f}" for name, value in ratios.items()))


if __name__ == "__main__":
    main()
