"""Proposals from Git alone, and approve / reject / revert (SPEC D5) on real repositories."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsync.dream.adoption import ProposalError, approve, reconcile_index, reject, revert
from memsync.dream.proposals import ProposalStatus, get_proposal, list_proposals
from memsync.dream.run import DreamRequest, DreamStatus, run_dream
from memsync.memory import MemoryIndex
from memsync.store import MAIN, Identity, MemoryRepo
from tests.dream.engines import ScriptedEngine

ALICE = Identity("Alice Maintainer", "alice@example.com")
INDEX = (
    "# Memory\n\n"
    "- [Deploys](project_deploys.md) — how we deploy\n"
    "- [Deploy notes](project_deploy_notes.md) — more about deploys\n"
    "- [Bun](feedback_bun.md) — use bun, not npm\n"
)
DEPLOYS = "---\nname: deploys\ntype: project\n---\nDeploy with `make ship`.\n"
DEPLOY_NOTES = "---\nname: deploy notes\ntype: project\n---\nShip on Tuesdays only.\n"
BUN = "---\nname: bun\ntype: feedback\n---\nUse bun.\n\nLine two.\n"


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    memory = tmp_path / "memory"
    memory.mkdir()
    for path, text in {
        "MEMORY.md": INDEX,
        "project_deploys.md": DEPLOYS,
        "project_deploy_notes.md": DEPLOY_NOTES,
        "feedback_bun.md": BUN,
    }.items():
        (memory / path).write_text(text)
    return MemoryRepo.init(memory)


def propose(repo: MemoryRepo, changes: dict[str, str | None], summary: str = "") -> str:
    engine = ScriptedEngine(
        {path: None if text is None else text.encode() for path, text in changes.items()},
        summary,
    )
    outcome = run_dream(DreamRequest(repo_path=repo.path, engine=engine, sessions=("s1",)))
    assert outcome.status == DreamStatus.PROPOSED, outcome.reason
    return outcome.dream_id


def on_main(repo: MemoryRepo, path: str, text: str | None, summary: str = "edit by hand") -> None:
    repo.apply({path: None if text is None else text.encode()}, "manual", summary)


MERGED_DEPLOYS = DEPLOYS + "Ship on Tuesdays only.\n"
MERGE_DUPLICATES = {
    "project_deploys.md": MERGED_DEPLOYS,
    "project_deploy_notes.md": None,
    "project_release.md": "---\nname: release\ntype: project\n---\nTag releases.\n",
    "MEMORY.md": "# Memory\n\n"
    "- [Deploys](project_deploys.md) — how we deploy, on Tuesdays\n"
    "- [Bun](feedback_bun.md) — use bun, not npm\n"
    "- [Release](project_release.md) — tag releases\n",
}


def test_it_lists_an_open_proposal_with_what_the_dashboard_shows(repo):
    dream_id = propose(repo, MERGE_DUPLICATES, "Improved 2 memories: merged deploy notes")

    [proposal] = list_proposals(repo)

    assert proposal.id == dream_id
    assert proposal.status == ProposalStatus.OPEN and proposal.is_open
    assert proposal.branch == f"dream/{dream_id}"
    assert proposal.base == repo.rev_parse(MAIN)
    assert proposal.summary == "Improved 2 memories: merged deploy notes"
    assert proposal.engine == "scripted" and proposal.model is None
    assert proposal.sessions == 1
    assert proposal.tokens == {"in": 0, "out": 0, "cache_read": 0, "cache_write": 0}
    assert (proposal.before.memories, proposal.after.memories) == (3, 3)
    assert set(proposal.files) == set(MERGE_DUPLICATES)
    assert proposal.to_dict()["status"] == "open"


def test_it_adopts_a_proposal_with_a_merge_commit_naming_the_approver(repo):
    dream_id = propose(repo, MERGE_DUPLICATES)

    approval = approve(repo, dream_id, approver=ALICE)

    assert approval.adopted
    merge = repo.commit_info(MAIN)
    assert merge.sha == approval.commit and merge.is_merge
    assert merge.trailer("Memsync-Dream") == dream_id
    assert merge.trailer("Memsync-Approved-By") == "Alice Maintainer <alice@example.com>"
    assert merge.author_email == "alice@example.com"
    assert (repo.path / "project_deploys.md").read_text() == MERGED_DEPLOYS
    assert not (repo.path / "project_deploy_notes.md").exists()
    assert repo.branches("dream/") == {}
    proposal = get_proposal(repo, dream_id)
    assert proposal.status == ProposalStatus.ADOPTED
    assert proposal.adopted_commit == approval.commit
    assert proposal.approved_by == "Alice Maintainer <alice@example.com>"


def test_it_merges_for_real_when_main_moved_since_the_dream(repo):
    dream_id = propose(repo, MERGE_DUPLICATES)
    on_main(repo, "feedback_bun.md", BUN.replace("Line two.", "Line two, edited later."))
    moved = repo.rev_parse(MAIN)

    approval = approve(repo, dream_id, approver="alice")

    merge = repo.commit_info(MAIN)
    assert merge.parents[0] == moved
    assert (repo.path / "feedback_bun.md").read_text().endswith("Line two, edited later.\n")
    assert (repo.path / "project_deploys.md").read_text() == MERGED_DEPLOYS
    assert get_proposal(repo, dream_id).status == ProposalStatus.ADOPTED
    assert approval.commit == merge.sha


def test_it_marks_a_conflicting_proposal_conflicted_and_loses_nothing(repo):
    dream_id = propose(repo, {"project_deploys.md": DEPLOYS.replace("make ship", "make deploy")})
    theirs = DEPLOYS.replace("make ship", "./ship.sh")
    on_main(repo, "project_deploys.md", theirs)
    main_before = repo.rev_parse(MAIN)

    approval = approve(repo, dream_id, approver="alice")

    assert approval.status == "conflict" and not approval.adopted
    assert approval.conflicts == ("project_deploys.md",)
    assert repo.rev_parse(MAIN) == main_before
    assert (repo.path / "project_deploys.md").read_text() == theirs
    proposal = get_proposal(repo, dream_id)
    assert proposal.status == ProposalStatus.CONFLICTED
    assert proposal.conflicts == ("project_deploys.md",)
    assert b"make deploy" in repo.read(f"dream/{dream_id}", "project_deploys.md")


def test_it_adopts_part_of_a_proposal_and_mends_the_index(repo):
    dream_id = propose(repo, MERGE_DUPLICATES)

    approval = approve(
        repo, dream_id, approver="alice", exclude=["project_deploy_notes.md", "project_release.md"]
    )

    assert approval.adopted
    assert approval.dropped == ("project_deploy_notes.md", "project_release.md")
    assert (repo.path / "project_deploys.md").read_text() == MERGED_DEPLOYS
    assert (repo.path / "project_deploy_notes.md").read_text() == DEPLOY_NOTES  # kept
    assert not (repo.path / "project_release.md").exists()  # dropped new file
    index = MemoryIndex.parse((repo.path / "MEMORY.md").read_text())
    assert index.linked_files() == {
        "project_deploys.md",
        "project_deploy_notes.md",
        "feedback_bun.md",
    }
    assert index.entry_for("project_deploys.md").hook == "how we deploy, on Tuesdays"
    merge = repo.commit_info(MAIN)
    assert merge.trailer_values("Memsync-Dropped") == [
        "project_deploy_notes.md",
        "project_release.md",
    ]
    proposal = get_proposal(repo, dream_id)
    assert proposal.status == ProposalStatus.ADOPTED
    assert proposal.dropped == ("project_deploy_notes.md", "project_release.md")
    assert set(proposal.files) == set(MERGE_DUPLICATES)  # the dream as proposed


def test_it_refuses_to_drop_a_file_the_dream_did_not_change(repo):
    dream_id = propose(repo, MERGE_DUPLICATES)

    with pytest.raises(ProposalError, match="not changed by this dream"):
        approve(repo, dream_id, approver="alice", exclude=["feedback_bun.md"])

    assert get_proposal(repo, dream_id).status == ProposalStatus.OPEN


def test_it_rejects_a_proposal_keeping_its_commit_under_a_ref(repo):
    dream_id = propose(repo, MERGE_DUPLICATES)
    dream_commit = repo.rev_parse(f"dream/{dream_id}")
    main_before = repo.rev_parse(MAIN)

    ref = reject(repo, dream_id, by=Identity("Bob Member", "bob@example.com"), reason="too eager")

    assert ref == f"refs/memsync/rejected/{dream_id}"
    assert repo.rev_parse(ref) == dream_commit
    assert repo.branches("dream/") == {}
    assert repo.rev_parse(MAIN) == main_before
    proposal = get_proposal(repo, dream_id)
    assert proposal.status == ProposalStatus.REJECTED
    assert proposal.rejected_by == "Bob Member"
    assert proposal.rejected_at is not None
    assert proposal.commit == dream_commit
    with pytest.raises(ProposalError, match="was rejected"):
        approve(repo, dream_id, approver="alice")


def test_it_reverts_an_adopted_dream_keeping_later_edits(repo):
    dream_id = propose(repo, MERGE_DUPLICATES)
    approval = approve(repo, dream_id, approver="alice")
    later_bun = BUN.replace("Use bun.", "Use bun 1.2.")
    on_main(repo, "feedback_bun.md", later_bun)

    result = revert(repo, dream_id)

    assert result.merged
    head = repo.commit_info(MAIN)
    assert head.kind == "revert"
    assert head.trailer("Memsync-Reverts") == approval.commit
    assert head.trailer("Memsync-Dream") == dream_id
    assert (repo.path / "project_deploys.md").read_text() == DEPLOYS
    assert (repo.path / "project_deploy_notes.md").read_text() == DEPLOY_NOTES
    assert not (repo.path / "project_release.md").exists()
    assert (repo.path / "MEMORY.md").read_text() == INDEX
    assert (repo.path / "feedback_bun.md").read_text() == later_bun
    proposal = get_proposal(repo, dream_id)
    assert proposal.status == ProposalStatus.REVERTED
    assert proposal.reverted_commit == head.sha


def test_it_reverts_by_the_merge_commit_too(repo):
    dream_id = propose(repo, {"feedback_bun.md": BUN + "Third line.\n"})
    approval = approve(repo, dream_id, approver="alice")

    revert(repo, approval.commit)

    assert (repo.path / "feedback_bun.md").read_text() == BUN
    assert get_proposal(repo, dream_id).status == ProposalStatus.REVERTED


def test_it_lists_every_kind_of_proposal_newest_first(repo):
    adopted = propose(repo, {"feedback_bun.md": BUN + "adopted\n"})
    approve(repo, adopted, approver="alice")
    rejected = propose(repo, {"feedback_bun.md": BUN + "rejected\n"})
    reject(repo, rejected, by="bob")
    opened = propose(repo, {"project_deploys.md": DEPLOYS + "open\n"})
    # What a killed dream leaves: a branch without a dream commit. Not a proposal.
    repo.create_branch("dream/20200101-0000-dead")

    statuses = {p.id: p.status for p in list_proposals(repo)}

    assert statuses == {
        adopted: ProposalStatus.ADOPTED,
        rejected: ProposalStatus.REJECTED,
        opened: ProposalStatus.OPEN,
    }
    assert [p.id for p in list_proposals(repo)] == sorted(statuses, reverse=True)


def test_it_mends_an_index_to_what_is_there():
    index = MemoryIndex.parse(
        "# Memory\n\n## Project\n- [Gone](gone.md) — deleted\n- [Kept](kept.md) — stays\n"
    )
    fallback = MemoryIndex.parse(
        "## Project\n- [Kept](kept.md) — older hook\n- [Back](back.md) — restored\n"
    )

    mended = reconcile_index(index, {"kept.md", "back.md"}, [fallback])

    assert mended.render() == (
        "# Memory\n\n## Project\n- [Kept](kept.md) — stays\n- [Back](back.md) — restored\n"
    )
