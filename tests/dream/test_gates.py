"""The gate chain (SPEC D1): order, every early exit, and what each gate may touch."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from memsync.dream.gates import Gate, GateConfig, evaluate_gates
from memsync.dream.locks import ConsolidationLock
from memsync.dream.sessions import ScanStateFile
from memsync.extract.sessions import TranscriptDirectory, default_transcripts_dir

HOUR = 3600


class CountingSessions:
    """A session source that remembers being asked (to show a gate did not ask it)."""

    def __init__(self, sessions: list[str]) -> None:
        self.sessions = sessions
        self.calls: list[datetime | None] = []

    def sessions_touched_since(self, since: datetime | None) -> list[str]:
        self.calls.append(since)
        return list(self.sessions)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """``~/.claude/projects/<p>/`` with its ``memory/`` directory."""
    memory = tmp_path / "projects" / "-home-alice-app" / "memory"
    (memory / ".git").mkdir(parents=True)
    return memory.parent


@pytest.fixture
def memory(project: Path) -> Path:
    return project / "memory"


def session_file(directory: Path, age_seconds: float, name: str | None = None) -> str:
    session = name or str(uuid.uuid4())
    path = directory / (session if session.endswith(".jsonl") else f"{session}.jsonl")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"type":"user"}\n')
    when = time.time() - age_seconds
    os.utime(path, (when, when))
    return session


def consolidated(memory: Path, hours_ago: float) -> None:
    lock = memory / ".consolidate-lock"
    lock.write_text("")
    when = time.time() - hours_ago * HOUR
    os.utime(lock, (when, when))


def run_gates(memory: Path, project: Path, **overrides):
    options = {
        "throttle": ScanStateFile.for_repository(memory),
        "sessions": TranscriptDirectory(project),
        **overrides,
    }
    config = options.pop("config", GateConfig())
    return evaluate_gates(config, memory / ".consolidate-lock", **options)


def test_it_stops_at_the_enabled_gate_before_looking_at_anything(memory, project):
    sessions = CountingSessions([])

    decision = run_gates(memory, project, config=GateConfig(enabled=False), sessions=sessions)

    assert (decision.passed, decision.gate) == (False, Gate.ENABLED)
    assert "disabled" in decision.reason
    assert sessions.calls == []


def test_it_closes_the_time_gate_with_one_stat_and_nothing_else(memory, project):
    consolidated(memory, hours_ago=3)
    for _ in range(6):
        session_file(project, age_seconds=60)
    sessions = CountingSessions(["a"] * 10)

    decision = run_gates(memory, project, sessions=sessions, lock_probes=[pytest.fail])

    assert (decision.passed, decision.gate) == (False, Gate.TIME)
    assert "3.0 h ago, 24 h needed" in decision.reason
    assert sessions.calls == []  # no directory scan, no database query
    assert not (memory / ".git" / "memsync" / "last-session-scan").exists()  # no throttle


def test_it_passes_the_time_gate_when_nothing_was_ever_consolidated(memory, project):
    decision = run_gates(memory, project)

    assert decision.gate == Gate.SESSIONS
    assert decision.last_consolidated_ns == 0


def test_it_throttles_session_scans_to_one_per_ten_minutes(memory, project):
    consolidated(memory, hours_ago=30)
    sessions = CountingSessions(["one"])

    first = run_gates(memory, project, sessions=sessions)
    second = run_gates(memory, project, sessions=sessions)

    assert first.gate == Gate.SESSIONS
    assert second.gate == Gate.SCAN_THROTTLE
    assert "less than 10 minutes ago" in second.reason
    assert len(sessions.calls) == 1


def test_it_scans_again_once_the_throttle_interval_has_passed(memory, project):
    consolidated(memory, hours_ago=30)
    sessions = CountingSessions(["one"])
    run_gates(memory, project, sessions=sessions)

    later = time.time() + 11 * 60
    decision = run_gates(memory, project, sessions=sessions, now=later)

    assert decision.gate == Gate.SESSIONS
    assert len(sessions.calls) == 2


def test_it_counts_only_sessions_touched_since_the_last_consolidation(memory, project):
    consolidated(memory, hours_ago=30)
    for _ in range(3):
        session_file(project, age_seconds=40 * HOUR)  # before the last consolidation
    recent = [session_file(project, age_seconds=HOUR) for _ in range(4)]

    decision = run_gates(memory, project)

    assert decision.gate == Gate.SESSIONS
    assert sorted(decision.sessions) == sorted(recent)
    assert "4 sessions since the last consolidation, 5 needed" in decision.reason


def test_it_ignores_agent_transcripts_subdirectories_and_other_files(memory, project):
    for _ in range(4):
        session_file(project, age_seconds=60)
    session_file(project, 60, name="agent-1a2b3c4d.jsonl")
    session_file(project / "subdir", 60)  # not directly in the directory
    session_file(project, 60, name="notes.jsonl")
    (project / f"{uuid.uuid4()}.json").write_text("{}")

    decision = run_gates(memory, project)

    assert decision.gate == Gate.SESSIONS
    assert len(decision.sessions) == 4


def test_it_excludes_the_current_session(memory, project):
    sessions = [session_file(project, age_seconds=60) for _ in range(5)]

    excluded = run_gates(memory, project, current_session=sessions[0])
    assert excluded.gate == Gate.SESSIONS
    assert sessions[0] not in excluded.sessions

    (memory / ".git" / "memsync" / "last-session-scan").unlink()
    counted = run_gates(memory, project)
    assert counted.passed


def holder_of(lock: ConsolidationLock) -> str | None:
    holder = lock.holder()
    return str(holder) if holder else None


def test_it_stops_at_the_locks_gate_when_a_live_process_holds_the_file_lock(memory, project):
    for _ in range(5):
        session_file(project, age_seconds=60)
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        lock = memory / ".consolidate-lock"
        lock.write_text(str(holder.pid))  # a dream that started two minutes ago
        when = time.time() - 120
        os.utime(lock, (when, when))
        decision = run_gates(
            memory,
            project,
            config=GateConfig(min_hours=0),
            lock_probes=[lambda: holder_of(ConsolidationLock(lock))],
        )
    finally:
        holder.kill()
        holder.wait()

    assert (decision.passed, decision.gate) == (False, Gate.LOCKS)
    assert f"PID {holder.pid}" in decision.reason


def test_it_passes_every_gate_and_hands_over_what_the_time_gate_read(memory, project):
    consolidated(memory, hours_ago=25)
    sessions = [session_file(project, age_seconds=60) for _ in range(5)]

    decision = run_gates(memory, project, lock_probes=[lambda: None])

    assert decision.passed and decision.gate is None
    assert sorted(decision.sessions) == sorted(sessions)
    assert decision.last_consolidated_ns == (memory / ".consolidate-lock").stat().st_mtime_ns
    assert decision.to_dict()["gate"] is None


def test_it_respects_per_project_thresholds(memory, project):
    consolidated(memory, hours_ago=2)
    session_file(project, age_seconds=60)

    decision = run_gates(memory, project, config=GateConfig(min_hours=1, min_sessions=1))

    assert decision.passed


def test_it_finds_the_transcripts_next_to_a_claude_code_memory_directory(memory, project):
    assert default_transcripts_dir(memory) == project.resolve()
    assert default_transcripts_dir(project) is None


def test_it_keeps_the_throttle_state_under_git_where_claude_code_never_looks(memory):
    state = ScanStateFile.for_repository(memory)
    now = datetime.now().astimezone()

    assert state.claim_scan(now, timedelta(minutes=10)) is True
    assert state.claim_scan(now + timedelta(minutes=3), timedelta(minutes=10)) is False
    assert state.path.is_relative_to(memory / ".git")
