"""Bytes → text at the edge, once, for every memory file.

Claude Code writes UTF-8 without a byte-order mark. Files edited elsewhere may carry
a BOM, other encodings or binary content; they are reported, never "repaired".
"""

from __future__ import annotations

from dataclasses import dataclass

from memsync.memory.frozen import built
from memsync.memory.problems import Problem, ProblemCode

BOM = "\ufeff"


@dataclass(frozen=True)
class DecodedText:
    # `text` excludes the BOM; `bom` is "" or "\ufeff" so the bytes can be rebuilt.
    # None when the data is not UTF-8 text at all.
    text: str | None
    bom: str
    problem: Problem | None


def decode_memory_bytes(path: str, data: bytes) -> DecodedText:
    nul = data.find(b"\x00")
    if nul != -1:
        line = data.count(b"\n", 0, nul) + 1
        return DecodedText(
            None,
            "",
            Problem.at(
                ProblemCode.BINARY,
                path,
                line,
                f"binary content (a NUL byte at offset {nul}); not a Markdown memory",
            ),
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        bad = data[error.start : error.start + 1].hex()
        return DecodedText(
            None,
            "",
            Problem.at(
                ProblemCode.NOT_UTF8,
                path,
                line,
                f"not UTF-8 (byte 0x{bad} at offset {error.start}); kept as it is",
            ),
        )
    # Every memory file of a directory ends here: built at once (`built`).
    if text.startswith(BOM):
        return built(DecodedText, text=text[1:], bom=BOM, problem=None)
    return built(DecodedText, text=text, bom="", problem=None)
