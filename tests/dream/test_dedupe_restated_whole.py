"""Duplicate detection on the eighth tuning batch (``tuning/restated.py``): a memory
restated whole by another person in Claude Code's layout merges; the same restatement
with one fact changed does not. Never a false merge; the recall floor is what the rules
reach, rounded down."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.dream.test_dedupe_facts import merged
from tests.dream.test_dedupe_restated import memory
from tests.dream.test_dedupe_tuning import check_batch
from tests.dream.tuning import restated

# What the rules reach on the batch, rounded down.
FLOOR = 0.51


def test_it_merges_no_look_alike_and_most_restatements(tmp_path: Path) -> None:
    check_batch(tmp_path, "restated whole", restated.write_corpus, FLOOR)
    # Judged alone too: in the directory a look-alike could hide behind another merge.
    alone = [
        (kind, one, two)
        for kind, one, two in restated.LOOKALIKES
        if merged(kind, memory(one), memory(two))
    ]
    assert alone == []


@pytest.mark.parametrize(
    ("modal", "denied"),
    [
        ("has to", "does not have to"),
        ("needs to", "does not need to"),
        ("is required to", "is not required to"),
    ],
)
def test_a_modal_said_in_other_words_is_must(modal: str, denied: str) -> None:
    first = "Aspen hosting\nThe Aspen ledger runs in eu-west-1. Customer data must stay in the EU."
    second = (
        "Aspen ledger hosting\nAspen's ledger runs in eu-west-1; customer data {} stay in the EU."
    )
    assert merged("project", first, second.format(modal))
    assert not merged("project", first, second.format(denied))


def test_only_added_to_a_sentence_both_say_narrows_it() -> None:
    narrowed = restated.ASPEN_RESTATED.replace("4 replicas.", "4 replicas only.")
    assert merged("project", memory(restated.ASPEN), memory(restated.ASPEN_RESTATED))
    assert not merged("project", memory(restated.ASPEN), memory(narrowed))


def test_descriptions_summing_up_their_body_replace_nothing() -> None:
    # "data engineer" said twice in one (description and body), once in the other.
    assert merged("user", memory(restated.OMAR), memory(restated.OMAR_RESTATED))
