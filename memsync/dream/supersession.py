"""A newer memory that says otherwise about the same thing, however it is worded
(issue 15 item 4: superseded and contradicted memories).

"The Payments API listens on port 8443" is replaced by "We moved the Payments API to
port 9443 when the load balancer changed", though the two share few words in order.
What they share is a *slot* — the words around a value ("Payments API … port") — and
what differs is the value in it. A memory is read as facts: a value of a class (a
number, a duration, a size, a time of day, a weekday, a version, an identifier such as
a host, a channel or an address, a person, a team: `memsync.dream.stated_values`) with
the words around it in its sentence (up to `_BEFORE` content words before it and
`_AFTER` after it, stopping at "when", "after", "to …", a comma). A value the sentence
looks away from ("from 8443", "no longer 14 days", "not Nia Long", "从 8200 改成") is no
claim, and a date ("2026-03-04", "March 4th", "3月4日") says when, not what: it is no
fact, and its words are no slot.
How often is a duration ("weekly" is "every 7 days"), and a fact on a line of its own
below the description ("- Port: 8080" under "Billing API service facts") has the
description's words around it too.

An older memory is replaced by a newer one of the same type when one of its facts has a
fact of the same class in the newer memory whose slot is the same — the words of one
slot are all in the other's, and they share one that names no value — and none of
the newer memory's facts of that class has the older one's value. Refused, because
each would flag a memory that says something else:

- each memory names a thing the other does not (capitalised mid-sentence: "Billing
  API" against "Search API", "the EU region" against "the US region"), or each slot
  has a word the other lacks ("request timeout" against "idle connection timeout",
  "deploys" against "retro");
- facts of two classes differ at once ("3 replicas in eu-west-1" against "5 replicas
  in us-east-1": another deployment more likely than a change);
- the newer memory still states the older value in that class ("port 8443; metrics on
  port 9100" adds a fact), whether or not words around it make a slot.

A memory also replaces an older one when it names as left behind ("no longer use X",
"no more X", "X is deprecated", "X replaced by Y", "renamed … from X to Y", "used X
until …", "不再用 X", "从 X 换成 Y") a tool the older one states, about the same thing:
every word of the older's description is in the newer (less words saying what kind of
thing it is: "service", "tool", "style"), or all but one of its words are; never when
the two name different settings ("staging" against "production", "web" against
"mobile"), and never by a newer memory that names what it replaced and that is
something else.

Which memories are compared, and memories naming another as replaced by its file, are
`memsync.dream.stale_pairs`.
Word lists were chosen on ``tests/dream/tuning/stale_variants.py`` and checked on an
independently worded second set (``stale_rewritten.py``), never on ``tests/heldout``.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from memsync.dream.dedupe import content_words, normalise
from memsync.dream.looking_away import right_before
from memsync.dream.stated_values import (
    ASCII_WORD_BYTES,
    CHANGE_WORDS,
    canonical_words,
    values_in,
)
from memsync.dream.vocabulary import DAY_SET, QUALIFIERS, word_set
from memsync.memory import MemoryFile

_BEFORE = 10
_AFTER = 4
_MIN_SHARED = 2  # slot words: one alone ("call") names no slot


# Words one slot may have and the other not: what names the value's kind ("window",
# "region"), how often, and verbs that say where it goes. Any other word only one has
# narrows the subject ("timeout for exports") or changes it ("retro" for "deploys").
_LOOSE = (
    canonical_words(
        """
    port host hostname address url endpoint domain ip region zone cluster bucket channel
    queue topic group window interval frequency schedule cadence period duration time
    timeout ttl retention limit max min size quota count number replica instance version
    day date hour owner lead contact rotation value setting default nightly daily weekly
    hourly monthly every upload uploaded deploy deployed keep retain retained store
    stored write written push pushed publish published threshold gate guideline
    """
    )
    | DAY_SET
)
# Where a thing runs: two memories naming two of these speak of two things.
_SETTINGS = canonical_words(
    "staging production prod dev development qa sandbox preview canary web mobile ios"
    " android desktop frontend backend"
)
# The setting a memory means when it names none: a newer memory may leave it out of a
# slot ("the traces sample rate" after "the traces sample rate in production"), when it
# names no other (`_SETTINGS`).
_DEFAULT_SETTING = canonical_words("production prod")
# Words a description may add to say what kind of thing its subject is ("Error tracking
# service", "Celery broker setup"): no part of the subject.
_KINDS = canonical_words(
    "service tool tooling system setup platform provider vendor stack choice style approach"
    " method strategy"
)
# Words ending the words around a value that follow it ("… 60 seconds after the incident").
_STOP_AFTER = word_set("when after since because once while until so to if as but with by that")
# Words right before a value that make it a past or rejected one.
_LOOKS_AWAY = right_before(r"no longer be", r"used to be", r"than")
# "from" looks away only from what changed: "moved from X to Y", "took over from X", "从 X
# 改成 Y" (not "served from eu-west-1").
_FROM = re.compile(r"(?:\bfrom|从)\W*(?:the\s+|a\s+|an\s+)?$", re.IGNORECASE)
_TO_AFTER = re.compile(r"^\W*(?:to|into|→|->)\b|^\s*(?:→|->|改成|改到|改为|换成|到)")
_CHANGED_WORDS = word_set(
    """
    moved moving switched changed migrated took taken passed replaced upgraded downgraded
    went handed renamed raised lowered bumped rescheduled became stopped resized dropped
    """
)
_CHANGED = re.compile(r"\b(?:" + "|".join(sorted(_CHANGED_WORDS)) + r")\b", re.IGNORECASE)
# After a value, words that retire it: "acme-artifacts-eu is read-only", "(old host retired)".
_RETIRED_AFTER = re.compile(
    r"^\W*(?:is|are|was|were|has been|have been|got)?\s*(?:now\s+)?(?:read-only|retired"
    r"|deprecated|gone|removed|decommissioned|obsolete|legacy|frozen|dead|shut down"
    r"|moved (?:to|on|away|teams)|(?:changed|switched) teams|left)\b",
    re.IGNORECASE,
)
# Where a sentence ends: white space after ".", "!" or "?" before what may start one, or
# line breaks. Written to start with the white space, which is quick to look for (a
# pattern starting with a look-behind is tried at every character).
_SENTENCE = re.compile(r"\s(?:(?<=[.!?]\s)\s*(?=[A-Z0-9`\"'(])|(?<=\n)\n*)")
_BREAK = re.compile(r"[,;:()—]|\s-\s")
_CLAUSE_JOIN = re.compile(r";|,\s+(?:so|and|but)\s", re.IGNORECASE)
# A tool or place the memory leaves: "from yarn to", "off LaunchDarkly", "no longer runs on
# Jenkins", "instead of Rollbar", "replaced Redis". A lowercase word counts only before
# "to" ("from yarn to pnpm"): "from the team" names no tool.
_RETIRED = re.compile(
    r"\b(?:(?:moved|switched|migrated|went|renamed|changed)\s+(?:\w+\s+){0,5}?(?:from|off)"
    r"|instead of"
    r"|no longer\s+(?:\w+\s+){0,2}?(?:on|in|at|with|use|uses|using|kept in|stored in|through|via)"
    r"|no more|stopped using|replaced|dropped|retired|not)\s+(?:the\s+)?"
    r"(?P<term>[A-Za-z][\w.-]*[A-Za-z0-9])"
)
# The same, the tool first: "Mixpanel was replaced by PostHog", "Jenkins got retired".
_RETIRED_BEFORE = re.compile(
    r"\b(?P<term>[A-Z][\w.-]*[A-Za-z0-9]|[a-z][a-z0-9]*(?:[-.][a-z0-9]+)+)\s+"
    r"(?:was|were|has been|have been|got|is being|is|are)\s+(?:now\s+)?"
    r"(?:replaced|dropped|retired|deprecated|removed|decommissioned|shut down|gone)\b"
    # What replaced it named after it, any tool: "npm was replaced by pnpm", "GitBook
    # replaced by Docusaurus".
    r"|\b(?P<replaced>[A-Za-z][\w.-]*[A-Za-z0-9])\s+(?:(?:was|were|has been|have been|got)\s+)?"
    r"replaced\s+(?:by|with)\s+\S"
)
# Used for a while, then left: "We used Statuspage until the price went up", "used
# pip-tools before uv".
_USED_UNTIL = re.compile(
    r"\bused\s+(?:the\s+)?(?P<term>[A-Za-z][\w.-]*[A-Za-z0-9])\s+(?:until|till|before)\b"
)
# The same in Chinese: "不再用 Jenkins", "不再放在 Figma", "从 Jenkins 换成", "Jenkins 已停用".
_RETIRED_ZH = re.compile(
    r"(?:不再|停止)(?:使用|用|存到|存在|存|放在|放到|放|在|走|通过|经过)?\s*"
    r"(?P<term>[A-Za-z][\w.-]*[A-Za-z0-9])"
    r"|从\s*(?P<from>[A-Za-z][\w.-]*[A-Za-z0-9])\s*(?:换成|改成|改为|迁移到|迁到|切换到)"
    r"|(?P<before>[A-Za-z][\w.-]*[A-Za-z0-9])\s*(?:已经?|已)?(?:弃用|停用|下线|废弃)"
)
# Cues after which a lowercase tool is left whatever follows: "no more squash", "stopped
# using pip-tools", "no longer use yarn".
_LEFT_WHATEVER = re.compile(
    r"(?:no more|stopped using|no longer (?:\w+\s+)?(?:use|uses|using))\s+(?:the\s+)?$"
)
# Words `_RETIRED` and `_RETIRED_BEFORE` cannot match without: most sentences have none,
# and one search for them all is quicker than either pattern.
_RETIRED_CUES = ("moved", "switched", "migrated", "went", "renamed", "changed", "instead of",
                 "no longer", "no more", "stopped using", "replaced", "dropped", "retired",
                 "not")  # fmt: skip
_RETIRED_BEFORE_CUES = ("replaced", "dropped", "retired", "deprecated", "removed",
                        "decommissioned", "shut down", "gone")  # fmt: skip
_RETIRED_CUE = re.compile("|".join(map(re.escape, _RETIRED_CUES)))
_RETIRED_BEFORE_CUE = re.compile("|".join(map(re.escape, _RETIRED_BEFORE_CUES)))
# After a lowercase tool it leaves, the one it takes instead: "dropped wkhtmltopdf for
# Gotenberg" (not "dropped tests for the admin app").
_FOR_INSTEAD = re.compile(r"^\s+(?:for|in favou?r of)\s+[A-Z]")
_NOW = re.compile(
    r"\b(?:now|these days|as of|going forward|from now on|effective)\b"
    r"|现在|目前|改成|改到|改为|换成",
    re.IGNORECASE,
)
# What `_NOW` cannot match without (in lower case): most texts have none, and looking for
# them costs a tenth of the search.
_NOW_CUES = ("now", "these days", "as of", "going forward", "effective")
_LOWER_NOW = re.compile(_NOW.pattern)
_CHANGED_BYTES = frozenset(word.encode() for word in _CHANGED_WORDS)
_PULL_REQUEST = re.compile(r"\bpull[- ]requests?\b", re.IGNORECASE)
_INITIAL = re.compile(r"^[\s`\"'(*-]*([A-Z][\w-]*)")
_QUALIFIERS = content_words(" ".join(QUALIFIERS))
_CAPITALISED = re.compile(r"[A-Z](?<![A-Za-z0-9_.`#@/-][A-Z])[A-Za-z0-9_-]*")  # as `_NAMED`
_WORD = re.compile(r"[\w-]+")


# When a memory was last written: its last change, then the date its frontmatter states
# (`memsync.dream.staleness`), so the newer of two memories changed at once is known.
Written = tuple[datetime, str]


@dataclass(frozen=True)
class Fact:
    kind: str  # the value's class: number, duration, day, person, …
    value: str  # normalised: "9443", "60s", "platform"
    text: str  # as written
    slot: frozenset[str]  # content words around it


@dataclass
class Claims:
    """What one memory states, read once."""

    memory_type: str
    facts: list[Fact]  # present, not looked away from
    past: frozenset[tuple[str, str]]  # (kind, value) of the values it looks away from
    names: frozenset[str]  # capitalised mid-sentence words, less values
    words: frozenset[str]  # every content word, less values
    initials: frozenset[str]  # capitalised words starting a sentence: maybe names
    retired: frozenset[str]  # words it names as the past: "from yarn to", "no longer Redis"
    changes: bool = False  # says something changed: "switched", "moved", "now"
    subject: frozenset[str] = frozenset()  # the description's words: what it is about
    stated: frozenset[tuple[str, str]] = frozenset()  # (kind, value) of every present value

    @cached_property
    def values(self) -> frozenset[tuple[str, str]]:
        return frozenset((fact.kind, fact.value) for fact in self.facts)

    def keys(self) -> Iterator[tuple[str, str]]:
        for fact in self.facts:
            for word in fact.slot:
                yield fact.kind, word


def claims(memory: MemoryFile) -> Claims:
    text = normalise(f"{memory.description or ''}\n{memory.body}")
    if "pull" in text.casefold():
        text = _PULL_REQUEST.sub("PR", text)
    facts: list[Fact] = []
    past: set[tuple[str, str]] = set()
    names: set[str] = set()
    words: set[str] = set()
    initials: set[str] = set()
    retired: set[str] = set()
    described = len(_SENTENCE.split(normalise(memory.description))) if memory.description else 0
    subject: set[str] = set()  # the description's words
    stated: set[tuple[str, str]] = set()
    # Half the memories name nothing as left behind anywhere: each sentence is a part of
    # the text, so a cue of `_retired_terms` missing from the text is missing from all.
    may_retire = _may_retire(text)
    for number, sentence in enumerate(_SENTENCE.split(text)):
        if not sentence:
            continue  # the end of the text
        found = values_in(sentence)
        blanked = _blank(sentence, found)  # values as spaces, at the same offsets
        names |= _names(blanked)
        if "US" in blanked or "IT" in blanked:  # most sentences have neither: quicker
            stop_names = {a.casefold() for a in _STOPWORD_ACRONYM.findall(blanked)}
            names |= stop_names
            words |= stop_names
        if may_retire:
            retired |= _retired_terms(sentence)
        if first := _INITIAL.match(sentence):
            initials |= _initial_words(first.group(1))
        said = _words(blanked)
        words.update(said)
        if number < described:
            subject.update(said)
        for start, end, kind, value in found:
            if kind == "date":
                continue
            if _looks_away(sentence, start, end):
                past.add((kind, value))
                continue
            stated.add((kind, value))
            slot = _slot(blanked, start, end)
            if len(slot) == 1 and number >= described:
                slot |= subject  # "- Port: 8080" under "Billing API service facts"
            if slot:
                facts.append(Fact(kind, value, sentence[start:end], slot))
    return Claims(
        str(memory.memory_type),
        facts,
        frozenset(past),
        frozenset(names),
        frozenset(words),
        frozenset(initials),
        frozenset(retired),
        _says_changed(text),
        frozenset(subject),
        frozenset(stated),
    )


def _says_changed(text: str) -> bool:
    """Whether `text` says something changed (`_CHANGED`, `_NOW`): for ASCII text, by its
    words in lower case, a third of the time of matching case-blind."""
    if not text.isascii():
        return bool(_CHANGED.search(text) or _NOW.search(text))
    folded = text.lower()
    if not _CHANGED_BYTES.isdisjoint(folded.encode().translate(ASCII_WORD_BYTES).split()):
        return True
    return any(cue in folded for cue in _NOW_CUES) and bool(_LOWER_NOW.search(folded))


def _may_retire(text: str) -> bool:
    """Whether `_retired_terms` may find anything in a part of `text`: whether `text` holds
    one of the cues each of its patterns is tried after."""
    return (
        _RETIRED_CUE.search(text) is not None
        or "used" in text
        or _RETIRED_BEFORE_CUE.search(text) is not None
        or not text.isascii()
    )


def _retired_terms(sentence: str) -> set[str]:
    """The words of what `sentence` names as left behind (`_RETIRED`, `_RETIRED_BEFORE`);
    a lowercase word only where what replaces it follows ("from yarn to pnpm")."""
    found: set[str] = set()
    if _RETIRED_CUE.search(sentence):
        for match in _RETIRED.finditer(sentence):
            term, after = match.group("term"), sentence[match.end() :]
            if (
                term[0].isupper()
                or _TO_AFTER.match(after)
                or _FOR_INSTEAD.match(after)
                or _LEFT_WHATEVER.search(sentence[: match.start("term")])
            ):
                found |= content_words(term) - CHANGE_WORDS
    if "used" in sentence:
        for match in _USED_UNTIL.finditer(sentence):
            found |= content_words(match.group("term")) - CHANGE_WORDS
    if _RETIRED_BEFORE_CUE.search(sentence):
        for match in _RETIRED_BEFORE.finditer(sentence):
            found |= content_words(match.group("term") or match.group("replaced")) - CHANGE_WORDS
    if not sentence.isascii():
        for match in _RETIRED_ZH.finditer(sentence):
            term = match.group("term") or match.group("from") or match.group("before")
            found |= content_words(term) - CHANGE_WORDS
    return found


def _looks_away(sentence: str, start: int, end: int) -> bool:
    before, after = sentence[max(0, start - 24) : start], sentence[end:]
    if _LOOKS_AWAY.search(before) or _RETIRED_AFTER.match(after):
        return True
    return bool(_FROM.search(before)) and bool(
        _TO_AFTER.match(after) or _CHANGED.search(sentence[:start])
    )


def _slot(blanked: str, start: int, end: int) -> frozenset[str]:
    """The content words around a value: before it in its clause, and after it up to a
    break or a word that starts another clause (`blanked`: the sentence, its values as
    spaces). Clauses joined by ";" or ", so", ", and", ", but" say two things
    ("Customers asked for scans, so the attachment cap went up to 100 MB"), unless the
    value's own clause names nothing before it ("Planning was rescheduled; it is on
    Wednesdays"): then the words before it in the sentence count."""
    clause = 0
    if ";" in blanked or ", " in blanked:
        clause = max((m.end() for m in _CLAUSE_JOIN.finditer(blanked, 0, start)), default=0)
    own = _words(blanked[clause:start]) if clause else []
    before = own[-_BEFORE:] if own else _words(blanked[:start])[-_BEFORE:]
    after: list[str] = []
    stop = _BREAK.search(blanked, end)  # where `_BREAK.split(blanked[end:], 1)[0]` ends
    for piece in _WORD.finditer(blanked, end, len(blanked) if stop is None else stop.start()):
        word = piece.group(0).casefold()
        if word in _STOP_AFTER:
            break
        # An ASCII piece stays one piece in lower case: its words without reading it again.
        after += _piece_words(word) if word.isascii() else _words(word)
        if len(after) >= _AFTER:
            break
    return frozenset(before + after[:_AFTER])


def _blank(sentence: str, found: list[tuple[int, int, str, str]]) -> str:
    """`sentence` with its values as spaces, at the same offsets."""
    if not found:
        return sentence
    chars = list(sentence)
    for start, end, _, _ in found:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _words(text: str) -> list[str]:
    if text.isascii():  # its pieces split as bytes: 2/5 of the time of `_WORD.findall`
        pieces = text.encode().translate(_ASCII_PIECE_BYTES).split()
        return list(itertools.chain.from_iterable(map(_ascii_piece_words.__getitem__, pieces)))
    return list(itertools.chain.from_iterable(map(_piece_words, _WORD.findall(text))))


# An ASCII text's runs of `_WORD`'s characters (``[\w-]``) as bytes, the rest as spaces.
_ASCII_PIECE_BYTES = bytes(
    c if re.fullmatch(r"[\w-]", chr(c), re.ASCII) else 32 for c in range(256)
)


class _AsciiPieceWords(dict[bytes, tuple[str, ...]]):
    """An ASCII piece → `_piece_words` of it: looked up without building a key, as a
    cache of one argument does for each of the dozens of pieces a sentence has."""

    def __missing__(self, piece: bytes) -> tuple[str, ...]:
        if len(self) >= 65536:  # pieces of many directories: start again
            self.clear()
        found = self[piece] = _piece_words(piece.decode("ascii"))
        return found


_ascii_piece_words = _AsciiPieceWords()


@functools.lru_cache(maxsize=65536)
def _piece_words(piece: str) -> tuple[str, ...]:
    return tuple(sorted(_slot_word(w) for w in content_words(piece) - CHANGE_WORDS))


def _slot_word(word: str) -> str:
    if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "lsz" and word.isalpha():
        word = word[:-1]  # "tagged" and "tags", "capped" and "cap"
    return _SLOT_WORDS.get(word, word)


# Slot words one memory writes where another writes the other ("capped at" / "max").
_SLOT_WORDS = {
    word: canonical
    for group in ("max maximum capp cap ceil ceiling limit", "min minimum floor")
    for canonical in [group.split()[0]]
    for word in content_words(group)
} | {"consumer": "consum", "server": "serv", "worker": "work", "approval": "approve"}


# Acronyms content_words reads as stopwords ("us", "it"): "the US region", "the IT team"
# name a thing as "the EU region" does.
_STOPWORD_ACRONYM = re.compile(r"\b(?:US|IT)\b")


# A capitalised word after a sentence's first makes that one part of a name too
# ("Payouts API service facts", "Search API reads …"), not just the start of a sentence.
_NAME_GOES_ON = re.compile(r"\s+[A-Z]")


def _names(blanked: str) -> set[str]:
    capitalised = _CAPITALISED.findall(blanked)
    if not capitalised:
        return set()
    starts = len(blanked) - len(blanked.lstrip(" `\"'(*-"))  # where its first word starts
    # Nothing before `starts` is a capital: a match there is the first `findall` gives.
    first = _CAPITALISED.match(blanked, starts)
    if first is not None and not _NAME_GOES_ON.match(blanked, first.end()):
        del capitalised[0]  # a sentence's first word is capitalised whatever it is
    return set().union(*map(_name_words, capitalised))


@functools.lru_cache(maxsize=65536)
def _name_words(capitalised: str) -> frozenset[str]:
    """The words a capitalised word names by (cached: a directory repeats its names)."""
    return content_words(capitalised) - CHANGE_WORDS - DAY_SET


@functools.lru_cache(maxsize=65536)
def _initial_words(first: str) -> frozenset[str]:
    """The words a sentence's capitalised first word may name by."""
    return content_words(first) - CHANGE_WORDS - _QUALIFIERS


def replacement(older: Claims, newer: Claims) -> tuple[str, str] | None:
    """(older value, newer value) when `newer` says otherwise than `older` about one
    slot, by the rules of the module's docstring; else None."""
    if older.memory_type != newer.memory_type and {older.memory_type, newer.memory_type} != {
        "project",
        "reference",
    }:
        return None  # a rule against a fact, a person against a project: not one thing
    # A word capitalised mid-sentence in either names a thing in both (a sentence's first
    # word is capitalised whatever it is).
    named = older.names | newer.names
    if (older.words & named) - newer.words and (newer.words & named) - older.words:
        # Two things, unless one left the other or took the other's place.
        return _retired(older, newer, named) or _swapped(older, newer, named)
    differing: dict[str, tuple[str, str]] = {}
    theirs, mine = newer.values | newer.stated, older.values | older.stated
    # Two memories with no word but their values apart ("Deploys happen on Tuesdays",
    # "Since March we deploy on Thursdays") speak of one thing, in a slot of one word.
    alike = older.words - _LOOSE == newer.words - _LOOSE
    # Qualifiers the newer memory may leave out of a slot it says changed.
    implied = frozenset() if newer.words & _SETTINGS else _DEFAULT_SETTING
    for fact in older.facts:
        if (fact.kind, fact.value) in theirs:
            continue
        matched = [
            n
            for n in newer.facts
            if n.kind == fact.kind
            and (n.kind, n.value) not in mine  # a fact both state
            and _same_slot(
                fact, n, named | older.initials, newer.changes, alike=alike, implied=implied
            )
        ]
        if matched:
            differing.setdefault(fact.kind, (fact.text, matched[0].text))
    if len(differing) == 1:
        return next(iter(differing.values()))
    if not differing:
        return _retired(older, newer, named)
    return None


def _swapped(older: Claims, newer: Claims, named: frozenset[str]) -> tuple[str, str] | None:
    """The newer memory says something changed and names one thing where the older named
    another, every other word of the older being in it ("Unit tests run on Jest" →
    "We switched unit tests to Vitest")."""
    if not newer.changes or older.changes:
        return None
    if newer.retired and not newer.retired & older.words:
        return None  # it names what it replaced, and that is not the older's
    gone = (older.words & named) - newer.words
    came = (newer.words & named) - older.words
    if len(gone) != 1 or len(came) != 1:
        return None
    if older.words - newer.words - gone - _LOOSE:
        return None
    if len((older.words & newer.words) - _LOOSE) < _MIN_SHARED:
        return None
    return next(iter(gone)), next(iter(came))


def _retired(older: Claims, newer: Claims, named: frozenset[str]) -> tuple[str, str] | None:
    """The newer memory leaves behind something the older one names ("moved from
    Confluence to Notion" after "Runbooks are in Confluence"), about the same thing:
    they share a word besides it, and every other word of the older is a name or says
    what kind of thing it is (a word starting the older's sentence is no name: "Product
    analytics are in Mixpanel" is not "Marketing analytics moved from Mixpanel")."""
    left = (older.words & newer.retired) - older.retired - _QUALIFIERS
    if not left:
        return None
    theirs = newer.words - newer.retired
    shared = ((older.words - left) & theirs) - _LOOSE
    unmatched = older.words - left - _LOOSE - named - theirs
    # Or what the older is about, by its description ("Error tracking service"), is all
    # in the newer, whatever detail its body adds ("the DSN is in the vault").
    about = older.subject - left - _LOOSE - named - _KINDS
    if (older.words ^ newer.words) & _SETTINGS:
        return None  # staging against production, web against mobile
    if not shared or (
        (len(unmatched) > 1 or (unmatched and len(shared) < 2)) and not (about and about <= theirs)
    ):
        return None
    term = sorted(left)[0]
    return term, f"no longer {term}"


def _same_slot(
    older: Fact,
    newer: Fact,
    named: frozenset[str],
    changes: bool,
    *,
    alike: bool = False,
    implied: frozenset[str] = frozenset(),
) -> bool:
    """Whether two facts fill one slot. A newer memory that says something changed may
    leave out words of the older's slot ("for gRPC traffic"), never a qualifier
    ("staging") but those `implied` (`_DEFAULT_SETTING`); it may add none but names and
    what names the value's kind. A slot of one word is one only between memories `alike`
    in every other word."""
    shared = len(older.slot & newer.slot)
    if shared < _MIN_SHARED and not (alike and shared and older.slot == newer.slot):
        return False
    if newer.slot - older.slot - _LOOSE - named:
        return False
    dropped = older.slot - newer.slot - _LOOSE - named
    return not dropped or (changes and not (dropped - implied) & _QUALIFIERS)
