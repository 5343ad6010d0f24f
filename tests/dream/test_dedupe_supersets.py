"""Duplicate detection on the seventh tuning batch (``tuning/supersets.py``): a memory
restated and added to merges; one whose addition denies, ends or changes what the other
says does not. Never a false merge; the recall floor is what the rules reach, rounded
down."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.dream.test_dedupe_facts import merged
from tests.dream.test_dedupe_restated import memory, pair_of
from tests.dream.test_dedupe_tuning import check_batch
from tests.dream.tuning import supersets

# What the rules reach on the batch, rounded down.
FLOOR = 0.59


def test_it_merges_no_look_alike_and_most_supersets(tmp_path: Path) -> None:
    check_batch(tmp_path, "supersets", supersets.write_corpus, FLOOR)


@pytest.mark.parametrize(
    ("kind", "first", "second"), supersets.LOOKALIKES, ids=lambda t: t[:30] if len(t) > 9 else t
)
def test_a_look_alike_alone_is_not_merged(kind: str, first: str, second: str) -> None:
    # In the directory a look-alike whose shorter memory merged with its superset first
    # would not show; judged alone, it cannot hide.
    assert not merged(kind, memory(first), memory(second))


def test_it_merges_a_memory_restated_in_other_words_with_why_and_how_lines() -> None:
    # "is deployed … every Tuesday" / "on Tuesdays", another description; the Why and
    # How lines name the Payments team and Monday, which the shorter never says.
    assert merged("project", *pair_of("project", supersets.RESTATED, supersets.GADWALL_DEPLOYS))


def test_a_denial_in_a_clause_of_its_own_is_a_fact_added() -> None:
    shorter = "Tern admin sign-in\nThe Tern admin portal signs people in through Okta SSO."
    restated = "Tern sign-in\nThe Tern admin portal signs people in with Okta SSO."
    assert merged("project", shorter, f"{restated}\n\n**Why:** we never store passwords.")
    # Said of what the shorter says, it denies it.
    assert not merged("project", shorter, f"{restated}\n\n**Why:** people no longer sign in there.")
    assert not merged(
        "project", shorter, f"{restated}\n\n**How to apply:** the portal does not use Okta."
    )


@pytest.mark.parametrize(
    "ending",
    [
        "Rohan Das formerly reviewed infrastructure PRs for the Dunlin platform.",
        "Rohan Das previously reviewed infrastructure PRs for the Dunlin platform.",
        "Rohan Das reviews infrastructure PRs for the Dunlin platform. This is no longer true.",
        "Rohan Das reviews infrastructure PRs for the Dunlin platform. Not anymore.",
        "Rohan Das reviewed infrastructure PRs for the Dunlin platform until March.",
        "Rohan Das reviews infrastructure PRs for the Dunlin platform until 2027.",
    ],
)
def test_a_word_that_ends_what_the_other_says_is_not_merged(ending: str) -> None:
    assert not merged("user", supersets.ROHAN, ending)


def test_until_an_event_or_a_day_ends_nothing() -> None:
    assert merged(
        "project",
        supersets.FREEZE,
        f"{supersets.FREEZE} Changes merged after that wait until Monday.",
    )


def test_how_to_apply_is_a_label_that_restricts_nothing() -> None:
    # "apply" restricts ("This applies to staging only"); Claude Code's label does not.
    assert merged("feedback", *pair_of("feedback", supersets.SUPERSETS, supersets.PLOVER_E2E))


@pytest.mark.parametrize(
    "added", ["Not this month.", "Except in December.", "Ignore this note.", "Do not rely on it."]
)
def test_a_denial_with_nothing_of_its_own_to_deny_is_not_merged(added: str) -> None:
    # A clause of its own, it denies or narrows what the other says.
    assert not merged("project", supersets.FREEZE, f"{supersets.FREEZE} {added}")
    restated = "Production deploys stop on Fridays at 16:00 CET."
    assert not merged("project", supersets.FREEZE, f"{restated}\n\n{added}")
