"""Whole memories restated whole (the fifth tuning batch, ``tuning/paraphrased.py``):
the rules that merge more of them, each with the look-alike it must still refuse.

A restatement is looked for through its names and numbers, not only its rarest words
(`memsync.dream.blocking`); inflections of one verb are one word and "twice" is "2
times" (`memsync.dream.vocabulary`); names regrouped tell two memories apart, with
facts enough to pin them down, only when they trade partners
(`memsync.dream.rewording.names_regrouped`); an obligation one side alone states adds
no fact to a rule stated plainly (`memsync.dream.fact_judge`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsync.dream import dedupe
from memsync.dream.blocking import candidate_pairs
from memsync.dream.profiles import profile_of
from memsync.dream.vocabulary import stem
from memsync.memory import MemoryDirectory, MemoryFile
from tests.dream.corpus import build_corpus
from tests.dream.test_dedupe_facts import merged
from tests.dream.test_dedupe_fast_paths import _tuning_texts
from tests.dream.test_dedupe_restated import memory
from tests.dream.test_dedupe_tuning import check_batch
from tests.dream.tuning import adversarial, paraphrased, rewritten, supersets

# What the rules reach on the fifth batch, rounded down (20 of 41; 16 before them).
FLOOR = 0.48


def test_it_merges_more_whole_restatements_and_no_look_alike(tmp_path: Path) -> None:
    check_batch(tmp_path, "paraphrased", paraphrased.write_corpus, FLOOR)


def _files(root: Path) -> list[MemoryFile]:
    return list(MemoryDirectory.read(root, links=False).files.values())


def _read(text: str) -> str:
    """A batch text as duplicate detection reads it (a bare file has no description)."""
    if text.startswith(paraphrased.BARE):
        return "\n" + text.removeprefix(paraphrased.BARE)
    return memory(text)


def test_kept_words_are_the_capitalised_words_and_those_with_a_digit(tmp_path: Path) -> None:
    # `dedupe._kept` asks `Profile.capitalised`'s question of fewer words: the same words.
    texts = _tuning_texts(tmp_path)
    bench = build_corpus(tmp_path / "bench", memories=300, seed=3).root
    texts += [f"{m.description or ''}\n{m.body}" for m in _files(bench)]
    for text in texts:
        read = profile_of(text)
        digits = {word for word in read.words if not word.isalpha()}
        assert dedupe._kept(profile_of(text), read.words) == read.capitalised | digits, text


def test_a_restatement_is_looked_for_through_its_names_and_numbers() -> None:
    # The restatement's rarest words are its own ("final", "nothing", "relies"), each
    # held by a filler too; the names and numbers both say are held by more.
    original = frozenset({"last", "window", "frozen", "kestrel", "orbit", "15:00", "quarter"})
    restated = frozenset({"final", "noth", "rely", "kestrel", "orbit", "15:00"})
    fillers = [frozenset({word, "filler"}) for word in ("last", "window", "frozen")]
    fillers += [frozenset({word, "filler"}) for word in ("final", "noth", "rely")]
    fillers += [frozenset({"kestrel", "orbit", "15:00", f"other{n}"}) for n in range(4)]
    words = [original, restated, *fillers]
    given = (["project"] * len(words), words, [" ".join(sorted(w)) for w in words])

    def close(shared: int, one: int, other: int) -> bool:
        return shared >= 3 and shared >= 0.5 * min(one, other)

    def slack(size: int) -> int:
        return 2

    assert (0, 1) not in candidate_pairs(*given, close, slack)

    def kept(index: int, held: frozenset[str]) -> frozenset[str]:
        return held & {"kestrel", "orbit", "15:00"}

    assert (0, 1) in candidate_pairs(*given, close, slack, kept)


@pytest.mark.parametrize(
    ("one", "other"),
    [("retried", "retries"), ("paged", "pages"), ("paging", "page"), ("copied", "copies")],
)
def test_inflections_of_one_verb_are_one_word(one: str, other: str) -> None:
    assert stem(one) == stem(other)


def test_a_short_verb_keeps_its_e_and_no_denial_is_made() -> None:
    assert stem("noted") == "note"  # not "not", a denial
    assert stem("owned") == "own" and stem("asked") == "ask" and stem("fixed") == "fix"


def test_twice_is_two_times() -> None:
    assert "2" in profile_of("Failed calls are retried twice with backoff.").facts
    first = "Condor retries\nFailed Condor calls are retried twice with backoff."
    assert merged(
        "project", first, "Condor retries\nFailed Condor calls: two retries with backoff."
    )
    assert not merged(
        "project", first, "Condor retries\nFailed Condor calls: three retries with backoff."
    )


def test_names_regrouped_in_a_restatement_without_trading_partners_merge() -> None:
    restated = next(two for _, one, two in paraphrased.REWORDED if one == paraphrased.SWAN_ONCALL)
    assert merged("project", memory(paraphrased.SWAN_ONCALL), memory(restated))


def test_names_that_trade_partners_stay_apart_however_many_facts() -> None:
    first = (
        "Geo API deploys on Tuesday at 10:00 UTC with `make deploy-geo`, and Maps API "
        "deploys on Thursday at 10:00 UTC with `make deploy-maps`."
    )
    second = (
        "Geo API deploys on Thursday at 10:00 UTC with `make deploy-geo`, and Maps API "
        "deploys on Tuesday at 10:00 UTC with `make deploy-maps`."
    )
    assert not merged("project", first, second)


def test_an_obligation_one_side_alone_states_adds_no_fact() -> None:
    bare = next(two for _, one, two in paraphrased.BARE_PAIRS if one == paraphrased.OSPREY_STYLE)
    assert merged("feedback", memory(paraphrased.OSPREY_STYLE), _read(bare))


@pytest.mark.parametrize(
    "other",
    [
        # The other grants: "may" against "must" is the fact.
        "Kite SDK merges\nContractors may merge PRs into the Kite SDK repo after CI passes.",
        # The obliging side restricts: "only" is the fact.
        "Kite SDK merges\nOnly contractors must merge PRs into the Kite SDK repo after CI passes.",
    ],
)
def test_an_obligation_against_a_permission_or_a_restriction_stays_apart(other: str) -> None:
    plain = "Kite SDK merges\nContractors merge PRs into the Kite SDK repo after CI passes."
    obliged = "Kite SDK merges\nContractors must merge PRs into the Kite SDK repo after CI passes."
    assert merged("project", plain, obliged)
    assert not merged("project", obliged if "may" in other else plain, other)


@pytest.mark.parametrize(
    "lookalikes",
    [paraphrased.LOOKALIKES, rewritten.LOOKALIKES, supersets.LOOKALIKES, adversarial.LOOKALIKES],
    ids=["paraphrased", "rewritten", "supersets", "adversarial"],
)
def test_no_look_alike_merges_judged_alone(lookalikes: list[tuple[str, str, str]]) -> None:
    # In a directory a look-alike could hide behind another merge, or never be compared.
    alone = [
        (kind, one, two) for kind, one, two in lookalikes if merged(kind, _read(one), _read(two))
    ]
    assert alone == []
