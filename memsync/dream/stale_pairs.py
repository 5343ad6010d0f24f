"""Which memories stale marking compares (`candidates`, `worth_reading`), and the
newer memories that name an older one as replaced by its file (`named_as_replaced`).

Only memories sharing a (class, slot word) of their claims
(`memsync.dream.supersession.Claims`), a tool one of them leaves behind, or a rare word
are paired, and a key that more than `MAX_BLOCK` memories share pairs none of them:
near-linear in the directory.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping

from memsync.dream.looking_away import SENTENCE_BREAK
from memsync.dream.supersession import Claims, Written

MAX_BLOCK = 24
RARE_SHARE = 6


def candidates(
    mine: Mapping[str, Claims], theirs: Mapping[str, Claims] | None = None
) -> set[tuple[str, str]]:
    """Pairs worth `replacement`: within `mine` (each pair once, in path order), or
    one of `mine` with one of `theirs`; sharing a (class, slot word) that at most
    `MAX_BLOCK` memories hold."""
    sides = (mine, theirs or {})
    left_behind = frozenset().union(*(c.retired for side in sides for c in side.values()))
    rare = _rare_words(sides)
    # What two memories must share to pair: a rare word neither leaves behind. A memory
    # with none still counts in its blocks, but is paired with nothing.
    shared = [
        {path: (found.words & rare) - found.retired for path, found in side.items()}
        for side in sides
    ]
    blocks: defaultdict[tuple[str, str], tuple[list[str], list[str]]] = defaultdict(
        lambda: ([], [])
    )
    for side, memories in enumerate(sides):
        for path, found in memories.items():
            keys = set(found.keys())
            if left_behind:  # most directories name nothing as left behind
                keys.update(("term", word) for word in (found.words | found.retired) & left_behind)
            keys.update(("word", word) for word in found.words & rare)
            for key in keys:
                blocks[key][side].append(path)
    pairs: set[tuple[str, str]] = set()
    for key, (left, right) in blocks.items():
        if len(left) + len(right) > MAX_BLOCK:
            continue
        if key[0] == "word" and not _changing(left, mine) and not _changing(right, sides[1]):
            continue
        pairable = [path for path in left if shared[0][path]]
        if theirs is None:
            pairs.update(
                (a, b)
                for a in pairable
                for b in pairable
                if a < b and not shared[0][a].isdisjoint(shared[0][b])
            )
        else:
            pairs.update(
                (a, b) for a in pairable for b in right if not shared[0][a].isdisjoint(shared[1][b])
            )
    return pairs


def _changing(paths: list[str], memories: Mapping[str, Claims]) -> bool:
    return any(memories[path].changes for path in paths)


def worth_reading(words: Mapping[str, frozenset[str]]) -> set[str]:
    """The memories (by their `content_words`) sharing a rare word with another: the only
    ones `candidates` can pair, so the only ones worth `claims`."""
    spread = Counter(itertools.chain.from_iterable(words.values()))
    limit = max(RARE_SHARE, len(words) // 100)
    rare = {word for word, count in spread.items() if 2 <= count <= limit}
    return {path for path, held in words.items() if not held.isdisjoint(rare)}


def _rare_words(sides: tuple[Mapping[str, Claims], ...]) -> frozenset[str]:
    """Words few memories hold (at most `RARE_SHARE`, or 1% of them): two memories on
    one subject share one, besides any tool one of them leaves. Words a template repeats
    in every memory it wrote ("before a release, verify on staging") are not one."""
    spread = Counter(
        itertools.chain.from_iterable(found.words for side in sides for found in side.values())
    )
    limit = max(RARE_SHARE, sum(map(len, sides)) // 100)
    return frozenset(word for word, count in spread.items() if count <= limit)


_MEMORY_LINK = re.compile(r"(?<![\w/.-])(?:[\w./-]*/)?([\w.-]+\.md)\b")
_REPLACES = re.compile(
    r"\b(?:supersed\w*|replac\w*|outdated|obsolete|overrides?|no longer (?:valid|true|applies"
    r"|current|holds)|instead of|is wrong|was wrong)\b",
    re.IGNORECASE,
)


def named_as_replaced(
    bodies: Mapping[str, str], changed_at: Callable[[str], Written]
) -> list[tuple[str, str]]:
    """(older, newer) where a newer memory names the older by its file in a sentence
    saying it replaces it ("This supersedes project_deploys.md", "[old note](x.md) is
    outdated"); a mere link ("see also x.md") is no such claim."""
    saying = sorted(
        (path, text) for path, text in bodies.items() if ".md" in text and _REPLACES.search(text)
    )
    if not saying:
        return []  # most directories: no memory names another as replaced
    by_file: dict[str, list[str]] = {}
    for path in bodies:
        by_file.setdefault(path.rsplit("/", 1)[-1], []).append(path)
    found: list[tuple[str, str]] = []
    for path, text in saying:
        for sentence in SENTENCE_BREAK.split(text):
            if not _REPLACES.search(sentence):
                continue
            for named in _MEMORY_LINK.findall(sentence):
                found += [
                    (older, path)
                    for older in by_file.get(named, [])
                    if older != path and changed_at(older) < changed_at(path)
                ]
    return found
