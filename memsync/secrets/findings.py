"""What a check reports: one `Finding` per refused thing, and the message a pusher reads."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

MAX_BLOB_BYTES = 250_000


class FindingKind(StrEnum):
    SECRET = "secret"
    TOO_LARGE = "too-large"
    UNSAFE_PATH = "unsafe-path"
    NOT_UTF8 = "not-utf8"


# Plain git's pushers rewrite their commit; `memsync push` undoes it and rewords this.
SECRET_ADVICE = "remove it and rewrite the commit"

_ADVICE = {
    FindingKind.SECRET: SECRET_ADVICE,
    FindingKind.TOO_LARGE: f"memory files are limited to {MAX_BLOB_BYTES:,} bytes; split it",
    FindingKind.NOT_UTF8: "save the file as UTF-8",
    FindingKind.UNSAFE_PATH: "rename it to a plain relative path inside the memory directory",
}


def printable_path(path: str) -> str:
    # A refused path may itself carry control characters (an ESC sequence would
    # repaint the pusher's terminal): show them escaped, the way Python writes them.
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in path)


@dataclass(frozen=True)
class Finding:
    """Something that may not enter team memory.

    `line` is 1-based and names where the secret starts (or the first undecodable
    byte); it is 0 when the finding is about the file as a whole or its name. No field
    ever holds the secret itself, so a finding can be logged, shown and stored.
    """

    path: str
    line: int
    rule_id: str
    description: str
    kind: FindingKind

    def message(self) -> str:
        """`notes/aws.md:3: secret (aws-access-token): AWS access key — remove it …`"""
        where = printable_path(self.path)
        if self.line:
            where = f"{where}:{self.line}"
        advice = _ADVICE[self.kind]
        return f"{where}: {self.kind} ({self.rule_id}): {self.description} — {advice}"
