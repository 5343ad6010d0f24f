"""The judge by words (SPEC D4; issue 15 item 3): two memories of one type saying the
same things, one of them perhaps adding to the other, in nearly the same words.

1. **no fact differs.** Facts are what a re-wording keeps and a different memory
   changes: numbers, versions and dates; capitalised names (people, services,
   products); weekdays and months; identifiers (``payments.bill_split``,
   ``/v2/statements``, ``qa@x.dev``, ``#payments-oncall``, anything in backticks; in
   text written all in capitals, capitals name nothing); and the polarity of a rule
   ("never"/"do not" against "always"/"must"). The smaller memory's facts must all be
   the larger's; a word capitalised in one and not the other, or written in Chinese
   in the other (`memsync.dream.glossary`), is the same word;
2. **only one side adds anything.** Words are compared after normalising what a
   re-wording changes without meaning to: case, Unicode width (NFKC), dashes and
   punctuation, plurals and verb endings (a light stemmer), synonyms, filler words
   (`memsync.dream.vocabulary.WORDING`: "handles", "currently", "lives in"), a
   misspelt word and a word written joined or apart. When each memory still has a
   word the other lacks ("billing" against "dispatch", "staging" against
   "production"), they are about different things. At least `MIN_SHARED_WORDS` are
   shared, `CONTAINMENT_THRESHOLD` of the smaller's words are in the larger before
   those reconciliations, and a smaller memory of under `MIN_SHARED_WORDS_CONTAINED`
   words also overlaps the larger by `RESEMBLANCE_THRESHOLD` (Jaccard);
3. **what one adds is added, not swapped** (`memsync.dream.rewording`, read from word
   order): no added word stands where the other memory had another ("keep" →
   "remove"), no "never" is added to a sentence both say, no qualifier ("staging",
   "weekly", "frontend": `QUALIFIERS`) and no name (nor a component after a name:
   "Ledger worker" for "Ledger") is added inside one, no two names trade the words
   around them ("Payments team owns Orders" / "Orders team owns Payments"), and no
   name is said in sentences that share no word with the other's ("owner: Ana Ruiz"
   / "Escalation: … Ana Ruiz").
"""

from __future__ import annotations

from memsync.dream.additions import conditions_added, denies_the_rest
from memsync.dream.differences import (
    COMPONENT_FORMS,
    QUALIFIER_FORMS,
    SOLELY,
    ends,
    facts_within,
    narrowed,
    subject_added,
    swapped,
    takes_away,
)
from memsync.dream.misspelling import reconciled
from memsync.dream.profiles import Profile
from memsync.dream.rewording import (
    added_where_shared,
    inserted_inside,
    name_added_where_shared,
    negation_added,
    replaces_something,
)

RESEMBLANCE_THRESHOLD = 0.5
CONTAINMENT_THRESHOLD = 0.8
MIN_SHARED_WORDS = 3
# A memory all of whose words are in another merges into it whatever their lengths,
# when it has at least this many words.
MIN_SHARED_WORDS_CONTAINED = 4
# At most this many words on each side are looked at as misspelt or written joined.
MAX_RECONCILED = 2
TEAM_RESEMBLANCE_THRESHOLD = 0.9


def worded_close(shared: int, one: int, other: int, conservative: bool) -> bool:
    """Whether two memories of `one` and `other` words, `shared` of them in both, can
    be duplicates for the word judge by those counts alone (`memsync.dream.dedupe._close`
    asks the fact judge too)."""
    if shared < MIN_SHARED_WORDS:
        return False
    if conservative:
        return shared / (one + other - shared) >= TEAM_RESEMBLANCE_THRESHOLD  # the union's size
    # Each side saying something the other does not is two memories, however alike:
    # the smaller may lack a few words in the larger (a misspelt one, one written
    # joined), not more.
    smaller = min(one, other)
    return shared / smaller >= CONTAINMENT_THRESHOLD and smaller - shared <= MAX_RECONCILED


def worded_reason(
    one: Profile, other: Profile, resemblance: float, containment: float
) -> str | None:
    """Why two memories are duplicates by their words: only one side adds any (see the
    module's docstring), or None."""
    # A misspelt word ("recieve") or one written joined ("oncall") is no difference.
    only_one, only_other = reconciled(one, other)
    if only_one and only_other:
        return None
    # A memory wholly inside a longer one (the same plus new lines) is still a copy.
    smallest = min(len(one.words), len(other.words))
    if smallest < MIN_SHARED_WORDS_CONTAINED and resemblance < RESEMBLANCE_THRESHOLD:
        return None
    smaller, larger, added = (other, one, only_one) if only_one else (one, other, only_other)
    if not facts_within(smaller, larger) or not (added or facts_within(larger, smaller)):
        return None
    if added and (
        subject_added(smaller, larger)
        or takes_away(smaller, larger, added)
        or takes_away(smaller, larger, added, SOLELY)
        or conditions_added(smaller, larger)
        or negation_added(smaller.shape, larger.shape)
        or inserted_inside(smaller.shape, larger.shape, added)
        or name_added_where_shared(smaller.shape, larger.shape, COMPONENT_FORMS)
        or replaces_something(smaller.shape, larger.shape, added)
        or not QUALIFIER_FORMS.isdisjoint(added_where_shared(smaller.shape, larger.shape, added))
        or narrowed(smaller, larger, added)
        or ends(smaller, larger, added)
        or denies_the_rest(smaller, larger)
    ):
        return None
    if swapped(one, other):
        return None
    if added:
        return f"{containment:.0%} of one is in the other, which adds to it"
    return f"{resemblance:.0%} alike, the same facts"
