"""Recall over many memories, cold and warm, against reading Claude Code's MEMORY.md.

    python bench/recall.py [--sizes 1000,10000,50000] [--queries 20]

For each size, writes a generated corpus (tests/recall/corpus.py: made-up services ×
subjects, English and Chinese; past its 11,000 memories the services repeat with a
number) as real memory files in a Git repository with one commit, then prints:

1. the ranking alone: one query against the index kept on disk, warm (median over
   the queries), against parsing the 200-entry ``MEMORY.md`` in the same process;
2. the whole hook: ``memsync recall --hook`` as Claude Code runs it (a new process,
   JSON on stdin), cold (no index yet: every file read and indexed) and warm (the
   index on disk and nothing changed; median of the queries), against a Python
   process that only reads and parses ``MEMORY.md``;
3. after one memory changes, the next hook (it re-reads that one file);
4. recall@5 of the hook's ranking over the corpus questions (a sanity check; the
   quality comparison is tests/heldout/test_recall_against_bm25.py).

Processes run with their bytecode cached, as an installed memsync does, and the warm
hook is also given in CPU time (the steadier figure on a shared machine).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.recall.corpus

from memsync.memory import MemoryIndex, format_entry
from memsync.recall.manifest import newest_first
from memsync.recall.rank import RecallDocument
from memsync.recall.recall import recall
from memsync.recall.sources import disk_source
from tests.recall.corpus import build_corpus

from stack import cpu_now, installed_environment

CLAUDE_CODE_MANIFEST = 200
MEMSYNC = Path(sys.executable).with_name("memsync")


def corpus(size: int) -> tuple[list[RecallDocument], list[tuple[str, str]]]:
    documents, questions = build_corpus(500)
    out = list(documents)
    copy = 1
    while len(out) < size:
        copy += 1
        for document in documents:
            path = document.path.removesuffix(".md") + f"_{copy}.md"
            out.append(replace(document, path=path, name=f"{document.name} {copy}"))
    return out[:size], [(q, a) for q, a in questions if a in {d.path for d in out[:size]}]


def write_repository(root: Path, documents: list[RecallDocument]) -> None:
    root.mkdir()
    for document in documents:
        (root / document.path).write_text(
            f"---\nname: {document.name}\ndescription: {document.description}\n"
            f"type: {document.type}\n---\n\n{document.body}",
            encoding="utf-8",
        )
    newest = newest_first(documents)[:CLAUDE_CODE_MANIFEST]
    index = "".join(format_entry(d.name, d.path, d.description) + "\n" for d in newest)
    (root / "MEMORY.md").write_text(index, encoding="utf-8")
    git = ["git", "-C", str(root), "-c", "user.name=bench", "-c", "user.email=bench@example.com"]
    subprocess.run([*git, "init", "-q", "-b", "main"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "corpus"], check=True)


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def cpu_timed(action: Callable[[], object]) -> float:
    """CPU seconds of `action`, the processes it waited for included."""
    started = cpu_now()
    action()
    return cpu_now() - started


def hook(root: Path, prompt: str) -> dict[str, object] | None:
    event = json.dumps({"prompt": prompt, "session_id": "", "cwd": str(root)})
    environment = {k: v for k, v in installed_environment().items() if k != "ANTHROPIC_API_KEY"}
    done = subprocess.run(
        [str(MEMSYNC), "recall", "--hook", "--memory-dir", str(root)],
        input=event,
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    return json.loads(done.stdout) if done.stdout.strip() else None


def manifest_process(root: Path) -> None:
    code = (
        "import sys; from memsync.memory import MemoryIndex; "
        "MemoryIndex.parse_bytes(open(sys.argv[1], 'rb').read())"
    )
    subprocess.run(
        [sys.executable, "-c", code, str(root / "MEMORY.md")],
        check=True,
        env=installed_environment(),
    )


def bench(size: int, queries: int) -> None:
    documents, questions = corpus(size)
    asked = questions[:queries]
    now = datetime.now(UTC)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "memory"
        write_repository(root, documents)

        manifest = statistics.median(
            timed(lambda: MemoryIndex.parse_bytes((root / "MEMORY.md").read_bytes()))
            for _ in range(50)
        )
        process_baseline = statistics.median(
            timed(lambda: manifest_process(root)) for _ in range(5)
        )
        process_cpu = statistics.median(cpu_timed(lambda: manifest_process(root)) for _ in range(5))
        # Once on an empty directory: the first run of an installed client found its bytecode.
        (Path(tmp) / "empty").mkdir()
        hook(Path(tmp) / "empty", asked[0][0])
        cold = timed(lambda: hook(root, asked[0][0]))
        warm = statistics.median(timed(lambda q=q: hook(root, q)) for q, _ in asked)
        warm_cpu = statistics.median(cpu_timed(lambda q=q: hook(root, q)) for q, _ in asked)
        source = disk_source(root)
        index = source.index()
        ranking = statistics.median(
            timed(lambda q=q: recall(index, q, read=source.read, now=now)) for q, _ in asked
        )
        changed = root / documents[0].path
        changed.write_text(changed.read_text(encoding="utf-8") + "\nOne more line.\n")
        after_change = timed(lambda: hook(root, asked[0][0]))
        hits = 0
        for question, answer in asked:
            result = recall(index, question, read=source.read, now=now)
            hits += answer in [memory.path for memory in result.memories]

    print(f"{size:,} memories")
    print(
        f"  ranking (warm, in process): {ranking * 1000:.1f} ms per query; parsing MEMORY.md "
        f"{manifest * 1000:.3f} ms; ratio {ranking / manifest:.0f}"
    )
    print(
        f"  memsync recall --hook: cold {cold * 1000:.0f} ms, warm {warm * 1000:.0f} ms, "
        f"after one memory changed {after_change * 1000:.0f} ms; a process reading MEMORY.md "
        f"{process_baseline * 1000:.0f} ms; ratio warm {warm / process_baseline:.2f}, "
        f"cold {cold / process_baseline:.1f}"
    )
    print(
        f"  CPU: warm hook {warm_cpu * 1000:.0f} ms, the process reading MEMORY.md "
        f"{process_cpu * 1000:.0f} ms; ratio {warm_cpu / process_cpu:.2f}"
    )
    print(f"  recall@5 over {len(asked)} corpus questions: {hits / len(asked):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,10000,50000")
    parser.add_argument("--queries", type=int, default=20, help="hook runs per size (warm)")
    options = parser.parse_args()
    for size in (int(s) for s in options.sizes.split(",")):
        bench(size, options.queries)


if __name__ == "__main__":
    main()
