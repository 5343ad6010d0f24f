"""The deterministic engine: explicit "remember" and "forget", in English and Chinese,
against a real memory repository and the real transcript reader."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memsync.extract.deterministic import DeterministicEngine
from memsync.extract.run import NO_CHANGES, SAVED, extract_session
from memsync.extract.transcript import read_transcript
from memsync.memory import MemoryDirectory, MemoryFile
from tests.extract.sessions import SessionLog, memory_repo, subjects, topic


def extract(repo, log: SessionLog, tmp_path: Path, since: int = 0, **options):
    path = log.write(tmp_path / "sessions")
    return extract_session(
        repo, read_transcript(path, since=since), DeterministicEngine(), since=since, **options
    )


def memories(repo) -> MemoryDirectory:
    return MemoryDirectory.read(repo.path)


def test_it_saves_a_rule_from_now_on_as_feedback_with_why_and_how(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    log = SessionLog().turn(
        "From now on, use pnpm instead of npm because the lockfile is pnpm-lock.yaml."
    )

    result = extract(repo, log, tmp_path)

    # Claude Code 2.1.332's layout: kebab-case name, the file named after it, metadata
    # nested with node_type, the session and the day.
    assert result.status == SAVED and result.saved == ["pnpm-instead-npm.md"]
    memory = memories(repo).files["pnpm-instead-npm.md"]
    assert memory.type == "feedback" and memory.has_nested_type
    assert memory.name == "pnpm-instead-npm"
    assert list(memory.metadata) == ["name", "description", "metadata"]
    assert memory.metadata["metadata"]["node_type"] == "memory"
    assert str(memory.metadata["metadata"]["modified"]) == "2025-09-04"
    assert memory.description == "Use pnpm instead of npm"
    assert memory.body.splitlines() == [
        "Use pnpm instead of npm.",
        "",
        "**Why:** The lockfile is pnpm-lock.yaml.",
        "**How to apply:** In every session on this project, without waiting to be reminded.",
    ]
    assert memory.metadata["metadata"]["originSessionId"] == log.session_id
    index = memories(repo).index
    assert [entry.file for entry in index.entries] == ["pnpm-instead-npm.md"]
    assert memories(repo).problems == []


def test_in_a_directory_of_classic_files_it_writes_a_classic_file(tmp_path):
    classic = (
        b"---\nname: Release train\ndescription: Releases go out on Tuesdays\n"
        b"type: project\n---\n\nReleases go out on Tuesdays.\n"
    )
    repo = memory_repo(tmp_path / "memory", {"project_release_train.md": classic})
    log = SessionLog().turn("From now on, use pnpm instead of npm.")

    result = extract(repo, log, tmp_path)

    assert result.saved == ["feedback_pnpm_instead_npm.md"]
    memory = memories(repo).files["feedback_pnpm_instead_npm.md"]
    assert memory.metadata["type"] == "feedback" and not memory.has_nested_type
    assert memory.metadata["originSessionId"] == log.session_id


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        (
            "Please remember that pipeline bugs are tracked in the Linear project INGEST.",
            "reference",
        ),
        ("Remember: the staging dashboard is https://grafana.example.com/d/staging", "reference"),
        ("Can you remember that I'm a data scientist focused on observability?", "user"),
        ("Remember that the mobile team owns the release calendar.", "project"),
        ("Remember to never mock the database in integration tests.", "feedback"),
        ("Don't forget to run the migrations before the web pods restart.", "feedback"),
        ("ok, also keep in mind that legal must approve every new dependency", "feedback"),
    ],
)
def test_it_chooses_the_type_that_fits_the_request(tmp_path, said, kind):
    repo = memory_repo(tmp_path / "memory")

    result = extract(repo, SessionLog().turn(said), tmp_path)

    assert len(result.saved) == 1
    memory = memories(repo).files[result.saved[0]]
    assert memory.type == kind
    assert result.saved[0] == f"{memory.name}.md" and re.fullmatch(r"[a-z0-9-]+", memory.name)


def test_it_remembers_in_chinese(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    log = (
        SessionLog()
        .turn("记住：部署前必须先跑数据库迁移，因为上次忘了导致线上故障。", "好的。")
        .turn("好的，记住我是数据科学家，主要做可观测性。", "明白。")
        .turn("以后都用 pnpm，不要用 npm", "好。")
    )

    result = extract(repo, log, tmp_path)

    assert result.status == SAVED and len(result.saved) == 3
    found = {memory.type: memory for memory in memories(repo).files.values()}
    assert set(found) == {"feedback", "user"}
    migration = next(
        m for m in memories(repo).files.values() if "数据库迁移" in (m.description or "")
    )
    assert migration.description == "部署前必须先跑数据库迁移"
    assert "**Why:** 因为上次忘了导致线上故障。" in migration.body
    assert "**How to apply:** " in migration.body
    assert found["user"].description == "我是数据科学家，主要做可观测性"
    assert any("pnpm" in path for path in result.saved)
    assert len(memories(repo).index.entries) == 3


def test_it_forgets_the_matching_memory_and_its_index_line(tmp_path):
    repo = memory_repo(
        tmp_path / "memory",
        {
            "feedback_pnpm.md": topic(
                "Use pnpm", "Use pnpm instead of npm", "feedback", "Use pnpm.\n"
            ),
            "reference_linear.md": topic(
                "Linear INGEST", "Pipeline bugs live in Linear project INGEST", "reference", "x\n"
            ),
        },
    )

    result = extract(repo, SessionLog().turn("Forget about the pnpm rule."), tmp_path)

    assert result.forgotten == ["feedback_pnpm.md"] and result.saved == []
    assert not (repo.path / "feedback_pnpm.md").exists()
    assert [entry.file for entry in memories(repo).index.entries] == ["reference_linear.md"]
    assert subjects(repo)[0] == f"extract: {SessionLog().session_id} — saved 0, forgot 1"


@pytest.mark.parametrize(
    "said", ["忘记关于 pnpm 的那条规则", "请把关于 pnpm 的记忆忘掉", "忘掉 pnpm 那条"]
)
def test_it_forgets_in_chinese(tmp_path, said):
    repo = memory_repo(
        tmp_path / "memory",
        {
            "feedback_pnpm.md": topic(
                "用 pnpm", "都用 pnpm，不要用 npm", "feedback", "用 pnpm。\n"
            ),
            "user_role.md": topic("角色", "我是数据科学家", "user", "数据科学家。\n"),
        },
    )

    result = extract(repo, SessionLog().turn(said, "好。"), tmp_path)

    assert result.forgotten == ["feedback_pnpm.md"]
    assert sorted(memories(repo).files) == ["user_role.md"]


def test_it_does_not_forget_on_a_weak_or_ambiguous_match(tmp_path):
    files = {
        "project_deploys_a.md": topic(
            "Deploys of kelvane", "Kelvane deploys run on Tuesdays", "project", "x\n"
        ),
        "project_deploys_b.md": topic(
            "Deploys of zordock", "Zordock deploys run on Tuesdays", "project", "x\n"
        ),
        "reference_grafana.md": topic(
            "Grafana", "Latency dashboard", "reference", "It also mentions kubernetes quotas.\n"
        ),
    }
    repo = memory_repo(tmp_path / "memory", files)
    log = (
        SessionLog()
        .turn("Forget the Tuesday deploys note.")  # two memories match equally
        .turn("Forget what I said about kubernetes quotas.")  # only a body mentions it
        .turn("Forget the terraform rule.")  # nothing matches
    )

    result = extract(repo, log, tmp_path)

    assert result.status == NO_CHANGES and result.forgotten == [] and result.commit is None
    assert sorted(memories(repo).files) == sorted(files)
    assert sum("nothing forgotten" in note for note in result.notes) == 3


@pytest.mark.parametrize(
    "said",
    [
        "Please remember this week's PRs: #12 and #13.",
        "Remember that the session middleware lives in src/auth/session.ts.",
        "Remember that the fix was to bump the connection pool to 20.",
        "Remember the project structure: apps, libs and tools folders.",
        "Remember who changed the retry logic in commit 3f2a9c1d.",
        "Remember that I'm currently working on the billing refactor.",
        "记住这周的 PR 列表",
        "记住项目结构：前端在 web 目录",
    ],
)
def test_it_refuses_what_is_never_saved_even_on_request(tmp_path, said):
    repo = memory_repo(tmp_path / "memory")
    before = repo.head()

    result = extract(repo, SessionLog().turn(said), tmp_path)

    assert result.saved == [] and result.commit is None and repo.head() == before
    assert len(result.refused) == 1
    assert result.refused[0].reason.startswith("not saved (")
    assert list(repo.path.glob("*_*.md")) == []


def test_it_refuses_what_claude_md_already_says(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    path = SessionLog().turn("Remember that tests run with make check.").write(tmp_path / "s")
    claude_md = "# Project\n\n- Tests run with `make check` before every push.\n"

    result = extract_session(
        repo, read_transcript(path), DeterministicEngine(), since=0, claude_md=claude_md
    )

    assert result.saved == [] and result.refused[0].reason.startswith("not saved (in CLAUDE.md)")


@pytest.mark.parametrize(
    "said",
    [
        "Do you remember when we moved to Postgres?",
        "I remember when staging broke last year.",
        "Remember how we did this last time?",
        "forget it, let's move on",
        "你还记得上次怎么部署的吗？",
        "吃完饭以后再说",
        "忘了说，我们用 pnpm",
        "Fix the bug in `remember_token.py` please",
    ],
)
def test_it_does_not_take_questions_or_asides_for_requests(tmp_path, said):
    repo = memory_repo(tmp_path / "memory")

    result = extract(repo, SessionLog().turn(said), tmp_path)

    assert result.status == NO_CHANGES and result.commit is None and result.notes == []


def test_a_turn_that_asks_nothing_does_not_list_the_memories(tmp_path):
    memory = topic("Deploy days", "Deploys happen on Fridays", "project", "Fridays.\n")
    repo = memory_repo(tmp_path / "memory", {"project_deploy.md": memory})

    result = extract(repo, SessionLog().turn("Fix the flaky test in checkout please"), tmp_path)

    # The recall index is where listing the memories leaves its trace.
    assert result.status == NO_CHANGES and result.commit is None
    assert not (repo.path / ".git" / "memsync" / "recall-index.sqlite").exists()


def test_it_reads_requests_from_the_user_only_and_never_inside_code(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    log = (
        SessionLog()
        .user("Here is the script:\n```\n# remember that the cache is cleared nightly\n```")
        .assistant("Remember that I am an assistant; from now on I will use tabs.")
    )

    result = extract(repo, log, tmp_path)

    assert result.commit is None and list(repo.path.glob("*_*.md")) == []


def test_it_makes_relative_dates_absolute_from_the_message_time(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    log = SessionLog().turn(
        "Remember that we freeze non-critical merges from next Monday for the mobile release."
    )

    result = extract(repo, log, tmp_path)

    memory = memories(repo).files[result.saved[0]]
    # The message was sent on Thursday 2025-09-04: next Monday is 2025-09-08.
    assert (
        memory.description == "We freeze non-critical merges from 2025-09-08 for the mobile release"
    )
    assert "next Monday" not in memory.body


def test_it_updates_a_memory_on_the_same_subject_instead_of_adding_one(tmp_path):
    repo = memory_repo(tmp_path / "memory")
    first = SessionLog().turn("From now on, use pnpm instead of npm.")
    extract(repo, first, tmp_path)
    later = SessionLog(session_id="s-2").turn(
        "From now on, use pnpm instead of npm, version 9 or later."
    )

    result = extract(repo, later, tmp_path)

    assert result.saved == ["pnpm-instead-npm.md"]
    assert list(memories(repo).files) == ["pnpm-instead-npm.md"]
    memory = memories(repo).files["pnpm-instead-npm.md"]
    assert memory.description == "Use pnpm instead of npm, version 9 or later"
    assert len(memories(repo).index.entries) == 1


def test_updating_a_memory_keeps_keys_it_does_not_know(tmp_path):
    original = (
        b"---\nname: Use pnpm\ndescription: Use pnpm instead of npm\nmetadata:\n  type: feedback\n"
        b"originSessionId: abc\ncreated: 2025-01-02\n---\n\nUse pnpm.\n"
    )
    repo = memory_repo(tmp_path / "memory", {"feedback_pnpm_instead_npm.md": original})

    extract(repo, SessionLog().turn("From now on, use pnpm instead of npm always."), tmp_path)

    updated = MemoryFile.parse(
        "feedback_pnpm_instead_npm.md", (repo.path / "feedback_pnpm_instead_npm.md").read_bytes()
    )
    assert updated.metadata["originSessionId"] == "abc"
    assert str(updated.metadata["created"]) == "2025-01-02"
    assert updated.metadata["metadata"] == {"type": "feedback"}
    assert updated.description == "Use pnpm instead of npm always"


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("I'm the lead for payments", "lead_payments"),
        ("don't deploy on Fridays", "deploy_fridays"),
        ("alice's staging box is flaky", "alice_staging_box_flaky"),
        ("下周一开始代码冻结，持续两周", "下周一开始代码冻结"),
    ],
)
def test_it_names_files_after_words_and_whole_chinese_clauses(text, slug):
    from memsync.extract.deterministic import _slug

    assert _slug(text) == slug
