"""Shared material for the memory-format tests.

`samples/` holds real Claude Code memory files copied from /work/shared/samples, so the
tests run the same on a clean clone.
"""

from __future__ import annotations

from pathlib import Path

SAMPLES = Path(__file__).parent / "samples"


def sample(name: str) -> bytes:
    return (SAMPLES / name).read_bytes()
