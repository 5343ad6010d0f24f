"""Whether two memories of one type are duplicates (SPEC D4, D8; issue 15 item 3):
`duplicate_reason`, which asks the judge by words (`memsync.dream.word_judge`), the
judge by facts (`memsync.dream.fact_judge`), and whether one restates the other and
adds sentences; then whether one contradicts the other.

**Restated and added to** (written for the seventh batch, ``tests/dream/tuning/
supersets.py``): a memory that says the other again in a few words of its own and adds
sentences (a ``**Why:**`` and a ``**How to apply:**`` line, a denial said in passing,
a command) is its duplicate (`_restated_and_added`) when its sentences restating the
other (`memsync.dream.additions`) are the other's duplicate, judged as above, and hold
every fact of it, and what it adds changes nothing the other says: every clause added
is new (`rewording.new_clauses`: none of its words, or at most a third of four or more,
are the other's) or, no denial, repeats names of the other alone (the port in
"`docker run -p 8214:8214`"); no word that takes away ("except", "skip") is said in a
sentence sharing words with the other, no qualifier in a sentence that restricts, and
no qualifier or kind of component is added beside no name of its own ("The worker
behind it is slow"), nor a subject ("Used by the Reviews API"). A denial or a fact
said only in new clauses is an addition, not a contradiction. The shorter has
`MIN_SHARED_WORDS_CONTAINED` words at least, lacks at most `MAX_RECONCILED` of them in
the longer, and the longer adds more than that. Whichever judge reads them, a word
that ends what the other says, one side alone saying it (`vocabulary.ENDED`:
"formerly", "no longer", "obsolete", and "until" a date: "until March", "until 2026"),
refuses, and so does a clause of its own that denies, takes away or restricts with one
thing of its own at most to say it of ("Not this month.", "Except in December.",
"Ignore this note.": `memsync.dream.additions.denies_the_rest`); "How to apply",
Claude Code's label, restricts nothing.

**Restated whole by another person** (written for the eighth batch, ``tests/dream/
tuning/restated.py``, in Claude Code's layout): a rule's modal said in other words is
one modal ("has to", "needs to", "is required to" are "must"; "do not ever" is "never":
`memsync.dream.phrasing.reworded`), so its polarity and its words agree; "only" (or
"exclusively", "solely") one side alone says in a clause both say narrows what the
other says to one thing ("4 replicas, for EU customers only") and refuses, as a word
that takes away does; and when each memory opens with a description summing up its
body (every word of it said again in a later sentence), the descriptions are left out
when looking for a word put in the place of another (`memsync.dream.fact_judge`): the words of one
description, counted twice, would seem replaced in a memory whose description sums up
in other words. A description only one side sums up with is kept ("Pulsar depth" said
twice, then once beside "briefly", is "depth" replaced).

**One fact away** (written for the ninth batch, ``tests/dream/tuning/adversarial.py``,
look-alikes each the same memory with one fact changed). Whichever judge finds two
memories alike, a word one says where the other says its opposite refuses
(`memsync.dream.opposites`: "weekdays" / "weekends", "at most" / "at least", "increase"
/ "decrease", "allow" / "deny"; one alone saying each, or the two put in each other's
place: "opt-in" / "opt-out", "allow A and deny B" and the verbs traded), and so does
"used to" one side alone says ("Jonas used to own …"; not "is used to"). Two words
traded between the same places ("`LOG_LEVEL=info` in production and `LOG_LEVEL=debug` in
staging", the levels swapped) are names swapped, names or not
(`memsync.dream.differences.swapped`). A restatement may word things its own way, but
not exchange one word for another between the same words ("patch updates in the Swift
repo" / "minor updates": `rewording.word_replaced`). A memory holding the other may not
add "only" to a sentence both say, nor a condition ("if CI is green":
`additions.conditions_added`), nor a word after "every" ("every logged-in visitor":
`rewording.inserted_inside`). A number written as a word is its digits ("three
replicas", "3 replicas"; Chinese numerals too) and a unit abbreviated after a number is
written out ("30 s" is "30 seconds", so "30 ms" another unit): both
`memsync.dream.phrasing.reworded`. A URL's scheme is part of it ("http://" /
"https://").
"""

from __future__ import annotations

import re

from memsync.dream.additions import DENIAL, denies_the_rest, said_again, split
from memsync.dream.differences import (
    QUALIFIER_AND_COMPONENT_FORMS,
    ends,
    facts_within,
    narrowed,
    said_with_a_new_name,
    subject_added,
    swapped,
    takes_away,
    unread,
)
from memsync.dream.fact_judge import facts_reason, grants, obliges
from memsync.dream.opposites import opposed
from memsync.dream.profiles import Profile
from memsync.dream.word_judge import (
    MAX_RECONCILED,
    MIN_SHARED_WORDS_CONTAINED,
    worded_close,
    worded_reason,
)

_USED_TO = re.compile(
    r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )(?<!\bbe )(?<!\bbeen )(?<!\bget )"
    r"(?<!\bgot )(?<!\bgets )\bused to\b",
    re.I,
)


def duplicate_reason(
    one: Profile,
    other: Profile,
    conservative: bool = False,
) -> str | None:
    """Why two memories of one type are duplicates, or None when they are not."""
    if one.exact == other.exact:
        return "the same text"
    # Every test below must pass; the costliest (facts, word order) come last.
    shared = len(one.words & other.words)
    if conservative:
        if not worded_close(shared, len(one.words), len(other.words), conservative):
            return None
        resemblance = shared / (len(one.words) + len(other.words) - shared)  # the union's size
        alike = one.facts == other.facts and not _contradicts(one, other)
        return f"{resemblance:.0%} alike" if alike and not swapped(one, other) else None
    reason = _judged(one, other, shared) or _restated_and_added(one, other, shared)
    return None if reason is None or _contradicts(one, other) else reason


def _contradicts(one: Profile, other: Profile) -> bool:
    """Whether, whichever judge found two memories alike, one says the opposite of the
    other (`memsync.dream.opposites`) or says "used to" where the other does not."""
    return (
        opposed(one, other)
        or _used_to(one) != _used_to(other)
        or _obliged_against_granted(one, other)
        or _obliged_against_granted(other, one)
    )


def _obliged_against_granted(one: Profile, other: Profile) -> bool:
    """Whether one memory obliges ("Contractors must merge …") where the other, obliging
    nothing, grants ("Contractors may merge …"): a permission is no obligation."""
    return obliges(one) and not obliges(other) and grants(other) and not grants(one)


def _used_to(memory: Profile) -> bool:
    """Whether a memory says what held once ("Jonas used to own the exporter"), not
    what a thing serves for ("the script is used to deploy")."""
    return "used to" in memory.text.casefold() and bool(_USED_TO.search(memory.text))


def _judged(one: Profile, other: Profile, shared: int) -> str | None:
    """Why two memories, judged whole, are duplicates (in a personal dream): by their
    words or by their facts."""
    if one.exact == other.exact:
        return "the same text"
    if not worded_close(shared, len(one.words), len(other.words), False):
        return facts_reason(one, other, shared)
    resemblance = shared / (len(one.words) + len(other.words) - shared)  # the union's size
    containment = shared / min(len(one.words), len(other.words))
    return worded_reason(one, other, resemblance, containment) or facts_reason(one, other, shared)


def _restated_and_added(one: Profile, other: Profile, shared: int) -> str | None:
    """Why a memory that restates the other in a few words of its own and adds sentences
    (`memsync.dream.additions`) is its duplicate, or None (see the module's docstring,
    "restated and added to")."""
    ordered = (len(one.words), one.exact) <= (len(other.words), other.exact)
    shorter, longer = (one, other) if ordered else (other, one)
    if len(shorter.words) < MIN_SHARED_WORDS_CONTAINED:
        return None
    # Nearly all the shorter's words in the longer, which adds more than a re-wording.
    if len(longer.words) - shared <= MAX_RECONCILED:
        return None
    if not worded_close(shared, len(shorter.words), len(longer.words), False):
        return None
    if shorter.capitalised - longer.words:
        return None  # a name of the shorter the longer never says (a cheap look first)
    new = set(longer.words - shorter.words)
    if ends(shorter, longer, new) or unread(new) or not facts_within(shorter, longer):
        return None
    parts = split(shorter, longer)
    if parts is None or not facts_within(shorter, parts.restated):
        return None  # a fact of the shorter is said only beside what the longer adds
    restated, added = parts.restated, parts.added
    if said_again(shorter, added):
        return None  # an added sentence says again, or otherwise, what the shorter says
    # A qualifier or a kind of component added says which thing the rest is about,
    # unless said beside a name of its own ("Traces are in Tempo under service …").
    told = QUALIFIER_AND_COMPONENT_FORMS.intersection(new)
    if told - said_with_a_new_name(added, shorter, told):
        return None
    if (
        subject_added(shorter, added)
        # A denial in a clause added is one of the additions (`said_again` saw its
        # clauses); "except" or "skip" in a sentence sharing words takes away.
        or takes_away(shorter, added, new - {DENIAL})
        or narrowed(shorter, added, new)
        or denies_the_rest(shorter, added)
        or swapped(shorter, longer)
        or _judged(shorter, restated, len(shorter.words & restated.words)) is None
    ):
        return None
    return "one restates the other and adds sentences of its own"
