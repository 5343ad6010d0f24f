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
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memsync.dream.profiles import Profile, profile_of

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
