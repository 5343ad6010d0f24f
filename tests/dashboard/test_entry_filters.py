"""The index says each thing once: a description is shown under an entry only when it
says more than the entry's title and hook (dashboard/templatetags/entries.py)."""

from __future__ import annotations

import pytest

from dashboard.templatetags.entries import says_more


@pytest.mark.parametrize(
    ("description", "shown", "expected"),
    [
        # Claude Code's own layout: the hook is the description.
        (
            "Customer search uses Meilisearch",
            "search backend Customer search uses Meilisearch",
            False,
        ),
        ("周五不做生产发布", "周五不发布 周五不做生产发布", False),
        (
            "When releases go out and who signs them off",
            "Release train — when releases go out, who signs off",
            False,
        ),
        ("", "anything", False),
        (None, "anything", False),
        # Real samples (../shared/samples): the description adds a course number.
        (
            "Doug Goodwin teaches CalArts CSCM 373-01 (Fuzzbox Physics), builds interactive"
            " browser audio labs for students",
            "user_role.md Doug Goodwin, CalArts professor, builds interactive audio labs for"
            " Fuzzbox Physics course",
            True,
        ),
        (
            "Project database stack: PostgreSQL 16 on RDS",
            "Database stack — PostgreSQL on RDS",
            True,
        ),
        (
            "Deploys need two approvals from the platform team",
            "Release train — when releases go out",
            True,
        ),
        # A number the hook already carries is not news.
        (
            "Production deploys at 14:00 UTC",
            "production deploys Production deploys: 14:00 UTC",
            False,
        ),
    ],
)
def test_a_description_is_shown_only_when_it_says_more(description, shown, expected):
    assert says_more(description, shown) is expected
