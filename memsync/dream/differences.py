"""What tells two alike memories apart, whichever judge found them alike (issue 15
item 3): a fact of one the other lacks, a name said of another thing, a word that takes
away, narrows or ends what the other says, words said in another arrangement.

The word judge (`memsync.dream.word_judge`), the fact judge
(`memsync.dream.fact_judge`) and a memory restated and added to
(`memsync.dream.judges`) each ask these of the pair they judge; the rules and the
tuning batches they were written for are in those modules' docstrings.
"""

from __future__ import annotations

import itertools
import re

from memsync.dream.glossary import translated
from memsync.dream.misspelling import misspellable, one_edit
from memsync.dream.opposites import words_traded
from memsync.dream.profiles import CJK_START, FILLER_WORDS, Profile, canonical
from memsync.dream.rewording import names_moved, names_regrouped, names_swapped, negation_moved
from memsync.dream.vocabulary import (
    COMPONENTS,
    ENDED,
    MONTHS,
    PRIVATIVE,
    QUALIFIERS,
    RESTRICTING,
    SENTENCE_STARTERS,
    SYNONYMS,
    stem,
)

QUALIFIER_FORMS = frozenset(canonical(word) for word in QUALIFIERS)
COMPONENT_FORMS = frozenset(canonical(word) for word in COMPONENTS)
QUALIFIER_AND_COMPONENT_FORMS = QUALIFIER_FORMS | COMPONENT_FORMS
RESTRICTING_FORMS = frozenset(canonical(word) for word in RESTRICTING)
_PRIVATIVE = frozenset(canonical(word) for word in PRIVATIVE)
# The restricting words that narrow a sentence with no qualifier beside them ("4
# replicas, for EU customers only"), unlike "applies" or "holds".
SOLELY = frozenset(canonical(word) for word in ("only", "exclusively", "solely"))
_ENDED = frozenset(canonical(word) for word in ENDED)
_UNTIL_A_DATE = re.compile(
    rf"\buntil\s+(?:\d+(?:[./-]\d+)*|q[1-4]\b|(?:{'|'.join(MONTHS)})\b)", re.I
)
_STARTERS = frozenset(stem(word) for word in SENTENCE_STARTERS) | frozenset(
    canonical(word) for word in SENTENCE_STARTERS
)


def facts_within(smaller: Profile, larger: Profile) -> bool:
    """Whether every fact of `smaller` is one of `larger`'s; a word capitalised in one
    and not the other ("Incident postmortems …", "postmortems for incidents"), or
    written in Chinese in the other ("周二", "Tuesday"), is the same word, and a
    capitalised filler word ("Run …") no fact, nor a common word capitalised only where
    a sentence starts ("Questions go to …": `SENTENCE_STARTERS`)."""
    missing = [
        fact
        for fact in smaller.facts - larger.facts
        if not (
            (fact.isalpha() or fact.isdigit())
            and not (larger.words | FILLER_WORDS).isdisjoint(
                (fact, SYNONYMS.get(fact, fact), canonical(translated(fact).casefold()))
            )
        )
        and not _misspelt_common_word(fact, smaller, larger)
    ]
    if not missing:
        return True
    if any(fact not in _STARTERS for fact in missing):
        return False
    # Capitalised where no sentence starts, or before a name or a kind of component
    # ("Reviews API", "Alerts service"), it names something.
    words = smaller.shape.words
    naming = {word.text for word in words if word.name} | {
        word.text
        for word, after in itertools.pairwise(words)
        if after.name or after.text in COMPONENT_FORMS
    }
    return naming.isdisjoint(missing)


def _misspelt_common_word(fact: str, smaller: Profile, larger: Profile) -> bool:
    """Whether a fact of `smaller` is a word `larger` says, misspelt and capitalised
    where a sentence starts ("Deploymnets happen …", "Rotaton changes …"): spelt one
    edit from a word `larger` spells that names nothing there (none of its facts, or a
    word that only starts sentences). "Marlin" against "Merlin", a name in both, is two
    facts."""
    spellings = [word for word in smaller.spelled if stem(word) == fact and misspellable(word)]
    return any(
        one_edit(spelling, word) and (stem(word) not in larger.facts or stem(word) in _STARTERS)
        for spelling in spellings
        for word in larger.spelled
    )


def subject_added(smaller: Profile, larger: Profile) -> bool:
    """Whether `larger` names a thing (a name before a kind of component: "Promo
    service", "Reviews API") whose name `smaller` never says: "PostgreSQL 15 on RDS" or
    "The service's database is …" may be about another service than the one named."""
    words = larger.shape.words
    return any(
        (word.name or word.text in larger.facts)
        and after.text in COMPONENT_FORMS
        and word.text not in smaller.words
        for word, after in itertools.pairwise(words)
    )


def said_with_a_new_name(having: Profile, other: Profile, words: frozenset[str]) -> frozenset[str]:
    """The words of `words` `having` says, and only in sentences naming something
    `other` never says: "Traces are in Tempo under service heron-api" adds a fact,
    service and all, to a memory that says nothing of traces."""
    mine = words & having.words
    if not mine:
        return mine
    shape = having.shape.words
    naming = {word.sentence for word in shape if word.name and word.text not in other.words}
    elsewhere = {word.text for word in shape if word.text in mine and word.sentence not in naming}
    return mine - elsewhere


def takes_away(
    smaller: Profile, larger: Profile, added: set[str], marking: frozenset[str] = _PRIVATIVE
) -> bool:
    """Whether `larger` says a word of `PRIVATIVE` `smaller` lacks ("leave code samples
    out", "except for docs changes", "skip") in a sentence that says words of the
    other: it then takes away what the other grants. In a sentence of its own ("Why: …
    took an hour without one") it is a fact added. With `marking` `SOLELY`, whether it
    says "only" so: it then narrows what the other grants."""
    privative = added & marking
    if not privative:
        return False
    words = larger.shape.words
    taking = {word.sentence for word in words if word.text in privative}
    known = smaller.words
    return any(word.sentence in taking and word.text in known for word in words)


def narrowed(smaller: Profile, larger: Profile, added: set[str]) -> bool:
    """Whether `larger` adds a qualifier (`QUALIFIERS`) in a sentence that restricts
    (`RESTRICTING`) and names nothing `smaller` does not: "This holds for staging
    only" narrows all the other says, even in a sentence of its own, where "Why: a
    mocked migration passed while production broke" or "Only Bo Chen deploys to
    staging" states a fact of its own."""
    qualifiers = added & QUALIFIER_FORMS
    if not qualifiers:
        return False
    words = larger.shape.words
    scoped = {word.sentence for word in words if word.text in qualifiers}
    restricting = {word.sentence for word in words if word.text in RESTRICTING_FORMS}
    known = smaller.words
    naming = {word.sentence for word in words if word.name and word.text not in known}
    return bool((scoped & restricting) - naming)


def ends(one: Profile, other: Profile, only: set[str]) -> bool:
    """Whether, of two memories saying `only` one side alone, one says that what the
    other says held once and holds no more: a word of `ENDED` ("formerly", "no
    longer") or "until" a date ("until March", "until 2026") one side alone says."""
    if not _ENDED.isdisjoint(only):
        return True
    if "until" not in one.text.casefold() and "until" not in other.text.casefold():
        return False
    return _until_a_date(one) != _until_a_date(other)


def _until_a_date(memory: Profile) -> set[str]:
    return {match.group(0).casefold() for match in _UNTIL_A_DATE.finditer(memory.text)}


def unread(words: set[str]) -> bool:
    """Whether words one memory says alone hold Chinese the glossary does not read (a
    character pair; a lone character between glossary words is let pass)."""
    return any(len(word) > 1 and CJK_START.match(word) for word in words)


def swapped(one: Profile, other: Profile, traded: bool = False) -> bool:
    """Whether the two say their shared words in another arrangement that changes a
    fact: names traded, a name moved to another sentence, names regrouped, a denial
    moved to another word (`memsync.dream.rewording`)."""
    first, second = one.shape, other.shape
    return (
        names_swapped(first, second, traded)
        or names_moved(first, second)
        or names_regrouped(first, second, traded=traded)
        or negation_moved(first, second)
        or words_traded(first, second)
    )
