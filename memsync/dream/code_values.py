"""Values a memory states for a setting the code declares (issue 15 item 4: a memory
"changed after it was written").

A memory that says "`REQUEST_TIMEOUT` is 30 seconds" is stale once the checkout has
``REQUEST_TIMEOUT = 45``. Only a claim tied to a name the code can declare counts:

- a span in backticks that is an assignment: ```MAX_RETRIES = 5```, ```replicas: 2```,
  ```WORKER_CONCURRENCY=4```;
- a name in backticks (or an unquoted ``UPPER_SNAKE`` name) followed in its clause by
  "is", "=", ":", "of", "set to", "defaults to" and a value: "`MaxBatchSize` is 1000";
- a value followed by the name in brackets: "every 5000 ms (`pollIntervalMs`)".

The checkout declares a name where a line assigns it (``NAME = v``, ``NAME: v``,
``NAME := v``, ``"NAME": v``, ``NAME=v``), in its code, configuration and ``.env``
files; when the memory cites one of the checkout's files, only that file counts. A
claim is stale when every declaration gives one value and the memory's differs. When
unsure, nothing is flagged: a name declared with two values (one per environment), a
value looked away from ("was 4"), or numbers that may differ only by their unit (30
against 30000, 5 against 300, 2 weeks against 1209600 seconds, 10 MB against 10485760
bytes, 10% against 0.1) are left alone; so is a sentence naming a setting in words, with
no file cited, that says by other words whose setting it is ("the Stripe API timeout is
80s" is Stripe's, "the page size of the search results" theirs, neither the checkout's
``API_TIMEOUT_MS`` nor its ``PAGE_SIZE``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memsync.dream.looking_away import SENTENCE_BREAK

# Checkout files bigger than this are not read (generated or vendored).
MAX_FILE_BYTES = 1_000_000
_NAME = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?"
_LITERAL = (
    r"""(?:"[^"\n]{1,80}"|'[^'\n]{1,80}'|`[^`\n]{1,80}`"""
    r"|-?\d+(?:\.\d+)?(?:\s?[a-zA-Z%]{1,7})?)"
)
_ASSIGNED = re.compile(
    rf"^\s*(?P<name>{_NAME})\s*(?::=|=|:)\s*(?P<value>[^\s,;#`]+(?:\s?[a-zA-Z%]{{1,7}})?)\s*$"
)
_TICKED = re.compile(r"`([^`\n]+)`")
_AFTER_NAME = re.compile(
    rf"^\s*(?:\)\s*)?(?:\(?(?:in|from)\s+[\w./-]+\)?\s+)?"  # "`X` in config/settings.py is 30"
    rf"(?:is|=|:|of|equals|is set to|set to|defaults to|is configured as)"
    rf"\s+(?:(?:now|currently|still)\s+)?(?P<value>{_LITERAL})",
    re.IGNORECASE,
)
_BEFORE_NAME = re.compile(rf"(?P<value>{_LITERAL})\s*\(\s*$")
_UPPER = re.compile(r"(?<![\w`.])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?![\w`])")
_SETTING = re.compile(
    r"^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+"
    r"|[a-z]+(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-z]{3,})$"
)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_CLAUSE_END = re.compile(r"[.;!?](?:\s|$)|\n|,\s")
# Ratios between two numbers that may be one value in two units (s/ms, min/s, h/min, …).
_UNIT_RATIOS = (1, 60, 1000, 3600, 1024, 86400, 604_800, 1_000_000, 1024**2, 1024**3)


@dataclass(frozen=True)
class ValueClaim:
    name: str
    value: str  # as written: "30 seconds", "orders-default"


@dataclass(frozen=True)
class Declaration:
    file: str  # relative to the checkout
    value: str  # as the line writes it: "45", "'v3'"


def _assignment_of(name: str, value: str) -> re.Pattern[str]:
    """A line assigning `name` (a pattern) `value` (a pattern), as code, configuration and
    ``.env`` files write it: ``export const NAME = v``, ``private NAME = v``, ``NAME:
    v``, ``"NAME": v``, ``NAME := v``, ``name: Type = v``."""
    return re.compile(
        r"^\s*(?:export\s+)?(?:(?:const|let|var|final|static|public|private|val)\s+)*"
        rf"[\"']?({name})[\"']?\s*(?::\s*[A-Za-z_][\w.<>\[\]]*\s*=|:=|=|:)\s*{value}",
        re.MULTILINE,
    )


def value_claims(text: str) -> list[ValueClaim]:
    """The (name, value) pairs `text` states, by the module's rules."""
    found: list[ValueClaim] = []
    for match in _TICKED.finditer(text):
        span = match.group(1).strip()
        if assigned := _ASSIGNED.match(span):
            found.append(ValueClaim(assigned.group("name"), assigned.group("value")))
            continue
        if not _SETTING.match(span):
            continue
        found += _around(text, match.start(), match.end(), span)
    bare = _TICKED.sub(lambda m: " " * len(m.group(0)), text)
    for match in _UPPER.finditer(bare):
        found += _around(text, match.start(), match.end(), match.group(1))
    return found


def _around(text: str, start: int, end: int, name: str) -> list[ValueClaim]:
    clause_end = _CLAUSE_END.search(text, end)
    after = text[end : clause_end.start() if clause_end else len(text)]
    if said := _AFTER_NAME.match(after):
        return [ValueClaim(name, said.group("value"))]
    if said := _BEFORE_NAME.search(text[max(0, start - 40) : start]):
        return [ValueClaim(name, said.group("value"))]
    return []


def declared_values(
    root: Path, files: Iterable[str], names: set[str]
) -> dict[str, list[Declaration]]:
    """Name → the lines of `files` (relative to `root`) assigning it, for `names` only."""
    if not names:
        return {}
    alternatives = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    pattern = _assignment_of(alternatives, r"(.+?)\s*[,;]?\s*(?:#.*|//.*)?$")
    found: dict[str, list[Declaration]] = {}
    for relative in files:
        text = checkout_text(root / relative)
        if text is None or not any(name in text for name in names):
            continue
        for match in pattern.finditer(text):
            found.setdefault(match.group(1), []).append(Declaration(relative, match.group(2)))
    return found


def checkout_text(path: Path) -> str | None:
    """The text of a checkout file; None for a link (it may lead out of the checkout), a
    file over `MAX_FILE_BYTES`, or one that cannot be read."""
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
            return None
        return path.read_text(encoding="utf-8", errors="ignore")
    except OSError:
        return None


def value_conflict(claim: ValueClaim, declared: list[Declaration]) -> str | None:
    """Why the checkout's `declared` values say otherwise than `claim`, or None."""
    values = {_literal(d.value) for d in declared}
    if len(values) != 1:
        return None  # not declared, or declared twice otherwise: not sure which holds
    code = values.pop()
    stated = _literal(claim.value)
    if _agrees(stated, code):
        return None
    where = declared[0]
    return (
        f"says {claim.name} is {claim.value.strip('`')}, but the code checkout's "
        f"{where.file} has {claim.name} = {where.value.strip()}"
    )


def _literal(written: str) -> str:
    return written.strip().strip("`\"'").strip().casefold()


def _agrees(stated: str, code: str) -> bool:
    said, has = _NUMBER.match(stated), _NUMBER.match(code)
    if said and has:
        first, second = abs(float(said.group(0))), abs(float(has.group(0)))
        if first == second:
            return True
        if not first or not second:
            return False
        if stated.endswith("%") and first / 100 == second:
            return True  # a share as a percentage: "10%" for 0.1
        high, low = max(first, second), min(first, second)
        return any(high == low * ratio for ratio in _UNIT_RATIOS[1:])
    if said or has:
        return True  # a number against a word: "8" against "os.environ[...]", unsure
    return stated == code


def stale_values(
    claims: Iterator[tuple[str, ValueClaim]] | Iterable[tuple[str, ValueClaim]],
    declared: dict[str, list[Declaration]],
    cited: dict[str, set[str]],
) -> dict[str, str]:
    """Memory path → why, for the first claim of each memory the code contradicts.
    `cited`: the checkout files a memory names; their declarations are preferred."""
    stale: dict[str, str] = {}
    for path, claim in claims:
        if path in stale:
            continue
        found = declared.get(claim.name, [])
        own = [d for d in found if d.file in cited.get(path, set())]
        why = value_conflict(claim, own or found)
        if why is not None:
            stale[path] = why
    return stale


# -- values named in words, in a file the memory cites ---------------------------------

# The words of a name: ``ReadTimeout``, ``read_timeout`` and ``READ_TIMEOUT`` alike.
NAME_PIECE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_WORDS = re.compile(r"[a-z]+")
_AMOUNT = re.compile(
    r"(?<![\w./:-])(\d+(?:\.\d+)?)(?:\s?(?:ms|s|sec|seconds?|m|min|minutes?|h|hours?|mb|gb|kb|%))?"
    r"(?![\w/:-]|\.\w)",  # a sentence may end after it ("is 1000."), a name may not ("3.x")
    re.IGNORECASE,
)
# Words that may stand before a setting named in words, and after it, "of …" or "for …"
# says whose it is ("the page size of the search results").
_DETERMINERS = frozenset({"the", "a", "an", "our", "its", "their", "this", "that", "default"})
_WHOSE = frozenset({"of", "for"})
_CITED_LINE = re.compile(r"`[^`\n]*`|\S+/\S+|\b\d{4}-\d{2}-\d{2}\b")
# Words of a name that a sentence need not repeat: "default", and units ("…Ms", "…_SECONDS").
_GENERIC = frozenset({"default", "const", "config", "m", "sec", "second", "min", "minute"})


def name_words(name: str) -> frozenset[str]:
    """``ReadTimeout``, ``read_timeout``, ``READ_TIMEOUT`` → {"read", "timeout"}."""
    return frozenset(piece.casefold().removesuffix("s") for piece in NAME_PIECE.findall(name)) - (
        _GENERIC
    )


def _qualified(sentence: str, name: str, file: str) -> bool:
    """Whether `sentence` says whose setting it names in words, other than the file
    declaring `name`: a word right before the name's words (written together, as in
    "the read timeout"; else unsure, and so qualified) that is neither a determiner nor
    a word of the name or of `file`'s path ("the Stripe API timeout", "the mobile app's
    page size"; "the HTTP server's read timeout" for server/server.go is the file's), or
    "of" or "for" right after them ("the soft time limit for the importer")."""
    said = [w.removesuffix("s") for w in _WORDS.findall(re.sub(r"'s\b", "", sentence.casefold()))]
    own = name_words(name)
    starts = [i for i in range(len(said)) if set(said[i : i + len(own)]) == own]
    if not starts:
        return True
    start, end = starts[0], starts[0] + len(own)
    before = said[start - 1] if start else None
    after = said[end] if end < len(said) else None
    if before is not None and before not in _DETERMINERS | own | name_words(file):
        return True
    return after in _WHOSE


def assignments(text: str) -> dict[str, str]:
    """Name → value of a file's one-line assignments of a number (``NAME = 45``,
    ``ReadTimeout: 15 * time.Second``, ``port: 9090``); a name assigned twice is left
    out."""
    found: dict[str, str] = {}
    twice: set[str] = set()
    for match in _ASSIGNMENT.finditer(text):
        name, value = match.group(1), match.group(2)
        if name in found and found[name] != value:
            twice.add(name)
        found[name] = value
    return {name: value for name, value in found.items() if name not in twice}


_ASSIGNMENT = _assignment_of(r"[A-Za-z_]\w*", r"(-?\d+(?:\.\d+)?)\b")


def named_in_words(
    text: str, declared: dict[str, str], *, declared_in: dict[str, str] | None = None
) -> list[ValueClaim]:
    """Claims of a memory about a file's `declared` numbers, named in words: "the read
    timeout is 30s" for ``ReadTimeout = 15``. A sentence counts when it states one
    number and the words of exactly one declared name (at least two, or one for a
    name of one word) are all among its words. With `declared_in` (name → the file
    declaring it, for a memory citing none), the sentence must not name whose setting
    it is by other words (`_qualified`)."""
    found: list[ValueClaim] = []
    for sentence in SENTENCE_BREAK.split(text):
        bare = _CITED_LINE.sub(" ", sentence)
        amounts = _AMOUNT.findall(bare)
        if len(set(amounts)) != 1:
            continue
        words = {word.removesuffix("s") for word in _WORDS.findall(bare.casefold())}
        named = [name for name in declared if (w := name_words(name)) and w <= words]
        if len(named) != 1:
            continue
        if declared_in is None or not _qualified(bare, named[0], declared_in.get(named[0], "")):
            found.append(ValueClaim(named[0], amounts[0]))
    return found
