"""Recall over many memories against Claude Code's way, measured in the same run.

    python bench/recall.py [--memories 10000] [--rounds 5]

Writes a generated corpus (tests/recall/corpus.py: services × subjects, English and
Chinese, questions with known answers) as real memory files, then prints:

1. time: one recall (ranking a query over all N memories, reading and cutting the top
   5) against reading one manifest file — Claude Code's ``MEMORY.md`` index of 200
   entries — from disk; both warm (the index built once, as the API keeps it per
   commit) and cold (reading the directory and building the index first);
2. size: what memsync's side query sends the model (its instructions, the query and a
   50-entry manifest chosen by the ranking) against Claude Code's (the same with the
   full 200-entry manifest of the newest files);
3. recall@5 over every question, and the most Claude Code's 200-file cap allows: the
   share of answers that are among the 200 newest files at all.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.recall.corpus

from memsync.memory import MemoryIndex, format_entry
from memsync.recall.manifest import format_manifest, newest_first
from memsync.recall.rank import RecallDocument, RecallIndex
from memsync.recall.recall import MANIFEST_SIZE, recall
from memsync.recall.select import SELECTION_SYSTEM_PROMPT, selection_prompt
from memsync.recall.sources import disk_source
from tests.recall.corpus import build_corpus

CLAUDE_CODE_MANIFEST = 200
MEMORIES_PER_SERVICE = 22  # 20 English subjects, and 5 Chinese for two services in five


def median_time(action: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def write_corpus(root: Path, documents: list[RecallDocument]) -> None:
    for document in documents:
        (root / document.path).write_text(
            f"---\nname: {document.name}\ndescription: {document.description}\n"
            f"type: {document.type}\n---\n\n{document.body}",
            encoding="utf-8",
        )
    newest = newest_first(documents)[:CLAUDE_CODE_MANIFEST]
    index = "".join(format_entry(d.name, d.path, d.description) + "\n" for d in newest)
    (root / "MEMORY.md").write_text(index, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--queries", type=int, default=200, help="timed queries per round")
    options = parser.parse_args()
    documents, questions = build_corpus(max(-(-options.memories // MEMORIES_PER_SERVICE), 1))
    now = datetime.now(UTC)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_corpus(root, documents)
        source = disk_source(root)
        index = RecallIndex(source.documents)
        timed = questions[: options.queries]

        def read_manifest() -> None:
            MemoryIndex.parse_bytes((root / "MEMORY.md").read_bytes())

        def warm() -> None:
            for question, _ in timed:
                recall(index, question, read=source.read, now=now)

        def cold() -> None:
            fresh = disk_source(root)
            recall(fresh.index(), timed[0][0], read=fresh.read, now=now)

        manifest_time = median_time(read_manifest, options.rounds * 20)
        warm_time = median_time(warm, options.rounds) / len(timed)
        cold_time = median_time(cold, max(options.rounds // 2, 1))

        hits = 0
        ours_bytes = theirs_bytes = 0
        newest = newest_first(source.documents)[:CLAUDE_CODE_MANIFEST]
        theirs_manifest = format_manifest(newest)
        visible = {d.path for d in newest}
        for question, answer in questions:
            result = recall(index, question, read=source.read, now=now)
            hits += answer in [memory.path for memory in result.memories]
            shortlist = [hit.document for hit in index.search(question, MANIFEST_SIZE)]
            ours_bytes += len(
                (
                    SELECTION_SYSTEM_PROMPT + selection_prompt(question, format_manifest(shortlist))
                ).encode()
            )
            theirs_bytes += len(
                (SELECTION_SYSTEM_PROMPT + selection_prompt(question, theirs_manifest)).encode()
            )
        reachable = sum(answer in visible for _, answer in questions)

    count, asked = len(documents), len(questions)
    print(f"{count:,} memories, {asked:,} questions with known answers")
    print(
        f"time: recall {warm_time * 1000:.2f} ms per query (index built), "
        f"{cold_time * 1000:.0f} ms cold (read {count:,} files + build + query); "
        f"reading one 200-entry MEMORY.md {manifest_time * 1000:.3f} ms; "
        f"ratio warm {warm_time / manifest_time:.1f}, cold {cold_time / manifest_time:.0f}"
    )
    print(
        f"size: side query {ours_bytes / asked / 1024:.1f} KB with a {MANIFEST_SIZE}-entry "
        f"manifest vs {theirs_bytes / asked / 1024:.1f} KB with Claude Code's "
        f"{CLAUDE_CODE_MANIFEST}-entry manifest; ratio {ours_bytes / theirs_bytes:.2f}"
    )
    print(
        f"recall@5: {hits / asked:.3f}; with Claude Code's {CLAUDE_CODE_MANIFEST}-file cap at "
        f"most {reachable / asked:.3f} of the answers are in its manifest at all"
    )


if __name__ == "__main__":
    main()
