"""Which refs a member may push (SPEC T1): only ``refs/heads/members/<own username>``.

``main`` changes only by the server's merges and a maintainer's approvals, ``dream/*``
branches are the server's proposals, ``extractions/<user>`` holds what the server
extracted from a member's uploaded sessions (never ``members/<user>``: that branch moves
only when its member pushes, so their next push is never refused for the server's
work), and ``refs/memsync/*`` holds what the server keeps (both sides of conflicts).
Pure: the pre-receive hook feeds it what Git reports.
"""

from __future__ import annotations

from dataclasses import dataclass

MEMBERS_PREFIX = "refs/heads/members/"
MAIN_REF = "refs/heads/main"
DREAM_PREFIX = "refs/heads/dream/"
EXTRACTIONS_PREFIX = "refs/heads/extractions/"
SERVER_PREFIX = "refs/memsync/"


def member_branch(username: str) -> str:
    """The branch name (without ``refs/heads/``) a member pushes to."""
    return f"members/{username}"


def member_ref(username: str) -> str:
    return MEMBERS_PREFIX + username


def extraction_branch(username: str) -> str:
    """The branch (without ``refs/heads/``) the server's extractions for a member land on."""
    return f"extractions/{username}"


@dataclass(frozen=True)
class RefUpdate:
    """One line of what ``git receive-pack`` hands its hooks: ``<old> <new> <ref>``."""

    old: str
    new: str
    ref: str

    @classmethod
    def parse(cls, line: str) -> RefUpdate:
        old, new, ref = line.strip().split(" ", 2)
        return cls(old, new, ref)

    @property
    def is_delete(self) -> bool:
        return set(self.new) == {"0"}

    @property
    def is_create(self) -> bool:
        return set(self.old) == {"0"}


def refusal(update: RefUpdate, pusher: str) -> str | None:
    """Why ``pusher`` may not make ``update``, or None when they may."""
    own = member_ref(pusher)
    if update.ref == own:
        return None
    ref = update.ref
    if ref == MAIN_REF:
        why = "main changes only when the server merges members' branches"
    elif ref.startswith(DREAM_PREFIX):
        why = "dream/* branches are proposals the server makes"
    elif ref.startswith(EXTRACTIONS_PREFIX):
        why = "extractions/* hold what the server extracts from uploaded sessions"
    elif ref.startswith(SERVER_PREFIX):
        why = "refs/memsync/* is kept by the server"
    elif ref.startswith(MEMBERS_PREFIX):
        owner = ref.removeprefix(MEMBERS_PREFIX)
        verb = "delete" if update.is_delete else "push to"
        why = f"it belongs to {owner}; you may not {verb} it"
    else:
        why = "only your member branch accepts pushes"
    return f"{ref}: {why} — push to {own} instead"
