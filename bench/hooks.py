"""What memsync's Claude Code hooks cost a session, whole processes as Claude Code runs
them (interpreter start included), against baselines measured in the same run.

    python bench/hooks.py [--memories 2000] [--rounds 40]

1. the recall hook (``memsync recall --hook``, UserPromptSubmit) over a memory
   directory of N memories, a different prompt and session each round;
2. the Stop hook (``memsync push --hook``) in a linked team clone with nothing to push;
3. baselines: ``python -c pass`` (the interpreter alone) and ``git status`` in the clone.

Prints p50 and p95 in milliseconds and each as a multiple of ``python -c pass``.
Aims (issue 11): recall p95 ≤ 400 ms, Stop with nothing to push ≤ 150 ms (< 100 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memsync.client.team import Link, TeamClone
from memsync.memory import sanitize_path
from tests.client.local_origin import bare_origin

from stack import percentile

MEMSYNC = [sys.executable, "-m", "memsync.client.cli"]
SERVICES = ["checkout", "billing", "search", "ledger", "mobile", "ingest", "auth", "reports"]
SUBJECTS = ["deploys", "refunds", "flaky tests", "migrations", "feature flags", "on-call",
            "rate limits", "caching", "backfills", "alerts"]  # fmt: skip
WORDS = ["queue", "retry", "timeout", "owner", "staging", "canary", "rollback", "schema",
         "index", "shard", "replica", "budget", "latency", "token", "webhook"]  # fmt: skip


def timed(command: list[str], *, stdin: Callable[[int], str] | None, rounds: int,
          env: dict[str, str], cwd: Path) -> list[float]:  # fmt: skip
    times = []
    for number in range(rounds):
        data = stdin(number) if stdin else None
        started = time.perf_counter()
        subprocess.run(command, input=data, env=env, cwd=cwd, capture_output=True, text=True)
        times.append(time.perf_counter() - started)
    return times


def write_memories(memory: Path, count: int) -> None:
    rng = random.Random(11)
    lines = []
    for number in range(count):
        service, subject = SERVICES[number % len(SERVICES)], rng.choice(SUBJECTS)
        name = f"{service}_{subject.replace(' ', '_')}_{number}.md"
        body = " ".join(rng.choice(WORDS) for _ in range(80))
        (memory / name).write_text(
            f"---\nname: {service} {subject} {number}\ndescription: how {service} handles "
            f"{subject}\ntype: project\n---\n\n{service} {subject}: {body}\n",
            encoding="utf-8",
        )
        if number < 150:
            lines.append(f"- [{service} {subject}]({name}) — how {service} handles {subject}")
    (memory / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def linked_clone(root: Path, team_dir: Path) -> None:
    origin = bare_origin(root)
    TeamClone.create(team_dir, str(origin), Link("http://127.0.0.1:9", "bench", "bob"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=40)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memsync-bench-hooks-") as temporary:
        root = Path(temporary)
        home, project = root / "home", root / "home" / "work" / "shop"
        project.mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(project)], check=True)
        memory = home / ".claude" / "projects" / sanitize_path(str(project.resolve())) / "memory"
        memory.mkdir(parents=True)
        write_memories(memory, options.memories)
        linked_clone(root, memory / "team")
        env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(root / "cache")}
        env.pop("CLAUDE_CONFIG_DIR", None)

        def prompt(number: int) -> str:
            service, subject = SERVICES[number % len(SERVICES)], SUBJECTS[number % len(SUBJECTS)]
            return json.dumps({
                "session_id": f"bench-{number}", "cwd": str(project),
                "hook_event_name": "UserPromptSubmit",
                "prompt": f"how does {service} handle {subject} these days?",
            })  # fmt: skip

        def stop(number: int) -> str:
            event = {"session_id": "bench", "cwd": str(project), "hook_event_name": "Stop"}
            return json.dumps(event)

        rounds = options.rounds
        timed([*MEMSYNC, "recall", "--hook"], stdin=prompt, rounds=2, env=env, cwd=project)
        results = {
            "python -c pass": timed(
                [sys.executable, "-c", "pass"], stdin=None, rounds=rounds, env=env, cwd=project
            ),
            "git status (team clone)": timed(
                ["git", "-C", str(memory / "team"), "status", "--porcelain"],
                stdin=None,
                rounds=rounds,
                env=env,
                cwd=project,
            ),
            f"recall hook, {options.memories} memories": timed(
                [*MEMSYNC, "recall", "--hook"], stdin=prompt, rounds=rounds, env=env, cwd=project
            ),
            "Stop hook, nothing to push": timed(
                [*MEMSYNC, "push", "--hook"], stdin=stop, rounds=rounds, env=env, cwd=project
            ),
        }
        if (memory / "team" / ".git" / "memsync" / "hooks.log").exists():
            print("warning: the Stop hook started a push; the clone was not clean")
    base = statistics.median(results["python -c pass"])
    print(f"{'':40} {'p50 ms':>8} {'p95 ms':>8} {'p50 × python':>13}")
    for name, times in results.items():
        p50, p95 = statistics.median(times), percentile(times, 0.95)
        print(f"{name:40} {p50 * 1000:8.0f} {p95 * 1000:8.0f} {p50 / base:13.1f}")
    print(f"({rounds} rounds each; python {sys.version.split()[0]}, {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
