"""The rules written for the fifth tuning batch (``tuning/paraphrased.py``): whole
memories restated whole merge when they state the same facts, and each rule has its
look-alike kept apart."""

from __future__ import annotations

import pytest

from memsync.dream.blocking import candidate_pairs
from memsync.dream.dedupe import facts
from tests.dream.test_dedupe_facts import merged
from tests.dream.tuning import paraphrased


def memory(text: str) -> str:
    """A batch text as duplicate detection reads it: description, then body."""
    description, _, body = text.partition("\n---\n")
    return f"{description}\n{body}"


def pair_of(kind: str, pairs: list[tuple[str, str, str]], first: str) -> tuple[str, str]:
    """The texts of the batch's pair of `kind` whose first text is `first`."""
    return next((memory(one), memory(two)) for k, one, two in pairs if k == kind and one == first)


@pytest.mark.parametrize(
    ("kind", "pairs", "first"),
    [
        ("project", paraphrased.REWORDED, paraphrased.KESTREL_DEPLOYS),
        ("project", paraphrased.TRANSLATED, paraphrased.KESTREL_DEPLOYS),
        ("project", paraphrased.TRANSLATED, paraphrased.PELICAN_BACKUPS),
        ("project", paraphrased.REWORDED, paraphrased.TEAL_API_VERSIONS),
        ("user", paraphrased.REWORDED, paraphrased.MEI_REVIEWS),
        ("reference", paraphrased.LISTED, paraphrased.HERON_DASHBOARD),
    ],
)
def test_it_merges_a_whole_memory_restated_with_the_same_facts(
    kind: str, pairs: list[tuple[str, str, str]], first: str
) -> None:
    assert merged(kind, *pair_of(kind, pairs, first))


@pytest.mark.parametrize(
    ("kind", "first", "second"),
    [
        # another day, environment, region, date, channel, time: the same restatement
        ("project", paraphrased.KESTREL_DEPLOYS, "When Kestrel ships\n---\nThe Orbit team "
         "ships Kestrel to production on Thursdays at 15:00 UTC. Nothing is deployed in the "
         "final week of a quarter, because finance closes its books then and relies on "
         "Kestrel's reports."),
        ("project", paraphrased.KESTREL_DEPLOYS, "When Kestrel ships\n---\nThe Orbit team "
         "ships Kestrel to staging on Wednesdays at 15:00 UTC. Nothing is deployed in the "
         "final week of a quarter, because finance closes its books then and relies on "
         "Kestrel's reports."),
        ("project", paraphrased.PELICAN_BACKUPS, "Backup schedule for Pelican\n---\nEach "
         "night at 02:30 UTC the Pelican database is copied to the pelican-backups bucket "
         "(us-east-1) and kept for 35 days. On the first Monday of every month a restore is "
         "tested."),
        ("project", paraphrased.TEAL_API_VERSIONS, "Live versions of the Teal API\n---\nTwo "
         "versions of the Teal API are served: v3, the current one, and v2, deprecated "
         "until 2027-06-30. Only v4 may receive breaking changes."),
        ("reference", paraphrased.HERON_DASHBOARD, "Where to look when Heron is slow\n---\n"
         "- Grafana: https://grafana.example.org/d/heron-latency\n- alerts channel: "
         "#heron-oncall\n- runbook: linked from the dashboard header"),
        ("user", paraphrased.MEI_REVIEWS, "When to ask Mei Lin for a review\n---\nAsk Mei "
         "Lin for reviews early: she reviews code from 13:00 to 15:00 CET, and a request "
         "that arrives later waits for the next day."),
    ],
)  # fmt: skip
def test_a_restatement_with_one_fact_changed_is_not_merged(
    kind: str, first: str, second: str
) -> None:
    assert not merged(kind, memory(first), memory(second))


def test_a_name_joined_by_hyphens_is_a_fact_of_a_restatement() -> None:
    # "ibis-overview" and "ibis-latency" hold the name Ibis; the rest is the same.
    assert not merged(
        "reference",
        "Dashboards for Ibis: Grafana board ibis-overview, alerts in #ibis-alerts.",
        "Dashboards for Ibis: Grafana board ibis-latency, alerts in #ibis-alerts.",
    )


def test_a_role_in_a_restatement_tells_it_apart_only_against_another() -> None:
    quartz = memory(paraphrased.QUARTZ_FLAGS)
    writes = quartz.replace("Lena Park reviews the removals", "Lena Park approves the removals")
    assert not merged("project", quartz, writes)


def test_a_word_of_order_alone_tells_apart_only_memories_differing_otherwise() -> None:
    # "explain after" is one side's alone, and one memory adds a fact: when unsure,
    # no merge ("lead with the explanation, then …" is another rule).
    assert not merged(
        "user",
        "How Dana Kim likes answers\nDana Kim reads answers on her phone between meetings, "
        "so keep them short: lead with the command or diff, explain after, and skip the "
        "closing summary. She also prefers British spelling.",
        "How Dana Kim likes answers\nDana Kim reads answers on her phone between meetings, "
        "so keep them short: lead with the explanation, then the command or diff, and skip "
        "the closing summary.",
    )
    assert not merged(
        "project",
        "Kestrel deploys\nThe Orbit team deploys Kestrel on Wednesdays at 15:00 UTC, before "
        "the standup, from the release/kestrel branch.",
        "Kestrel deploys\nThe Orbit team deploys Kestrel on Wednesdays at 15:00 UTC, after "
        "the standup, from the release/kestrel branch.",
    )


def test_a_qualifier_in_a_sentence_that_restricts_is_not_a_fact_added() -> None:
    secrets = memory(paraphrased.GULL_SECRETS)
    assert not merged("feedback", secrets, secrets + "\n\nThis holds for staging only.")
    # A qualifier in a sentence saying why is a fact added.
    assert merged(
        "feedback",
        "Integration tests must hit a real Postgres, never a mock.",
        "Integration tests must hit a real Postgres, never a mock.\n\n"
        "Why: a mocked migration passed while production broke.",
    )


def test_a_common_word_misspelt_where_a_sentence_starts_is_no_fact() -> None:
    assert merged(
        "project",
        "Deployments happen every Tuesday at 14:00 UTC for the Kestrel service.",
        "Deploymnets happen every Tuesday at 14:00 UTC for the Kestrel service.",
    )
    assert not merged(
        "project",
        "The Marlin API uses PostgreSQL 15 on RDS.",
        "The Merlin API uses PostgreSQL 15 on RDS.",
    )


def test_may_the_verb_is_no_month() -> None:
    assert "may" not in facts("Only v4 may receive breaking changes.")
    assert "may" in facts("Released in May.")


def test_a_memory_with_many_words_of_its_own_still_finds_its_copy() -> None:
    # Memory 0 lacks at most no word (`slack` 0): it is looked for through its one
    # rarest word. "own" only it holds pairs it with none; "kestrel", which 2 hold, does.
    words = [
        frozenset({"own", "kestrel", "deploy"}),
        frozenset({"kestrel", "deploy", "wednesday"}),
        frozenset({"deploy", "friday", "tanager"}),
    ]
    pairs = candidate_pairs(
        ["project"] * 3,
        words,
        ["a", "b", "c"],
        close=lambda shared, one, other: shared >= 2,
        slack=lambda size: 0,
    )
    assert (0, 1) in pairs


def test_a_component_in_a_sentence_naming_something_new_is_a_fact_added() -> None:
    first, second = pair_of("reference", paraphrased.SUPERSETS, paraphrased.HERON_DASHBOARD)
    assert merged("reference", first, second)
    # In a sentence naming nothing new, it says which thing the rest is about.
    vague = second.replace(
        "Traces are in Tempo under service heron-api.", "The worker behind it is slow."
    )
    assert not merged("reference", first, vague)
