"""Every ref name memsync builds or parses: the Git naming contract, in one place.

A project's repository holds these refs (docs/ARCHITECTURE.md, "The repository of a
project"); nothing else in memsync spells them out:

- ``refs/heads/main``: the team's memory;
- ``refs/heads/members/<user>``: what a member pushes, written by their pushes only;
- ``refs/heads/extractions/<user>``: the server's extractions of a member's sessions;
- ``refs/heads/dream/<id>``: a dream's proposal waiting for review;
- ``refs/memsync/rejected/<id>`` and ``refs/memsync/conflicted/<id>``: a proposal
  rejected, or whose approval found conflicts;
- ``refs/memsync/conflicts/<id>/main`` and ``…/member``: both sides of a conflict item;
- scratch branches that live only while one operation runs: ``extract/<name>`` and
  ``dream-adopt/<id>``.

A member's team clone names the server ``origin`` and tracks ``main`` and their own
member branch under ``refs/remotes/origin/``.

Branch names here are short (``members/bob``); `head_ref` makes the full ref. Pure
names: this module imports nothing, so a Claude Code hook can use it cheaply.
"""

from __future__ import annotations

HEADS = "refs/heads/"
MAIN = "main"
MAIN_REF = HEADS + MAIN
MEMBERS = "members/"
EXTRACTIONS = "extractions/"
DREAMS = "dream/"
SERVER = "refs/memsync/"  # what the server keeps; members never push here
REJECTED = SERVER + "rejected/"
CONFLICTED = SERVER + "conflicted/"
CONFLICTS = SERVER + "conflicts/"
EXTRACTION_SCRATCH = "extract/"
ADOPTION_SCRATCH = "dream-adopt/"
ORIGIN = "origin"  # the server, as a member's team clone names it


def head_ref(branch: str) -> str:
    """``refs/heads/<branch>``."""
    return HEADS + branch


def branch_of(ref: str) -> str:
    """The branch name of ``refs/heads/<branch>`` (a short name comes back as it is)."""
    return ref.removeprefix(HEADS)


def remote_ref(branch: str, remote: str = ORIGIN) -> str:
    """Where a clone tracks `remote`'s `branch`: ``refs/remotes/<remote>/<branch>``."""
    return f"refs/remotes/{remote}/{branch}"


def member_branch(username: str) -> str:
    """The branch a member pushes to: ``members/<username>``."""
    return MEMBERS + username


def member_ref(username: str) -> str:
    return head_ref(member_branch(username))


def parse_member_branch(name: str) -> str | None:
    """The username of ``members/<user>`` (or ``refs/heads/members/<user>``); None for
    any other branch."""
    return _suffix(branch_of(name), MEMBERS)


def extraction_branch(username: str) -> str:
    """The branch the server's extractions for a member land on: ``extractions/<user>``."""
    return EXTRACTIONS + username


def dream_branch(dream_id: str) -> str:
    """The branch of a dream's proposal: ``dream/<id>``."""
    return DREAMS + dream_id


def parse_dream_branch(name: str) -> str | None:
    """The dream id of ``dream/<id>`` (or ``refs/heads/dream/<id>``); None otherwise."""
    return _suffix(branch_of(name), DREAMS)


def rejected_ref(dream_id: str) -> str:
    return REJECTED + dream_id


def conflicted_ref(dream_id: str) -> str:
    return CONFLICTED + dream_id


def conflict_ref(conflict_id: int | str) -> str:
    """Where a conflict item keeps both sides: ``refs/memsync/conflicts/<id>``."""
    return f"{CONFLICTS}{conflict_id}"


def conflict_side_ref(conflict_ref_name: str, side: str) -> str:
    """One side (``main`` or ``member``) of a conflict item under its ref."""
    return f"{conflict_ref_name}/{side}"


def extraction_scratch_branch(name: str) -> str:
    """A branch that lives only while one extraction runs in its worktree."""
    return EXTRACTION_SCRATCH + name


def adoption_scratch_branch(dream_id: str) -> str:
    """A branch that lives only while a partial approval builds its commit."""
    return ADOPTION_SCRATCH + dream_id


def _suffix(name: str, prefix: str) -> str | None:
    rest = name.removeprefix(prefix)
    return rest if rest != name and rest else None
