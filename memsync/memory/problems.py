"""Named problems found while reading memory files (SPEC F6).

A reader never raises on bad input and never changes it: it reports what is wrong
as a `Problem` (which file, which line, what exactly) and keeps the file as it is.
The dashboard, the dream and the CLI all show these same objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Severity(StrEnum):
    # An error means part of the memory is unusable or misleading as it stands
    # (an agent cannot read it, or is pointed at nothing); a warning means it works
    # but breaks a convention Claude Code relies on.
    ERROR = "error"
    WARNING = "warning"


class ProblemCode(StrEnum):
    FRONTMATTER_BROKEN = "frontmatter-broken"
    FIELD_MISSING = "field-missing"
    TYPE_UNKNOWN = "type-unknown"
    DESCRIPTION_MULTILINE = "description-multiline"
    BODY_STRUCTURE = "body-structure"
    NOT_UTF8 = "not-utf8"
    BINARY = "binary"
    INDEX_DEAD_LINK = "index-dead-link"
    NOT_INDEXED = "not-indexed"
    INDEX_TOO_MANY_LINES = "index-too-many-lines"
    INDEX_TOO_LARGE = "index-too-large"
    INDEX_ENTRY_TOO_LONG = "index-entry-too-long"
    INDEX_FRONTMATTER = "index-frontmatter"
    INDEX_DUPLICATE = "index-duplicate"
    SYMLINK_OUTSIDE = "symlink-outside"
    SYMLINK = "symlink"  # a link inside the directory: reported, never followed either
    UNREADABLE = "unreadable"


@dataclass(frozen=True)
class Problem:
    code: ProblemCode
    path: str
    line: int | None
    message: str
    severity: Severity

    @classmethod
    def at(
        cls,
        code: ProblemCode,
        path: str,
        line: int | None,
        what: str,
        severity: Severity = Severity.ERROR,
    ) -> Problem:
        """A problem whose message starts with its line, as a reader expects to see it."""
        message = f"line {line}: {what}" if line is not None else what
        return cls(code=code, path=path, line=line, message=message, severity=severity)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": str(self.code),
            "path": self.path,
            "line": self.line,
            "message": self.message,
            "severity": str(self.severity),
        }

    def sort_key(self) -> tuple[str, int, str]:
        return (self.path, self.line or 0, str(self.code))

    def __str__(self) -> str:
        # Compiler-style, so editors and terminals can jump to the spot.
        where = f"{self.path}:{self.line}" if self.line is not None else self.path
        return f"{where}: {self.severity}: {self.message} [{self.code}]"
