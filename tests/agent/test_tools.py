"""The tools on real files: what the model sees, and what ends up on disk."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from memsync.agent import Sandbox, ToolSet
from tests.agent.conftest import tools_for


@pytest.fixture
def tools(memory_dir: Path) -> ToolSet:
    (memory_dir / "team").mkdir()
    (memory_dir / "team" / "MEMORY.md").write_text("# Team\n- [Deploy](deploy.md) — deploys\n")
    (memory_dir / "team" / "deploy.md").write_text("Deploy after the Integration suite\n")
    return tools_for(memory_dir, allow_delete=True)


def test_it_numbers_the_lines_it_reads_like_claude_code(tools: ToolSet) -> None:
    outcome = tools.run("read", {"path": "MEMORY.md"})

    assert outcome.text.splitlines() == [
        "     1\t# Memory",
        "     2\t",
        "     3\t- [Testing](feedback_testing.md) — run tests against real services",
    ]
    assert tools.files_read == ["MEMORY.md"]


def test_it_reads_a_window_of_lines_and_says_what_is_left(tools: ToolSet) -> None:
    outcome = tools.run("read", {"path": "feedback_testing.md", "offset": 6, "limit": 2})

    assert outcome.text.splitlines() == [
        "     6\tIntegration tests must hit a real database, not mocks.",
        "     7\t**Why:** a mocked migration passed while prod broke.",
        "(lines 6-7 of 8; use offset and limit for the rest)",
    ]


def test_it_reads_an_absolute_path_inside_the_root(tools: ToolSet, memory_dir: Path) -> None:
    outcome = tools.run("read", {"path": str(memory_dir / "team" / "deploy.md")})

    assert outcome.text == "     1\tDeploy after the Integration suite"


def test_it_refuses_to_read_binary_and_oversized_files(tools: ToolSet, memory_dir: Path) -> None:
    (memory_dir / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (memory_dir / "huge.md").write_text("x" * 300_000)

    binary = tools.run("read", {"path": "image.png"})
    huge = tools.run("read", {"path": "huge.md"})

    assert binary.is_error and "looks like a binary file" in binary.text
    assert huge.is_error and "300,000 bytes, over the 256,000-byte limit" in huge.text
    assert tools.files_read == []


def test_it_greps_with_path_line_and_text(tools: ToolSet) -> None:
    everywhere = tools.run("grep", {"pattern": r"Integration \w+"})
    in_team = tools.run("grep", {"pattern": "integration", "glob": "team/*.md",
                                 "case_insensitive": True})  # fmt: skip
    nothing = tools.run("grep", {"pattern": "kubernetes"})

    assert everywhere.text.splitlines() == [
        "feedback_testing.md:3:description: Integration tests hit a real database, not mocks",
        "feedback_testing.md:6:Integration tests must hit a real database, not mocks.",
        "team/deploy.md:1:Deploy after the Integration suite",
    ]
    assert in_team.text == "team/deploy.md:1:Deploy after the Integration suite"
    assert not nothing.is_error and nothing.text == "No matches for 'kubernetes' in ."


def test_it_caps_grep_output(tools: ToolSet, memory_dir: Path) -> None:
    (memory_dir / "many.md").write_text("match\n" * 500)

    outcome = tools.run("grep", {"pattern": "match", "path": "many.md"})

    lines = outcome.text.splitlines()
    assert len(lines) == 201
    assert lines[-1] == "[cut at 200 lines; narrow the pattern, path or glob]"


def test_it_globs_sorted_and_never_into_git(tools: ToolSet) -> None:
    everything = tools.run("glob", {"pattern": "**/*"})
    top = tools.run("glob", {"pattern": "*.md"})

    assert everything.text.splitlines() == [
        ".consolidate-lock",
        "MEMORY.md",
        "feedback_testing.md",
        "team/MEMORY.md",
        "team/deploy.md",
    ]
    assert top.text.splitlines() == ["MEMORY.md", "feedback_testing.md"]


def test_it_writes_new_files_with_their_folders(tools: ToolSet, memory_dir: Path) -> None:
    outcome = tools.run("write", {"path": "team/ops/oncall.md", "content": "Pager: bob\n"})

    assert outcome.text == "Created team/ops/oncall.md (1 line)"
    assert (memory_dir / "team" / "ops" / "oncall.md").read_text() == "Pager: bob\n"
    assert tools.files_written == ["team/ops/oncall.md"]


def test_it_overwrites_a_file_once_it_was_read(tools: ToolSet, memory_dir: Path) -> None:
    tools.run("read", {"path": "team/deploy.md"})

    outcome = tools.run("write", {"path": "team/deploy.md", "content": "Deploy on green\n"})

    assert outcome.text == "Updated team/deploy.md (1 line)"
    assert (memory_dir / "team" / "deploy.md").read_text() == "Deploy on green\n"


def test_it_edits_a_unique_string_and_keeps_the_rest(tools: ToolSet, memory_dir: Path) -> None:
    tools.run("read", {"path": "feedback_testing.md"})

    outcome = tools.run(
        "edit",
        {"path": "feedback_testing.md", "old_string": "real database", "new_string": "real DB"},
    )
    unique = tools.run(
        "edit",
        {"path": "feedback_testing.md", "old_string": "**Why:**", "new_string": "**Reason:**"},
    )

    assert outcome.is_error
    assert "occurs 2 times in feedback_testing.md" in outcome.text
    assert unique.text == "Edited feedback_testing.md: replaced 1 occurrence(s)"
    text = (memory_dir / "feedback_testing.md").read_text()
    assert "**Reason:** a mocked migration" in text
    assert text.count("real database") == 2


def test_it_replaces_every_occurrence_when_asked(tools: ToolSet, memory_dir: Path) -> None:
    tools.run("read", {"path": "feedback_testing.md"})

    outcome = tools.run(
        "edit",
        {
            "path": "feedback_testing.md",
            "old_string": "real database",
            "new_string": "real PostgreSQL",
            "replace_all": True,
        },
    )

    assert outcome.text == "Edited feedback_testing.md: replaced 2 occurrence(s)"
    assert (memory_dir / "feedback_testing.md").read_text().count("real PostgreSQL") == 2


def test_it_says_when_the_old_string_is_missing(tools: ToolSet) -> None:
    tools.run("read", {"path": "MEMORY.md"})

    outcome = tools.run(
        "edit", {"path": "MEMORY.md", "old_string": "     3\t- [Testing]", "new_string": "x"}
    )

    assert outcome.is_error
    assert "old_string was not found in MEMORY.md" in outcome.text


def test_it_refuses_to_edit_a_file_that_changed_since_it_was_read(
    tools: ToolSet, memory_dir: Path
) -> None:
    tools.run("read", {"path": "MEMORY.md"})
    index = memory_dir / "MEMORY.md"
    index.write_text(index.read_text() + "- [Other](other.md) — added by a sync\n")
    later = time.time() + 5
    os.utime(index, (later, later))

    outcome = tools.run(
        "edit", {"path": "MEMORY.md", "old_string": "# Memory", "new_string": "# Team memory"}
    )

    assert outcome.is_error
    assert "changed on disk since you read it" in outcome.text
    assert index.read_text().startswith("# Memory")


def test_it_deletes_a_topic_file_and_records_it(tools: ToolSet, memory_dir: Path) -> None:
    tools.run("read", {"path": "team/deploy.md"})
    tools.run("write", {"path": "team/deploy.md", "content": "rewritten\n"})

    outcome = tools.run("delete", {"path": "team/deploy.md"})

    assert outcome.text == "Deleted team/deploy.md"
    assert not (memory_dir / "team" / "deploy.md").exists()
    assert tools.files_deleted == ["team/deploy.md"]
    assert tools.files_written == []
    assert tools.files_touched == ["team/deploy.md"]


def test_it_follows_a_symlink_that_stays_inside(tools: ToolSet, memory_dir: Path) -> None:
    (memory_dir / "testing.md").symlink_to("feedback_testing.md")
    tools.run("read", {"path": "testing.md"})

    outcome = tools.run(
        "edit", {"path": "testing.md", "old_string": "**Why:**", "new_string": "**Because:**"}
    )

    assert outcome.text == "Edited feedback_testing.md: replaced 1 occurrence(s)"
    assert (memory_dir / "testing.md").is_symlink()
    assert tools.files_written == ["feedback_testing.md"]


def test_it_answers_unknown_tools_and_bad_input_as_errors(tools: ToolSet) -> None:
    unknown = tools.run("bash", {"command": "id"})
    missing = tools.run("read", {})
    wrong_type = tools.run("read", {"path": "MEMORY.md", "offset": "first"})

    assert unknown.is_error and unknown.text.startswith("unknown tool 'bash'")
    assert missing.is_error and missing.text == "path is required and must be a string"
    assert wrong_type.is_error and wrong_type.text == "offset must be a whole number from 1"


def test_a_sandbox_root_given_through_a_symlink_accepts_both_spellings(
    tmp_path: Path, memory_dir: Path
) -> None:
    alias = tmp_path / "alias"
    alias.symlink_to(memory_dir, target_is_directory=True)
    tools = ToolSet(Sandbox(alias))

    through_alias = tools.run("read", {"path": str(alias / "MEMORY.md")})
    through_real = tools.run("read", {"path": str(memory_dir / "MEMORY.md")})

    assert through_alias.text.startswith("     1\t# Memory")
    assert through_real.text.startswith("     1\t# Memory")
