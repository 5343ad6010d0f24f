"""``memsync extract`` as a developer runs it: a real process, a real repository, the
cursor kept under ``.git/``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.extract.sessions import SessionLog, memory_repo
from tests.support.messages_server import text, tool_use

MEMSYNC = [sys.executable, "-m", "memsync.client.cli"]
REPOSITORY = Path(__file__).resolve().parents[2]


def memsync(*args: str | Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("ANTHROPIC_", "MEMSYNC_MODEL"))
    }
    return subprocess.run(
        [*MEMSYNC, *map(str, args)],
        capture_output=True,
        text=True,
        cwd=REPOSITORY,
        env={**environment, **env},
        timeout=120,
    )


def test_it_extracts_a_transcript_with_the_deterministic_engine_without_a_key(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    log = SessionLog().turn("Remember that the mobile team owns the release calendar.")
    path = log.write(tmp_path / "sessions")

    done = memsync("extract", repo.path, "--transcript", path, "--json")

    assert done.returncode == 0, done.stderr
    [result] = json.loads(done.stdout)["results"]
    assert result["status"] == "saved" and result["engine"] == "deterministic"
    assert result["summary"] == "saved 1 memory" and result["cursor"] == 2
    assert repo.commit_info("HEAD").sha == result["commit"]
    state = json.loads((repo.path / ".git" / "memsync-extract.json").read_text())
    assert state["sessions"][log.session_id]["cursor"] == 2


def test_the_next_run_starts_where_the_last_one_stopped(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    log = SessionLog().turn("Remember that the mobile team owns the release calendar.")
    path = log.write(tmp_path / "sessions")
    memsync("extract", repo.path, "--transcript", path)
    log.turn("From now on, run the linter before every commit.")
    log.write(tmp_path / "sessions")

    done = memsync("extract", repo.path, "--transcript", path)

    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith(f"{log.session_id}: saved 1 memory (commit ")
    assert "  saved run-linter-before-commit.md" in done.stdout
    assert len([c for c in repo.log() if c.kind == "extract"]) == 2


def test_sessions_dir_processes_only_sessions_touched_since_the_last_run(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    sessions = tmp_path / "projects" / "-home-dev-acme"
    first = SessionLog(session_id="11111111-aaaa").turn("Remember that staging resets nightly.")
    second = SessionLog(session_id="22222222-bbbb").turn("What time is it?", "Noon.")
    first.write(sessions)
    second.write(sessions)
    SessionLog(session_id="agent-1").turn("Remember that agents never count.").write(
        sessions, "agent-1.jsonl"
    )

    initial = memsync("extract", repo.path, "--sessions-dir", sessions, "--json")
    idle = memsync("extract", repo.path, "--sessions-dir", sessions)
    second.turn("Remember that the mobile team owns the release calendar.")
    second.write(sessions)
    later = memsync("extract", repo.path, "--sessions-dir", sessions, "--json")

    assert initial.returncode == idle.returncode == later.returncode == 0
    statuses = {r["session"]: r["status"] for r in json.loads(initial.stdout)["results"]}
    assert statuses == {"11111111-aaaa": "saved", "22222222-bbbb": "no-changes"}
    assert idle.stdout.strip() == "no session touched since the last extraction"
    [result] = json.loads(later.stdout)["results"]
    assert result["session"] == "22222222-bbbb" and result["messages"] == [2, 3]


def test_the_anthropic_engine_without_a_key_is_refused_clearly(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    path = SessionLog().turn("hi").write(tmp_path / "sessions")

    done = memsync("extract", repo.path, "--transcript", path, "--engine", "anthropic")

    assert done.returncode == 2
    assert "--engine anthropic needs ANTHROPIC_API_KEY" in done.stderr


def test_a_directory_that_is_not_a_repository_is_refused(tmp_path):
    path = SessionLog().turn("hi").write(tmp_path / "sessions")
    (tmp_path / "plain").mkdir()

    done = memsync("extract", tmp_path / "plain", "--transcript", path)

    assert done.returncode == 2 and "memsync init" in done.stderr


def test_with_a_key_the_model_extracts(tmp_path, messages_server):
    repo = memory_repo(tmp_path / "memory")
    content = "---\nname: Staging\ndescription: Staging resets nightly\ntype: project\n---\n\nx\n"
    messages_server.add(
        [tool_use("write", {"path": "project_staging.md", "content": content})], [text("Saved.")]
    )
    path = SessionLog().turn("Staging resets every night, keep that in mind.").write(tmp_path / "s")

    done = memsync(
        "extract",
        repo.path,
        "--transcript",
        path,
        "--json",
        ANTHROPIC_API_KEY="test",
        ANTHROPIC_BASE_URL=messages_server.base_url,
        MEMSYNC_MODEL="claude-from-env",
    )

    assert done.returncode == 0, done.stderr
    [result] = json.loads(done.stdout)["results"]
    assert (result["engine"], result["model"]) == ("anthropic", "claude-from-env")
    assert result["saved"] == ["project_staging.md"]
    assert messages_server.requests[0]["model"] == "claude-from-env"


# Run as the console script runs it, then list what the process imported (issue 14:
# an extraction is a process per turn, and each of these cost it milliseconds).
_IMPORTS_AFTER_EXTRACT = """
import sys
from memsync.client.cli import main
status = main(sys.argv[1:])
print("MODULES", " ".join(sorted(sys.modules)))
sys.exit(status)
"""
NOT_ON_THE_EXTRACT_PATH = (
    "yaml",  # new memories' fields are plain text: written and read without PyYAML
    "logging",
    "tempfile",
    "shutil",  # argparse's help formatter asks it for the terminal's width
    "hashlib",  # loads OpenSSL; the recall index's digest is blake2b, built in
    "secrets",
    "memsync.store.diff",
    "memsync.store.ages",
    "memsync.secrets",  # the server screens pushes; a developer's extraction does not
    "django",
    "celery",
    "anthropic",
)


def test_an_extraction_that_saves_a_memory_loads_none_of_the_heavy_modules(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    path = (
        SessionLog()
        .turn("Remember that the mobile team owns the release calendar.")
        .write(tmp_path / "sessions")
    )

    done = subprocess.run(
        [sys.executable, "-c", _IMPORTS_AFTER_EXTRACT, "extract", str(repo.path),
         "--transcript", str(path), "--engine", "deterministic"],
        capture_output=True, text=True, cwd=REPOSITORY, timeout=120,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert "saved 1 memory" in done.stdout
    assert repo.commit_info("HEAD").kind == "extract"
    modules = set(done.stdout.split("MODULES ", 1)[1].split())
    loaded = {name for name in modules if name.split(".")[0] in NOT_ON_THE_EXTRACT_PATH}
    loaded |= {name for name in modules if name in NOT_ON_THE_EXTRACT_PATH}
    assert loaded == set()
