"""The read-only shell answers the commands models habitually type, as GNU tools would."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsync.agent import ToolSet
from tests.agent.conftest import tools_for


@pytest.fixture
def tools(memory_dir: Path) -> ToolSet:
    (memory_dir / "team").mkdir()
    (memory_dir / "team" / "MEMORY.md").write_text("# Team\n- [Deploy](deploy.md) — deploys\n")
    (memory_dir / "team" / "deploy.md").write_text("Deploy after the Integration suite\n")
    return tools_for(memory_dir)


def shell(tools: ToolSet, command: str) -> str:
    outcome = tools.run("shell", {"command": command})
    assert not outcome.is_error, outcome.text
    return outcome.text


def test_ls_lists_names_and_long_details(tools: ToolSet) -> None:
    assert shell(tools, "ls").splitlines() == ["MEMORY.md", "feedback_testing.md", "team"]
    long = shell(tools, "ls -la").splitlines()
    assert [line.split()[-1] for line in long] == [
        ".consolidate-lock", ".git", "MEMORY.md", "feedback_testing.md", "team"
    ]  # fmt: skip
    assert long[2].startswith("-rw-") and " 79 " in long[2]
    assert long[4].startswith("drwx")


def test_find_walks_the_tree_without_git(tools: ToolSet) -> None:
    assert shell(tools, "find . -name '*.md' -type f").splitlines() == [
        "./MEMORY.md",
        "./feedback_testing.md",
        "./team/MEMORY.md",
        "./team/deploy.md",
    ]
    assert shell(tools, "find . -maxdepth 1 -type d").splitlines() == [".", "./team"]
    assert shell(tools, "find team ! -name MEMORY.md").splitlines() == ["team", "team/deploy.md"]


def test_head_tail_and_wc_count_lines(tools: ToolSet) -> None:
    assert shell(tools, "head -n 2 feedback_testing.md") == "---\nname: Testing"
    assert shell(tools, "head -1 MEMORY.md") == "# Memory"
    assert shell(tools, "tail -n 1 feedback_testing.md").startswith("**How to apply:**")
    assert shell(tools, "wc -l MEMORY.md") == "3 MEMORY.md"
    assert shell(tools, "wc -l team/*.md").splitlines() == [
        "2 team/MEMORY.md",
        "1 team/deploy.md",
        "3 total",
    ]


def test_grep_prints_file_line_and_text(tools: ToolSet) -> None:
    assert shell(tools, "grep -rn 'Integration' .").splitlines() == [
        "./feedback_testing.md:3:description: Integration tests hit a real database, not mocks",
        "./feedback_testing.md:6:Integration tests must hit a real database, not mocks.",
        "./team/deploy.md:1:Deploy after the Integration suite",
    ]
    assert shell(tools, r"grep -c 'mocks\|suite' feedback_testing.md team/deploy.md") == (
        "feedback_testing.md:2\nteam/deploy.md:1"
    )
    assert shell(tools, "grep -rli DEPLOY team").splitlines() == [
        "team/MEMORY.md",
        "team/deploy.md",
    ]


def test_cat_and_stat_show_the_file(tools: ToolSet) -> None:
    assert shell(tools, "cat -n team/deploy.md") == "     1\tDeploy after the Integration suite"
    assert shell(tools, "stat -c '%n %s %F' MEMORY.md") == "MEMORY.md 79 regular file"
    assert "Size: 79" in shell(tools, "stat MEMORY.md")
    assert tools.files_read == ["team/deploy.md"]


def test_it_names_what_it_does_not_support(tools: ToolSet) -> None:
    unknown_flag = tools.run("shell", {"command": "ls --color=always"})
    no_stdin = tools.run("shell", {"command": "grep pattern"})
    missing = tools.run("shell", {"command": "cat MEMORY.md gone.md"})

    assert unknown_flag.is_error and "ls: option --color is not supported here" in unknown_flag.text
    assert no_stdin.is_error and "this shell has no standard input" in no_stdin.text
    assert missing.is_error
    assert missing.text.splitlines()[0] == "# Memory"
    assert missing.text.splitlines()[-1] == "cat: gone.md: no such file"
    assert tools.denials == []


def test_it_keeps_quoted_metacharacters_as_plain_text(tools: ToolSet) -> None:
    assert shell(tools, "grep -E 'Team|Staging' team/MEMORY.md") == "# Team"
    assert shell(tools, 'grep -rn "real database; not" .') == "(no output)"
