"""Annotated tags as memsync writes them (the record of a rejected proposal): the tag
object's text, and who made one and when, read back from it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime


@dataclass(frozen=True)
class TagInfo:
    """What a ref under ``refs/memsync/…`` records: the commit, and for an annotated
    tag who made it and when (None for a plain ref, or a tag without a tagger)."""

    commit: str
    tagger: str | None
    when: datetime | None


def tag_text(target: str, name: str, *, who: str, email: str, message: str, at: int) -> str:
    """The object ``git mktag`` takes: commit ``target`` tagged ``name`` by ``who`` at
    Unix time ``at``."""
    who, email = (" ".join(_tag_safe(part).split()) for part in (who, email))
    return (
        f"object {target}\ntype commit\ntag {name}\n"
        f"tagger {who or 'unknown'} <{email}> {at} +0000\n\n{message}"
    )


def parse_tagger(text: str) -> tuple[str | None, datetime | None]:
    """(who, when) from the headers of a tag object (``git cat-file tag``)."""
    for line in text.splitlines():
        if line.startswith("tagger "):
            who, _, rest = line.removeprefix("tagger ").rpartition(" <")
            stamp = rest.split("> ", 1)[-1].split()[0] if "> " in rest else ""
            when = datetime.fromtimestamp(int(stamp), tz=UTC) if stamp.isdigit() else None
            return who, when
        if not line:
            break
    return None, None


def _tag_safe(text: str) -> str:
    """A name or address a tag header can hold: no brackets, no line breaks."""
    return text.replace("<", "").replace(">", "").replace("\n", " ")
