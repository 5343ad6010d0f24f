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
from memsync.store import CommitKind, Identity, MemoryRepo, refs, trailers


@dataclass(frozen=True)
class Member:
    username: str
    email: str

    @property
    def identity(self) -> Identity:
        return Identity(self.username, self.email)

    @property
    def branch(self) -> str:
        return refs.member_branch(self.username)

    @property
    def co_author(self) -> tuple[str, str]:
        return trailers.CO_AUTHORED_BY(f"{self.username} <{self.email}>")


@dataclass(frozen=True)
class MemberConflict:
    """A topic file both sides changed: ``main`` kept its side, the member's waits."""

    path: str
    base_commit: str | None
    main_commit: str  # main just before the merge
    member_commit: str  # the member's branch tip that was merged


@dataclass(frozen=True)
class MemberMerge:
    member: str
    status: str  # merged, up-to-date, no-branch
    commit: str | None = None
    member_commit: str | None = None
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
        tip = repo.rev_parse(refs.head_ref(branch))
        if tip is None:
            return MemberMerge(member.username, "no-branch")
        before = repo.head()
        assert before is not None, "a memsync repository always has a first commit"
        if repo.is_ancestor(tip, before):
            return MemberMerge(member.username, "up-to-date", commit=before, member_commit=tip)
        expected = repo.merge_preview(tip)
        body = ""
        if expected:
            body = (
                "Kept main's side of "
                + ", ".join(expected)
                + "; the member's side is kept for review."
            )
        written = [trailers.MEMBER(member.username), member.co_author]
        written += [trailers.CONFLICT(path) for path in expected]
        result = repo.merge(
            tip,
            kind=CommitKind.MERGE,
            summary=f"{branch} into main",
            trailers=written,
            author=member.identity,
            keep_ours_on_conflict=True,
            body=body,
        )
        base = repo.merge_base(before, tip) if result.conflicts else None
    conflicts = tuple(MemberConflict(found.path, base, before, tip) for found in result.conflicts)
    return MemberMerge(member.username, result.status, result.commit, tip, conflicts)


def keep_conflict_sides(repo: MemoryRepo, ref: str, conflict: MemberConflict) -> None:
    """Pin both sides: ``<ref>/main`` (main then) and ``<ref>/member`` (the member's tip)."""
    repo.update_ref(refs.conflict_side_ref(ref, "main"), conflict.main_commit)
    repo.update_ref(refs.conflict_side_ref(ref, "member"), conflict.member_commit)


class Resolution(StrEnum):
    # The values predate the main/member vocabulary; they stay as they are because
    # commits' Memsync-Resolution trailers and stored conflict items already hold them.
    MAIN = "mine"  # main's side, as it was when the merge was tried
    MEMBER = "theirs"  # the member's side
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

    `Resolution.MAIN` restores main's side, `Resolution.MEMBER` takes the member's,
    ``edit`` writes
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
    elif resolution is Resolution.MAIN:
        data = repo.read(conflict.main_commit, conflict.path)
    else:
        data = repo.read(conflict.member_commit, conflict.path)
    written = [
        trailers.CONFLICT(conflict_id),
        trailers.RESOLUTION(resolution),
        trailers.MEMBER(member.username),
    ]
    if resolution is not Resolution.MAIN:
        written.append(member.co_author)
    summary = f"resolve {conflict.path} from {member.branch} ({resolution})"
    with repo.lock.held():
        if repo.read("HEAD", conflict.path) == data:
            sha = repo.commit(CommitKind.MERGE, summary, written, author=by, allow_empty=True)
        else:
            sha = repo.apply({conflict.path: data}, CommitKind.MERGE, summary, written, author=by)
    if sha is None:
        raise ResolutionRefused(f"resolving {conflict.path} made no commit")
    return sha
