"""``memsync recall`` in a real process: the command line, and Claude Code's
UserPromptSubmit hook mode (JSON in on stdin, the hook's JSON out)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from memsync.client.commands.recall import hook_command
from memsync.memory import sanitize_path
from tests.support.messages_server import text

MEMSYNC = [sys.executable, "-m", "memsync.client.cli"]
REPOSITORY = Path(__file__).resolve().parents[2]


def topic(name: str, description: str, kind: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n---\n\n{description}.\n"


def memsync(
    *args: str | Path, stdin: str = "", home: Path | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("ANTHROPIC_", "MEMSYNC_MODEL", "CLAUDE_", "XDG_"))
    }
    if home is not None:
        environment |= {"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    return subprocess.run(
        [*MEMSYNC, *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPOSITORY,
        env={**environment, **env},
        timeout=120,
    )


def project_memory(home: Path, project: Path) -> Path:
    """A project and its Claude Code memory directory with a personal and a team memory."""
    project.mkdir(parents=True)
    memory = home / ".claude" / "projects" / sanitize_path(str(project.resolve())) / "memory"
    (memory / "team").mkdir(parents=True)
    (memory / "feedback_real_db.md").write_text(
        topic("Real database", "Integration tests hit a real Postgres database", "feedback")
    )
    (memory / "project_freeze.md").write_text(
        topic("Freeze", "Merge freeze for the mobile release starts 2025-10-02", "project")
    )
    (memory / "team" / "reference_ingest.md").write_text(
        topic("INGEST", "Pipeline bugs are tracked in the Linear project INGEST", "reference")
    )
    return memory


def context_of(done: subprocess.CompletedProcess[str]) -> str:
    return str(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])


def hook_event(project: Path, prompt: str, session: str = "sess-1") -> str:
    return json.dumps(
        {
            "session_id": session,
            "transcript_path": f"/tmp/{session}.jsonl",
            "cwd": str(project),
            "hook_event_name": "UserPromptSubmit",
            "prompt": prompt,
        }
    )


def test_the_hook_prints_claude_codes_additional_context(tmp_path):
    home = tmp_path / "home"
    project = tmp_path / "work" / "acme"
    memory = project_memory(home, project)

    done = memsync(
        "recall", "--hook", stdin=hook_event(project, "why do the pipeline tests need postgres?"),
        home=home,
    )  # fmt: skip

    assert done.returncode == 0 and done.stderr == ""
    output = json.loads(done.stdout)
    assert list(output) == ["hookSpecificOutput"]
    assert list(output["hookSpecificOutput"]) == ["hookEventName", "additionalContext"]
    assert output["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    context = output["hookSpecificOutput"]["additionalContext"]
    real_db = memory.resolve() / "feedback_real_db.md"
    assert f"Memory: {real_db}:" in context
    assert f"Memory: {memory.resolve() / 'team' / 'reference_ingest.md'}:" in context
    assert "project_freeze.md" not in context


def test_the_hook_does_not_repeat_memories_within_a_session(tmp_path):
    home = tmp_path / "home"
    project = tmp_path / "work" / "acme"
    project_memory(home, project)
    prompt = "postgres integration tests"

    first = memsync("recall", "--hook", stdin=hook_event(project, prompt), home=home)
    again = memsync("recall", "--hook", stdin=hook_event(project, prompt), home=home)
    other = memsync("recall", "--hook", stdin=hook_event(project, prompt, "sess-2"), home=home)

    assert "feedback_real_db.md" in first.stdout
    assert again.returncode == 0 and again.stdout == ""
    assert "feedback_real_db.md" in other.stdout


def test_the_hook_never_fails_a_session(tmp_path):
    home = tmp_path / "home"
    project = tmp_path / "work" / "acme"
    project.mkdir(parents=True)

    broken = memsync("recall", "--hook", stdin="{not json", home=home)
    no_memory = memsync("recall", "--hook", stdin=hook_event(project, "anything"), home=home)
    no_prompt = memsync("recall", "--hook", stdin=json.dumps({"cwd": str(project)}), home=home)

    assert (broken.returncode, broken.stdout) == (0, "")
    assert broken.stderr.startswith("memsync recall: JSONDecodeError")
    assert (no_memory.returncode, no_memory.stdout, no_memory.stderr) == (0, "", "")
    assert (no_prompt.returncode, no_prompt.stdout) == (0, "")


def test_the_hook_asks_the_model_only_when_given_one(tmp_path, messages_server):
    home = tmp_path / "home"
    project = tmp_path / "work" / "acme"
    project_memory(home, project)
    messages_server.add([text('{"selected_memories": ["project_freeze.md"]}')])
    event = hook_event(project, "can I merge the mobile fix on friday?")
    api = {"ANTHROPIC_API_KEY": "test", "ANTHROPIC_BASE_URL": messages_server.base_url}

    # Claude Code hands its API key to every hook: a key alone is no opt-in.
    ranked = memsync("recall", "--hook", stdin=event, home=home, **api)
    asked_before = len(messages_server.requests)
    chosen = memsync(
        "recall", "--hook", "--model", "claude-sonnet-4-5", stdin=event.replace("sess-1", "s2"),
        home=home, **api,
    )  # fmt: skip

    assert asked_before == 0
    assert context_of(chosen).startswith("<memsync-recall>\n")
    assert context_of(chosen).endswith("\n</memsync-recall>")
    assert json.loads(ranked.stdout)["hookSpecificOutput"]["additionalContext"]
    context = json.loads(chosen.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "project_freeze.md" in context and "feedback_real_db.md" not in context
    assert messages_server.requests[0]["model"] == "claude-sonnet-4-5"


def test_the_hook_gives_up_on_an_unreachable_model_and_uses_the_ranking(tmp_path):
    home = tmp_path / "home"
    project = tmp_path / "work" / "acme"
    project_memory(home, project)

    done = memsync(
        "recall", "--hook", "--model", "claude-sonnet-4-5", home=home,
        stdin=hook_event(project, "postgres integration tests"),
        ANTHROPIC_API_KEY="test", ANTHROPIC_BASE_URL="http://127.0.0.1:9",
    )  # fmt: skip

    assert done.returncode == 0
    assert (
        "feedback_real_db.md" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    )


def test_recall_prints_the_memories_for_a_query(tmp_path):
    home = tmp_path / "home"
    memory = project_memory(home, tmp_path / "work" / "acme")

    as_text = memsync("recall", memory, "where are pipeline bugs tracked", home=home)
    as_json = memsync("recall", memory, "where are pipeline bugs tracked", "--json", home=home)
    nothing = memsync("recall", memory, "kubernetes helm chart", home=home)

    assert as_text.returncode == 0
    assert "Memory: team/reference_ingest.md:" in as_text.stdout
    data = json.loads(as_json.stdout)
    assert data["engine"] == "ranking" and data["memories"][0]["path"] == "team/reference_ingest.md"
    assert nothing.stdout.strip() == "no relevant memories"


def test_recall_refuses_a_missing_directory(tmp_path):
    done = memsync("recall", tmp_path / "nowhere", "query")

    assert done.returncode == 2 and "is not a directory" in done.stderr


def test_the_hook_command_names_this_installation():
    command = hook_command()

    assert command.endswith(" recall --hook")
    program = command.removesuffix(" recall --hook").strip("'")
    assert program == "memsync" or Path(program).name == "memsync"


def test_recall_keeps_the_index_of_a_plain_directory_in_the_cache(tmp_path):
    home = tmp_path / "home"
    memory = project_memory(home, tmp_path / "work" / "acme")

    first = memsync("recall", memory, "where are pipeline bugs tracked", "--json", home=home)
    (memory / "feedback_pager.md").write_text(
        topic("Pager etiquette", "Acknowledge a page within five minutes", "feedback"),
        encoding="utf-8",
    )
    second = memsync("recall", memory, "how fast to acknowledge a page", "--json", home=home)

    [index] = (home / ".cache" / "memsync" / "recall-index").glob("*.sqlite")
    assert index.stat().st_size > 0
    assert json.loads(first.stdout)["memories"][0]["path"] == "team/reference_ingest.md"
    assert json.loads(second.stdout)["memories"][0]["path"] == "feedback_pager.md"
