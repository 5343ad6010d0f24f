"""Duplicate memories: merged only when nothing could be lost or confused (SPEC D4, D8;
issue 15 item 3).

A dream that merges two memories stating different facts is worse than no dream, so
the test is built to refuse when unsure. Two memories of one type are duplicates when
no fact differs and nothing one adds changes what the other says. Two judges read a
pair (`memsync.dream.judges.duplicate_reason`): the judge by words
(`memsync.dream.word_judge`: the same words, one side perhaps adding some) and the judge
by facts (`memsync.dream.fact_judge`: the same facts in other words); a memory that
restates the other and adds sentences of its own is judged as the two parts it is
(`memsync.dream.judges`, `memsync.dream.additions`). What tells two alike memories
apart, whichever judge found them alike, is `memsync.dream.differences`; an opposite
said by one side, `memsync.dream.opposites`.

Before either judge reads a pair, phrases a re-wording uses for one word become that word
(`memsync.dream.phrasing.reworded`: "looks after" → owns, "pull request" → PR) and
Spanish, German and French words of the glossary are read in English
(`memsync.dream.glossary.in_english`).

Thresholds and word lists were chosen on the tuning corpus in ``tests/dream/tuning/``
(written for that purpose: re-worded, templated, punctuated, translated, misspelt and
superset pairs, and look-alikes differing in one owner, day, number, version, service,
environment, word or name order; its sixth batch, ``first_heldout``, was the first
held-out corpus), where they give no false merge; ``tests/heldout/``
checks them on material written apart, and is never used to choose them.

A team memory (the server's repository) is changed only when nobody could disagree:
the same facts and near-identical wording (resemblance ≥ 0.9), no names swapped.

Comparing every pair of 2,000 memories would be two million comparisons. The smaller
of two duplicates has all its words in the larger, so a memory is only compared with
the memories holding one of its rarest words, or all of them together
(`memsync.dream.blocking`): near-linear in the number of memories. A memory in other
words is looked for through its `FACT_LOOKUPS` rarest words only: its names and
numbers, which a restatement keeps. Word counts come first (`_close`), then for the
judge by facts a qualifier or a name only one side has (cheap looks at the words and
the text); facts and word order, several passes over the text each, are read only for
the few pairs whose words already make them look like duplicates.

How a memory is read (its words, facts and word order) is `memsync.dream.profiles`.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from memsync.dream import readings
from memsync.dream.blocking import candidate_pairs
from memsync.dream.fact_judge import FACT_OVERLAP, MIN_SHARED_FACT_WORDS
from memsync.dream.judges import duplicate_reason

# Read by the deterministic engine and pruning through this module, as before the split.
from memsync.dream.merging import covered as covered
from memsync.dream.merging import union_bodies as union_bodies
from memsync.dream.profiles import Profile

# Read by supersession, staleness and canaries through this module, as before the split.
from memsync.dream.profiles import content_words as content_words
from memsync.dream.profiles import facts as facts
from memsync.dream.profiles import normalise as normalise
from memsync.dream.word_judge import worded_close

# Looked for through this many of a memory's rarest words (`_slack`).
FACT_LOOKUPS = 3


@dataclass(frozen=True)
class Candidate:
    """A memory as duplicate detection sees it."""

    path: str
    type: str
    name: str | None
    text: str  # description and body
    changed: datetime
    links: int = 0  # how many other memories link it


@dataclass
class DuplicateGroup:
    """Memories that become one: `keep` absorbs `absorbed` (see `survivor_key`)."""

    keep: str
    absorbed: list[str] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)  # absorbed path → why
    kept_because: str = ""


def survivor_key(memory: Candidate) -> tuple[datetime, int, int, str]:
    """Which copy survives a merge: the newer, then the longer, then the more linked,
    then the first by path (reversed, so a re-run always picks the same one)."""
    return (memory.changed, len(memory.text), memory.links, memory.path)


def find_duplicates(
    memories: Sequence[Candidate], *, conservative: bool = False
) -> list[DuplicateGroup]:
    """Groups of duplicates, each kept file first. Never groups across types.

    A group is built around its survivor: another memory joins only when it is a
    duplicate of that one, so a chain of merely similar memories (A like B, B like
    C, A unlike C) never collapses into one.
    """
    profiles = [readings.profile(memory.text) for memory in memories]
    linked: dict[int, set[int]] = defaultdict(set)
    verdicts: dict[tuple[int, int], str] = {}
    for first, second in _candidate_pairs(memories, profiles, conservative):
        pair = (profiles[first], profiles[second])
        reason = readings.verdict(
            memories[first].text,
            memories[second].text,
            conservative,
            lambda: duplicate_reason(*pair, conservative),  # noqa: B023 (called at once)
        )
        if reason is not None:
            linked[first].add(second)
            linked[second].add(first)
            verdicts[(first, second)] = verdicts[(second, first)] = reason
    order = sorted(linked, key=lambda i: survivor_key(memories[i]), reverse=True)
    taken: set[int] = set()
    groups: list[DuplicateGroup] = []
    for keeper in order:
        if keeper in taken:
            continue
        joining = sorted(
            (other for other in linked[keeper] if other not in taken),
            key=lambda i: survivor_key(memories[i]),
            reverse=True,
        )
        if not joining:
            continue
        taken.add(keeper)
        group = DuplicateGroup(keep=memories[keeper].path)
        group.kept_because = _kept_because(memories[keeper], [memories[o] for o in joining])
        for other in joining:
            taken.add(other)
            group.absorbed.append(memories[other].path)
            group.reasons[memories[other].path] = verdicts[(keeper, other)]
        groups.append(group)
    groups.sort(key=lambda group: group.keep)
    return groups


def _kept_because(keeper: Candidate, others: list[Candidate]) -> str:
    if all(keeper.changed > other.changed for other in others):
        return "the newest"
    if all(len(keeper.text) > len(o.text) for o in others if o.changed == keeper.changed):
        return "the longest of the newest"
    if all(keeper.links > o.links for o in others if o.changed == keeper.changed):
        return "the most linked of the newest"
    return "first by file name among equals"


def _candidate_pairs(
    memories: Sequence[Candidate], profiles: list[Profile], conservative: bool
) -> set[tuple[int, int]]:
    """The pairs worth a `duplicate_reason` (`memsync.dream.blocking`)."""
    return candidate_pairs(
        [memory.type for memory in memories],
        [profile.words for profile in profiles],
        [profile.exact for profile in profiles],
        close=functools.partial(_close, conservative=conservative),
        slack=functools.partial(_slack, conservative=conservative),
        # Memories in other words are judged by facts only in a personal dream.
        kept=None if conservative else lambda index, words: _kept(profiles[index], words),
    )


# A capital after a space: the initials of the words `_kept` may find written capitalised.
_INITIAL = re.compile(r" ([A-Z])")


def _kept(profile: Profile, words: frozenset[str]) -> frozenset[str]:
    """Those of a memory's `words` a restatement keeps, read cheaply: those with a digit
    and those written capitalised after a space (names, and some words starting a
    sentence: `Profile.capitalised`, here asked only of words whose capital the text
    holds, as every memory is read)."""
    text = profile.text
    initials = set(_INITIAL.findall(text))
    return frozenset(
        [
            word
            for word in words
            if not word.isalpha()
            or (word[0].upper() in initials and word.isascii() and f" {word.capitalize()}" in text)
        ]
    )


def _close(shared: int, one: int, other: int, conservative: bool) -> bool:
    """Whether two memories of `one` and `other` words, `shared` of them in both, can
    be duplicates by those counts alone (unless their text is the same): by their
    words, or (in a personal dream) by their facts in other words."""
    if worded_close(shared, one, other, conservative):
        return True
    return (
        not conservative
        and shared >= MIN_SHARED_FACT_WORDS
        and (shared >= FACT_OVERLAP * min(one, other))
    )


def _slack(size: int, conservative: bool) -> int:
    """The most words a memory of `size` words may lack in one at least as large and
    still be a duplicate of it (-1: it is none's, unless their text is the same).
    Taken as large as can be: in a conservative dream an equal size, as a larger one
    only lowers their resemblance; otherwise the larger's size does not count."""
    lacking = [m for m in range(size + 1) if worded_close(size - m, size, size, conservative)]
    if conservative:
        return max(lacking, default=-1)
    # Memories in other words are looked for through their rarest words only (their
    # names and numbers, which a restatement keeps): not through every word they may lack.
    restated = [m for m in range(size + 1) if _close(size - m, size, size, conservative)]
    return max([*lacking, min(max(restated, default=-1), FACT_LOOKUPS - 1)])
