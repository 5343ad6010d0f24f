"""Reading a memory directory against reading its files plainly, in the same run.

    python bench/memory.py [--files 10000]

Prints the median time of MemoryDirectory.read (parse every topic file and the index,
collect every problem) against opening and reading every file's bytes, and the ratio.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from memsync.memory import MemoryDirectory, format_entry

BODY = (
    "---\nname: memory {n}\ndescription: what we learnt about subject {n}\ntype: project\n"
    "---\n\nSubject {n} ships on Fridays.\n\n**Why:** release train.\n\n"
    "**How to apply:** plan merges for Thursday.\n"
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        entries = []
        for n in range(options.files):
            (root / f"memory_{n}.md").write_text(BODY.format(n=n))
            entries.append(format_entry(f"Memory {n}", f"memory_{n}.md", f"subject {n}"))
        (root / "MEMORY.md").write_text("\n".join(entries[:190]) + "\n")

        plain, parsed = [], []
        for _ in range(options.rounds):
            started = time.perf_counter()
            for path in root.iterdir():
                path.read_bytes()
            plain.append(time.perf_counter() - started)
            started = time.perf_counter()
            MemoryDirectory.read(root)
            parsed.append(time.perf_counter() - started)
        p, m = statistics.median(plain), statistics.median(parsed)
        print(
            f"{options.files} files: MemoryDirectory.read {m * 1000:.0f} ms, "
            f"plain read {p * 1000:.0f} ms, ratio {m / p:.1f}"
        )


if __name__ == "__main__":
    main()
