"""Which refs a member may push (SPEC T1): only their own member branch.

``main`` changes only by the server's merges and a maintainer's approvals, ``dream/*``
branches are the server's proposals, ``extractions/<user>`` holds what the server
extracted from a member's uploaded sessions (never ``members/<user>``: that branch moves
only when its member pushes, so their next push is never refused for the server's
work), and ``refs/memsync/*`` holds what the server keeps (both sides of conflicts).
The names themselves are `memsync.store.refs`. Pure: the pre-receive hook feeds it what
Git reports.
"""

from __future__ import annotations

from dataclasses import dataclass

from memsync.store import refs


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
    own = refs.member_ref(pusher)
    if update.ref == own:
        return None
    ref = update.ref
    if ref == refs.MAIN_REF:
        why = f"{refs.MAIN} changes only when the server merges members' branches"
    elif ref.startswith(refs.head_ref(refs.DREAMS)):
        why = f"{refs.DREAMS}* branches are proposals the server makes"
    elif ref.startswith(refs.head_ref(refs.EXTRACTIONS)):
        why = f"{refs.EXTRACTIONS}* hold what the server extracts from uploaded sessions"
    elif ref.startswith(refs.SERVER):
        why = f"{refs.SERVER}* is kept by the server"
    elif (owner := refs.parse_member_branch(ref)) is not None:
        verb = "delete" if update.is_delete else "push to"
        why = f"it belongs to {owner}; you may not {verb} it"
    else:
        why = "only your member branch accepts pushes"
    return f"{ref}: {why} — push to {own} instead"
