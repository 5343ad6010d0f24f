"""The team block of a private MEMORY.md: private lines kept, limits as Claude Code
counts them, the most useful team entries first, the agent's own lines never lost."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memsync.memory import MAX_ENTRY_CHARS, MAX_INDEX_LINES, MAX_INDEX_UNITS, MemoryIndex
from memsync.memory.limits import index_fits, utf16_len
from memsync.memory.managed import (
    BEGIN,
    END,
    TeamEntry,
    generated_lines,
    split_managed,
    with_team_block,
    without_team_block,
)

NOW = datetime(2026, 12, 2, tzinfo=UTC)
PRIVATE = "# Memory\n- [My role](user-role.md) — backend dev, likes terse answers\n"


def team(count: int, *, hook: str = "a team rule", kind: str = "project") -> list[TeamEntry]:
    return [
        TeamEntry(f"rule-{n:03}.md", f"Rule {n}", f"{hook} {n}", kind, NOW - timedelta(days=n))
        for n in range(count)
    ]


def test_it_appends_a_delimited_block_of_team_entries_after_the_private_lines():
    result = with_team_block(PRIVATE, team(2))

    assert result.text == (
        PRIVATE + "\n" + BEGIN + "\n"
        "- [Rule 0](team/rule-000.md) — a team rule 0\n"
        "- [Rule 1](team/rule-001.md) — a team rule 1\n" + END + "\n"
    )
    index = MemoryIndex.parse(result.text)
    assert {"team/rule-000.md", "team/rule-001.md", "user-role.md"} == index.linked_files()


def test_regenerating_replaces_the_block_and_keeps_every_private_line():
    first = with_team_block(PRIVATE, team(3)).text
    edited = first + "- [New private](new-private.md) — written by Claude Code after the block\n"

    second = with_team_block(edited, team(1), generated_lines(first))

    parts = split_managed(second.text)
    assert parts.private == [
        "# Memory",
        "- [My role](user-role.md) — backend dev, likes terse answers",
        "",
        "- [New private](new-private.md) — written by Claude Code after the block",
        "",
    ]
    again = with_team_block(second.text, team(1), generated_lines(second.text))
    assert again.text == second.text  # stable once regenerated
    assert parts.block == ["- [Rule 0](team/rule-000.md) — a team rule 0"]
    assert second.text.endswith(END + "\n")


def test_lines_the_agent_wrote_inside_the_block_move_above_it():
    first = with_team_block(PRIVATE, team(2)).text
    reworded = first.replace("a team rule 1", "a team rule 1, except on release days")
    added = reworded.replace(END, "- [Mine](mine.md) — added inside the block\n" + END)

    result = with_team_block(added, team(2), generated_lines(first))

    assert result.kept_from_block == [
        "- [Rule 1](team/rule-001.md) — a team rule 1, except on release days",
        "- [Mine](mine.md) — added inside the block",
    ]
    private, block = result.text.split(BEGIN)
    assert "except on release days" in private and "added inside the block" in private
    assert "except on release days" not in block
    assert "- [Rule 1](team/rule-001.md) — a team rule 1\n" in block


def test_500_team_entries_leave_the_file_within_both_limits_with_the_most_useful_first():
    private = PRIVATE + "".join(f"- [P{n}](p{n}.md) — private {n}\n" for n in range(40))
    entries = team(250, hook="项目约定：发布前必须通过全部集成测试", kind="project")
    entries += [
        TeamEntry(f"fb-{n:03}.md", f"Feedback {n}", "团队反馈 " * 8, "feedback", NOW)
        for n in range(250)
    ]

    result = with_team_block(private, entries)

    text = result.text
    index = MemoryIndex.parse(text)
    assert index_fits(text)
    assert index.line_count <= MAX_INDEX_LINES and index.unit_count <= MAX_INDEX_UNITS
    assert index.problems() == []
    assert text.startswith(private)  # no private line lost or moved
    assert result.shown + result.hidden == 500
    assert f"- {result.hidden} more team memories — recall finds them\n{END}\n" in text
    block = split_managed(text).block or []
    assert block[0].startswith("- [Feedback")  # feedback outranks project
    # Room is left for what Claude Code appends before the next pull.
    assert index.line_count <= MAX_INDEX_LINES - 10


def test_recency_orders_entries_of_one_type():
    old = TeamEntry("old.md", "Old", "x", "project", NOW - timedelta(days=90))
    new = TeamEntry("new.md", "New", "x", "project", NOW)
    other = TeamEntry("who.md", "Who", "x", "user", NOW)

    block = split_managed(with_team_block("", [old, other, new]).text).block

    assert block == [
        "- [New](team/new.md) — x",
        "- [Old](team/old.md) — x",
        "- [Who](team/who.md) — x",
    ]


def test_a_long_team_entry_is_cut_to_claude_codes_entry_limit():
    long = TeamEntry("long.md", "Long", "word " * 100, "project", NOW)
    emoji = TeamEntry("emoji.md", "Emoji", "\U0001f680 " * 150, "project", NOW)

    block = split_managed(with_team_block("", [long, emoji]).text).block or []

    assert len(block) == 2
    assert all(utf16_len(line) <= MAX_ENTRY_CHARS for line in block)
    assert all(line.endswith("…") for line in block)


def test_a_private_index_already_over_the_limit_keeps_all_its_lines():
    private = "".join(f"- [P{n}](p{n}.md) — private {n}\n" for n in range(230))

    result = with_team_block(private, team(5))

    assert result.text.startswith(private)
    assert result.shown == 0 and result.hidden == 5
    assert split_managed(result.text).block == ["- 5 more team memories — recall finds them"]


def test_removing_the_block_keeps_private_lines_and_the_agents_lines_inside_it():
    text = with_team_block(PRIVATE, team(2)).text
    text = text.replace(END, "- [Mine](mine.md) — added inside the block\n" + END)

    assert without_team_block(text) == PRIVATE + "- [Mine](mine.md) — added inside the block\n"
    assert without_team_block(PRIVATE) == PRIVATE


def test_crlf_files_stay_crlf():
    private = PRIVATE.replace("\n", "\r\n")

    result = with_team_block(private, team(1))

    assert result.text.startswith(private)
    assert "\n" not in result.text.replace("\r\n", "")
