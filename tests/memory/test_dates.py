"""Relative dates → absolute dates, in English and Chinese (SPEC F4).

The reference day is Wednesday 2026-12-02: its week starts on Monday 2026-11-30.
"""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memsync.memory import find_relative_dates, rewrite_relative_dates

WEDNESDAY = date(2026, 12, 2)


def rewrite(text: str) -> str:
    return rewrite_relative_dates(text, WEDNESDAY)[0]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("We moved to Postgres yesterday.", "We moved to Postgres 2026-12-01."),
        ("Decided today", "Decided 2026-12-02"),
        ("Review it tomorrow", "Review it 2026-12-03"),
        ("the day before yesterday", "2026-11-30"),
        ("Freeze starts the day after tomorrow", "Freeze starts 2026-12-04"),
        ("We shipped last week", "We shipped the week of 2026-11-23"),
        ("This week we test", "The week of 2026-11-30 we test"),
        ("due next week", "due the week of 2026-12-07"),
        ("migrated last month", "migrated 2026-11"),
        ("planned for next month", "planned for 2027-01"),
        ("since last year", "since 2025"),
        ("3 days ago", "2026-11-29"),
        ("two weeks ago", "2026-11-18"),
        ("a week ago", "2026-11-25"),
        ("6 months ago", "2026-06"),
        ("a year ago", "2025"),
        ("last Friday", "2026-11-27"),
        ("last Wednesday", "2026-11-25"),
        ("last Tuesday", "2026-12-01"),
        ("this Friday", "2026-12-04"),
        ("this Monday", "2026-11-30"),
        ("next Monday", "2026-12-07"),
        ("YESTERDAY", "2026-12-01"),
    ],
)
def test_english_phrases_become_absolute(before: str, after: str) -> None:
    assert rewrite(before) == after


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("laſt week", "the week of 2026-11-23"),
        ("Laſt Friday", "2026-11-27"),
        ("thıs Friday", "2026-12-04"),
        ("thİs Monday", "2026-11-30"),
        ("ſix days ago", "2026-11-26"),
    ],
)
def test_letters_the_search_reads_as_ascii_are_read_so(before: str, after: str) -> None:
    # Matching case-insensitively, the search takes the long s for "s" and the dotless
    # and dotted i for "i"; the words it reads must too (once a KeyError, or "Laſt
    # Friday" read as "next Friday").
    assert rewrite(before) == after


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("昨天把数据库迁到了 Postgres", "2026-12-01把数据库迁到了 Postgres"),
        ("今天决定", "2026-12-02决定"),
        ("前天讨论过", "2026-11-30讨论过"),
        ("大前天", "2026-11-29"),
        ("明天评审", "2026-12-03评审"),
        ("上周发布", "2026-11-23 当周发布"),
        ("本周测试", "2026-11-30 当周测试"),
        ("这周测试", "2026-11-30 当周测试"),
        ("下周上线", "2026-12-07 当周上线"),
        ("上上周", "2026-11-16 当周"),
        ("上周一开始", "2026-11-23开始"),
        ("上星期五", "2026-11-27"),
        ("本周五发布", "2026-12-04发布"),
        ("这周日", "2026-12-06"),
        ("下周三", "2026-12-09"),
        ("上个月底上线", "2026年11月底上线"),
        ("上月", "2026年11月"),
        ("下个月", "2027年1月"),
        ("去年", "2025年"),
        ("3天前", "2026-11-29"),
        ("十五天前", "2026-11-17"),
        ("两周前", "2026-11-18"),
        ("二十天前", "2026-11-12"),
        ("3个月前", "2026年9月"),
    ],
)
def test_chinese_phrases_become_absolute(before: str, after: str) -> None:
    assert rewrite(before) == after


@pytest.mark.parametrize(
    "text",
    [
        "`yesterday` in a code span",
        "```\nran it yesterday\n```",
        "~~~\n昨天\n~~~",
        "see https://example.com/today/notes and www.example.com/yesterday",
        "[notes](today.md) and <https://x.io/yesterday>",
        "today.md, docs/yesterday/x, yesterday-only, #today, @tomorrow",
        "yesterday (2026-12-01) and 2026-12-01 (yesterday)",
        "上周（2026-11-23 当周）",
        "today's standup and last week's release",
        'the word "today" and 「昨天」',
        "over the last week and the next month",
        "a few days ago, several weeks ago, 几天前",
        "yesterdays and todays and weekend and this weekend",
        "提前天数, 说明天数, 登上月球, 以下周期, 本周期, 上周末, 马上周一",
        "上周一直在修 and 本周日常维护",
        "先天与后天",
    ],
)
def test_it_leaves_code_urls_absolute_dates_possessives_and_lookalikes_alone(text: str) -> None:
    assert rewrite(text) == text


def test_frontmatter_is_never_rewritten() -> None:
    text = "---\nname: today\ndescription: what changed yesterday\ntype: project\n---\nyesterday\n"
    assert rewrite(text) == text.replace("---\nyesterday", "---\n2026-12-01")


def test_it_reports_what_it_changed_and_where() -> None:
    text = "Shipped yesterday; 上周一 we planned it."
    rewritten, changes = rewrite_relative_dates(text, WEDNESDAY)
    assert rewritten == "Shipped 2026-12-01; 2026-11-23 we planned it."
    assert [(c.phrase, c.resolved, c.text) for c in changes] == [
        ("yesterday", date(2026, 12, 1), "2026-12-01"),
        ("上周一", date(2026, 11, 23), "2026-11-23"),
    ]
    assert [text[c.start : c.end] for c in changes] == ["yesterday", "上周一"]


def test_finding_changes_nothing_and_rewriting_twice_changes_nothing_more() -> None:
    text = "last week, 3 days ago, 昨天, this Friday"
    assert len(find_relative_dates(text, WEDNESDAY)) == 4
    once = rewrite(text)
    assert rewrite_relative_dates(once, WEDNESDAY) == (once, [])


def test_a_monday_reference_puts_last_monday_a_week_back() -> None:
    monday = date(2026, 11, 30)
    assert rewrite_relative_dates("last Monday", monday)[0] == "2026-11-23"
    assert rewrite_relative_dates("this Sunday", monday)[0] == "2026-12-06"
    assert rewrite_relative_dates("上周日", monday)[0] == "2026-11-29"


_phrases = st.sampled_from(
    ["yesterday", "last week", "今天", "上周三", "3 days ago", "`today`", "today's", " ", "\n"]
)


@given(st.lists(st.one_of(_phrases, st.text(max_size=8)), max_size=12).map("".join))
def test_any_text_changes_only_where_a_phrase_is_reported(text: str) -> None:
    rewritten, changes = rewrite_relative_dates(text, WEDNESDAY)
    rebuilt, position = [], 0
    for change in changes:
        assert change.start >= position
        assert text[change.start : change.end] == change.phrase
        rebuilt += [text[position : change.start], change.text]
        position = change.end
    rebuilt.append(text[position:])
    assert "".join(rebuilt) == rewritten
