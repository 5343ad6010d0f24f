"""The values a sentence states, for what a memory claims (`memsync.dream.supersession`).

A value is of a class: a number, a duration, a size, a percentage, a time of day, a
weekday, a version, an identifier (a host, a bucket, a channel, an address, a name in
backticks), how often, a state ("required", "on by default"), a person, a team; and a
date ("2026-03-04", "March 4th", "3月4日"), which says when, not what. Each is written
as `values` gives it, normalised, so that two wordings of one value are equal ("weekly"
and "every 7 days", "30s" and "30 seconds", "mandatory" and "required").

Also here, as the values read them: the words that say a value changed
(`CHANGE_WORDS`), which name no person and fill no slot.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from memsync.dream.declared_versions import TOOL_NAMES
from memsync.dream.dedupe import content_words
from memsync.dream.vocabulary import (
    DAY_SET,
    QUALIFIERS,
    STOPWORDS,
    SYNONYMS,
    WORDING,
    stem,
    word_set,
)


def canonical_words(words: str) -> frozenset[str]:
    """`words` as `content_words` writes them, stopwords included ("keep")."""
    return frozenset(SYNONYMS.get(stem(w), SYNONYMS.get(w, stem(w))) for w in words.split())


# Words that say a value changed, not what it is about ("moved", "now", "went up").
CHANGE_WORDS = canonical_words(
    """
    move moved moving switch switched change changed changes now new newly raise raised
    bump bumped increase increased decrease decreased lower lowered reduce reduced cut
    scale scaled went up down longer instead retire retired reschedule rescheduled
    replace replaced migrate migrated took take over pass passed since days these
    upgrade upgraded downgrade downgraded rename renamed
    updated update set today anymore
    listen listens serve served post posted send sent route routed point points
    hosted expose exposed give gives giv between after before not
    going forward effective became become becomes actually currently stopped stop
    resize resized only just happen happens happened occur occurs deprecated deprecate
    """
) | content_words(" ".join(WORDING) + " 现在 目前 改成 改到 改为 换成 改 换 从 了")


_UNITS = {
    **dict.fromkeys(("ms", "millisecond", "milliseconds"), ("duration", 0.001)),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), ("duration", 1)),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), ("duration", 60)),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), ("duration", 3600)),
    **dict.fromkeys(("d", "day", "days"), ("duration", 86400)),
    **dict.fromkeys(("week", "weeks"), ("duration", 604800)),
    **dict.fromkeys(("kb", "kib"), ("size", 1e3)),
    **dict.fromkeys(("mb", "mib"), ("size", 1e6)),
    **dict.fromkeys(("gb", "gib"), ("size", 1e9)),
    **dict.fromkeys(("tb", "tib"), ("size", 1e12)),
    **dict.fromkeys(("%", "percent"), ("percent", 1)),
}
# What every value has (a digit, a backtick, "#", "@", a dash or dot inside a word, a
# weekday, a capital): a sentence without one is not searched for values.
_MAY_HOLD_VALUE = re.compile(
    r"[0-9`#@]|[a-z][-._][a-z]|day|ly\b|周|星期|礼拜|uary\b|march|april|june|july|august"
    r"|ember\b|october|abled|required|optional|allowed|forbidden|blocked|mandatory|default|[A-Z][a-z]+\s[A-Z]|[A-Z]\w*\s+(?:team|squad)",
    re.IGNORECASE,
)
# Words before a name that make "courier-dlq" a name, not a word like "on-call".
_NAMING = re.compile(r"\b(?:is|was|to|named|called|as)\s+$|:\s*$", re.IGNORECASE)
# States a re-wording may swap for one another.
_STATES = {"mandatory": "required", "forbidden": "blocked", "on by default": "enabled",
           "off by default": "disabled"}  # fmt: skip
# When something was said or changed ("2026-03-04", "4/3/2026", "March 4th", "1 April",
# "3月4日"): a value of its own, so its numbers are no fact and its words no slot, but
# no fact itself (two memories are written on two days whatever they say).
_MONTH = (
    r"(?:january|february|march|april|june|july|august|september|october|november"
    r"|december)"
)
_MONTH_SHORT = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec)\.?"
_ORDINAL = r"\d{1,2}(?:st|nd|rd|th)?"
# Led by a digit or by a month's first letter: most words are tried for neither.
_DATE_BY_DIGIT = (
    r"(?=\d)(?:\d{4}-\d{1,2}-\d{1,2}\b|\d{1,2}/\d{1,2}/\d{2,4}\b"
    rf"|{_ORDINAL}\s+(?:{_MONTH}\b(?:\s+{_ORDINAL}\b)?(?:,?\s+\d{{4}}\b)?|{_MONTH_SHORT}\b)"
    r"|(?:\d{4}年)?\d{1,2}月(?:\d{1,2}[日号])?)"
)
_DATE_BY_MONTH = (
    rf"(?=[adfjmnos])(?:{_MONTH}\b(?:\s+{_ORDINAL}\b)?|{_MONTH_SHORT}\s+{_ORDINAL}\b)"
    r"(?:,?\s+\d{4}\b)?"
)
_ZH_DAYS = dict(zip("一二三四五六日天", ("monday", "tuesday", "wednesday", "thursday", "friday",
                                     "saturday", "sunday", "sunday"), strict=True))  # fmt: skip
# Every value starts a word: the one look-behind first fails fast inside words, and the
# look-ahead on what a value may start with at spaces and punctuation. ``⟨start⟩`` marks
# where a value must start a word (`_VALUE`); in ASCII text the look-behind says so
# already, and not testing it again saves a fifth (`_LOWER_VALUE`).


def _value_pattern(*, plain: bool = False) -> str:
    """The pattern of every value; when `plain`, for ASCII text in lower case with no
    digit, "@" or backtick: less the classes that need one (all but a date by its month
    start with a digit; an address ``x@y.z``; a name in backticks), and less what they
    start with in its look-ahead."""
    return (
        r"(?<![A-Za-z0-9_.+-])"
        + (r"(?=[a-z#])(?:" if plain else r"(?=[\w`#.+-])(?:(?P<ticked>`[^`\n]+`)|")
        + (
            rf"(?P<date>{_DATE_BY_MONTH})"
            if plain
            else rf"(?P<date>{_DATE_BY_DIGIT}|{_DATE_BY_MONTH})"
        )
        + r"|(?P<address>"
        + ("" if plain else r"(?<![\w.+-])[\w.+-]++@[\w-]+(?:\.[\w-]+)+|")
        + r"⟨start⟩https?://[^\s)>\]]+|(?<![\w#])#[a-z][\w-]*)"
        + (
            ""
            if plain
            else r"|(?P<time>⟨start⟩\d{1,2}:\d{2}(?:\s?[ap]m)?\b)"
            r"|(?P<version>⟨start⟩v?\d+\.\d+(?:\.\d+)*\b(?!\s?(?:ms|s|m|h|d|kb|mb|gb|tb|%)\b)"
            r"|⟨start⟩v\d+\b)"  # "API v2"
            r"|(?P<amount>⟨start⟩\d+(?:[.,]\d+)?)\s?(?P<unit>%|(?:ms|milliseconds?|s|secs?"
            r"|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|weeks?|[kmgt]i?b|percent)\b)"
            r"|(?P<number>⟨start⟩\d+(?:[.,]\d+)?\b)"
        )
        + r"|(?P<ident>⟨start⟩[a-z][a-z0-9]*+(?:[-._][a-z0-9]++)+\b)"
        r"|(?P<day>⟨start⟩(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b)"
        r"|(?P<zhday>(?:周|星期|礼拜)[一二三四五六日天])"
        r"|(?P<often>⟨start⟩(?:hourly|daily|nightly|weekly|biweekly|fortnightly|monthly"
        r"|quarterly|yearly|annually)\b)"
        r"|(?P<state>⟨start⟩(?:enabled|disabled|required|optional|allowed|forbidden|blocked"
        r"|mandatory|on by default|off by default)\b))"
    )


_VALUE = re.compile(_value_pattern().replace("⟨start⟩", r"\b"), re.IGNORECASE)
# For ASCII text already in lower case: matching case-blind costs a third more.
_LOWER_VALUE = re.compile(_value_pattern().replace("⟨start⟩", ""))
# The same for the most sentences (`_value_pattern`, `plain`): each class left out is
# one less tried at every word, for half the time.
_PLAIN_LOWER_VALUE = re.compile(_value_pattern(plain=True).replace("⟨start⟩", ""))
_DIGIT = re.compile(r"[0-9]")
# What every match of `_LOWER_VALUE` holds, so that a sentence holding none is not
# searched (`_MAY_HOLD_VALUE`, matched case-blind, lets almost every sentence through as
# naming a person; over half of those hold none of these, and looking for them costs a
# quarter of the search): a digit (a date, time, version, amount or number), a backtick,
# "@" or "#" (an address, a channel), a dash, dot or underscore between two letters or
# digits (an identifier), or a value written in words. Such a value starts a run of word
# characters (the pattern's look-behind) and ends one (``\b``), so it is one whole run:
# a URL's scheme, a month, a weekday, how often, a state ("on by default": "default").
# Written to start with the one class of every mark's character, which the search skips
# to (a pattern of alternatives is tried at every character): a quarter of the time.
_VALUE_MARK = re.compile(r"[0-9`@#.\-_](?:(?<=[0-9`@#])|(?<=[a-z0-9][-._])(?=[a-z0-9]))")
_VALUE_RUNS = frozenset(
    word.encode()
    for word in word_set(
        """
    http https january february march april june july august september october november
    december monday tuesday wednesday thursday friday saturday sunday mondays tuesdays
    wednesdays thursdays fridays saturdays sundays hourly daily nightly weekly biweekly
    fortnightly monthly quarterly yearly annually enabled disabled required optional
    allowed forbidden blocked mandatory default
    """
    )
)
# How often, as the time between two: "weekly" and "every 7 days" say one thing.
_EVERY = {
    **dict.fromkeys(("hourly",), 3600), **dict.fromkeys(("daily", "nightly"), 86400),
    "weekly": 604800, **dict.fromkeys(("biweekly", "fortnightly"), 1209600),
    "monthly": 2592000, "quarterly": 7776000, **dict.fromkeys(("yearly", "annually"), 31536000),
}  # fmt: skip
# Named by capitals, so matched case-sensitively: "Ledger team", "Ana Ruiz" (not "Orders
# API", "Escalate Catalog API": a person's name is not followed by what names a system).
# The capital first, then whether a word ends before it: a pattern that starts with the
# capital is searched for it alone, several times faster. Possessive where what follows
# (white space) cannot follow a shorter run: not tried again a letter shorter.
_NAMED = re.compile(
    r"[A-Z](?<!\w[A-Z])(?:(?P<team>[\w&-]*+(?=\s+(?:team|squad)\b))"
    r"|(?P<person>[a-z]++\s[A-Z][a-z]+(?:-[A-Z][a-z]+)?\b(?!\s+(?:[A-Z]{2,}|[a-z]*(?:"
    r"service|worker|app|job|queue|cluster|bucket|database|db|api|team|squad|sync|bot)s?\b))))"
)
# An ASCII text's runs of word characters (`\w+`) as bytes, the rest as spaces: split
# with `bytes.split`, a quarter of the time of `re.findall`.
ASCII_WORD_BYTES = bytes(c if re.fullmatch(r"\w", chr(c), re.ASCII) else 32 for c in range(256))


def values_in(sentence: str) -> list[tuple[int, int, str, str]]:
    """`values` of `sentence`, when it may hold one (`_MAY_HOLD_VALUE`). ASCII text is
    searched first, quicker than the test (lower-cased and gated in `values`): then the
    test is needed only for the third of sentences that hold a value."""
    if sentence.isascii():
        found = list(values(sentence))
        return found if found and _MAY_HOLD_VALUE.search(sentence) else []
    return list(values(sentence)) if _MAY_HOLD_VALUE.search(sentence) else []


def values(sentence: str) -> Iterator[tuple[int, int, str, str]]:
    """(start, end, class, normalised value) of each value in `sentence`."""
    if sentence.isascii():  # lower-casing keeps every offset
        lower = sentence.lower()
        if _may_state_value(lower):
            plain = "@" not in lower and "`" not in lower and _DIGIT.search(lower) is None
            matches = list((_PLAIN_LOWER_VALUE if plain else _LOWER_VALUE).finditer(lower))
        else:
            matches = []
    else:
        matches = list(_VALUE.finditer(sentence))
    taken = [range(m.start(), m.end()) for m in matches]
    for named in _NAMED.finditer(sentence):
        free = not any(named.start() in span or named.end() - 1 in span for span in taken)
        if free and (named.lastgroup == "team" or _person(named.group(0))):
            matches.append(named)
    for match in sorted(matches, key=lambda m: m.start()):
        kind = match.lastgroup or ""
        if kind == "unit":
            kind = "amount"
        written = sentence[match.start() : match.end()]
        if kind == "amount":
            unit = match.group("unit").casefold()
            category, factor = _UNITS.get(unit.removesuffix("s"), _UNITS.get(unit, ("", 0)))
            if not category:
                continue
            amount = float(match.group("amount").replace(",", "."))
            yield match.start(), match.end(), category, f"{amount * factor:g}"
        elif kind == "ticked":
            yield match.start(), match.end(), "ident", written.strip("`").strip().casefold()
        elif kind == "state":
            state = written.casefold()
            yield match.start(), match.end(), kind, _STATES.get(state, state)
        elif kind == "day":
            yield match.start(), match.end(), "day", written.casefold().removesuffix("s")
        elif kind == "zhday":
            yield match.start(), match.end(), "day", _ZH_DAYS[written[-1]]
        elif kind == "ident":
            # A host, a bucket, a versioned name: a digit, a dot or two dashes ("on-call"
            # and "read-only" are words), or one dash after "is", "named", "to".
            is_named = _NAMING.search(sentence[max(0, match.start() - 12) : match.start()])
            if (
                any(c.isdigit() for c in written)
                or "." in written
                or written.count("-") > 1
                or (is_named is not None and "-" in written)
            ):
                yield match.start(), match.end(), kind, written.casefold()
        elif kind == "often":  # "weekly" is "every 7 days"
            seconds = _EVERY[written.casefold()]
            yield match.start(), match.end(), "duration", f"{seconds:g}"
        elif kind == "number":
            yield match.start(), match.end(), "number", written.replace(",", "")
        else:
            yield match.start(), match.end(), kind, written.casefold().rstrip(".")


def _may_state_value(lower: str) -> bool:
    """Whether `_LOWER_VALUE` may match in `lower` (ASCII text in lower case): whether it
    holds a `_VALUE_MARK` or a whole run of word characters of `_VALUE_RUNS`."""
    if _VALUE_MARK.search(lower):
        return True
    return not _VALUE_RUNS.isdisjoint(lower.encode().translate(ASCII_WORD_BYTES).split())


@functools.lru_cache(maxsize=65536)
def _person(written: str) -> bool:
    """Two capitalised words that may name a person: not "Production Postgres" (a
    qualifier, a runtime or service: `memsync.dream.declared_versions.TOOL_NAMES`).
    Cached: a directory names its people again and again."""
    words = set(written.casefold().split())
    if words & (DAY_SET | STOPWORDS | QUALIFIERS | TOOL_NAMES):
        return False
    return len(content_words(written) - CHANGE_WORDS) == 2
