"""Near-duplicate memories: finding them cheaply and merging them without losing a fact
(SPEC D4, D8).

Two memories are duplicates when they have the same type and either the same ``name``
or text (description and body) so alike that one is a re-wording of the other, about
the same thing. Alike is measured on word bigrams (Chinese: character bigrams), after
case folding, with punctuation and Markdown markers dropped::

    resemblance = |A ∩ B| / |A ∪ B|          (Jaccard: a re-worded copy)
    containment = |A ∩ B| / min(|A|, |B|)    (one is the other plus a few lines)

Bigrams alone cannot tell "Never deploy Gulex on a Friday; post in #ops" from the
same sentence about Sokurir, and memories written by one agent share that much
phrasing. So a pair must also be about the same thing: a word that recurs in one
memory and is rare in the directory (in at most 1% of its memories, and at least
two) names what that memory is about, and must occur in the other one too.

The thresholds were measured on the generated corpus in ``tests/dream/corpus.py``
(80 to 2,000 memories from shared templates, seven seeds):

- planted re-worded copies: resemblance 0.41 to 0.81, containment 0.61 to 0.98;
- a same-named memory rewritten with new facts: at most 0.21 and 0.47 (these merge
  anyway, by name);
- two memories about one subject saying different things: at most 0.11 and 0.20;
- distinct memories about different subjects from one template: up to 0.72, which
  no threshold separates from a copy; the subject test alone keeps them apart.

So a pair merges at resemblance ≥ 0.35, between 0.21 and 0.41, or at containment
≥ 0.8 when the smaller has at least 12 bigrams (a two-line memory is "contained" in
many others by accident). On those corpora that gives no false positive and no false
negative, which the tests assert.

A team memory (the server's repository) is changed only when nobody could disagree:
exact or near-exact copies (resemblance ≥ 0.9). A shared name alone is not enough
there, since two members may have used one name for different things.

Comparing every pair of 2,000 memories would be two million comparisons. Candidate
pairs come from rare bigrams instead: a bigram found in more than a handful of
memories is template vocabulary, not evidence, so only pairs sharing at least two rare
bigrams, a subject word, a name or their whole text are scored.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

RESEMBLANCE_THRESHOLD = 0.35
CONTAINMENT_THRESHOLD = 0.8
CONTAINMENT_MIN_BIGRAMS = 12
TEAM_RESEMBLANCE_THRESHOLD = 0.9
# A bigram in more memories than this is shared phrasing, not a sign of a copy.
RARE_BIGRAM_MAX_MEMORIES = 12
MIN_SHARED_RARE_BIGRAMS = 2
# A word in at most this share of the directory's memories names something specific.
SUBJECT_WORD_SHARE = 0.01

_CJK = "\u2e80-\u2fff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")


def tokens(text: str) -> list[str]:
    """Words (and single Chinese, Japanese or Korean characters), case-folded."""
    return _TOKEN.findall(text.casefold())


def bigrams(text: str) -> frozenset[str]:
    return _pairs(tokens(text))


def _pairs(words: list[str]) -> frozenset[str]:
    if len(words) < 2:
        return frozenset(words)
    return frozenset(f"{a} {b}" for a, b in itertools.pairwise(words))


@dataclass(frozen=True)
class Candidate:
    """A memory as duplicate detection sees it."""

    path: str
    type: str
    name: str | None
    text: str  # description and body
    changed: datetime


@dataclass(frozen=True)
class Likeness:
    resemblance: float
    containment: float

    def describe(self) -> str:
        return f"{self.resemblance:.0%} alike"


def likeness(first: frozenset[str], second: frozenset[str]) -> Likeness:
    if not first or not second:
        return Likeness(0.0, 0.0)
    shared = len(first & second)
    return Likeness(
        shared / len(first | second),
        shared / min(len(first), len(second)),
    )


def is_near_duplicate(alike: Likeness, smaller_size: int, *, conservative: bool = False) -> bool:
    if conservative:
        return alike.resemblance >= TEAM_RESEMBLANCE_THRESHOLD
    if alike.resemblance >= RESEMBLANCE_THRESHOLD:
        return True
    return alike.containment >= CONTAINMENT_THRESHOLD and smaller_size >= CONTAINMENT_MIN_BIGRAMS


@dataclass
class DuplicateGroup:
    """Memories that become one: `keep` (the newest) absorbs `absorbed`, newest first."""

    keep: str
    absorbed: list[str] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)  # absorbed path → why


def _normal_name(name: str | None) -> str | None:
    if not name:
        return None
    folded = " ".join(tokens(name))
    return folded or None


@dataclass(frozen=True)
class _Profile:
    grams: frozenset[str]
    words: frozenset[str]
    subject: frozenset[str]  # recurring words rare in the directory


def _profiles(memories: Sequence[Candidate]) -> list[_Profile]:
    texts = [tokens(memory.text) for memory in memories]
    counts = []
    for memory, words in zip(memories, texts, strict=True):
        count = Counter(words)
        count.update(tokens(memory.name or ""))
        counts.append(count)
    spread = Counter(word for count in counts for word in count)
    rare = max(2, int(len(memories) * SUBJECT_WORD_SHARE))
    return [
        _Profile(
            grams=_pairs(words),
            words=frozenset(count),
            subject=frozenset(w for w, n in count.items() if n >= 2 and spread[w] <= rare),
        )
        for words, count in zip(texts, counts, strict=True)
    ]


def same_subject(first: _Profile, second: _Profile) -> bool:
    return first.subject <= second.words and second.subject <= first.words


def find_duplicates(
    memories: Sequence[Candidate], *, conservative: bool = False
) -> list[DuplicateGroup]:
    """Groups of duplicates, each kept file first. Never groups across types.

    A group is built around its newest memory: an older one joins only when it is a
    duplicate of that newest one (same name, or alike enough), so a chain of
    merely similar memories (A like B, B like C, A unlike C) never collapses into one.
    """
    profiles = _profiles(memories)
    by_type: dict[str, list[int]] = defaultdict(list)
    for position, memory in enumerate(memories):
        by_type[memory.type].append(position)
    groups: list[DuplicateGroup] = []
    for positions in by_type.values():
        members = [memories[p] for p in positions]
        groups.extend(_groups_of_one_type(members, [profiles[p] for p in positions], conservative))
    groups.sort(key=lambda group: group.keep)
    return groups


def _groups_of_one_type(
    members: list[Candidate], profiles: list[_Profile], conservative: bool
) -> list[DuplicateGroup]:
    pairs = _candidate_pairs(members, profiles, conservative)
    if not pairs:
        return []
    linked: dict[int, set[int]] = defaultdict(set)
    verdicts: dict[tuple[int, int], str] = {}
    for first, second in pairs:
        reason = _duplicate_reason(members, profiles, first, second, conservative)
        if reason is not None:
            linked[first].add(second)
            linked[second].add(first)
            verdicts[(first, second)] = reason
    newest_first = sorted(linked, key=lambda i: (members[i].changed, members[i].path), reverse=True)
    taken: set[int] = set()
    groups: list[DuplicateGroup] = []
    for keeper in newest_first:
        if keeper in taken:
            continue
        joining = sorted(
            (other for other in linked[keeper] if other not in taken),
            key=lambda i: (members[i].changed, members[i].path),
            reverse=True,
        )
        if not joining:
            continue
        taken.add(keeper)
        group = DuplicateGroup(keep=members[keeper].path)
        for other in joining:
            taken.add(other)
            group.absorbed.append(members[other].path)
            key = (keeper, other) if (keeper, other) in verdicts else (other, keeper)
            group.reasons[members[other].path] = verdicts[key]
        groups.append(group)
    return groups


def _candidate_pairs(
    members: list[Candidate], profiles: list[_Profile], conservative: bool
) -> set[tuple[int, int]]:
    pairs: set[tuple[int, int]] = set()

    def add_all(indices: Iterable[int]) -> None:
        ordered = sorted(indices)
        for position, first in enumerate(ordered):
            for second in ordered[position + 1 :]:
                pairs.add((first, second))

    grams = [profile.grams for profile in profiles]
    same_text: dict[frozenset[str], list[int]] = defaultdict(list)
    for index, gram_set in enumerate(grams):
        same_text[gram_set].append(index)
    for indices in same_text.values():
        if len(indices) > 1:
            add_all(indices)
    if not conservative:
        by_name: dict[str, list[int]] = defaultdict(list)
        for index, member in enumerate(members):
            name = _normal_name(member.name)
            if name is not None:
                by_name[name].append(index)
        for indices in by_name.values():
            if len(indices) > 1:
                add_all(indices)
    # Memories about one subject share its name even when a re-wording changed most
    # of the phrasing around it; subject words are rare, so these lists are short.
    by_subject: dict[str, list[int]] = defaultdict(list)
    for index, profile in enumerate(profiles):
        for word in profile.subject:
            by_subject[word].append(index)
    for indices in by_subject.values():
        if 1 < len(indices) <= RARE_BIGRAM_MAX_MEMORIES:
            add_all(indices)

    postings: dict[str, list[int]] = defaultdict(list)
    for index, gram_set in enumerate(grams):
        for gram in gram_set:
            postings[gram].append(index)
    shared: dict[tuple[int, int], int] = defaultdict(int)
    for holders in postings.values():
        if 1 < len(holders) <= RARE_BIGRAM_MAX_MEMORIES:
            for position, first in enumerate(holders):
                for second in holders[position + 1 :]:
                    shared[(first, second)] += 1
    pairs.update(pair for pair, count in shared.items() if count >= MIN_SHARED_RARE_BIGRAMS)
    return pairs


def _duplicate_reason(
    members: list[Candidate],
    profiles: list[_Profile],
    first: int,
    second: int,
    conservative: bool,
) -> str | None:
    one, other = profiles[first], profiles[second]
    name = _normal_name(members[first].name)
    if not conservative and name is not None and name == _normal_name(members[second].name):
        return f"the same name ({members[first].name})"
    if not same_subject(one, other):
        return None
    if one.grams == other.grams:
        return "the same text"
    alike = likeness(one.grams, other.grams)
    smaller = min(len(one.grams), len(other.grams))
    if not is_near_duplicate(alike, smaller, conservative=conservative):
        return None
    if alike.resemblance < RESEMBLANCE_THRESHOLD:
        return f"{alike.containment:.0%} of one is in the other"
    return alike.describe()


# -- merging ------------------------------------------------------------------------


def _blocks(body: str) -> list[list[str]]:
    """Paragraphs (runs of non-blank lines) and fenced code blocks, as lists of lines.
    A fence is kept whole: half a code block appended elsewhere would break it."""
    blocks: list[list[str]] = []
    current: list[str] = []
    fence = ""
    for line in body.replace("\r\n", "\n").split("\n"):
        opened = _FENCE.match(line)
        if fence:
            current.append(line)
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                blocks.append(current)
                current, fence = [], ""
            continue
        if opened:
            if current:
                blocks.append(current)
            current, fence = [line], opened.group(1)
            continue
        if line.strip():
            current.append(line)
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def union_bodies(newest: str, *older: str) -> tuple[str, int]:
    """`newest` followed by every line of the older bodies it does not already have.

    Lines are compared as written (surrounding whitespace aside), so no wording is
    judged equal to another and dropped; a paragraph keeps its remaining lines
    together and a code block moves whole. Returns the body and how many lines were
    added.
    """
    seen = {line.strip() for line in newest.replace("\r\n", "\n").split("\n") if line.strip()}
    newest_blocks = {"\n".join(block) for block in _blocks(newest)}
    added: list[list[str]] = []
    count = 0
    for body in older:
        for block in _blocks(body):
            if _FENCE.match(block[0]):
                if "\n".join(block) not in newest_blocks:
                    added.append(block)
                    newest_blocks.add("\n".join(block))
                    count += len(block)
                continue
            fresh = [line for line in block if line.strip() not in seen]
            if fresh:
                added.append(fresh)
                seen.update(line.strip() for line in fresh)
                count += len(fresh)
    if not added:
        return newest, 0
    head = newest.rstrip("\r\n")
    tail = "\n\n".join("\n".join(block) for block in added)
    return (head + "\n\n" + tail if head else tail) + "\n", count


def covered(text: str, by: str) -> bool:
    """Whether every word of `text` already occurs in `by` (so it adds nothing)."""
    words = set(tokens(text))
    return not words or words <= set(tokens(by))
