"""Words two memories spell differently without saying anything different (issue 15
item 3): a misspelt word ("recieve", "enviroment") and a word written joined on one
side and apart or hyphenated on the other ("oncall", "on-call"). Duplicate detection
(`memsync.dream.dedupe`) takes these out of the words only one side says before it
judges what the rest add."""

from __future__ import annotations

from memsync.dream.profiles import Profile, canonical

# Lowercase words this long that differ by one edit are one word misspelt.
TYPO_MIN_LENGTH = 6


def reconciled(one: Profile, other: Profile) -> tuple[set[str], set[str]]:
    """The words each side says and the other does not, less misspelt words and words
    written joined on one side and apart on the other."""
    only_one, only_other = without_typos(one.words - other.words, other.words - one.words)
    only_one, only_other = without_joined(one, only_one, other, only_other)
    return without_misspelt(one, only_one, other), without_misspelt(other, only_other, one)


def without_misspelt(one: Profile, only_one: set[str], other: Profile) -> set[str]:
    """`only_one` less the words `one` spells one edit away from a word only `other`
    spells ("comits", "enviroment"), filler words included."""
    if not only_one:
        return only_one
    mine = [w for w in one.spelled if canonical(w) in only_one and misspellable(w)]
    if not mine:
        return only_one
    theirs = [word for word in other.spelled - one.spelled if misspellable(word)]
    misspelt = {canonical(word) for word in mine if any(one_edit(word, their) for their in theirs)}
    return only_one - misspelt


def without_joined(
    one: Profile, only_one: set[str], other: Profile, only_other: set[str]
) -> tuple[set[str], set[str]]:
    """The words each side lacks, less a word one side writes joined and the other
    apart or hyphenated ("oncall", "on-call"; "pgbouncer", "pg bouncer")."""
    if not only_one and not only_other:
        return only_one, only_other
    left, right = set(only_one), set(only_other)
    for words, spelled, theirs in ((left, other.spelled, right), (right, one.spelled, left)):
        for word in sorted(words):
            parts = [word[:cut] for cut in range(2, len(word) - 1)]
            if any(part in spelled and word[len(part) :] in spelled for part in parts):
                words.discard(word)
                theirs.difference_update(canonical(part) for part in spelled if part in word)
    return left, right


def without_typos(
    only_one: frozenset[str], only_other: frozenset[str]
) -> tuple[set[str], set[str]]:
    """The words of each side the other lacks, less the pairs that are one misspelt
    word (one edit apart, both long, letters only)."""
    left, right = set(only_one), set(only_other)
    # Only long words of letters can be a misspelling (`one_edit`); most pairs have
    # none on one side, and then nothing is discarded.
    candidates = [word for word in sorted(only_one) if misspellable(word)]
    twins = [word for word in sorted(only_other) if misspellable(word)]
    if not candidates or not twins:
        return left, right
    for word in candidates:
        twin = next((w for w in twins if w in right and one_edit(word, w)), None)
        if twin is not None:
            left.discard(word)
            right.discard(twin)
    return left, right


def misspellable(word: str) -> bool:
    """Whether `word` is long enough, and plain letters, to be read as another misspelt:
    short words and names with digits one edit apart are other words ("v14", "v15")."""
    return len(word) >= TYPO_MIN_LENGTH and word.isascii() and word.isalpha()


def one_edit(first: str, second: str) -> bool:
    """Whether two long words of letters are one misspelt as the other: one letter
    changed, added or dropped, or two neighbours swapped."""
    if min(len(first), len(second)) < TYPO_MIN_LENGTH or first == second:
        return False
    if not (first.isascii() and first.isalpha() and second.isascii() and second.isalpha()):
        return False
    if len(first) == len(second):
        diffs = [i for i, (a, b) in enumerate(zip(first, second, strict=True)) if a != b]
        if len(diffs) == 1:
            return True
        i = diffs[0]
        return (
            len(diffs) == 2
            and diffs[1] == i + 1
            and first[i] == second[i + 1]
            and (first[i + 1] == second[i])
        )
    if abs(len(first) - len(second)) != 1:
        return False
    short, long = sorted((first, second), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
