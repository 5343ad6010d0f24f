"""Stale memories, flagged only with evidence (issue 15 item 4).

Age alone is no evidence: a two-year-old rule may still hold, and a list of every
memory over 90 days tells a reviewer nothing. A memory is flagged when

- it cites something the code checkout no longer has (`memsync.dream.code_checkout`,
  when one is at hand: ``memsync check DIR --code PATH``, ``memsync dream --code
  PATH``): a file path or a Python module (`memsync.dream.cited_paths`), a command (an
  npm script, a Makefile target, a renamed console script, a package manager its
  lockfiles say it left: `memsync.dream.cited_commands`), or a code symbol or
  environment variable (``parse_invoice()``, ``sync_customers(since)``,
  ``InvoiceParser``, ``PAYMENTS_URL``) beside a kin the checkout has in its place
  (``STRIPE_SECRET_KEY`` for ``STRIPE_API_KEY``: `memsync.dream.renamed`; a library's
  ``useQuery`` or a tool's ``AWS_PROFILE`` the code never wrote is no evidence); or it
  states a version of a runtime or service the checkout declares otherwise ("Node 18"
  where package.json's engines want ``>=20.11``: `memsync.dream.declared_versions`);
- it states a value the checkout assigns otherwise (`memsync.dream.code_values`), a
  dependency version its manifests pin otherwise, or a host port for a compose service
  the compose files publish otherwise (`memsync.dream.published_ports`);
- a newer memory on the same subject says otherwise (superseded): the same ``name``,
  the same description once numbers, versions, dates and weekdays are masked, another
  value in the same slot however it is worded, a tool it names as left behind, or the
  older file named as replaced (`memsync.dream.supersession`);
- a teammate's newer memory in ``team/`` does so (contradicted).

Newer is by the last change in Git and, between memories one commit changed (an
import), by the ``updated`` (else ``created``) date of their frontmatter.

Rules are chosen on five tuning sets (``tests/dream/tuning/stale_variants.py``,
``stale_rewritten.py``, ``stale_independent.py``, ``stale_fourth.py`` and
``stale_adversarial.py``, the third and fourth written by other hands in Claude Code's
own memory format, the fourth as one project's memories over a year, the fifth as
memories still true written to look stale to one rule or another), never on
``tests/heldout``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from memsync.dream import readings
from memsync.dream.cited_paths import (
    cited_paths,
)
from memsync.dream.code_checkout import BACKTICKED, CodeCheckout, code_evidence
from memsync.dream.code_values import (
    Declaration,
    ValueClaim,
    named_in_words,
    stale_values,
    value_claims,
)
from memsync.dream.dedupe import content_words, normalise
from memsync.dream.looking_away import here
from memsync.dream.stale_pairs import candidates, named_as_replaced, worth_reading
from memsync.dream.supersession import Claims, Written, claims, replacement
from memsync.memory import MemoryFile

# A number glued to a word names a thing ("Q3", "S3", "P1"): it is no value to mask.
_MASK = re.compile(
    r"\bv?\d+(?:[.:/-]\d+)*|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class StaleMemory:
    path: str  # as shown (``team/x.md`` for the team scope)
    kind: str  # path, npm-script, make-target, symbol, version, port, value, superseded, …
    reason: str  # one line, after the path: "cites scripts/x.sh, which …"


def _subject(memory: MemoryFile) -> str | None:
    """The description with its facts masked: two memories with the same subject and
    different numbers, versions or days say different things about one thing."""
    description = memory.description
    if not description:
        return None
    normal = normalise(description)
    if not _may_mask(normal):
        return None  # nothing to differ in: not a subject line
    masked = _MASK.sub("#", normal)
    if masked == normal:
        return None
    return " ".join(sorted(content_words(masked))) + "|" + str(memory.memory_type)


_DIGIT = re.compile(r"\d")


def _may_mask(text: str) -> bool:
    """Whether `_MASK` may find anything in `text`: each number it masks has a digit and
    each weekday ends in "day". Most descriptions have neither, and this test is quicker
    than the pattern, which is tried at every word."""
    return "day" in text.casefold() or _DIGIT.search(text) is not None


_NAME_WORD = re.compile(r"\w+")


def _name(memory: MemoryFile) -> str | None:
    if not memory.name:
        return None
    return " ".join(_NAME_WORD.findall(memory.name.casefold())) + "|" + str(memory.memory_type)


def find_stale(
    memories: Mapping[str, MemoryFile],
    changed_at: Callable[[str], datetime],
    *,
    shown: Callable[[str], str] = lambda path: path,
    code: CodeCheckout | None = None,
    teammates: Mapping[str, tuple[MemoryFile, datetime]] | None = None,
) -> list[StaleMemory]:
    """Memories of one directory that evidence says are stale, one reason each.

    `teammates` are the team's memories (shown path → memory, last change), for
    contradictions; `code` the checkout the memories talk about.
    """
    found: dict[str, StaleMemory] = {}
    written: dict[str, Written] = {}

    def at(path: str) -> Written:
        """`_written` of one memory, worked out when first asked: most memories share no
        key and are in no pair, so none asks when they were written."""
        when = written.get(path)
        if when is None:
            when = written[path] = _written(memories[path], changed_at(path))
        return when

    theirs_at = {path: (memory, _written(memory, when))
                 for path, (memory, when) in (teammates or {}).items()}  # fmt: skip
    if code is not None:
        for path, memory in sorted(memories.items()):
            evidence = code_evidence(f"{memory.description or ''}\n{memory.body}", code)
            if evidence is not None:
                found[path] = StaleMemory(shown(path), *evidence)
        _code_values(memories, code, shown, found)
    keys: dict[str, list[str]] = {}
    for path, memory in memories.items():
        for key in filter(None, (_name(memory), _subject(memory))):
            keys.setdefault(key, []).append(path)
    for paths in keys.values():
        if len(paths) < 2:
            continue
        group = sorted(((at(path), path) for path in paths), reverse=True)
        newest_at, newest = group[0]
        for when, path in group[1:]:
            if (
                when < newest_at
                and path not in found
                and _differs(memories[path], memories[newest])
            ):
                found[path] = StaleMemory(
                    shown(path),
                    "superseded",
                    f"superseded by {shown(newest)}, a newer memory on the same subject",
                )
    _reworded_replacements(memories, at, shown, theirs_at, found)
    for shown_path, (theirs, when) in sorted(theirs_at.items()):
        for key in filter(None, (_name(theirs), _subject(theirs))):
            for path in keys.get(key, []):
                if at(path) < when and path not in found and _differs(memories[path], theirs):
                    found[path] = StaleMemory(
                        shown(path),
                        "contradicted",
                        f"contradicted by {shown_path}, a teammate's newer memory on the "
                        "same subject",
                    )
    return [found[path] for path in sorted(found)]


def _code_values(
    memories: Mapping[str, MemoryFile],
    code: CodeCheckout,
    shown: Callable[[str], str],
    found: dict[str, StaleMemory],
) -> None:
    """Memories stating a value the checkout declares otherwise (`memsync.dream.code_values`)."""
    claims_of: list[tuple[str, ValueClaim]] = []
    cited: dict[str, set[str]] = {}
    in_words: list[tuple[str, ValueClaim]] = []
    for path, memory in sorted(memories.items()):
        if path in found:
            continue
        text = here(f"{memory.description or ''}\n{memory.body}")
        ticked = BACKTICKED.findall(text)
        cited[path] = {
            c.removeprefix("./").rstrip(".,;:)") for c in cited_paths(text, ticked)
        } & code.paths
        if code.read_code:
            claims_of += [(path, claim) for claim in value_claims(text)]
        for file in sorted(cited[path]):
            in_words += [(path, claim) for claim in named_in_words(text, code.assigned(file))]
        if code.read_code and not cited[path]:
            everywhere, where = code.assigned_everywhere, code.declared_in
            in_words += [
                (path, claim) for claim in named_in_words(text, everywhere, declared_in=where)
            ]
    declared = code.declared_values(frozenset(claim.name for _, claim in claims_of + in_words))
    for file in {file for files in cited.values() for file in files}:
        for name, value in code.assigned(file).items():
            declared.setdefault(name, []).append(Declaration(file, value))
    for path, why in stale_values(claims_of + in_words, declared, cited).items():
        found[path] = StaleMemory(shown(path), "value", why)


def _named_as_replaced(
    memories: Mapping[str, MemoryFile],
    changed_at: Callable[[str], Written],
    shown: Callable[[str], str],
    found: dict[str, StaleMemory],
) -> None:
    """An older memory a newer one names by its file and says it replaces."""
    bodies = {path: memory.body for path, memory in memories.items()}
    for older, newer in named_as_replaced(bodies, changed_at):
        if older not in found:
            found[older] = StaleMemory(
                shown(older),
                "superseded",
                f"superseded by {shown(newer)}, which says it replaces this one",
            )


def _reworded_replacements(
    memories: Mapping[str, MemoryFile],
    changed_at: Callable[[str], Written],
    shown: Callable[[str], str],
    teammates: Mapping[str, tuple[MemoryFile, Written]],
    found: dict[str, StaleMemory],
) -> None:
    """Superseded and contradicted memories however the newer one is worded
    (`memsync.dream.supersession`), added to `found`."""
    _named_as_replaced(memories, changed_at, shown, found)
    texts = {f"mine/{path}": memory for path, memory in memories.items() if path not in found}
    texts |= {f"team/{path}": memory for path, (memory, _) in teammates.items()}
    read = worth_reading(
        {key: readings.words(f"{m.description or ''}\n{m.body}") for key, m in texts.items()}
    )
    mine = {
        key[5:]: readings.claims(texts[key], claims)
        for key in sorted(read)
        if key.startswith("mine/")
    }
    when = {path: changed_at(path) for path in mine}
    pairs: list[tuple[str, Claims, str, str]] = []  # (older, newer's claims, shown, kind)
    for first, second in sorted(candidates(mine)):
        if when[first] != when[second]:
            older, newer = (first, second) if when[first] < when[second] else (second, first)
            pairs.append((older, mine[newer], shown(newer), "superseded"))
    theirs = {
        key[5:]: readings.claims(texts[key], claims)
        for key in sorted(read)
        if key.startswith("team/")
    }
    # Without a teammate's memory to pair with, `candidates` would read every block of
    # `mine` again to pair none (a personal directory with no ``team/``: most of them).
    if theirs:
        for path, teammate in sorted(candidates(mine, theirs)):
            if when[path] < teammates[teammate][1]:
                pairs.append((path, theirs[teammate], teammate, "contradicted"))
    for older, newer_claims, by, kind in pairs:
        change = None if older in found else replacement(mine[older], newer_claims)
        if change is not None:
            whose = "a newer memory" if kind == "superseded" else "a teammate's newer memory"
            found[older] = StaleMemory(
                shown(older),
                kind,
                f"{kind} by {by}, {whose} on the same subject "
                f"({change[1]} where this one says {change[0]})",
            )


_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


def _written(memory: MemoryFile, changed: datetime) -> Written:
    """When a memory was last written, to tell the newer of two: its last change, then,
    between memories changed at once (one commit imported them), the ISO date its
    frontmatter gives (``updated``, else ``created``)."""
    for field_name in ("updated", "created"):
        stated = _ISO_DATE.match(str(memory.metadata.get(field_name) or ""))
        if stated:
            return changed, stated.group(0)
    return changed, ""


def _differs(first: MemoryFile, second: MemoryFile) -> bool:
    """Whether `second` says something else than `first`: another body and, unless the
    two share a name, other values in the description (two descriptions on one subject
    stating one value re-word one fact: a duplicate, not a replacement)."""
    if normalise(first.body).split() == normalise(second.body).split():
        return False
    return _name(first) == _name(second) or _values_of(first) != _values_of(second)


def _values_of(memory: MemoryFile) -> list[str]:
    return sorted(_MASK.findall(normalise(memory.description or "").casefold()))


def stale_on_disk(
    root: Path, changed: Mapping[str, datetime], code_dir: Path | None, *, read_code: bool = True
) -> list[StaleMemory]:
    """`find_stale` for a memory directory on disk and its ``team/`` scope (``memsync
    check --code``, and ``memsync pull`` with `read_code` False). `changed` gives last
    changes by path (from Git); a file missing from it counts by its modification time."""
    from memsync.memory import TEAM_DIRNAME, MemoryDirectory

    def when(shown_path: str) -> datetime:
        if shown_path in changed:
            return changed[shown_path]
        stamp = (root / shown_path).stat().st_mtime
        return datetime.fromtimestamp(stamp).astimezone()

    code = CodeCheckout(code_dir, read_code) if code_dir is not None else None
    team_root = root / TEAM_DIRNAME
    team = MemoryDirectory.read(team_root).files if team_root.is_dir() else {}
    teammates = {f"{TEAM_DIRNAME}/{p}": (m, when(f"{TEAM_DIRNAME}/{p}")) for p, m in team.items()}
    found = find_stale(MemoryDirectory.read(root).files, when, code=code, teammates=teammates)
    found += find_stale(
        team,
        lambda path: when(f"{TEAM_DIRNAME}/{path}"),
        shown=lambda path: f"{TEAM_DIRNAME}/{path}",
        code=code,
    )
    return found
