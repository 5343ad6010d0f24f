"""A run's status as it is now, not as it was when its worker finished (issue 13 item 8).

A ``Run`` row records how its work ended. What came after lives elsewhere: a proposed
dream is adopted, rejected or reverted in Git (``memsync.dream.proposals``), and a
merge's conflicts are resolved in the database (``ConflictItem``). Every page that
lists runs shows the status derived from that truth, so "proposed" does not outlive
the adoption and "conflict" does not outlive the resolution.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from memsync.dream.proposals import Proposal, ProposalStatus

from ..models import ConflictItem, ConflictStatus, Run, RunKind, RunStatus

# A proposal's status in the words of a run that made it; an open one is still "proposed".
_PROPOSAL_LABELS = {
    ProposalStatus.OPEN: "proposed",
    ProposalStatus.CONFLICTED: "conflicted",
    ProposalStatus.ADOPTED: "adopted",
    ProposalStatus.REJECTED: "rejected",
    ProposalStatus.REVERTED: "reverted",
}


@dataclass(frozen=True)
class ShownRun:
    """A run with the status a page shows for it; ``status`` doubles as the CSS class."""

    run: Run
    status: str
    label: str

    @property
    def took(self) -> str:
        # A gate check is one instant (its start and end are the same moment).
        return "–" if self.run.kind == RunKind.GATE else duration_label(self.run.duration)


def duration_label(duration: timedelta | None) -> str:
    """ "0.4 s", "12 s", "2 min 05 s": a run of a few seconds is not "0 minutes"."""
    if duration is None:
        return "–"
    seconds = duration.total_seconds()
    if seconds < 10:
        return f"{seconds:.1f} s"
    minutes, whole = divmod(int(seconds), 60)
    if not minutes:
        return f"{whole} s"
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {whole:02d} s"


def shown_runs(runs: Sequence[Run], proposals: Iterable[Proposal]) -> list[ShownRun]:
    """Each run with its current status; ``proposals`` are the project's, from Git."""
    by_id = {proposal.id: proposal for proposal in proposals}
    still_open = _still_open({pk for run in runs for pk in run.conflict_ids})
    return [_shown(run, by_id, still_open) for run in runs]


def _still_open(conflict_ids: set[int]) -> set[int]:
    """Which of these conflicts are open. None asked, no query: building one that asks
    for nothing cost a page with no merge conflicts as much as a query."""
    if not conflict_ids:
        return set()
    found = ConflictItem.objects.filter(pk__in=conflict_ids, status=ConflictStatus.OPEN)
    return set(found.values_list("pk", flat=True))


def shown_run(run: Run, proposals: Iterable[Proposal]) -> ShownRun:
    return shown_runs([run], proposals)[0]


def dream_of(run: Run) -> str | None:
    """The dream a dream run made, as its worker recorded it (``Run.dream_id``, written
    with its first progress and again when it finishes)."""
    return run.dream_id or None


def _shown(run: Run, proposals: dict[str, Proposal], open_conflicts: set[int]) -> ShownRun:
    dream_id = dream_of(run)
    if run.status == RunStatus.PROPOSED and dream_id in proposals:
        label = _PROPOSAL_LABELS[proposals[dream_id].status]
        return ShownRun(run, label, label)
    ids = run.conflict_ids
    if run.status == RunStatus.CONFLICT and ids and not open_conflicts.intersection(ids):
        return ShownRun(run, "resolved", "conflict resolved")
    return ShownRun(run, str(run.status), run.get_status_display())
