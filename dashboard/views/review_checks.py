"""What a reviewer sees before reading a dream's diff (issue 13 item 5): the summary of
the checks the dream recorded, and the review so far (comments, a request for changes,
the files this reviewer marked viewed).

The checks come from what the dream left behind, never recomputed on a page view:
the canary result and the visible-entry counts travel in the dream commit's trailers
(``memsync.dream.canaries``, ``memsync.dream.counts``), the engine's notes (merged
duplicates, possibly stale memories) in its ``Run`` row. A check the dream did not
record says so instead of passing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from django.contrib.auth.models import User

from memsync.dream.proposals import Proposal
from memsync.memory import MAX_INDEX_LINES
from memsync.memory.limits import MAX_INDEX_UNITS, size_label

from ..models import Project, ProposalComment, ReviewVerdict, Run, ViewedFile

# How the deterministic engine words its notes (memsync/dream/deterministic.py).
_MERGED_NOTE = "merged "
_STALE_NOTE = ": possibly stale: "
_MORE_STALE_NOTE = "more memories are possibly stale"


class Outcome(StrEnum):
    PASS = "pass"
    WARN = "warn"
    FAIL = "fail"
    NONE = "none"  # the dream did not record this check


@dataclass(frozen=True)
class Check:
    key: str  # the check's anchor on the page: check-<key>
    name: str
    outcome: Outcome
    text: str
    details: tuple[str, ...] = ()


def review_checks(
    proposal: Proposal, run: Run | None, conflicts_with_main: Sequence[str] | None
) -> list[Check]:
    """The checks, worst first. ``conflicts_with_main`` is None when main has not moved
    since the dream (or the proposal is decided), else the files both sides changed."""
    checks = [
        _canaries(proposal),
        _visibility(proposal),
        _index_budget(proposal),
        *_engine_notes(run),
    ]
    if proposal.is_open:
        checks.append(_merge_with_main(conflicts_with_main))
    rank = {Outcome.FAIL: 0, Outcome.WARN: 1, Outcome.PASS: 2, Outcome.NONE: 3}
    return sorted(checks, key=lambda check: rank[check.outcome])


def _canaries(proposal: Proposal) -> Check:
    key, name = "canaries", "Canary questions"
    if proposal.canaries is None:
        return Check(key, name, Outcome.NONE, "not recorded for this dream")
    outcome = Outcome.FAIL if proposal.at_risk else Outcome.PASS
    return Check(key, name, outcome, proposal.canaries.sentence())


def _visibility(proposal: Proposal) -> Check:
    key, name = "visibility", "Entries the agent sees"
    before, after = proposal.visible_before, proposal.visible_after
    if before is None or after is None:
        return Check(key, name, Outcome.NONE, "not recorded for this dream")
    if proposal.visible_lowered:
        text = f"{after} instead of {before}: the dream hides entries beyond those it merged"
        return Check(key, name, Outcome.FAIL, text)
    return Check(key, name, Outcome.PASS, f"{before} → {after}")


def _index_budget(proposal: Proposal) -> Check:
    key, name = "index-budget", "Index budget"
    after = proposal.after
    if after is None:
        return Check(key, name, Outcome.NONE, "not recorded for this dream")
    size = f"{after.index_lines} of {MAX_INDEX_LINES} lines, {size_label(after.index_bytes)}"
    if after.index_lines > MAX_INDEX_LINES:
        return Check(key, name, Outcome.FAIL, f"{size}: Claude Code would cut MEMORY.md off")
    # Bytes bound the UTF-16 length Claude Code measures from above: over it is a warning.
    if after.index_bytes > MAX_INDEX_UNITS:
        return Check(
            key, name, Outcome.WARN, f"{size}: may be over the {size_label(MAX_INDEX_UNITS)} limit"
        )
    return Check(key, name, Outcome.PASS, size)


def _engine_notes(run: Run | None) -> list[Check]:
    notes = run.detail.get("notes") if run is not None and isinstance(run.detail, dict) else None
    if not isinstance(notes, list):
        return [
            Check(
                "duplicates",
                "Duplicates",
                Outcome.NONE,
                "no run of this dream recorded the engine's notes",
            ),
            Check(
                "staleness",
                "Staleness",
                Outcome.NONE,
                "no run of this dream recorded the engine's notes",
            ),
        ]
    texts = [str(note) for note in notes]
    merged = tuple(note for note in texts if note.startswith(_MERGED_NOTE))
    stale = tuple(note for note in texts if _STALE_NOTE in note or _MORE_STALE_NOTE in note)
    duplicates = Check(
        "duplicates",
        "Duplicates",
        Outcome.PASS,
        f"{len(merged)} memor{'y' if len(merged) == 1 else 'ies'} merged into another"
        if merged
        else "none merged",
        merged,
    )
    if not stale:
        return [
            duplicates,
            Check("staleness", "Staleness", Outcome.PASS, "no memory flagged as stale"),
        ]
    flagged = Check(
        "staleness", "Staleness", Outcome.WARN, "possibly stale memories: check them", stale
    )
    return [duplicates, flagged]


def _merge_with_main(conflicts: Sequence[str] | None) -> Check:
    key, name = "merge", "Merge with main"
    if conflicts is None:
        return Check(key, name, Outcome.PASS, "main has not moved since the dream started")
    if conflicts:
        return Check(key, name, Outcome.FAIL, "these files changed on both sides", tuple(conflicts))
    return Check(key, name, Outcome.PASS, "main has moved; the merge is clean")


@dataclass(frozen=True)
class ReviewState:
    """The review of one proposal as one reviewer sees it."""

    conversation: list[ProposalComment]  # on the whole proposal, requests for changes too
    by_path: dict[str, list[ProposalComment]]
    viewed: frozenset[str]
    files: list[str]
    changes_requested: ProposalComment | None
    checks: list[Check] = field(default_factory=list)

    @property
    def viewed_count(self) -> int:
        return len(self.viewed.intersection(self.files))


def review_state(
    project: Project, proposal: Proposal, user: User, files: list[str], checks: list[Check]
) -> ReviewState:
    comments = list(
        ProposalComment.objects.filter(project=project, dream_id=proposal.id).select_related(
            "author"
        )
    )
    by_path: dict[str, list[ProposalComment]] = {}
    for comment in comments:
        if comment.path:
            by_path.setdefault(comment.path, []).append(comment)
    requests = [comment for comment in comments if comment.requests_changes]
    viewed = ViewedFile.objects.filter(project=project, dream_id=proposal.id, user=user)
    return ReviewState(
        conversation=[comment for comment in comments if not comment.path],
        by_path=by_path,
        viewed=frozenset(viewed.values_list("path", flat=True)),
        files=files,
        # A request for changes stands while the proposal is open; approving or
        # rejecting decides it.
        changes_requested=requests[-1] if requests and proposal.is_open else None,
        checks=checks,
    )


def changes_requested(project: Project, dream_ids: list[str]) -> set[str]:
    """Which of these (open) proposals a maintainer asked changes of; no query when none
    is open."""
    if not dream_ids:
        return set()
    return set(
        ProposalComment.objects.filter(
            project=project, dream_id__in=dream_ids, verdict=ReviewVerdict.CHANGES
        ).values_list("dream_id", flat=True)
    )
