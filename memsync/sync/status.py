"""Where a project's team memory stands: ``main``, members' branches not merged yet,
and dream proposals not adopted yet — read from Git alone."""

from __future__ import annotations

from dataclasses import dataclass

from memsync.store import MAIN, CommitInfo, MemoryRepo
from memsync.store.refs import DREAMS, MEMBERS, branch_of, head_ref


@dataclass(frozen=True)
class BranchState:
    name: str  # without refs/heads/, e.g. members/bob or dream/42
    commit: str
    ahead: int  # commits main does not have


@dataclass(frozen=True)
class TeamStatus:
    main: CommitInfo | None
    pending_merges: list[BranchState]
    proposals: list[BranchState]


def unmerged_members(repo: MemoryRepo, prefix: str = MEMBERS) -> list[str]:
    """Usernames whose ``members/<user>`` branch (or, with ``prefix``, another per-user
    branch such as ``extractions/<user>``) holds commits ``main`` lacks: one
    ``git for-each-ref`` call, for the sweep that re-queues merges a hook could not."""
    refs = head_ref(prefix)
    return [ref.removeprefix(refs) for ref, _ in repo.unmerged_refs(refs)]


def unmerged_branches(repo: MemoryRepo, prefix: str) -> list[BranchState]:
    """Branches under ``prefix`` (such as ``members/``) that ``main`` does not contain."""
    return [
        BranchState(branch_of(ref), sha, repo.ahead_behind(sha, MAIN)[0])
        for ref, sha in repo.unmerged_refs(head_ref(prefix))
    ]


def team_status(repo: MemoryRepo) -> TeamStatus:
    main = repo.rev_parse(MAIN)
    return TeamStatus(
        main=repo.commit_info(main) if main else None,
        pending_merges=unmerged_branches(repo, MEMBERS),
        proposals=unmerged_branches(repo, DREAMS),
    )
