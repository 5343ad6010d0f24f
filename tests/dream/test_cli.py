"""``memsync dream`` and the proposal commands, run as a real process on a Claude Code
style layout (``projects/<p>/<uuid>.jsonl`` next to ``projects/<p>/memory/``)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis

from memsync.dream.locks import redis_lock_key
from memsync.dream.run import local_lock_name
from memsync.store import MAIN, MemoryRepo

ROOT = Path(__file__).resolve().parents[2]
NOTE = "tests.dream.engines:NoteEngine"
SHAPE = {"status", "gate", "reason", "branch", "commit", "files_touched", "summary"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    directory = tmp_path / "projects" / "-home-alice-app"
    memory = directory / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [Role](user_role.md) — who I am\n")
    (memory / "user_role.md").write_text("---\nname: role\ntype: user\n---\nBackend dev.\n")
    MemoryRepo.init(memory)
    return directory


@pytest.fixture
def memory(project: Path) -> Path:
    return project / "memory"


def memsync(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    environment.pop("ANTHROPIC_API_KEY", None)
    return subprocess.run(
        [sys.executable, "-m", "memsync.client.cli", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def dream_json(*args: str, env: dict[str, str] | None = None) -> tuple[dict, int]:
    process = memsync("dream", *args, "--json", env=env)
    assert process.stdout, process.stderr
    return json.loads(process.stdout), process.returncode


def sessions(project: Path, count: int) -> list[str]:
    ids = [str(uuid.uuid4()) for _ in range(count)]
    for session in ids:
        (project / f"{session}.jsonl").write_text('{"type":"user"}\n')
    return ids


def test_it_reports_the_closed_gate_as_json(memory):
    result, code = dream_json(str(memory))

    assert code == 0
    assert set(result) >= SHAPE
    assert result["status"] == "skipped"
    assert result["gate"] == "sessions"
    assert "0 sessions since the last consolidation, 5 needed" in result["reason"]
    assert result["branch"] is None and result["files_touched"] == []


def test_it_reports_the_time_gate_after_a_recent_consolidation(memory, project):
    sessions(project, 6)
    (memory / ".consolidate-lock").write_text("")
    when = time.time() - 3600
    os.utime(memory / ".consolidate-lock", (when, when))

    result, _ = dream_json(str(memory))

    assert (result["status"], result["gate"]) == ("skipped", "time")


def test_it_proposes_when_enough_sessions_have_passed(memory, project):
    found = sessions(project, 5)

    result, code = dream_json(str(memory), "--engine", NOTE)

    assert code == 0
    assert result["status"] == "proposed"
    assert result["gate"] is None
    assert result["branch"] == f"dream/{result['dream_id']}"
    assert sorted(result["files_touched"]) == ["MEMORY.md", "dream_note.md"]
    assert result["summary"] == "Improved 1 memory: dream_note.md"
    repo = MemoryRepo(memory)
    assert repo.rev_parse(result["branch"]) == result["commit"]
    note = repo.read(result["commit"], "dream_note.md").decode()
    assert all(session in note for session in found)
    assert not (memory / "dream_note.md").exists()


def test_it_does_not_count_the_current_session(memory, project):
    found = sessions(project, 5)

    result, _ = dream_json(str(memory), "--engine", NOTE, "--current-session", found[0])

    assert (result["status"], result["gate"]) == ("skipped", "sessions")


def test_it_reads_sessions_from_the_directory_given(tmp_path, memory):
    elsewhere = tmp_path / "transcripts"
    elsewhere.mkdir()
    sessions(elsewhere, 5)

    result, _ = dream_json(str(memory), "--engine", NOTE, "--sessions-dir", str(elsewhere))

    assert result["status"] == "proposed"


def test_it_dreams_on_demand_with_force_and_says_when_nothing_changed(memory):
    result, code = dream_json(str(memory), "--force", "--engine", "tests.dream.engines:IdleEngine")

    assert code == 0
    assert result["status"] == "no-changes"
    assert result["branch"] is None
    assert (memory / ".consolidate-lock").exists()  # the time is recorded


def test_it_reports_locked_when_another_process_is_dreaming(memory):
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (memory / ".consolidate-lock").write_text(str(holder.pid))

        result, code = dream_json(str(memory), "--force", "--engine", NOTE)
    finally:
        holder.kill()
        holder.wait()

    assert code == 0
    assert result["status"] == "locked"
    assert f"PID {holder.pid}" in result["reason"]


def test_it_takes_the_redis_lock_when_redis_url_is_set(memory):
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    key = redis_lock_key(local_lock_name(memory))
    client.set(key, "server:77:abc", px=30_000)
    try:
        result, _ = dream_json(str(memory), "--force", "--engine", NOTE)
        without_redis, _ = dream_json(
            str(memory), "--force", "--engine", NOTE, env={"REDIS_URL": ""}
        )
    finally:
        client.delete(key)
        client.close()

    assert result["status"] == "locked"
    assert "server:77" in result["reason"]
    assert without_redis["status"] == "proposed"


def test_it_exits_1_with_the_error_when_the_dream_fails(memory):
    result, code = dream_json(
        str(memory), "--force", "--engine", "tests.dream.engines:FailingEngine"
    )

    assert code == 1
    assert result["status"] == "failed"
    assert "the engine broke half way" in result["reason"]
    assert MemoryRepo(memory).branches("dream/") == {}


def test_it_uses_the_deterministic_engine_without_an_api_key(memory):
    result, _ = dream_json(str(memory), "--force")

    if importlib.util.find_spec("memsync.dream.engine_choice") is None:
        assert result["status"] == "failed"
        assert "'deterministic' dream engine is not installed" in result["reason"]
    else:
        assert result["engine"] == "deterministic"
        assert result["status"] in {"proposed", "no-changes"}


def test_it_records_edits_made_in_an_editor_before_dreaming(memory):
    (memory / "user_role.md").write_text("---\nname: role\ntype: user\n---\nStaff engineer.\n")

    result, _ = dream_json(str(memory), "--force", "--engine", NOTE)

    repo = MemoryRepo(memory)
    assert repo.commit_info(MAIN).summary == "record changes made outside memsync"
    assert b"Staff engineer." in repo.read(result["commit"], "user_role.md")


def test_it_lists_approves_rejects_and_reverts_proposals(memory):
    first, _ = dream_json(str(memory), "--force", "--engine", NOTE)
    second, _ = dream_json(
        str(memory), "--force", "--engine", "tests.dream.engines:SlowEngine",
        env={"MEMSYNC_TEST_ENGINE_SECONDS": "0"},
    )  # fmt: skip

    listed = json.loads(memsync("proposals", str(memory), "--json").stdout)
    assert [(p["id"], p["status"]) for p in listed] == sorted(
        [(first["dream_id"], "open"), (second["dream_id"], "open")], reverse=True
    )
    assert first["dream_id"] in memsync("proposals", str(memory)).stdout

    approved = memsync("approve", str(memory), first["dream_id"], "--by", "alice")
    assert approved.returncode == 0, approved.stderr
    assert "Adopted dream" in approved.stdout
    assert (memory / "dream_note.md").exists()

    rejected = memsync("reject", str(memory), second["dream_id"], "--by", "bob")
    assert rejected.returncode == 0, rejected.stderr
    assert f"refs/memsync/rejected/{second['dream_id']}" in rejected.stdout

    reverted = memsync("revert", str(memory), first["dream_id"])
    assert reverted.returncode == 0, reverted.stderr
    assert not (memory / "dream_note.md").exists()

    statuses = {
        p["id"]: (p["status"], p["approved_by"], p["rejected_by"])
        for p in json.loads(memsync("proposals", str(memory), "--json").stdout)
    }
    assert statuses == {
        first["dream_id"]: ("reverted", "alice", None),
        second["dream_id"]: ("rejected", None, "bob"),
    }


def test_it_refuses_to_approve_an_unknown_proposal_with_a_message(memory):
    process = memsync("approve", str(memory), "20991231-2359-beef")

    assert process.returncode == 2
    assert "no open proposal '20991231-2359-beef'" in process.stderr


def test_it_reports_an_unreachable_redis_instead_of_crashing(memory, project):
    sessions(project, 5)
    unreachable = {"REDIS_URL": "redis://127.0.0.1:1/0"}

    gated, gated_code = dream_json(str(memory), "--engine", NOTE, env=unreachable)
    forced, forced_code = dream_json(str(memory), "--force", "--engine", NOTE, env=unreachable)

    assert (gated["status"], gated["gate"], gated_code) == ("skipped", "locks", 0)
    assert "cannot reach Redis" in gated["reason"]
    assert (forced["status"], forced_code) == ("failed", 1)
    assert "cannot take the Redis lock" in forced["reason"]
    assert not (memory / ".consolidate-lock").exists()
