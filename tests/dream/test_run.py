"""One dream end to end in-process (SPEC D2, D5, D7): real repositories, real locks,
real Redis, and small real engines from ``tests.dream.engines``."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
import redis

from memsync.dream.locks import redis_lock_key
from memsync.dream.proposals import list_proposals
from memsync.dream.run import DreamRequest, DreamStatus, default_worktrees_dir, run_dream
from memsync.store import MAIN, CommitKind, MemoryRepo
from tests.dream.engines import (
    NOTE_FILE,
    FailingEngine,
    IdleEngine,
    NoteEngine,
    ScriptedEngine,
    SlowEngine,
)

NS = 1_000_000_000
INDEX = "- [Role](user_role.md) — who I am\n- [Bun](feedback_bun.md) — use bun, not npm\n"
NOTE_ENTRY = "- [Dream note](dream_note.md) — written by a test engine\n"


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "MEMORY.md").write_text(INDEX)
    (memory / "user_role.md").write_text("---\nname: role\ntype: user\n---\nBackend dev.\n")
    (memory / "feedback_bun.md").write_text("---\nname: bun\ntype: feedback\n---\nUse bun.\n")
    return MemoryRepo.init(memory)


@pytest.fixture
def client():
    connection = redis.Redis.from_url(os.environ["REDIS_URL"])
    yield connection
    connection.close()


def lock_file(repo: MemoryRepo) -> Path:
    return repo.path / ".consolidate-lock"


def stamp_lock(repo: MemoryRepo, days_ago: float, body: str = "") -> int:
    lock = lock_file(repo)
    lock.write_text(body)
    when = time.time_ns() - int(days_ago * 86400 * NS)
    os.utime(lock, ns=(when, when))
    return when


def dream(repo: MemoryRepo, engine, **options):
    return run_dream(DreamRequest(repo_path=repo.path, engine=engine, **options))


def dream_branches(repo: MemoryRepo) -> dict[str, str]:
    return repo.branches("dream/")


def test_it_proposes_the_engines_changes_as_one_dream_commit_on_a_branch(repo):
    main_before = repo.rev_parse(MAIN)
    after_bytes = len((INDEX + NOTE_ENTRY).encode())

    outcome = dream(repo, NoteEngine(), sessions=("s-1", "s-2"))

    assert outcome.status == DreamStatus.PROPOSED
    assert outcome.branch == f"dream/{outcome.dream_id}"
    assert dream_branches(repo) == {outcome.branch: outcome.commit}
    commit = repo.commit_info(outcome.commit)
    assert commit.kind == "dream"
    assert commit.parents == (main_before,)
    assert commit.body == "Improved 1 memory: dream_note.md"
    assert dict(commit.trailers) == {
        "Memsync-Kind": "dream",
        "Memsync-Dream": outcome.dream_id,
        "Memsync-Engine": "note",
        "Memsync-Model": "test-model",
        "Memsync-Sessions": "2",
        "Memsync-Tokens": "in=120 out=30 cache_read=7 cache_write=5",
        "Memsync-Before": f"memories=2 index-lines=2 index-bytes={len(INDEX.encode())}",
        "Memsync-After": f"memories=3 index-lines=3 index-bytes={after_bytes}",
        "Memsync-Visible": "2 -> 3",
        "Memsync-Canaries": "1 of 1 facts still found",
    }
    assert outcome.to_dict()["visible_entries"] == {"before": 2, "after": 3, "lowered": False}
    assert sorted(outcome.files_touched) == ["MEMORY.md", NOTE_FILE]
    assert "Sessions reviewed: s-1, s-2." in repo.read(outcome.commit, NOTE_FILE).decode()


def test_a_dream_that_hides_entries_from_the_agent_is_flagged(repo):
    hidden = "# Everything\n\n" + INDEX.replace("](", "](../")
    engine = ScriptedEngine(
        {
            "indexes/all.md": hidden.encode(),
            "MEMORY.md": b"- [Everything](indexes/all.md) - 2 entries\n",
        }
    )

    outcome = dream(repo, engine)

    assert outcome.to_dict()["visible_entries"] == {"before": 2, "after": 1, "lowered": True}
    commit = repo.commit_info(outcome.commit)
    assert commit.trailer("Memsync-Visible") == "2 -> 1"
    assert commit.body.strip().startswith("Warning: the agent would see fewer memories: 2 ")
    (proposal,) = list_proposals(repo)
    assert proposal.visible_lowered
    assert proposal.to_dict()["visible_entries"] == {"before": 2, "after": 1, "lowered": True}


def test_it_never_touches_main_or_the_memory_directory(repo):
    main_before = repo.rev_parse(MAIN)

    dream(repo, NoteEngine())

    assert repo.rev_parse(MAIN) == main_before
    assert not (repo.path / NOTE_FILE).exists()
    assert (repo.path / "MEMORY.md").read_text() == INDEX
    assert list(default_worktrees_dir(repo.path).iterdir()) == []
    worktrees = subprocess.run(
        ["git", "worktree", "list"], cwd=repo.path, capture_output=True, text=True
    ).stdout
    assert len(worktrees.splitlines()) == 1


def test_it_releases_the_file_lock_keeping_the_start_as_the_consolidation_time(repo):
    prior = stamp_lock(repo, days_ago=2)
    started = time.time_ns()

    dream(repo, NoteEngine())

    assert lock_file(repo).read_text() == ""
    assert started - NS // 100 <= lock_file(repo).stat().st_mtime_ns <= time.time_ns()
    assert lock_file(repo).stat().st_mtime_ns > prior


def test_it_makes_no_branch_when_nothing_changed_but_records_the_time(repo):
    prior = stamp_lock(repo, days_ago=2)

    outcome = dream(repo, IdleEngine())

    assert outcome.status == DreamStatus.NO_CHANGES
    assert outcome.branch is None and outcome.commit is None
    assert dream_branches(repo) == {}
    assert lock_file(repo).stat().st_mtime_ns > prior


def test_it_cleans_up_and_rolls_the_lock_back_when_the_engine_fails(repo):
    prior = stamp_lock(repo, days_ago=2)

    outcome = dream(repo, FailingEngine())

    assert outcome.status == DreamStatus.FAILED
    assert "the engine broke half way" in outcome.reason
    assert "RuntimeError" in (outcome.error or "")
    assert dream_branches(repo) == {}
    assert list(default_worktrees_dir(repo.path).iterdir()) == []
    assert lock_file(repo).stat().st_mtime_ns == prior


def test_it_removes_the_lock_file_on_failure_when_there_was_none(repo):
    dream(repo, FailingEngine())

    assert not lock_file(repo).exists()


def test_it_stops_between_steps_when_cancelled_and_rolls_back(repo):
    prior = stamp_lock(repo, days_ago=2)
    snapshots: list[dict] = []

    outcome = run_dream(
        DreamRequest(repo_path=repo.path, engine=SlowEngine()),
        on_progress=snapshots.append,
        cancelled=lambda: bool(snapshots) and snapshots[-1]["phase"] == "updating",
    )

    assert outcome.status == DreamStatus.CANCELLED
    assert outcome.error == "cancelled by the user"
    assert dream_branches(repo) == {}
    assert lock_file(repo).stat().st_mtime_ns == prior


def test_it_reports_progress_from_starting_to_updating(repo):
    snapshots: list[dict] = []

    run_dream(
        DreamRequest(repo_path=repo.path, engine=NoteEngine(), sessions=("a", "b", "c")),
        on_progress=snapshots.append,
    )

    phases = [s["phase"] for s in snapshots]
    assert phases[0] == "starting"
    assert phases[-1] == "updating"
    assert snapshots[-1]["files_touched"] == [NOTE_FILE, "MEMORY.md"]
    assert snapshots[-1]["sessions_reviewed"] == 3
    assert snapshots[-1]["turns"] == 1
    assert "orient" in [s["step"] for s in snapshots]


def test_it_returns_locked_at_once_when_a_live_process_holds_the_file_lock(repo):
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        lock_file(repo).write_text(str(holder.pid))
        stamp = lock_file(repo).stat().st_mtime_ns
        started = time.monotonic()

        outcome = dream(repo, NoteEngine())

        assert time.monotonic() - started < 5
    finally:
        holder.kill()
        holder.wait()
    assert outcome.status == DreamStatus.LOCKED
    assert f"PID {holder.pid}" in outcome.reason
    assert lock_file(repo).read_text() == str(holder.pid)
    assert lock_file(repo).stat().st_mtime_ns == stamp
    assert dream_branches(repo) == {}


def test_it_returns_locked_when_another_process_holds_the_redis_lock(repo, client):
    key = redis_lock_key(f"test-{uuid.uuid4().hex[:8]}")
    client.set(key, "elsewhere:4242:abcd", px=30_000)

    outcome = dream(repo, NoteEngine(), redis=client, redis_key=key)

    assert outcome.status == DreamStatus.LOCKED
    assert "elsewhere:4242" in outcome.reason
    assert not lock_file(repo).exists()  # the file lock was never taken
    assert client.get(key) == b"elsewhere:4242:abcd"


def test_it_holds_the_redis_lock_only_while_dreaming(repo, client):
    key = redis_lock_key(f"test-{uuid.uuid4().hex[:8]}")
    seen: list[bytes | None] = []

    run_dream(
        DreamRequest(repo_path=repo.path, engine=NoteEngine(), redis=client, redis_key=key),
        on_progress=lambda snapshot: seen.append(client.get(key)),
    )

    assert seen and all(value is not None for value in seen)
    assert client.get(key) is None


def test_it_stops_when_the_redis_lock_is_lost_mid_dream(repo, client):
    key = redis_lock_key(f"test-{uuid.uuid4().hex[:8]}")
    prior = stamp_lock(repo, days_ago=2)

    def steal() -> None:
        time.sleep(0.5)
        client.set(key, "thief:1:x")

    thief = threading.Thread(target=steal)
    thief.start()
    outcome = dream(repo, SlowEngine(), redis=client, redis_key=key, redis_ttl_seconds=0.3)
    thief.join()

    assert outcome.status == DreamStatus.FAILED
    assert "Redis lock expired" in outcome.reason
    assert dream_branches(repo) == {}
    assert lock_file(repo).stat().st_mtime_ns == prior
    assert client.get(key) == b"thief:1:x"


def test_it_skips_when_another_consolidation_finished_after_the_gates_were_read(repo):
    gate_read = stamp_lock(repo, days_ago=2)
    # Another process passes the same gates and dreams first:
    assert dream(repo, IdleEngine(), gate_mtime_ns=gate_read).status == DreamStatus.NO_CHANGES
    other_stamp = lock_file(repo).stat().st_mtime_ns

    outcome = dream(repo, NoteEngine(), gate_mtime_ns=gate_read)

    assert outcome.status == DreamStatus.SKIPPED
    assert outcome.gate == "time"
    assert "another consolidation finished" in outcome.reason
    assert lock_file(repo).stat().st_mtime_ns == other_stamp  # rolled back to theirs
    assert dream_branches(repo) == {}


def test_it_bypasses_the_mtime_check_for_a_manual_dream(repo):
    dream(repo, IdleEngine())

    assert dream(repo, NoteEngine()).status == DreamStatus.PROPOSED


def test_it_first_commits_changes_made_outside_memsync_on_a_developer_machine(repo):
    (repo.path / "feedback_bun.md").write_text(
        "---\nname: bun\ntype: feedback\n---\nUse bun 1.2.\n"
    )
    (repo.path / "new_by_hand.md").write_text("---\nname: by hand\n---\nWritten in an editor.\n")

    outcome = dream(repo, NoteEngine(), record_outside_changes=True)

    head = repo.commit_info(MAIN)
    assert head.kind == "manual"
    assert head.summary == "record changes made outside memsync"
    assert outcome.base == head.sha
    assert repo.read(outcome.commit, "new_by_hand.md") is not None


def test_it_gives_the_engine_its_worktree_sessions_and_file_ages(repo, tmp_path):
    engine = ScriptedEngine({"feedback_bun.md": b"---\nname: bun\n---\nUse bun.\n"})
    transcripts = tmp_path / "transcripts"

    outcome = dream(
        repo,
        engine,
        sessions=("abc",),
        transcripts_dir=transcripts,
        worktrees_dir=tmp_path / "worktrees",
    )

    assert outcome.status == DreamStatus.PROPOSED
    seen = engine.seen
    assert seen is not None
    assert seen.workdir == tmp_path / "worktrees" / f"dream-{outcome.dream_id}"
    assert seen.sessions == ("abc",) and seen.transcripts_dir == transcripts
    assert set(seen.last_changed) >= {"MEMORY.md", "user_role.md", "feedback_bun.md"}
    assert not seen.workdir.exists()


def test_it_sweeps_what_a_killed_dream_left_behind(repo):
    worktrees = default_worktrees_dir(repo.path)
    worktrees.mkdir(parents=True)
    repo.add_worktree(worktrees / "dream-20200101-0000-dead", "dream/20200101-0000-dead")

    outcome = dream(repo, NoteEngine())

    assert dream_branches(repo) == {outcome.branch: outcome.commit}
    assert sorted(p.name for p in worktrees.iterdir()) == []


def test_it_fails_cleanly_on_a_directory_that_is_not_a_repository(tmp_path):
    outcome = run_dream(DreamRequest(repo_path=tmp_path, engine=NoteEngine()))

    assert outcome.status == DreamStatus.FAILED
    assert "not a memsync repository" in outcome.reason


def test_it_proposes_what_the_deterministic_engine_fixed_in_a_planted_corpus(tmp_path):
    from memsync.dream.deterministic import DeterministicEngine
    from tests.dream.corpus import build_corpus, commit_corpus

    corpus = build_corpus(tmp_path / "memory", memories=60)
    commit_corpus(corpus)
    repo = MemoryRepo.init(corpus.root)
    main_before = repo.rev_parse(MAIN)

    outcome = dream(repo, DeterministicEngine(), now=corpus.now)

    assert outcome.status == DreamStatus.PROPOSED, outcome.reason
    commit = repo.commit_info(outcome.commit)
    assert commit.trailer("Memsync-Engine") == "deterministic"
    assert commit.trailer("Memsync-Model") == "none"
    changed = {stat.path for stat in commit.files}
    assert "MEMORY.md" in changed
    assert set(corpus.relative_dates) <= changed  # planted relative dates were fixed
    assert outcome.after.memories <= outcome.before.memories
    assert repo.rev_parse(MAIN) == main_before


def test_a_proposal_says_how_many_facts_recall_still_finds(repo):
    outcome = dream(repo, NoteEngine())

    commit = repo.commit_info(outcome.commit)
    assert commit.trailer("Memsync-Canaries") == "1 of 1 facts still found"  # "Backend"
    assert not commit.trailer_values("Memsync-Canary-Lost")
    assert outcome.to_dict()["canaries"]["at_risk"] is False
    (proposal,) = list_proposals(repo)
    assert not proposal.at_risk


def test_a_dream_that_loses_a_fact_is_at_risk_and_names_it(repo):
    (repo.path / "project_db.md").write_text(
        "---\nname: db\ndescription: Orders database is PostgreSQL 16 on RDS\n"
        "type: project\n---\nOrders database is PostgreSQL 16 on RDS.\n"
    )
    repo.commit(CommitKind.MANUAL, "add the database memory")

    outcome = dream(repo, ScriptedEngine({"project_db.md": None}))

    commit = repo.commit_info(outcome.commit)
    lost = commit.trailer_values("Memsync-Canary-Lost")
    assert "16 (project_db.md)" in lost and "postgresql (project_db.md)" in lost
    assert commit.trailer("Memsync-Canaries").endswith("facts still found")
    assert commit.body.strip().startswith("At risk: ")
    (proposal,) = list_proposals(repo)
    assert proposal.at_risk
    listed = proposal.to_dict()
    assert listed["at_risk"] is True
    assert {"fact": "rds", "memory": "project_db.md"} in listed["canaries"]["lost"]
    assert "are no longer found: " in listed["canaries"]["summary"]
