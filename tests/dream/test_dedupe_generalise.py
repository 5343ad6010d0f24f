"""The rules written for the fourth tuning batch (``tuning/rewritten.py``): each merges
a kind of duplicate the first three batches' rules missed, or refuses a look-alike they
merged, and each has its look-alike kept apart."""

from __future__ import annotations

import pytest

from tests.dream.test_dedupe_facts import merged


def test_a_memory_of_few_words_inside_another_stays_apart() -> None:
    # Its subject may be only in its file name: "PostgreSQL 15 on RDS." is not
    # the same fact as another service's database.
    assert not merged(
        "project",
        "PostgreSQL 15 on RDS.",
        "Promo service DB. Backups run nightly.\n\nPostgreSQL 15 on RDS.",
    )
    short = "The Kestrel service runs on Kubernetes."
    assert not merged("project", short, "The Kestrel service runs on Nomad.")


def test_a_common_word_starting_a_sentence_is_no_fact() -> None:
    english = "Falcon API database\n\nThe Falcon API stores its data in PostgreSQL 15 on RDS. " \
        "Connections go through PgBouncer."  # fmt: skip
    chinese = "Falcon API 数据库\n\nFalcon API 的数据存放在 RDS 上的 PostgreSQL 15，" \
        "连接经过 PgBouncer。"  # fmt: skip
    assert merged("project", english, chinese)
    # A name starting a sentence is still a fact: only everyday words are let pass,
    # and not before a name or a kind of component ("Reviews API").
    assert not merged(
        "project",
        "Reviews API data is in PostgreSQL 15 on RDS.",
        "The promo API keeps its data in PostgreSQL 15 on RDS.",
    )
    assert not merged(
        "project",
        "Falcon API data lives in PostgreSQL 15. Orbit reviews its migrations.",
        "Falcon API 的数据存放在 PostgreSQL 15。Vega reviews its migrations.",
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Lena Park prefers answers with code samples.",
         "Lena Park prefers answers that leave code samples out."),
        ("Run the Ibis test suite before merging.",
         "Run the Ibis test suite before merging, except for docs changes."),
    ],
)  # fmt: skip
def test_a_word_that_takes_away_what_the_other_grants_is_not_merged(
    first: str, second: str
) -> None:
    assert not merged("user", first, second)


def test_a_word_that_takes_away_in_a_sentence_of_its_own_is_a_fact_added() -> None:
    assert merged(
        "feedback",
        "Use feature flags for every risky change.",
        "Use feature flags for every risky change.\n\n"
        "Why: the checkout rollback in March took an hour without one.",
    )


def test_service_after_a_name_the_other_says_bare_names_one_thing() -> None:
    assert merged(
        "project",
        "The Robin service stores uploads in S3 bucket robin-uploads.",
        "Uploads for Robin go to the robin-uploads S3 bucket.",
    )
    assert not merged(
        "project",
        "The Robin worker stores uploads in S3 bucket robin-uploads.",
        "Uploads for Robin go to the robin-uploads S3 bucket.",
    )
    assert not merged(
        "project",
        "The Robin service stores uploads in S3 bucket robin-uploads.",
        "The Robin worker stores uploads in S3 bucket robin-uploads.",
    )


@pytest.mark.parametrize(
    ("kind", "first", "second"),
    [
        ("feedback", "Always write tests for the Osprey service.",
         "Escribe siempre pruebas para el servicio Osprey."),
        ("user", "Mateo Ruiz is a backend engineer on the Ibis worker and prefers answers in "
         "Spanish.", "Mateo Ruiz es ingeniero backend del Ibis worker y prefiere respuestas en "
         "español."),
        ("project", "The Condor API times out after 30 seconds; clients retry three times.",
         "Condor API 的超时是 30 秒，客户端重试三次。"),
        ("user", "Lena Park is the product manager for the Quartz app.",
         "Quartz app PM: Lena Park."),
        ("feedback", "Keep PRs for the Lynx frontend under 400 lines.",
         "Pull requests to the Lynx frontend should stay below 400 lines."),
    ],
)  # fmt: skip
def test_everyday_words_of_other_languages_and_abbreviations_are_read(
    kind: str, first: str, second: str
) -> None:
    assert merged(kind, first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The Condor API times out after 30 seconds; clients retry three times.",
         "Condor API 的超时是 30 分钟，客户端重试三次。"),
        ("Mateo Ruiz is a backend engineer on the Ibis worker.",
         "Mateo Ruiz es ingeniero frontend del Ibis worker."),
        ("Keep PRs for the Lynx frontend under 400 lines.",
         "Pull requests to the Lynx frontend should stay below 200 lines."),
    ],
)  # fmt: skip
def test_translated_or_reworded_with_one_fact_changed_is_not_merged(
    first: str, second: str
) -> None:
    assert not merged("project", first, second)


def test_names_said_again_in_other_words_are_no_swap_when_facts_are_many() -> None:
    assert merged(
        "project",
        "Kestrel service ownership\n\nThe Kestrel service belongs to the Orbit team. It is "
        "deployed every Wednesday after the 10:00 standup.\n\nQuestions go to Priya Shah, "
        "the Orbit tech lead.",
        "Who owns Kestrel\n\nOrbit team owns Kestrel; tech lead is Priya Shah.\n\n"
        "Deploys: Wednesdays, after the 10:00 standup.",
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The Payments team owns the Orders API; the lead is Ana Ruiz, on call on Monday.",
         "The Orders team owns the Payments API; the lead is Ana Ruiz, on call on Monday."),
        ("Billing API: owner Ana Ruiz, escalation Tom Berg, deploys on Friday.",
         "Billing API: owner Tom Berg, escalation Ana Ruiz, deploys on Friday."),
        ("Ana Ruiz owns the Billing API. Tom Berg is on call for it on Friday.",
         "Tom Berg owns the Billing API. Ana Ruiz is on call for it on Friday."),
    ],
)  # fmt: skip
def test_names_that_trade_places_are_a_swap_however_many_the_facts(first: str, second: str) -> None:
    assert not merged("project", first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The service's staging database is PostgreSQL 14 on RDS.",
         "Promo service database\n\nThe Promo service uses PostgreSQL 14 on RDS in staging."),
        ("Database: PostgreSQL 15 on RDS, schema public.",
         "Database: PostgreSQL 15 on RDS, schema public.\n\nUsed by the Reviews API."),
    ],
)  # fmt: skip
def test_a_memory_naming_no_service_stays_apart_from_one_naming_it(first: str, second: str) -> None:
    assert not merged("project", first, second)


def test_a_value_replaced_beside_its_label_is_another_fact() -> None:
    # "RDS" is still said (by "RDS Proxy"), once where the other says it twice.
    assert not merged(
        "project",
        "Orders DB\n\n- engine: PostgreSQL 15\n- host: RDS\n- pooler: RDS Proxy",
        "Orders DB\n\n- engine: PostgreSQL 15\n- host: Cloud SQL\n- pooler: RDS Proxy",
    )
