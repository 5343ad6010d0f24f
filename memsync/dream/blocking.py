"""Which memories duplicate detection compares (issue 14 item 3, issue 15 item 6).

Comparing every pair of 2,000 memories would be two million comparisons. The rule,
chosen with the thresholds in `memsync.dream.dedupe`: memories of one type with the
same text are compared, and each memory with

* every memory holding one of its `BLOCKING_WORDS` rarest words (fewest memories of
  any type hold them), as long as at most `MAX_BLOCK` memories of its type hold that
  word (a word only it has pairs it with none; one misspelt word still leaves the
  others);
* every memory holding all of its `BLOCKING_WORDS` rarest words, when none is held by
  at most `MAX_BLOCK` and at most `MAX_BLOCK` memories hold them all: a memory of
  common words only ("Ledger API is owned by the Ledger team" among a team's owners
  and services) still finds its copy.

Most pairs that rule makes share too few words to be duplicates (`close`), and a
dream spent most of its time comparing them. So `candidate_pairs` looks for those
that could be from the smaller memory's side: it lacks at most a few of its words in
the larger (`slack`), so the larger holds one of any few more of its words; its
least-held ones name a handful of memories to count words with. Only a pair whose
counts could make duplicates is then checked against the rule above, which is asked
of that one pair rather than worked out for every memory. The pairs returned are
the rule's pairs that could be duplicates, and every pair of the same text.

A memory restated in other words may lack every rare common word of the other ("final
week" for "last week", "relies on" for "feeds"), but keeps its names and numbers: it is
looked for through `KEPT_LOOKUPS` of its rarest of those too (``kept``), still only
among the pairs the rule makes.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence

BLOCKING_WORDS = 4
MAX_BLOCK = 24
# A memory is looked for through this many of its rarest names and numbers too.
KEPT_LOOKUPS = 3


def candidate_pairs(
    types: Sequence[str],
    words: Sequence[frozenset[str]],
    texts: Sequence[str],
    close: Callable[[int, int, int], bool],
    slack: Callable[[int], int],
    kept: Callable[[int, frozenset[str]], frozenset[str]] | None = None,
) -> set[tuple[int, int]]:
    """Pairs (i, j), i < j, of memories given by type, words and text to compare.

    ``close(shared, size, other_size)`` tells whether two memories of those sizes
    sharing that many words may be duplicates; ``slack(size)`` the most words a memory
    of that size may lack in one at least as large when they are (below 0: none).
    ``kept(index, words)``, those of `words` a restatement of a memory keeps (its
    names and numbers), are looked through too, `KEPT_LOOKUPS` rarest of them (`_met`).
    """
    pairs: set[tuple[int, int]] = set()
    copies: defaultdict[tuple[str, str], list[int]] = defaultdict(list)
    for index, key in enumerate(zip(types, texts, strict=True)):
        copies[key].append(index)
    for members in copies.values():
        pairs.update(itertools.combinations(members, 2))
    blocks = _Blocks(types, words)
    sizes = [len(mine) for mine in words]
    # `close` of each (shared, size, other size): thousands of pairs, few such counts.
    closeness: dict[tuple[int, int, int], bool] = {}
    # Each pair is checked once: many are met through several words, or from both
    # sides, and `close` and the rule give a pair the same answer either way. A pair is
    # kept as one number (`one * count + other`, one < other), not a tuple.
    count = len(words)
    checked = {one * count + other for one, other in pairs}
    for one, other in _met(types, words, sizes, blocks, slack, kept):
        number = one * count + other if one < other else other * count + one
        if number in checked:
            continue
        checked.add(number)
        counts = (len(words[one] & words[other]), sizes[one], sizes[other])
        near = closeness.get(counts)
        if near is None:
            near = closeness[counts] = close(*counts)
        if near and blocks.paired(one, other):
            pairs.add((one, other) if one < other else (other, one))
    return pairs


def _met(
    types: Sequence[str],
    words: Sequence[frozenset[str]],
    sizes: Sequence[int],
    blocks: _Blocks,
    slack: Callable[[int], int],
    kept: Callable[[int, frozenset[str]], frozenset[str]] | None,
) -> Iterator[tuple[int, int]]:
    """The pairs (one, other) of two memories `candidate_pairs` checks, some more than
    once: those its rule's words could make duplicates."""
    slacks: dict[int, int] = {}
    # Pairs through a word few memories hold, from the smaller memory's side: it
    # lacks at most `lacking` words in the larger, so the larger holds one of any
    # `lacking + 1` of its words (those the fewest memories hold, to look at fewest),
    # and a pair through a word few hold shares that word.
    for index, mine in enumerate(words):
        size = sizes[index]
        lacking = slacks.get(size)
        if lacking is None:
            lacking = slacks[size] = slack(size)
        if lacking < 0:
            continue
        held = blocks.holding[types[index]]
        few = blocks.few[types[index]]
        held_by_few = mine & few
        rare = _rarest(held_by_few, lacking + 1, held)
        # A memory restated in other words may lack any of its common words in the
        # other, but keeps its names and numbers: looked for through those too (unless
        # every word few memories hold is looked through already).
        if kept is not None and len(rare) < len(held_by_few):
            rare |= _rarest(kept(index, held_by_few), KEPT_LOOKUPS, held)
        for other in set().union(*map(held.__getitem__, rare)):
            if other != index and sizes[other] >= size:
                yield index, other
    # Pairs through all of a memory's rarest words, when each is common (one whose
    # rarest words are the same came first: its pairs were checked then).
    for index, together in blocks.held_together():
        for other in together:
            if other != index:
                yield index, other


def _rarest(words: frozenset[str], most: int, held: dict[str, list[int]]) -> frozenset[str]:
    """The `most` of `words` the fewest memories hold."""
    if len(words) <= most:
        return words
    # Ties by the word: a set's order is not the same from one run to the next, nor
    # for the same words read back from `memsync.dream.readings`.
    by_count = sorted(zip(map(len, map(held.__getitem__, words)), words, strict=True))
    return frozenset([word for _, word in by_count[:most]])


class _Blocks:
    """The blocking rule (see the module's docstring), asked of one pair at a time."""

    def __init__(self, types: Sequence[str], words: Sequence[frozenset[str]]) -> None:
        self.types, self.words = types, words
        # By type, then by word: the memories holding it, in order.
        self.holding: defaultdict[str, defaultdict[str, list[int]]] = defaultdict(
            lambda: defaultdict(list)
        )
        for index, (kind, held_words) in enumerate(zip(types, words, strict=True)):
            held = self.holding[kind]
            for word in held_words:
                held[word].append(index)
        # By type: the words two to `MAX_BLOCK` memories of that type hold (a word only
        # one holds pairs it with none, and would take a lookup from a word that does:
        # a memory in other words has many of its own).
        self.few = {
            kind: frozenset(w for w, members in held.items() if 1 < len(members) <= MAX_BLOCK)
            for kind, held in self.holding.items()
        }
        spread = Counter(itertools.chain.from_iterable(words))
        # Words in more than one memory, numbered rarest first (ties by the word).
        shared = sorted((count, word) for word, count in spread.items() if count > 1)
        self._rank = {word: number for number, (_, word) in enumerate(shared, 1)}
        self._by_rank = [""] + [word for _, word in shared]
        # Words at most `MAX_BLOCK` memories hold: a memory holding one has it among
        # its rarest, and that one is held by few enough of its type.
        self._rare = frozenset(word for word, count in spread.items() if 1 < count <= MAX_BLOCK)
        self._reach: dict[int, tuple[list[str], set[int]]] = {}
        self._sets: dict[tuple[str, str], set[int]] = {}
        self._together: dict[tuple[str, tuple[str, ...]], set[int]] = {}

    def paired(self, one: int, other: int) -> bool:
        """Whether the rule pairs two memories of one type."""
        return self._takes(one, other) or self._takes(other, one)

    def held_together(self) -> Iterator[tuple[int, set[int]]]:
        """Each memory none of whose rarest words few memories hold, and the memories
        holding all of them, when few do (itself among them)."""
        for index, mine in enumerate(self.words):
            # A word at most `MAX_BLOCK` memories hold would be its rarest, and few.
            if mine.isdisjoint(self._rare) and (together := self.reach(index)[1]):
                yield index, together

    def reach(self, index: int) -> tuple[list[str], set[int]]:
        """Of a memory's rarest words, those held by at most `MAX_BLOCK` memories of its
        type; and when there is none, the memories holding them all (when at most
        `MAX_BLOCK` do; itself among them)."""
        found = self._reach.get(index)
        if found is None:
            kind = self.types[index]
            held = self.holding[kind]
            numbers = sorted(filter(None, map(self._rank.get, self.words[index])))
            rarest = [self._by_rank[number] for number in numbers[:BLOCKING_WORDS]]
            small = [word for word in rarest if len(held[word]) <= MAX_BLOCK]
            common: set[int] = set()
            if rarest and not small:
                common = self._held_by_all(kind, tuple(rarest))
            found = self._reach[index] = (small, common)
        return found

    def _held_by_all(self, kind: str, rarest: tuple[str, ...]) -> set[int]:
        """The memories of type `kind` holding every word of `rarest`, when at most
        `MAX_BLOCK` do (else none): many memories share their rarest words."""
        found = self._together.get((kind, rarest))
        if found is None:
            blocks = sorted((self._set(kind, word) for word in rarest), key=len)
            found = blocks[0].intersection(*blocks[1:])
            found = self._together[(kind, rarest)] = found if len(found) <= MAX_BLOCK else set()
        return found

    def _set(self, kind: str, word: str) -> set[int]:
        found = self._sets.get((kind, word))
        if found is None:
            found = self._sets[(kind, word)] = set(self.holding[kind][word])
        return found

    def _takes(self, one: int, other: int) -> bool:
        small, common = self.reach(one)
        theirs = self.words[other]
        return other in common or any(word in theirs for word in small)
