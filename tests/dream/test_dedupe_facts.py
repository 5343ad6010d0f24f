"""Duplicates judged by the facts they state (issue 15 item 3): two memories each in
words of their own merge when their names, numbers and identifiers agree and nothing
else tells them apart; the same names with another role, unit, arrangement or denial
stay two memories."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memsync.dream.dedupe import Candidate, facts, find_duplicates

NOW = datetime(2026, 12, 2, tzinfo=UTC)


def merged(kind: str, first: str, second: str) -> bool:
    """Whether duplicate detection merges two memories of one type."""
    memories = [
        Candidate("a.md", kind, None, first, NOW - timedelta(days=2)),
        Candidate("b.md", kind, None, second, NOW - timedelta(days=1)),
    ]
    return bool(find_duplicates(memories))


@pytest.mark.parametrize(
    ("kind", "first", "second"),
    [
        ("project", "Ticketing worker ships every Thursday, 11:00 CET.",
         "We usually release the Ticketing worker on Thursdays at 11:00 CET."),
        ("project", "Quota API 归 Nimbus 团队负责。", "The Quota API is owned by the Nimbus team."),
        ("project", "Kafka topic orders.v2 keeps events for 7 days.",
         "Kafka 主题 orders.v2 的事件保留 7 天。"),
        ("project", "Refund worker -> Ledger team (tech lead Olga Sand).",
         "The Ledger team maintains the Refund worker; Olga Sand is its tech lead."),
    ],
)  # fmt: skip
def test_it_merges_the_same_facts_in_other_words(kind: str, first: str, second: str) -> None:
    assert merged(kind, first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # the same names, another role
        ("Ivo Lind is on call for the Maps API this week.", "Ivo Lind owns the Maps API."),
        # the same names and number, another thing measured
        ("Media API memory limit: 512 MB.", "Media API upload limit: 512 MB."),
        # names regrouped across the parts of one sentence
        ("Geo API deploys on Tuesday; Maps API deploys on Thursday.",
         "Geo API deploys on Thursday; Maps API deploys on Tuesday."),
        ("Atlas team owns the Geo API and Orbit team owns the Maps API.",
         "Orbit team owns the Geo API and Atlas team owns the Maps API."),
        # a fact of one said of another thing in the other
        ("Escalate Ledger incidents to Tom Berg.",
         "Billing API is owned by the Ledger team; escalate to Tom Berg."),
        # another chat channel, the rest translated
        ("Alerts for Payments go to the #payments-oncall channel.",
         "Payments 的告警发到 #billing-oncall 频道。"),
    ],
)  # fmt: skip
def test_the_same_names_stating_another_fact_are_not_merged(first: str, second: str) -> None:
    assert not merged("project", first, second)


def test_a_denial_moved_to_another_word_is_not_merged() -> None:
    assert not merged(
        "feedback",
        "Pin GitHub Actions to a commit SHA, not a tag.",
        "Pin GitHub Actions to a tag, not a commit SHA.",
    )


def test_the_verdict_does_not_depend_on_which_memory_comes_first() -> None:
    first = "Escalate Ledger API incidents to Tom Berg."
    second = "Billing API is owned by the Ledger team; escalate to Tom Berg."
    assert merged("project", first, second) == merged("project", second, first) is False


def test_a_chat_channel_is_a_fact() -> None:
    assert "#payments-oncall" in facts("Alerts go to the #payments-oncall channel.")
    assert "#payments-oncall" in facts("告警发到 #payments-oncall 频道。")
    assert not any(fact.startswith("#") for fact in facts("C# code, issue #42, # Heading"))
