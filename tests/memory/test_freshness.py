"""Ages, labels and the exact freshness wording (SPEC F4, R1)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from memsync.memory import age_days, age_label, freshness_header, freshness_note

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("elapsed", "days"),
    [
        (timedelta(0), 0),
        (timedelta(hours=23, minutes=59, seconds=59), 0),
        (timedelta(days=1), 1),
        (timedelta(days=1, hours=23), 1),
        (timedelta(days=2), 2),
        (timedelta(days=400, seconds=5), 400),
        (-timedelta(hours=5), 0),
        (-timedelta(days=3), 0),
    ],
)
def test_age_is_whole_days_elapsed_and_never_negative(elapsed: timedelta, days: int) -> None:
    assert age_days(NOW - elapsed, NOW) == days


def test_age_counts_elapsed_time_not_calendar_days_across_time_zones() -> None:
    tokyo = timezone(timedelta(hours=9))
    modified = datetime(2026, 12, 1, 23, 30, tzinfo=tokyo)  # 14:30 UTC on Dec 1
    assert age_days(modified, datetime(2026, 12, 2, 14, 29, tzinfo=UTC)) == 0
    assert age_days(modified, datetime(2026, 12, 2, 14, 30, tzinfo=UTC)) == 1


def test_naive_datetimes_are_refused() -> None:
    with pytest.raises(ValueError, match="time-zone aware"):
        age_days(datetime(2026, 12, 1), NOW)


def test_labels_read_today_yesterday_and_n_days_ago() -> None:
    assert [age_label(days) for days in (0, 1, 2, 47)] == [
        "today",
        "yesterday",
        "2 days ago",
        "47 days ago",
    ]


def test_fresh_memories_carry_no_note() -> None:
    assert freshness_note(0) is None
    assert freshness_note(1) is None


def test_older_memories_carry_the_exact_f4_note() -> None:
    assert freshness_note(2) == (
        "This memory is 2 days old. Memories are point-in-time observations, not live state "
        "— claims about code behavior or file:line citations may be outdated. Verify against "
        "current code before asserting as fact."
    )
    month_old = freshness_note(31)
    assert month_old is not None
    assert month_old.startswith("This memory is 31 days old. Memories are point-in-time")


def test_the_recall_header_of_a_fresh_memory_is_claude_codes_own() -> None:
    assert freshness_header("user_role.md", 0) == "Memory: user_role.md:"
    assert freshness_header("user_role.md", 1) == "Memory: user_role.md:"


def test_the_recall_header_of_an_older_memory_leads_with_the_note() -> None:
    assert freshness_header("/m/feedback_tests.md", 5) == (
        "This memory is 5 days old. Memories are point-in-time observations, not live state "
        "— claims about code behavior or file:line citations may be outdated. Verify against "
        "current code before asserting as fact.\n\nMemory: /m/feedback_tests.md:"
    )
