"""What a re-wording may change and what it may not, read from word order (issue 15
item 3): the part of duplicate detection that word sets cannot see.

Two memories can share every word and still differ in a fact: "Payments team owns the
Orders service" and "Orders team owns the Payments service", or "primary Tom Berg,
secondary Ana Ruiz" against the other way round. And a memory can hold every word of
another plus one that takes the place of something the first said: "Keep the legacy
flag on" against "Remove the legacy flag", "Ledger API deploys every Tuesday" against
"Billing API deploys every Tuesday after the Ledger sync". A re-wording moves whole
phrases (active to passive, a list to a sentence) and adds sentences; it does not put a
new word where an old one was, nor hang a label on another name.

The text arrives as a `Shape`: its words in order, less grammar words, each marked as
a name (a capitalised word, a number, a day) or not, and numbered by clause.
"""

from __future__ import annotations

import difflib
import functools
import itertools
from collections import Counter, defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import NamedTuple


class Word(NamedTuple):
    """A word of a memory in order (a named tuple: a memory of a few hundred words
    makes as many, and a tuple is quicker to make than a frozen dataclass)."""

    text: str  # normalised: case-folded, stemmed, synonyms mapped
    name: bool  # a capitalised word, a number or a day: what a fact is about
    clause: int  # the clause it is in, counted from 0
    sentence: int  # the sentence it is in, counted from 0
    meaningful: bool  # counted when comparing word sets (not filler)
    # The part of its sentence it is in, counted from 0: sentences split at ";" and at
    # "and", "but", "while" (what one statement of several says, "X deploys on Tuesday;
    # Y on Thursday").
    part: int = 0


@dataclass(frozen=True)
class Shape:
    words: tuple[Word, ...]
    negative: frozenset[int]  # the clauses that say "never", "not", "avoid", …


# What `difflib.SequenceMatcher.get_opcodes` says of a stretch: "equal", "replace",
# "insert" or "delete", and where it starts and ends in each sequence.
Opcode = tuple[str, int, int, int, int]


def aligned(first: Sequence[str], second: Sequence[str]) -> tuple[Opcode, ...]:
    """How two word sequences align: `difflib.SequenceMatcher`'s opcodes (no junk).
    Several rules read how the same two memories' words align (up to eight for a
    pair, in either order), and the alignment costs more than what each reads of it:
    two sequences are aligned once (per process, `_aligned` keeping the latest)."""
    return _aligned(tuple(first), tuple(second))


@functools.lru_cache(maxsize=4096)
def _aligned(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[Opcode, ...]:
    matcher = difflib.SequenceMatcher(None, first, second, autojunk=False)
    return tuple(matcher.get_opcodes())


def new_clauses(shape: Shape, known: Collection[str]) -> set[int]:
    """Clauses that say something new: none of their meaningful words is in `known`,
    or at most a third of four or more (a new sentence may mention a word of the other
    memory). What they say is added; it replaces nothing."""
    seen: dict[int, list[bool]] = {word.clause: [] for word in shape.words}
    for word in shape.words:
        if word.meaningful:
            seen[word.clause].append(word.text in known)
    return {
        clause
        for clause, found in seen.items()
        if not any(found) or (len(found) >= 4 and 3 * sum(found) <= len(found))
    }


def negation_added(smaller: Shape, larger: Shape) -> bool:
    """Whether `larger` says "never" or "not" in a clause it shares with `smaller`
    that no negative clause of `smaller` matches (by a meaningful word): "Squash-merge
    bumps" against "Never squash-merge bumps" is a contradiction, not a copy plus a
    fact."""
    fresh = new_clauses(larger, {word.text for word in smaller.words})
    denied = [_clause_words(smaller, clause) for clause in smaller.negative]
    return any(
        not any(words & other for other in denied)
        for clause in larger.negative - fresh
        if (words := _clause_words(larger, clause))
    )


def _clause_words(shape: Shape, clause: int) -> set[str]:
    return {word.text for word in shape.words if word.clause == clause and word.meaningful}


def replaces_something(smaller: Shape, larger: Shape, added: Collection[str]) -> bool:
    """Whether a word of `added` (meaningful words only `larger` has) stands where
    `smaller` said something else, rather than being inserted or in a clause of its own.

    The two word sequences are aligned; an added word in a stretch of `larger` that
    is aligned to a stretch of `smaller` holding a word (not mere grammar) is a
    substitution: "remove" where "keep" was, "Billing" where "Ledger" was. So is any
    added word when `smaller` says a meaningful word more often than `larger` ("Ledger
    API … Ledger team" against "Payments API … Ledger team"), however the words align.
    """
    fresh = new_clauses(larger, {word.text for word in smaller.words})
    if any(word.text in added and word.clause not in fresh for word in larger.words):
        counts = Counter(word.text for word in smaller.words if word.meaningful)
        counts.subtract(word.text for word in larger.words if word.meaningful)
        if any(count > 0 for count in counts.values()):
            return True
    first = [word.text for word in smaller.words]
    second = [word.text for word in larger.words]
    for operation, start, end, other_start, other_end in aligned(first, second):
        if operation != "replace":
            continue
        put = [
            word
            for word in larger.words[other_start:other_end]
            if word.text in added and word.clause not in fresh
        ]
        if put and not _moved(smaller.words[start:end], put, smaller, larger):
            return True
        if _value_replaced(smaller, larger, (start, end), (other_start, other_end), added):
            return True
    return False


def value_replaced(one: Shape, other: Shape, only_other: Collection[str]) -> bool:
    """Whether a name only `other` says (`only_other`) stands where `one` said a name
    `other` says less often (`_value_replaced`), wherever the words align."""
    first = [word.text for word in one.words]
    second = [word.text for word in other.words]
    return any(
        operation == "replace"
        and _value_replaced(one, other, (start, end), (other_start, other_end), only_other)
        for operation, start, end, other_start, other_end in aligned(first, second)
    )


def _value_replaced(
    smaller: Shape,
    larger: Shape,
    stretch: tuple[int, int],
    other_stretch: tuple[int, int],
    added: Collection[str],
) -> bool:
    """Whether a name only `larger` says stands, even in a clause of its own, where
    `smaller` said a name `larger` says less often: "host: RDS" → "host: Cloud SQL",
    "RDS" still said elsewhere ("pooler: RDS Proxy") once instead of twice."""
    put = [w for w in larger.words[other_stretch[0] : other_stretch[1]] if w.text in added]
    replaced = [w.text for w in smaller.words[stretch[0] : stretch[1]] if w.name]
    if not replaced or not any(word.name for word in put):
        return False
    mine = Counter(word.text for word in smaller.words)
    theirs = Counter(word.text for word in larger.words)
    return any(theirs[name] < mine[name] for name in replaced)


def _moved(replaced: Sequence[Word], put: Sequence[Word], smaller: Shape, larger: Shape) -> bool:
    """Whether a stretch holds only words the larger memory says as often elsewhere
    ("Ana Ruiz is on call" against "On call: Ana Ruiz") and what stands in their place
    names nothing: a phrase moved, not a word replaced ("in depth" → "briefly", when
    "depth" was said twice and is now said once, is replaced)."""
    if any(word.name for word in put):
        return False
    count = Counter(word.text for word in larger.words)
    count.subtract(word.text for word in smaller.words)
    return all(count[word.text] >= 0 for word in replaced)


def added_where_shared(smaller: Shape, larger: Shape, added: Collection[str]) -> set[str]:
    """The words of `added` that `larger` says in a clause it shares with `smaller`
    (a qualifier inside a sentence both say, not a sentence of its own)."""
    fresh = new_clauses(larger, {word.text for word in smaller.words})
    return {word.text for word in larger.words if word.text in added and word.clause not in fresh}


def name_added_where_shared(
    smaller: Shape, larger: Shape, components: Collection[str] = ()
) -> bool:
    """Whether `larger` names something `smaller` does not (a capitalised word, a
    number, a day) in a clause the two share: "Escalate Ledger API incidents" is about
    another service than "Escalate Ledger incidents", and "The Payments service is
    owned by the Ledger team" says who owns it where "Payments service owner: Ana Ruiz"
    said another. A name in a sentence of its own is a fact added, not one changed."""
    known = {word.text for word in smaller.words}
    fresh = new_clauses(larger, known)
    words = larger.words
    names = {word.text for word in smaller.words + words if word.name}
    for at, word in enumerate(words):
        if word.text in known or word.clause in fresh:
            continue
        if word.name:
            return True
        # A kind of component after a name makes another thing of it ("Ledger worker
        # incidents", "Ledger incidents").
        before = words[at - 1] if at else None
        if word.text in components and before and before.text in names:
            return True
    return False


def names_moved(one: Shape, other: Shape) -> bool:
    """Whether a name both memories say is said in sentences that share no word: in
    "Payments service owner: Ana Ruiz" she owns it, in "… Ledger team. Escalation:
    Tom Berg, and Ana Ruiz when he is away" she is escalated to. A re-wording keeps a
    name with what is said about it."""
    # A word capitalised at a sentence's start in one is a name in the other: what is a
    # name in either is no context.
    names = {word.text for word in one.words + other.words if word.name}
    first, second = _contexts(one, names), _contexts(other, names)
    return any(
        here and there and here.isdisjoint(there)
        for name, here in first.items()
        if (there := second.get(name)) is not None
    )


def _contexts(shape: Shape, names: Collection[str]) -> dict[str, set[str]]:
    """Each name's context: the meaningful words, none of `names`, in the sentences
    holding it."""
    said: dict[int, set[str]] = defaultdict(set)
    held: dict[str, set[int]] = defaultdict(set)
    for word in shape.words:
        if word.text in names:
            held[word.text].add(word.sentence)
        elif word.meaningful:
            said[word.sentence].add(word.text)
    return {
        name: set().union(*(said[sentence] for sentence in sentences))
        for name, sentences in held.items()
    }


def _attachments(shape: Shape, names: Collection[str]) -> dict[tuple[str, int], set[str]]:
    """For each word next to a run of names (names not split by punctuation) in its
    clause, the names of the runs it comes before (-1) and after (+1); and for the
    first word of a clause that is no name (0), the names in that clause: "staging"
    in "Staging deploys on Tuesday, production on Thursday"."""
    words = shape.words
    attached: dict[tuple[str, int], set[str]] = defaultdict(set)
    heads: dict[int, str] = {}
    for word in words:
        if word.meaningful and word.text not in names:
            heads.setdefault(word.clause, word.text)
    first = 0
    while first < len(words):
        if words[first].text not in names:
            first += 1
            continue
        last = first
        while (
            last + 1 < len(words)
            and words[last + 1].text in names
            and words[last + 1].clause == words[first].clause
        ):
            last += 1
        run = {word.text for word in words[first : last + 1]}
        for neighbour, side in ((first - 1, -1), (last + 1, +1)):
            if 0 <= neighbour < len(words) and _beside(words[neighbour], words[first], names):
                attached[_active(words, neighbour, side)] |= run
        if words[first].clause in heads:
            attached[(heads[words[first].clause], 0)] |= run
        first = last + 1
    return attached


def _active(words: Sequence[Word], at: int, side: int) -> tuple[str, int]:
    """The word at `at` and the side of it a run of names is on, read as active voice:
    in "X is reviewed by Y", X is what is reviewed (after the verb) and Y reviews
    (before it), as in "Y reviews X"."""
    word = words[at].text
    if side == +1 and at + 1 < len(words) and words[at + 1].text == "by":
        return word, -1
    if side == -1 and word == "by" and at > 0 and words[at - 1].sentence == words[at].sentence:
        return words[at - 1].text, +1
    return word, side


def _beside(neighbour: Word, name: Word, names: Collection[str]) -> bool:
    return neighbour.text not in names and neighbour.clause == name.clause


def names_swapped(one: Shape, other: Shape, traded: bool = False) -> bool:
    """Whether a word tied to one name in `one` is tied to another name in `other`
    (in the same place), and to neither both ways: "Payments team … Orders service"
    against "Orders team … Payments service". A move to the other side of a word, as
    active and passive voice do ("X is owned by Y", "Y owns X"), is no swap. With
    `traded`, only names that trade places with another word's count (`_traded`)."""
    names = {word.text for word in one.words + other.words if word.name}
    if not names:
        return False
    first, second = _attachments(one, names), _attachments(other, names)
    for key in first.keys() & second.keys():
        here, there = first[key], second[key]
        if here & there:
            continue
        word = key[0]
        apart = _apart(first, second, word, here, there, (-1, 0, 1))
        if apart and (not traded or _traded(first, second, word, here, there)):
            return True
        # Tied to those names only as the head of their clause (side 0), it is a swap
        # when the names trade places with another word's: "Payments team owns Orders
        # API; …" / "Orders team owns Payments API; …".
        if (
            not apart
            and _apart(first, second, word, here, there, (-1, 1))
            and _traded(first, second, word, here, there)
        ):
            return True
    return False


def _apart(
    first: dict[tuple[str, int], set[str]],
    second: dict[tuple[str, int], set[str]],
    word: str,
    here: set[str],
    there: set[str],
    sides: Sequence[int],
) -> bool:
    """Whether `word` is tied, on any of `sides`, to none of the names it is tied to in
    the other memory (`here` in the first, `there` in the second)."""
    near_first = set().union(*(first.get((word, side), set()) for side in sides))
    near_second = set().union(*(second.get((word, side), set()) for side in sides))
    return not near_first & there and not near_second & here


def _traded(
    first: dict[tuple[str, int], set[str]],
    second: dict[tuple[str, int], set[str]],
    word: str,
    here: set[str],
    there: set[str],
) -> bool:
    """Whether the names `word` is tied to in each memory (`here`, `there`) trade
    places with another word's: tied to it, and not to their own, in the other memory
    ("Payments team owns Orders" / "Orders team owns Payments"). Not so, the names are
    said again in other words ("Priya Shah, the Orbit tech lead" / "tech lead is Priya
    Shah") or in another word order ("Der Basket-Service wird jeden Donnerstag
    deployt")."""
    mine: dict[str, set[str]] = defaultdict(set)
    theirs: dict[str, set[str]] = defaultdict(set)
    for (other, _), names in first.items():
        mine[other] |= names
    for (other, _), names in second.items():
        theirs[other] |= names
    return any(
        other != word
        and mine[other] & there
        and not mine[other] & here
        and theirs.get(other, set()) & here
        and not theirs.get(other, set()) & there
        for other in mine
    )


def names_regrouped(one: Shape, other: Shape, either: bool = False, traded: bool = False) -> bool:
    """Whether names said together in one memory are said apart in the other, both
    ways: "Geo API deploys on Tuesday; Maps API on Thursday" against "Geo API deploys on
    Thursday; Maps API on Tuesday", or "Atlas team owns Geo API and Orbit team owns
    Maps API" and the owners swapped. A re-wording may join what was said apart (a list
    made a sentence) or split what was said together, not both at once; `either` asks
    whether it did one or the other ("Escalate Ledger incidents to Tom Berg" against
    "Billing API is owned by the Ledger team; escalate to Tom Berg")."""
    # A word capitalised at a sentence's start in one is a name in the other.
    names = {word.text for word in one.words + other.words if word.name}
    first, second = _together(one, names), _together(other, names)
    present_first = names.intersection(word.text for word in one.words)
    present_second = names.intersection(word.text for word in other.words)
    split = {pair for pair in first if pair <= present_second and pair not in second}
    joined = {pair for pair in second if pair <= present_first and pair not in first}
    if either:
        return bool(split or joined)
    if traded:
        return _partners_traded(split, joined, first, second)
    return bool(split and joined)


def _partners_traded(
    split: set[frozenset[str]],
    joined: set[frozenset[str]],
    first: set[frozenset[str]],
    second: set[frozenset[str]],
) -> bool:
    """Whether a name parted from one name (`split`) is joined with another (`joined`)
    that it took from a third, the first name going to that third: "Geo API on Tuesday,
    Maps API on Thursday" / "Geo API on Thursday, Maps API on Tuesday" trade partners;
    "Hugo Lind is primary 2026-11" / "Hugo Lind is primary for Swan 2026-11", the
    rotation's day said apart, only group a restatement's facts otherwise."""
    for parted in split:
        for name in parted:
            (old,) = parted - {name}
            for pair in joined:
                if name not in pair or old in pair:
                    continue
                (new,) = pair - {name}
                # `new` was with some third name in the first memory, and `old` is with
                # that third in the second.
                thirds = {n for p in first if new in p for n in p} - {new, name}
                if any(frozenset((old, third)) in second for third in thirds):
                    return True
    return False


def _together(shape: Shape, names: Collection[str]) -> set[frozenset[str]]:
    """Pairs of distinct `names` said in one part of a sentence (`Word.part`)."""
    parts: dict[int, set[str]] = defaultdict(set)
    for word in shape.words:
        if word.text in names:
            parts[word.part].add(word.text)
    return {
        frozenset(pair)
        for said in parts.values()
        for pair in itertools.combinations(sorted(said), 2)
    }


def negation_moved(one: Shape, other: Shape) -> bool:
    """Whether one memory denies a word the other says plainly (in no denied clause),
    and the other denies one the first says plainly: "Pin actions to a commit SHA, not a
    tag" against "Pin actions to a tag, not a commit SHA". One way only is a re-wording
    ("Never mock the database in tests; use a real one" against "Tests use a real
    database, never a mock")."""
    denied_one, plain_one = _denied_and_plain(one)
    denied_other, plain_other = _denied_and_plain(other)
    return bool(denied_one & (plain_other - denied_other)) and bool(
        denied_other & (plain_one - denied_one)
    )


def _denied_and_plain(shape: Shape) -> tuple[set[str], set[str]]:
    denied = {w.text for w in shape.words if w.meaningful and w.clause in shape.negative}
    plain = {w.text for w in shape.words if w.meaningful and w.clause not in shape.negative}
    return denied, plain


def substituted(one: Shape, other: Shape, only_one: set[str], only_other: set[str]) -> bool:
    """Whether, the two word sequences aligned, a word only `one` says stands where a
    word only `other` says: "Media API memory limit: 512 MB" against "Media API upload
    limit: 512 MB". A re-wording in other words moves and adds phrases around the
    facts; one thing put in the place of another is another fact."""
    first = [word.text for word in one.words]
    second = [word.text for word in other.words]
    return any(
        operation == "replace"
        and not only_one.isdisjoint(first[start:end])
        and not only_other.isdisjoint(second[other_start:other_end])
        for operation, start, end, other_start, other_end in aligned(first, second)
    )


def without_summary(shape: Shape) -> Shape | None:
    """`shape` less its first sentence when a later sentence says each of its words (a
    description summing up the body: "Omar Nasser, data engineer" before "Omar Nasser
    is a data engineer on the Acacia team"), or None when it has no such sentence."""
    first = {word.text for word in shape.words if word.sentence == 0}
    later: dict[int, set[str]] = defaultdict(set)
    for word in shape.words:
        if word.sentence:
            later[word.sentence].add(word.text)
    if not first or not any(first <= said for said in later.values()):
        return None
    return Shape(tuple(word for word in shape.words if word.sentence), shape.negative)


def word_replaced(one: Shape, other: Shape, only_one: set[str], only_other: set[str]) -> bool:
    """Whether, the two word sequences aligned, one word only `one` says stands alone
    where one word only `other` says stood, with `_CONTEXT` words the same before and
    after it, and the word after it in its clause: "Auto-merge Dependabot patch
    updates in the Swift repo" / "… minor updates …", not "alerts arrive in
    #heron-alerts" / "alerts channel: #heron-alerts". However much else a restatement
    words its own way, one word exchanged for another between the same phrases is a
    fact changed, not a phrase said otherwise (a word between two words both say may
    be one by chance)."""
    first = [word.text for word in one.words]
    second = [word.text for word in other.words]
    codes = aligned(first, second)
    for before, code, after in zip(codes, codes[1:], codes[2:], strict=False):
        operation, start, end, other_start, other_end = code
        if (
            operation == "replace"
            and end - start == 1
            and other_end - other_start == 1
            and first[start] in only_one
            and second[other_start] in only_other
            and before[0] == after[0] == "equal"
            and min(before[2] - before[1], after[2] - after[1]) >= _CONTEXT
            and _in_one_clause(one.words[start : start + 2])
            and _in_one_clause(other.words[other_start : other_start + 2])
        ):
            return True
    return False


def _in_one_clause(words: Sequence[Word]) -> bool:
    return len({word.clause for word in words}) == 1


# The words the same on each side of a word exchanged for another (`word_replaced`).
_CONTEXT = 2
# Words that say a phrase is about every one of a kind ("every visitor"): a word put
# after one narrows the kind (`inserted_inside`).
_QUANTIFIERS = frozenset(("every", "each", "all", "any"))


def inserted_inside(smaller: Shape, larger: Shape, added: Collection[str]) -> bool:
    """Whether `larger` says a word of `added` between a word saying "every" ("each",
    "all", "any") and the word after it in `smaller`: "every visitor" / "every
    logged-in visitor" narrows who the rest is said of."""
    first = [word.text for word in smaller.words]
    second = [word.text for word in larger.words]
    for operation, start, _, other_start, other_end in aligned(first, second):
        if operation != "insert" or not 0 < start < len(first):
            continue
        if not any(word.text in added for word in larger.words[other_start:other_end]):
            continue
        before, after = smaller.words[start - 1], smaller.words[start]
        if before.text in _QUANTIFIERS and before.clause == after.clause:
            return True
    return False
