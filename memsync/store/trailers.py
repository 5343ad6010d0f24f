"""Every commit trailer memsync writes or reads, in one place.

A memsync commit ends with ``Memsync-Kind: <kind>`` and the trailers of its kind, so
the history explains itself without the database:

- ``extract``: ``Memsync-Session``, ``-Messages``, ``-Engine``, ``-Model``, ``-Tokens``
  (and ``-Cursor`` for the server's extractions);
- ``dream``: ``Memsync-Dream``, ``-Engine``, ``-Model``, ``-Sessions``, ``-Tokens``,
  ``-Before``, ``-After``, ``-Visible``, ``-Canaries``, ``-Canary-Lost``;
- a dream's adoption: ``Memsync-Dream``, ``-Approved-By``, ``-Dropped``;
- ``merge``: ``Memsync-Member``, ``-Conflict``, ``-Resolution``, ``Co-authored-by``;
- ``revert``: ``Memsync-Reverts`` (and ``Memsync-Dream`` when it reverts an adoption);
- ``sync`` (a member's own commit): ``Memsync-Member``.

Write one as ``trailers.DREAM(dream_id)`` (a ``(name, value)`` pair for
`MemoryRepo.commit`); read it back with ``trailers.DREAM.last(commit)`` or
``.values(commit)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

PREFIX = "Memsync-"


class HasTrailers(Protocol):
    @property
    def trailers(self) -> Sequence[tuple[str, str]]: ...


@dataclass(frozen=True)
class Trailer:
    name: str

    def __call__(self, value: object) -> tuple[str, str]:
        """The trailer with `value`, ready for a commit message."""
        return (self.name, str(value))

    def values(self, commit: HasTrailers) -> list[str]:
        """Every value of this trailer on `commit`; keys match case-insensitively, as
        ``git interpret-trailers`` matches them."""
        wanted = self.name.lower()
        return [value for key, value in commit.trailers if key.lower() == wanted]

    def last(self, commit: HasTrailers) -> str | None:
        found = self.values(commit)
        return found[-1] if found else None

    @property
    def grep(self) -> str:
        """A ``git log --grep`` pattern for commits carrying this trailer."""
        return f"^{self.name}: "

    @property
    def label(self) -> str:
        """The name as the dashboard shows it: ``Memsync-Approved-By`` → ``Approved-By``."""
        return self.name.removeprefix(PREFIX)


KIND = Trailer(PREFIX + "Kind")
SESSION = Trailer(PREFIX + "Session")
# A server extraction's session cursor after it: a redelivered task finds it landed.
CURSOR = Trailer(PREFIX + "Cursor")
MESSAGES = Trailer(PREFIX + "Messages")
ENGINE = Trailer(PREFIX + "Engine")
MODEL = Trailer(PREFIX + "Model")
TOKENS = Trailer(PREFIX + "Tokens")
SESSIONS = Trailer(PREFIX + "Sessions")
BEFORE = Trailer(PREFIX + "Before")
AFTER = Trailer(PREFIX + "After")
VISIBLE = Trailer(PREFIX + "Visible")
CANARIES = Trailer(PREFIX + "Canaries")
CANARY_LOST = Trailer(PREFIX + "Canary-Lost")
DREAM = Trailer(PREFIX + "Dream")
APPROVED_BY = Trailer(PREFIX + "Approved-By")
DROPPED = Trailer(PREFIX + "Dropped")
REVERTS = Trailer(PREFIX + "Reverts")
MEMBER = Trailer(PREFIX + "Member")
CONFLICT = Trailer(PREFIX + "Conflict")
RESOLUTION = Trailer(PREFIX + "Resolution")
CO_AUTHORED_BY = Trailer("Co-authored-by")  # Git's own convention, read by forges

ALL = (
    KIND, SESSION, MESSAGES, ENGINE, MODEL, TOKENS, SESSIONS, BEFORE, AFTER, VISIBLE,
    CANARIES, CANARY_LOST, DREAM, APPROVED_BY, DROPPED, REVERTS, MEMBER, CONFLICT,
    RESOLUTION, CO_AUTHORED_BY,
)  # fmt: skip


def by_label(label: str) -> Trailer:
    """The trailer a template names by its label (``"session"``, ``"approved-by"``)."""
    for trailer in ALL:
        if trailer.label.lower() == label.lower():
            return trailer
    raise KeyError(f"memsync writes no trailer labelled {label!r}")
