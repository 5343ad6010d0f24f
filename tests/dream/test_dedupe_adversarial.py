"""Duplicate detection on the ninth tuning batch (``tuning/adversarial.py``): a memory
and a copy with exactly one fact changed (an antonym, a number written as a word, a
unit, a flag, a role, a tense, a condition) never merge; the controls, the same memory
written again, mostly do. The recall floor is what the rules reach, rounded down."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsync.dream.dedupe import duplicate_reason
from memsync.dream.profiles import profile_of
from tests.dream.test_dedupe_facts import merged
from tests.dream.test_dedupe_restated import memory
from tests.dream.test_dedupe_tuning import check_batch
from tests.dream.tuning import adversarial

# What the rules reach on the batch, rounded down.
FLOOR = 0.77


def test_it_merges_no_look_alike_and_most_controls(tmp_path: Path) -> None:
    check_batch(tmp_path, "adversarial", adversarial.write_corpus, FLOOR)
    # Judged alone too: in the directory a look-alike could hide behind another merge.
    alone = [
        (kind, one, two)
        for kind, one, two in adversarial.LOOKALIKES
        if duplicate_reason(profile_of(memory(one)), profile_of(memory(two)))
    ]
    for _, one, two in alone:
        print(f"merged alone: {memory(one)!r} / {memory(two)!r}")
    assert alone == []


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Keep three replicas of the Wren worker.", "Keep 3 replicas of the Wren worker."),
        ("Wren statement timeout: 30s.", "Wren statement timeout: 30 seconds."),
        ("Kestrel 客户端重试三次。", "Kestrel 客户端重试 3 次。"),
    ],
)
def test_a_number_or_unit_written_out_is_the_same_fact(first: str, second: str) -> None:
    assert merged("project", first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Keep three replicas of the Wren worker.", "Keep four replicas of the Wren worker."),
        ("Wren statement timeout: 30 s.", "Wren statement timeout: 30 ms."),
        ("Telemetry in the Lark CLI is opt-in.", "Telemetry in the Lark CLI is opt-out."),
        ("Jonas Weber owns the Rail exporter.", "Jonas Weber used to own the Rail exporter."),
    ],
)
def test_a_number_unit_particle_or_tense_changed_is_another_fact(first: str, second: str) -> None:
    assert not merged("project", first, second)


def test_a_thing_used_for_something_is_no_tense() -> None:
    assert merged(
        "project",
        "Rail invoices: the `rail-export` script is used to export them.",
        "Rail invoices - the `rail-export` script is used to export them!",
    )
