"""Nothing private leaves the machine (issue 11, item 7), end to end: the real Claude
Code with memsync's hooks, a private memory the recall hook injects and the model
reads, and the real memsync server (gunicorn) the session's transcript is uploaded to.

Before: the private memory's text was found in the server's stored transcript."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from dashboard.models import Project, SessionRecord
from memsync.extract.privacy import RECALL_REMOVED
from tests.claude_code.harness import ClaudeCode
from tests.support.messages_server import text, tool_use
from tests.sync.conftest import Team, git_server, team  # noqa: F401  (fixtures)

pytestmark = pytest.mark.slow

MEMSYNC = [sys.executable, "-m", "memsync.client.cli"]
MARKER = "PRIVATE_MARKER_5b2e"
INDEX_MARKER = "PRIVATE_INDEX_MARKER_9d0c"


def memsync(claude_code: ClaudeCode, *args: str, cwd: Path, **env: str) -> str:
    done = subprocess.run(
        [*MEMSYNC, *args], cwd=cwd, env={**claude_code.env, **env}, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_private_memory_never_reaches_the_servers_stored_transcript(
    claude_code: ClaudeCode,
    team: Team,  # noqa: F811
    git_server,  # noqa: F811
):
    Project.objects.filter(pk=team.project.pk).update(allow_transcripts=True)
    (claude_code.home / ".gitconfig").write_text(
        "[user]\n\tname = bob\n\temail = bob@example.com\n"
    )
    project = claude_code.project("shop")
    memsync(claude_code, "login", git_server.url, "--user", "bob", cwd=project,
            MEMSYNC_TOKEN=team.tokens["bob"])  # fmt: skip
    memsync(claude_code, "link", team.slug, cwd=project)
    memory = claude_code.memory_dir(project)
    note = memory / "staging_rotation.md"
    note.write_text(
        "---\nname: staging rotation\ndescription: when the staging secrets rotate\n"
        f"type: project\n---\n\nThe staging secrets rotate every Monday morning ({MARKER}).\n"
    )
    (memory / "MEMORY.md").write_text(
        f"- [Staging rotation](staging_rotation.md) — when staging secrets rotate {INDEX_MARKER}\n"
    )
    memsync(claude_code, "hooks", "install", "--recall", cwd=project)

    run = claude_code.run(
        "when do the staging secrets rotate?",
        cwd=project,
        steps=[[tool_use("Read", {"file_path": str(note)})], [text("Every Monday.")]],
    )

    local = run.transcript().read_text()
    assert MARKER in local and INDEX_MARKER in local  # Claude Code did write them down
    assert "<memsync-recall>" in local  # and the recall hook did inject the memory
    records = SessionRecord.objects.filter(project=team.project, session_id=run.session_id)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not records.exclude(transcript="").exists():
        time.sleep(0.5)
    record = records.exclude(transcript="").first()
    log = memory / "team" / ".git" / "memsync" / "hooks.log"
    assert record is not None, log.read_text() if log.exists() else "no hooks log"
    stored = (team.project.base_dir / record.transcript).read_text()
    assert MARKER not in stored and INDEX_MARKER not in stored
    assert "<memsync-recall>" not in stored and RECALL_REMOVED in stored
    assert "when do the staging secrets rotate?" in stored  # the conversation itself went
