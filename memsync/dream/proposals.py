"""Dream proposals read from Git alone (SPEC D5, W3): the CLI has no database, and the
dashboard can be rebuilt from the repository.

- open: a ``dream/<id>`` branch whose tip is that dream's commit, not yet adopted;
- conflicted: open, and an approval found conflicts (``refs/memsync/conflicted/<id>``);
- adopted: a merge commit on ``main`` carrying ``Memsync-Dream: <id>``;
- rejected: ``refs/memsync/rejected/<id>``, a tag object naming who and when, pointing
  at the dream commit (the branch itself is deleted, the commit is kept);
- reverted: adopted, and a revert commit on ``main`` names the adoption in
  ``Memsync-Reverts``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from memsync.dream.canaries import CanaryResult
from memsync.dream.counts import MemoryCounts, hides_entries, parse_visible
from memsync.store import MAIN, CommitInfo, MemoryRepo, TagInfo, refs, trailers


class ProposalStatus(StrEnum):
    OPEN = "open"
    CONFLICTED = "conflicted"
    ADOPTED = "adopted"
    REJECTED = "rejected"
    REVERTED = "reverted"


@dataclass(frozen=True)
class Proposal:
    id: str
    status: ProposalStatus
    branch: str | None  # dream/<id> while open
    commit: str  # the dream commit
    base: str | None  # main when the dream started
    summary: str
    sessions: int
    engine: str | None
    model: str | None
    tokens: dict[str, int]
    before: MemoryCounts | None
    after: MemoryCounts | None
    files: tuple[str, ...]
    created: datetime
    adopted_commit: str | None = None
    approved_by: str | None = None
    dropped: tuple[str, ...] = ()
    rejected_by: str | None = None
    rejected_at: datetime | None = None
    reverted_commit: str | None = None
    conflicts: tuple[str, ...] = field(default=())
    visible: tuple[int, int] | None = None  # MEMORY.md entries an agent sees, before/after
    canaries: CanaryResult | None = None  # main's canary questions asked of the dream

    @property
    def at_risk(self) -> bool:
        """Recall no longer finds facts it found on main."""
        return self.canaries is not None and self.canaries.at_risk

    @property
    def is_open(self) -> bool:
        return self.status in (ProposalStatus.OPEN, ProposalStatus.CONFLICTED)

    @property
    def visible_before(self) -> int | None:
        return self.visible[0] if self.visible else None

    @property
    def visible_after(self) -> int | None:
        return self.visible[1] if self.visible else None

    @property
    def visible_lowered(self) -> bool:
        """The dream hides entries the agent saw: a reviewer should know first."""
        if self.visible is None or self.before is None or self.after is None:
            return False
        before = dataclasses.replace(self.before, visible_entries=self.visible[0])
        after = dataclasses.replace(self.after, visible_entries=self.visible[1])
        return hides_entries(before, after)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "status": str(self.status),
            "branch": self.branch,
            "commit": self.commit,
            "base": self.base,
            "summary": self.summary,
            "sessions": self.sessions,
            "engine": self.engine,
            "model": self.model,
            "tokens": dict(self.tokens),
            "before": self.before.to_dict() if self.before else None,
            "after": self.after.to_dict() if self.after else None,
            "files": list(self.files),
            "created": self.created.isoformat(),
            "adopted_commit": self.adopted_commit,
            "approved_by": self.approved_by,
            "dropped": list(self.dropped),
            "rejected_by": self.rejected_by,
            "rejected_at": self.rejected_at.isoformat() if self.rejected_at else None,
            "reverted_commit": self.reverted_commit,
            "conflicts": list(self.conflicts),
            "canaries": self.canaries.to_dict() if self.canaries else None,
            "at_risk": self.at_risk,
            "visible_entries": (
                {
                    "before": self.visible[0],
                    "after": self.visible[1],
                    "lowered": self.visible_lowered,
                }
                if self.visible
                else None
            ),
        }


def list_proposals(repo: MemoryRepo) -> list[Proposal]:
    """Every proposal the repository remembers, newest first (ids sort by time)."""
    adoptions, reverts = _decisions_on_main(repo)
    open_tips = {
        name.removeprefix(refs.DREAMS): sha for name, sha in repo.branches(refs.DREAMS).items()
    }
    rejected = repo.refs(refs.REJECTED, strip=refs.REJECTED)
    conflicted = repo.refs(refs.CONFLICTED, strip=refs.CONFLICTED)

    # The dream commit of each adoption: the merge's second parent, or the parent of the
    # adoption commit that dropped files from it.
    second_parents = repo.commits([m.parents[1] for m in adoptions.values()])
    dream_of: dict[str, str] = {}
    for dream_id, adopting in adoptions.items():
        side = second_parents.get(adopting.parents[1])
        if side is not None and trailers.DROPPED.values(side) and side.parents:
            dream_of[dream_id] = side.parents[0]
        else:
            dream_of[dream_id] = adopting.parents[1]
    rejection_tags = {dream_id: repo.read_tag(sha) for dream_id, sha in rejected.items()}
    for dream_id, rejection in rejection_tags.items():
        dream_of.setdefault(dream_id, rejection.commit)
    for dream_id, tip in open_tips.items():
        dream_of.setdefault(dream_id, tip)

    commits = repo.commits(list(dict.fromkeys(dream_of.values())))
    found = []
    for dream_id, sha in dream_of.items():
        info = commits.get(sha)
        if info is None or trailers.DREAM.last(info) != dream_id:
            continue  # a branch a killed dream left behind: no proposal in it
        merge = adoptions.get(dream_id)
        tag = rejection_tags.get(dream_id)
        revert = reverts.get(merge.sha) if merge is not None else None
        conflicts: tuple[str, ...] = ()
        if revert is not None:
            status = ProposalStatus.REVERTED
        elif merge is not None:
            status = ProposalStatus.ADOPTED
        elif tag is not None:
            status = ProposalStatus.REJECTED
        elif dream_id in conflicted and dream_id in open_tips:
            # Marked when an approval conflicted; main may have moved since, so ask again.
            conflicts = tuple(repo.merge_preview(open_tips[dream_id], MAIN))
            status = ProposalStatus.CONFLICTED if conflicts else ProposalStatus.OPEN
        else:
            status = ProposalStatus.OPEN
        found.append(
            _proposal(
                dream_id,
                status,
                info,
                branch=refs.dream_branch(dream_id) if dream_id in open_tips and not merge else None,
                merge=merge,
                revert=revert,
                rejection=tag,
                conflicts=conflicts,
            )
        )
    return sorted(found, key=lambda p: p.id, reverse=True)


def get_proposal(repo: MemoryRepo, dream_id: str) -> Proposal | None:
    return next((p for p in list_proposals(repo) if p.id == dream_id), None)


def adoption_commit(repo: MemoryRepo, dream_id: str) -> CommitInfo | None:
    """The merge on ``main`` that adopted ``dream_id``, if any."""
    return _decisions_on_main(repo)[0].get(dream_id)


def _proposal(
    dream_id: str,
    status: ProposalStatus,
    info: CommitInfo,
    *,
    branch: str | None,
    merge: CommitInfo | None,
    revert: CommitInfo | None,
    rejection: TagInfo | None,
    conflicts: tuple[str, ...],
) -> Proposal:
    sessions = trailers.SESSIONS.last(info) or "0"
    model = trailers.MODEL.last(info)
    return Proposal(
        id=dream_id,
        status=status,
        branch=branch,
        commit=info.sha,
        base=info.parents[0] if info.parents else None,
        summary=info.body,
        sessions=int(sessions) if sessions.isdigit() else 0,
        engine=trailers.ENGINE.last(info),
        model=None if model in (None, "none") else model,
        tokens=_tokens(trailers.TOKENS.last(info)),
        before=MemoryCounts.parse(trailers.BEFORE.last(info)),
        after=MemoryCounts.parse(trailers.AFTER.last(info)),
        files=tuple(stat.path for stat in info.files),
        created=info.date,
        adopted_commit=merge.sha if merge else None,
        approved_by=trailers.APPROVED_BY.last(merge) if merge else None,
        dropped=tuple(trailers.DROPPED.values(merge)) if merge else (),
        rejected_by=rejection.tagger if rejection else None,
        rejected_at=rejection.when if rejection else None,
        reverted_commit=revert.sha if revert else None,
        conflicts=conflicts,
        visible=parse_visible(trailers.VISIBLE.last(info)),
        canaries=CanaryResult.parse(
            trailers.CANARIES.last(info), trailers.CANARY_LOST.values(info)
        ),
    )


def _tokens(value: str | None) -> dict[str, int]:
    tokens = {}
    for part in (value or "").split():
        key, _, number = part.partition("=")
        if number.isdigit():
            tokens[key] = int(number)
    return tokens


def decisions_between(repo: MemoryRepo, old: str, new: str) -> bool:
    """Whether ``main``'s first-parent line after ``old`` up to ``new`` adopts or reverts a
    dream: when it does not, and no other ref moved, the proposals read at ``old`` hold at
    ``new`` (the dashboard's cache of them, read-only here)."""
    found = repo.commits_with_trailers(
        trailers.DREAM, trailers.REVERTS, rev=f"{old}..{new}", first_parent=True
    )
    return bool(found)


def _decisions_on_main(repo: MemoryRepo) -> tuple[dict[str, CommitInfo], dict[str, CommitInfo]]:
    """(dream id → adopting merge, adopting merge sha → revert) from one ``git log``."""
    if repo.rev_parse(MAIN) is None:
        return {}, {}
    decisions = repo.commits_with_trailers(trailers.DREAM, trailers.REVERTS, first_parent=True)
    adoptions: dict[str, CommitInfo] = {}
    reverts: dict[str, CommitInfo] = {}
    for info in reversed(decisions):  # oldest first: later decisions win
        dream_id = trailers.DREAM.last(info)
        if info.is_merge and dream_id and trailers.APPROVED_BY.last(info) is not None:
            adoptions[dream_id] = info
        target = trailers.REVERTS.last(info)
        if target:
            reverts[target] = info
    return adoptions, reverts
