"""One extraction, one commit (SPEC E4, E5): skip rules, the cursor, trailers, and the
real Claude Code transcripts in samples/."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from memsync.extract.deterministic import DeterministicEngine
from memsync.extract.prompts import render_messages
from memsync.extract.run import NO_CHANGES, SAVED, SKIPPED, extract_session
from memsync.extract.skip import count_turns, session_memory_dir
from memsync.extract.transcript import read_transcript
from tests.extract.sessions import SessionLog, memory_repo, subjects

SAMPLES = Path(__file__).parent / "samples"


def run(repo, path: Path, since: int = 0, **options):
    transcript = read_transcript(path, since=since, memory_dir=options.pop("memory_dir", None))
    return extract_session(repo, transcript, DeterministicEngine(), since=since, **options)


def test_an_extraction_that_saves_is_one_commit_with_its_trailers(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    log = (
        SessionLog()
        .turn("Let's look at the flaky test.")
        .turn("Remember that the mobile team owns the release calendar.")
        .turn("From now on, run the linter before every commit.")
    )
    before = len(repo.log())

    result = run(repo, log.write(tmp_path / "s"))

    assert len(repo.log()) == before + 1
    commit = repo.commit_info("HEAD")
    assert commit.subject == f"extract: {log.session_id} — saved 2 memories"
    assert commit.kind == "extract"
    assert commit.trailer("Memsync-Session") == log.session_id
    assert commit.trailer("Memsync-Messages") == "0-5"
    assert commit.trailer("Memsync-Engine") == "deterministic"
    assert commit.trailer("Memsync-Model") == "none"
    assert commit.trailer("Memsync-Tokens") == "in=0 out=0 cache_read=0 cache_write=0"
    assert sorted(stat.path for stat in commit.files) == sorted(["MEMORY.md", *result.saved])
    assert result.commit == commit.sha and result.cursor == 6


def test_nothing_to_save_makes_no_commit_and_still_moves_the_cursor(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    head = repo.head()
    path = SessionLog().turn("What does this function do?", "It parses dates.").write(tmp_path)

    result = run(repo, path)

    assert result.status == NO_CHANGES and result.commit is None and repo.head() == head
    assert result.cursor == 2


def test_the_cursor_lets_the_next_run_see_only_new_messages(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    log = SessionLog().turn("Remember that the mobile team owns the release calendar.")
    path = log.write(tmp_path / "s")
    first = run(repo, path)
    log.turn("Thanks, that's all.")
    log.write(tmp_path / "s")

    second = run(repo, path, since=first.cursor)

    assert first.status == SAVED and second.status == NO_CHANGES
    assert (second.first_message, second.last_message, second.cursor) == (2, 3, 4)
    assert subjects(repo).count(f"extract: {log.session_id} — saved 1 memory") == 1


def test_a_subagent_session_never_triggers_extraction(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    path = (
        SessionLog()
        .turn("Remember that staging resets nightly.")
        .write(tmp_path, "agent-3f9c2a1b.jsonl")
    )

    result = run(repo, path)

    assert result.status == SKIPPED and "subagent" in (result.reason or "")
    assert result.commit is None and result.cursor == 2


def test_it_skips_a_span_in_which_the_main_agent_already_wrote_memory(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    memory_dir = "/home/dev/.claude/projects/-home-dev-acme/memory"
    log = (
        SessionLog()
        .user("Remember that staging resets nightly.")
        .assistant(
            "Saved.",
            tools=[("Write", {"file_path": f"{memory_dir}/project_staging.md", "content": "x"})],
        )
    )
    path = log.write(tmp_path / "s")

    result = run(repo, path, memory_dir=memory_dir)

    assert result.status == SKIPPED and "already wrote memory" in (result.reason or "")
    assert result.commit is None and result.cursor == log_messages(path)
    # On the server the memory directory is found from the session's own tool calls.
    assert session_memory_dir(read_transcript(path)) == memory_dir


def test_it_finds_the_memory_directory_of_a_session_started_below_the_git_root(tmp_path):
    log = (
        SessionLog(cwd="/home/dev/acme/services/api")
        .user("hi")
        .assistant(
            "Noted.",
            tools=[
                ("Read", {"file_path": "/home/dev/acme/README.md"}),
                (
                    "Edit",
                    {"file_path": "/Users/x/.claude/projects/-home-dev-acme/memory/MEMORY.md"},
                ),
            ],
        )
    )

    found = session_memory_dir(read_transcript(log.write(tmp_path)))

    assert found == "/Users/x/.claude/projects/-home-dev-acme/memory"


def test_the_throttle_waits_for_n_turns_and_keeps_the_cursor(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    log = SessionLog().turn("Remember that the mobile team owns the release calendar.")
    path = log.write(tmp_path / "s")

    waiting = run(repo, path, every_turns=3)
    log.turn("ok").turn("and now?")
    log.write(tmp_path / "s")
    ready = run(repo, path, since=waiting.cursor, every_turns=3)

    assert waiting.status == SKIPPED and waiting.reason == (
        "throttled: 1 of 3 turns since the last extraction"
    )
    assert waiting.cursor == 0 and waiting.commit is None
    assert ready.status == SAVED and ready.first_message == 0 and ready.cursor == 6


def test_turns_end_where_the_assistant_hands_back_to_the_user():
    log = (
        SessionLog()
        .user("a")
        .assistant("b", tools=[("Bash", {"command": "ls"})])
        .assistant("c")
        .user("d")
        .assistant("e")
    )

    transcript = read_transcript([json.dumps(line) for line in log.lines])

    assert count_turns(transcript.messages) == 2


def test_a_file_claude_code_wrote_but_nobody_committed_stays_out_of_the_commit(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    (repo.path / "user_notes.md").write_text("---\nname: n\ndescription: d\ntype: user\n---\nx\n")
    path = (
        SessionLog()
        .turn("Remember that the mobile team owns the release calendar.")
        .write(tmp_path / "s")
    )

    result = run(repo, path)

    committed = {stat.path for stat in repo.commit_info("HEAD").files}
    assert "user_notes.md" not in committed and result.saved[0] in committed
    assert (repo.path / "user_notes.md").exists()


def test_the_real_sample_transcripts_extract_nothing_and_read_to_the_end(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    head = repo.head()
    for sample in sorted(SAMPLES.glob("*.jsonl")):
        copy = tmp_path / sample.name
        shutil.copy(sample, copy)
        transcript = read_transcript(copy)

        result = run(repo, copy)

        # Neither session asks to remember anything: one runs /init, the other asks (in
        # Japanese) to update CLAUDE.md.
        assert result.status == NO_CHANGES, sample.name
        assert result.cursor == len(transcript.messages) > 0
        assert result.session_id == sample.stem
    assert repo.head() == head


def test_the_sample_transcripts_render_compactly_for_the_model():
    transcript = read_transcript(SAMPLES / "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl")

    text = render_messages(transcript.messages)

    assert text.startswith("[#0 user · 2025-09-07 09:52]\n/orchestrator @CLAUDE.md を最新の状態に")
    assert "  → MultiEdit: /path/to/Demo/CLAUDE.md" in text
    assert "  → Task: " in text
    # Tool output stays out: what was read is not what was said.
    assert "Todos have been modified successfully" not in text
    assert len(text) < sum(len(m.text) for m in transcript.messages) + 3000


def log_messages(path: Path) -> int:
    return len(read_transcript(path).messages)


def test_forgetting_a_memory_nobody_committed_yet_needs_no_commit(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    head = repo.head()
    (repo.path / "feedback_pnpm.md").write_text(
        "---\nname: Use pnpm\ndescription: Use pnpm instead of npm\ntype: feedback\n---\nx\n"
    )
    path = SessionLog().turn("Forget the pnpm rule.").write(tmp_path / "s")

    result = run(repo, path)

    assert not (repo.path / "feedback_pnpm.md").exists()
    assert result.commit is None and repo.head() == head
    assert "#0: forgot feedback_pnpm.md (1.00)" in result.notes
