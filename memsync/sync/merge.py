"""Members' branches into ``main`` (SPEC T1, T2), and the resolution of what conflicted.

``MEMORY.md`` merges by entry through the index merge driver and never conflicts. A
topic file that both ``main`` and the member changed keeps ``main``'s side in the merge
while everything else of the member's branch goes in; the caller records each such
file as a review item, and :func:`keep_conflict_sides` pins both sides on refs under
``refs/memsync/conflicts/<id>/`` so nothing of either side can be lost, whatever later
happens to the branches. :func:`settle_conflict` settles one with a merge-kind commit.

Nothing here knows the database: ``dashboard.sync`` records conflicts as review items
and offers ``resolve_conflict(conflict, choice, content=None, by=user)`` on top of these.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from memsync.secrets import check_blob
from memsync.store import CommitKind, Identity, MemoryRepo
from memsync.sync.refs import member_branch

CONFLICTS_PREFIX = "refs/memsync/conflicts/"


@dataclass(frozen=True)
class Member:
    username: str
    email: str

    @property
    def identity(self) -> Identity:
        return Identity(self.username, self.email)

    @property
    def branch(self) -> str:
        return member_branch(self.username)

    @property
    def co_author(self) -> tuple[str, str]:
        return ("Co-authored-by", f"{self.username} <{self.email}>")


@dataclass(frozen=True)
class MemberConflict:
    """A topic file both sides changed: ``main`` kept its side, the member's waits."""

    path: str
    base_commit: str | None
    ours_commit: str  # main just before the merge
    theirs_commit: str  # the member's branch tip that was merged


@dataclass(frozen=True)
class MemberMerge:
    member: str
    status: str  # merged, up-to-date, no-branch
    commit: str | None = None
    theirs: str | None = None
    conflicts: tuple[MemberConflict, ...] = ()

    @property
    def merged(self) -> bool:
        return self.status == "merged"


def merge_member(repo: MemoryRepo, member: Member, *, branch: str | None = None) -> MemberMerge:
    """Merge ``members/<user>`` (or another branch of theirs, such as the server's
    ``extractions/<user>``) into ``main`` (checked out in ``repo``), authored by them.

    The merge commit is kind ``merge`` with ``Memsync-Member`` and ``Co-authored-by``
    trailers; its body names the files whose member side waits for review.
    """
    branch = branch or member.branch
    with repo.lock.held():
        theirs = repo.rev_parse(f"refs/heads/{branch}")
        if theirs is None:
            return MemberMerge(member.username, "no-branch")
        before = repo.head()
        assert before is not None, "a memsync repository always has a first commit"
        if repo.is_ancestor(theirs, before):
            return MemberMerge(member.username, "up-to-date", commit=before, theirs=theirs)
        expected = repo.merge_preview(theirs)
        body = ""
        if expected:
            body = (
                "Kept main's side of "
                + ", ".join(expected)
                + "; the member's side is kept for review."
            )
        trailers = [("Memsync-Member", member.username), member.co_author]
        trailers += [("Memsync-Conflict", path) for path in expected]
        result = repo.merge(
            theirs,
            kind=CommitKind.MERGE,
            summary=f"{branch} into main",
            trailers=trailers,
            author=member.identity,
            keep_ours_on_conflict=True,
            body=body,
        )
        base = repo.merge_base(before, theirs) if result.conflicts else None
    conflicts = tuple(
        MemberConflict(found.path, base, before, theirs) for found in result.conflicts
    )
    return MemberMerge(member.username, result.status, result.commit, theirs, conflicts)


def conflict_ref(conflict_id: int | str) -> str:
    return f"{CONFLICTS_PREFIX}{conflict_id}"


def keep_conflict_sides(repo: MemoryRepo, ref: str, conflict: MemberConflict) -> None:
    """Pin both sides: ``<ref>/ours`` (main then) and ``<ref>/theirs`` (the member's tip)."""
    repo.update_ref(f"{ref}/ours", conflict.ours_commit)
    repo.update_ref(f"{ref}/theirs", conflict.theirs_commit)


class Resolution(StrEnum):
    MINE = "mine"  # main's side, as it was when the merge was tried
    THEIRS = "theirs"  # the member's side
    EDIT = "edit"  # content written by the resolver


class ResolutionRefused(ValueError):
    """The resolution cannot be committed; the message says why (never a secret)."""


def settle_conflict(
    repo: MemoryRepo,
    conflict: MemberConflict,
    *,
    conflict_id: int | str,
    member: Member,
    choice: str,
    by: Identity,
    content: bytes | None = None,
) -> str:
    """Settle one conflict on ``main`` with a merge-kind commit authored by ``by``.

    ``mine`` restores main's side, ``theirs`` takes the member's, ``edit`` writes
    ``content`` (checked like a push: secrets, size, encoding). A side that deleted the
    file deletes it. When ``main`` already holds the chosen content the commit is
    empty, so the decision is still in history. Returns the new commit.
    """
    resolution = Resolution(choice)
    if resolution is Resolution.EDIT:
        if content is None:
            raise ResolutionRefused("an edited resolution needs the file's new content")
        findings = check_blob(conflict.path, content)
        if findings:
            raise ResolutionRefused("; ".join(finding.message() for finding in findings))
        data: bytes | None = content
    elif resolution is Resolution.MINE:
        data = repo.read(conflict.ours_commit, conflict.path)
    else:
        data = repo.read(conflict.theirs_commit, conflict.path)
    trailers = [
        ("Memsync-Conflict", str(conflict_id)),
        ("Memsync-Resolution", str(resolution)),
        ("Memsync-Member", member.username),
    ]
    if resolution is not Resolution.MINE:
        trailers.append(member.co_author)
    summary = f"resolve {conflict.path} from {member.branch} ({resolution})"
    with repo.lock.held():
        if repo.read("HEAD", conflict.path) == data:
            sha = repo.commit(CommitKind.MERGE, summary, trailers, author=by, allow_empty=True)
        else:
            sha = repo.apply({conflict.path: data}, CommitKind.MERGE, summary, trailers, author=by)
    if sha is None:
        raise ResolutionRefused(f"resolving {conflict.path} made no commit")
    return sha
