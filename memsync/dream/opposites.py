"""Memories that say the opposite of each other in otherwise the same words (issue 15
item 3): "weekdays" / "weekends", "at most" / "at least", "increase" / "decrease",
"allow requests from A and deny the rest" and the two verbs traded.

The judges in `memsync.dream.dedupe` read a word one memory says where the other says
another as a re-wording when the facts (names, numbers, identifiers) agree and pin the
memory down. An antonym is no re-wording: the same names with the opposite word are
the opposite fact. So is a word traded with another ("`LOG_LEVEL=info` in production
and `LOG_LEVEL=debug` in staging", and the levels swapped), which word sets cannot see.
"""

from __future__ import annotations

from memsync.dream.profiles import Profile, canonical, tokens
from memsync.dream.rewording import Shape, aligned
from memsync.dream.vocabulary import OPPOSITE_PARTICLES, OPPOSITES

# The most words on either side of a stretch one memory puts in the place of the
# other's, for its words to be read as said in each other's place.
_NEAR = 3


def _table(groups: list[list[str]]) -> dict[str, frozenset[str]]:
    """Each word (canonical) → the words (canonical) of its group opposed to it."""
    opposed: dict[str, set[str]] = {}
    for group in groups:
        forms = [{canonical(form) for form in alternative.split("/")} for alternative in group]
        for at, mine in enumerate(forms):
            others = set().union(*(theirs for i, theirs in enumerate(forms) if i != at)) - mine
            for word in mine:
                opposed.setdefault(word, set()).update(others)
    return {word: frozenset(others) for word, others in opposed.items()}


_OPPOSED = _table(OPPOSITES)
_ANY_OPPOSED = _table(OPPOSITES + OPPOSITE_PARTICLES)


def opposed(one: Profile, other: Profile) -> bool:
    """Whether one memory says a word where the other says its opposite: one alone says
    a word of `OPPOSITES` and the other alone its opposite, or, the two word sequences
    aligned, a stretch of one holding a word (of `OPPOSITES` or `OPPOSITE_PARTICLES`)
    stands where a stretch of the other holds its opposite, each of `_NEAR` words at
    most ("opt-in" / "opt-out", "over 5000" / "under 5000", "allow A and deny B" /
    "deny A and allow B")."""
    first = [canonical(word) for word in tokens(one.text)]
    second = [canonical(word) for word in tokens(other.text)]
    mine, theirs = set(first), set(second)
    if any(_OPPOSED.get(word, frozenset()) & (theirs - mine) for word in mine - theirs):
        return True
    for operation, start, end, other_start, other_end in aligned(first, second):
        if operation != "replace" or max(end - start, other_end - other_start) > _NEAR:
            continue
        put = set(second[other_start:other_end])
        if any(_ANY_OPPOSED.get(word, frozenset()) & put for word in first[start:end]):
            return True
    return False


def words_traded(one: Shape, other: Shape) -> bool:
    """Whether, the two word sequences aligned, one memory says a word `a` where the
    other says `b` and `b` where the other says `a`, neither a name (names traded are
    `memsync.dream.rewording.names_swapped`'s): "`LOG_LEVEL=info` in production,
    `LOG_LEVEL=debug` in staging" and the levels the other way round."""
    first = [word.text for word in one.words]
    second = [word.text for word in other.words]
    put = {
        (first[start], second[other_start])
        for operation, start, end, other_start, other_end in aligned(first, second)
        if operation == "replace"
        and end - start == 1
        and other_end - other_start == 1
        and not one.words[start].name
        and not other.words[other_start].name
    }
    return any((b, a) in put for a, b in put)
