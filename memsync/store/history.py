"""History as data: commits with their kind, trailers and per-file stats.

Both come from a single ``git log`` each: per-commit calls (GitPython's ``Commit.stats``
spawns a process per commit) are several times slower on real histories.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from .trailers import KIND


class CommitKind(StrEnum):
    EXTRACT = "extract"
    DREAM = "dream"
    MERGE = "merge"
    REVERT = "revert"
    SYNC = "sync"
    MANUAL = "manual"
    # A maintainer's hand in the dashboard (issue 13): one memory each.
    EDIT = "edit"
    DELETE = "delete"
    CONFIRM = "confirm"


_TRAILER_LINE = re.compile(r"^([A-Za-z0-9][A-Za-z0-9-]*): (.*)$")


@dataclass(frozen=True)
class FileStat:
    path: str
    added: int | None  # None for binary files
    deleted: int | None

    @property
    def binary(self) -> bool:
        return self.added is None


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    parents: tuple[str, ...]
    author_name: str
    author_email: str
    date: datetime
    message: str
    trailers: tuple[tuple[str, str], ...] = ()
    files: tuple[FileStat, ...] = field(default=())

    @property
    def subject(self) -> str:
        return self.message.split("\n", 1)[0]

    @property
    def summary(self) -> str:
        """The subject without its ``kind:`` prefix."""
        kind = self.kind
        prefix = f"{kind}: " if kind else ""
        return self.subject.removeprefix(prefix)

    @property
    def body(self) -> str:
        """The message between the subject and the trailers."""
        paragraphs = [p for p in re.split(r"\n\s*\n", self.message.strip()) if p.strip()]
        inner = paragraphs[1:-1] if self.trailers else paragraphs[1:]
        return "\n\n".join(inner)

    @property
    def kind(self) -> str | None:
        explicit = KIND.last(self)
        if explicit:
            return explicit
        head = self.subject.split(":", 1)[0]
        return head if head in CommitKind.__members__.values() else None

    @property
    def is_merge(self) -> bool:
        return len(self.parents) > 1

    def trailer(self, key: str) -> str | None:
        """The last value of a trailer, matching its key case-insensitively."""
        wanted = key.lower()
        values = [value for name, value in self.trailers if name.lower() == wanted]
        return values[-1] if values else None

    def trailer_values(self, key: str) -> list[str]:
        wanted = key.lower()
        return [value for name, value in self.trailers if name.lower() == wanted]

    def to_dict(self) -> dict[str, object]:
        return {
            "sha": self.sha,
            "parents": list(self.parents),
            "kind": self.kind,
            "subject": self.subject,
            "author": {"name": self.author_name, "email": self.author_email},
            "date": self.date.isoformat(),
            "trailers": [{"key": key, "value": value} for key, value in self.trailers],
            "files": [
                {"path": stat.path, "added": stat.added, "deleted": stat.deleted}
                for stat in self.files
            ],
        }


def format_message(
    kind: str, summary: str, trailers: Iterable[tuple[str, str]], body: str = ""
) -> list[str]:
    """The paragraphs of a memsync commit message: ``kind: summary``, an optional body,
    then the trailers."""
    subject = " ".join(f"{kind}: {summary}".split())
    lines = [f"{KIND.name}: {kind}"]
    for key, value in trailers:
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9-]*", key):
            raise ValueError(f"trailer key {key!r} must be letters, digits and '-'")
        flat = " ".join(str(value).split())
        if flat:
            lines.append(f"{key}: {flat}")
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", body.strip())] if body.strip() else []
    # A body paragraph that looks like trailers would be read as them; indent it.
    paragraphs = [p if not parse_trailers(f"x\n\n{p}") else "  " + p for p in paragraphs]
    return [subject, *paragraphs, "\n".join(lines)]


def parse_trailers(message: str) -> tuple[tuple[str, str], ...]:
    """Trailers are the ``Key: value`` lines of the message's last paragraph."""
    paragraphs = [p for p in re.split(r"\n\s*\n", message.strip()) if p.strip()]
    if len(paragraphs) < 2:
        return ()
    found = []
    for line in paragraphs[-1].splitlines():
        match = _TRAILER_LINE.match(line.strip())
        if not match:
            return ()
        found.append((match.group(1), match.group(2).strip()))
    return tuple(found)


# %x1e separates commits and %x1f separates fields; -z ends each numstat record with NUL.
LOG_FORMAT = "%x1e%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%B%x1f"


def parse_log(output: bytes) -> list[CommitInfo]:
    commits = []
    for chunk in output.split(b"\x1e")[1:]:
        fields = chunk.split(b"\x1f", 6)
        if len(fields) < 7:
            continue
        sha, parents, name, email, date, body, stats = (
            f.decode("utf-8", "replace") for f in fields
        )
        message = body.strip("\n")
        commits.append(
            CommitInfo(
                sha=sha,
                parents=tuple(parents.split()),
                author_name=name,
                author_email=email,
                date=datetime.fromisoformat(date),
                message=message,
                trailers=parse_trailers(message),
                files=tuple(_parse_numstat(stats)),
            )
        )
    return commits


def split_show(output: bytes) -> tuple[bytes, bytes]:
    """``git show --format=LOG_FORMAT -z`` output → (the commit, as ``parse_log`` reads
    it, with no file stats; the diff that follows, as ``parse_diff`` reads it)."""
    end = 0
    for _ in range(LOG_FORMAT.count("%x1f")):
        end = output.index(b"\x1f", end) + 1
    return output[:end], output[end:].lstrip(b"\0\n")


def _parse_numstat(text: str) -> Iterator[FileStat]:
    for record in text.split("\0"):
        record = record.strip("\n")
        if not record:
            continue
        parts = record.split("\t", 2)
        if len(parts) != 3:
            continue
        added, deleted, path = parts
        yield FileStat(
            path=path,
            added=None if added == "-" else int(added),
            deleted=None if deleted == "-" else int(deleted),
        )
