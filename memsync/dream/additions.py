"""A memory restated and added to (issue 15 item 3): which sentences of the longer
restate the other and which it adds.

A teammate saving again what another memory says often says it in a few words of their
own and adds what they learnt: a sentence, a ``**Why:**`` and a ``**How to apply:**``
line, a denial said in passing ("she cannot read code"), a command. Judged whole, the
two each say words the other does not, and the added lines bring facts, qualifiers and
denials of their own, which the judge of restatements reads as facts changed. Split at
its sentences, the longer memory is a restatement of the other (`Parts.restated`,
judged as any restatement is by `memsync.dream.dedupe`) and sentences of its own
(`Parts.added`, which must then change nothing the other says).

A sentence restates the other memory when more than half its meaningful words are the
other's (after the usual normalising: stems, synonyms, filler words): "Gadwall is
deployed to production on Tuesdays at 11:00 UTC" against "The Gadwall service is
deployed to production every Tuesday at 11:00 UTC", not "**How to apply:** merge
Gadwall changes by Monday evening, or they wait a week".

What is added must be said apart (`said_again`: every clause added is new to the other,
or repeats its names alone), and no clause of its own may deny, take away or restrict
with nothing of its own to say it of (`denies_the_rest`, which every judge reads: "Not
this month.", "Except in December.").
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from memsync.dream.profiles import FILLER_WORDS, Profile, canonical, profile_of
from memsync.dream.rewording import Word, new_clauses
from memsync.dream.vocabulary import ENDED, PRIVATIVE, RESTRICTING

# "Never", "no", "without" and "avoid" are "not" once normalised.
DENIAL = canonical("not")
# Words that deny, take away, restrict or end what a sentence says (`denies_the_rest`).
_MARKING = frozenset(canonical(word) for word in PRIVATIVE | RESTRICTING | ENDED) | {DENIAL}

# Where a sentence ends, as the word order `memsync.dream.profiles` reads ends one: a
# full stop, "!" or "?" before a space, a line's end, a Chinese full stop.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\s*\n\s*|(?<=[。！？])")


@dataclass(frozen=True)
class Parts:
    """The sentences of a longer memory that restate a shorter one, and the rest."""

    restated: Profile
    added: Profile


def split(shorter: Profile, longer: Profile) -> Parts | None:
    """`longer` as the sentences restating `shorter` and the sentences it adds, or None
    when it adds nothing, or restates not every sentence of `shorter` (more than half
    the words of each are in the sentences restating it)."""
    known = shorter.words
    restated: list[str] = []
    added: list[str] = []
    for sentence in _sentences(longer.text):
        words = profile_of(sentence).words
        (restated if 2 * len(words & known) > len(words) else added).append(sentence)
    if not restated or not added:
        return None
    said = profile_of("\n".join(restated))
    for sentence in _sentences(shorter.text):
        words = profile_of(sentence).words
        if 2 * len(words & said.words) <= len(words):
            return None
    return Parts(said, profile_of("\n".join(added)))


def _sentences(text: str) -> list[str]:
    """The sentences of a memory's text that hold a word."""
    return [sentence for sentence in _SENTENCE_END.split(text) if _WORD.search(sentence)]


_WORD = re.compile(r"[^\W_]")


def said_again(shorter: Profile, added: Profile) -> bool:
    """Whether a clause of sentences a memory adds to `shorter` says a word `shorter`
    says (`new_clauses`), other than the names it repeats alone
    ("`docker run -p 8214:8214`" for "port 8214"): it then says again, or otherwise,
    what `shorter` says, and a denial or a name in it may change it."""
    fresh = new_clauses(added.shape, shorter.words)
    known = shorter.words
    said: dict[int, list[Word]] = defaultdict(list)
    for word in added.shape.words:
        if word.clause not in fresh and word.meaningful:
            said[word.clause].append(word)
    return any(
        clause in added.shape.negative or not all(w.name and w.text in known for w in words)
        for clause, words in said.items()
    )


def denies_the_rest(smaller: Profile, larger: Profile) -> bool:
    """Whether `larger` denies, takes away or restricts in a clause of its own that says
    one thing of its own at most, a word or names ("Not this month.", "Except in
    December.", "Not 2026-09.", "Ignore this note."): with nothing of its own to deny,
    it denies or narrows what `smaller` says. "She is not familiar with Kubernetes" and
    "we never store passwords" deny a fact of their own."""
    shape = larger.shape
    fresh = new_clauses(shape, smaller.words)
    said: dict[int, set[Word]] = {clause: set() for clause in fresh & shape.negative}
    for word in shape.words:
        if word.clause in fresh and (word.meaningful or word.text in FILLER_WORDS):
            said.setdefault(word.clause, set()).add(word)
    for clause, words in said.items():
        texts = {word.text for word in words}
        if clause not in shape.negative and _MARKING.isdisjoint(texts):
            continue
        own = [word for word in words if word.text not in _MARKING]
        if len({word.text for word in own if not word.name}) + any(w.name for w in own) <= 1:
            return True
    return False


# Words that make a sentence hold on a condition ("if CI is green", "provided the tests
# pass", "as long as"): read in the text, as "if" is a grammar word.
_CONDITION = re.compile(r"\b(?:if|provided|as long as|only when)\b", re.IGNORECASE)


def conditions_added(smaller: Profile, larger: Profile) -> bool:
    """Whether `larger` puts a condition on a sentence restating `smaller` (more than half
    its words are `smaller`'s) and `smaller` states none: "Auto-merge Dependabot patch
    updates" / "… if CI is green" narrows what the other says to when the condition
    holds. A sentence of its own with a condition ("**How to apply:** if the deploy
    fails, page Ana") is a fact added."""
    if _CONDITION.search(smaller.text):
        return False
    known = smaller.words
    for sentence in _sentences(larger.text):
        if _CONDITION.search(sentence):
            words = profile_of(sentence).words
            if 2 * len(words & known) > len(words):
                return True
    return False
