"""Stale memories, flagged only with evidence (issue 15 item 4).

Age alone is no evidence: a two-year-old rule may still hold, and a list of every
memory over 90 days tells a reviewer nothing. A memory is flagged when

- it cites something the code checkout no longer has (when one is at hand: ``memsync
  check DIR --code PATH``, ``memsync dream --code PATH``): a file path or a Python
  module (`memsync.dream.cited_paths`), a command (an npm script, a Makefile target, a
  renamed console script, a package manager its lockfiles say it left:
  `memsync.dream.cited_commands`), or a code symbol or environment variable
  (``parse_invoice()``, ``sync_customers(since)``, ``InvoiceParser``, ``PAYMENTS_URL``)
  beside a kin the checkout has in its place (``STRIPE_SECRET_KEY`` for
  ``STRIPE_API_KEY``: `memsync.dream.renamed`; a library's ``useQuery`` or a tool's
  ``AWS_PROFILE`` the code never wrote is no evidence);
  or it states a version of a runtime or service the checkout declares otherwise ("Node
  18" where package.json's engines want ``>=20.11``: `memsync.dream.declared_versions`);
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

What counts as citing the checkout is kept narrow, so a flag is worth reading: a path
counts only when its first folder exists in the checkout (``src/…``, ``scripts/…``) and
it is not the tail of one of its paths (cited from inside a sub-project), or, for a bare
file name, when it has an extension (``dist/`` may be built, not checked in), or when
its first folder is gone and its file, of a distinctive name, is elsewhere (moved); a
path through a folder a build writes (``web/dist/…``), a path the checkout's
``.gitignore`` ignores (``api/.env``), URLs, API routes (``/v2/…``, ``POST api/v2/…``)
and placeholders (``{id}``, ``<name>``, ``*``, ``[feature]``) are never checked, nor
anything cited in a sentence about the past ("we used to run ``make migrate``", "… was
renamed", "in March we ran ``make reindex``"), looking ahead ("once we add staging"), or
placing it in another repository ("in the infra repo, ``scripts/rotate_certs.sh``":
`memsync.dream.looking_away.here`).

Rules are chosen on five tuning sets (``tests/dream/tuning/stale_variants.py``,
``stale_rewritten.py``, ``stale_independent.py``, ``stale_fourth.py`` and
``stale_adversarial.py``, the third and fourth written by other hands in Claude Code's
own memory format, the fourth as one project's memories over a year, the fifth as
memories still true written to look stale to one rule or another), never on
``tests/heldout``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from pathlib import Path

from memsync.dream import readings
from memsync.dream.cited_commands import commands_in, missing_command
from memsync.dream.cited_paths import (
    CODE_SUFFIXES,
    SKIPPED_DIRS,
    cited_modules,
    cited_paths,
    ignore_rules,
    is_ignored,
    missing_module,
    missing_path,
)
from memsync.dream.code_values import (
    Declaration,
    ValueClaim,
    assignments,
    checkout_text,
    declared_values,
    name_words,
    named_in_words,
    stale_values,
    value_claims,
)
from memsync.dream.declared_versions import (
    Declared,
    declared_commands,
    declared_dependencies,
    declared_versions,
    dependency_conflict,
    is_compose_file,
    is_dependency_manifest,
    is_manifest,
    version_conflict,
)
from memsync.dream.dedupe import content_words, normalise
from memsync.dream.looking_away import here, without
from memsync.dream.published_ports import (
    Published,
    compose_services,
    port_conflict,
    published_ports,
)
from memsync.dream.renamed import Kin
from memsync.dream.stale_pairs import candidates, named_as_replaced, worth_reading
from memsync.dream.supersession import Claims, Written, claims, replacement
from memsync.memory import MemoryFile

_BACKTICKED = re.compile(r"`([^`\n]+)`")
_MAKE_TARGET = re.compile(r"^([A-Za-z_][\w.-]*)\s*:(?!=)", re.MULTILINE)
_IDENT = re.compile(r"[A-Za-z_]\w+")
_SYMBOL = re.compile(
    r"^(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+"  # snake_case
    r"|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+"  # CamelCase
    r"|[a-z]+(?:[A-Z][a-z0-9]*)+"  # camelCase
    r"|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+"  # UPPER_SNAKE
    r"|[A-Za-z_]\w*\(\))$"  # call()
)
# A call with arguments in backticks cites the function: `sync_customers(since)`,
# `client.fetch_page(cursor, 200)`.
_CALL = re.compile(r"^(?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*)\([^()`]*\)$")
# Outside backticks, a symbol is one written as a call or called a function, method or
# class ("parse_invoice()", "the compute_total function", "class InvoiceParser"); its
# spelling must still be a symbol's (`_SYMBOL`): "print()" and "the main function" are not.
_BARE_SYMBOL = re.compile(
    r"(?<![\w.`/-])([A-Za-z_]\w*)\(\)"
    r"|\b(?:function|method|class)\s+([A-Za-z_]\w*)\b"
    r"|(?<![\w.`/-])([A-Za-z_]\w*)\s+(?:function|method|class)\b"
)
_ENV = re.compile(r"(?<![\w`])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+){1,})(?![\w`])")
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


@dataclass
class CodeCheckout:
    """What a memory may cite from a code checkout, read once and lazily.

    `read_code` False leaves symbols unchecked: finding them reads every source file
    (seconds in a large checkout), too slow for a step that runs on every pull."""

    root: Path
    read_code: bool = True
    _files: list[str] = field(default_factory=list, repr=False)
    _assigned: dict[str, dict[str, str]] = field(default_factory=dict, repr=False)
    _everywhere: dict[str, list[Declaration]] = field(default_factory=dict, repr=False)

    @cached_property
    def paths(self) -> frozenset[str]:
        """Every file and folder, relative, POSIX."""
        found: set[str] = set()
        for folder, dirs, files in os.walk(self.root):
            dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS]
            relative = Path(folder).relative_to(self.root).as_posix()
            prefix = "" if relative == "." else relative + "/"
            if prefix:
                found.add(prefix.rstrip("/"))
            for name in files:
                found.add(prefix + name)
                self._files.append(prefix + name)
        return frozenset(found)

    @cached_property
    def top_level(self) -> frozenset[str]:
        return frozenset(path.split("/", 1)[0] for path in self.paths)

    @cached_property
    def basenames(self) -> frozenset[str]:
        return frozenset(path.rsplit("/", 1)[-1] for path in self.paths)

    @cached_property
    def tails(self) -> frozenset[str]:
        """Every path less one or more of its first folders: what a memory cites when it
        names a path from inside a sub-project ("in web/, `scripts/icons.mjs`")."""
        return frozenset(
            path.split("/", depth)[-1]
            for path in self.paths
            for depth in range(1, path.count("/") + 1)
        )

    @cached_property
    def where(self) -> dict[str, list[str]]:
        """File name → the paths of the checkout's files of that name."""
        self.paths  # noqa: B018 - walks the tree once, filling _files
        found: dict[str, list[str]] = {}
        for relative in self._files:
            found.setdefault(relative.rsplit("/", 1)[-1], []).append(relative)
        return found

    @cached_property
    def identifiers(self) -> frozenset[str]:
        """Every identifier-like word of the checkout's text files."""
        self.paths  # noqa: B018 - walks the tree once, filling _files
        found: set[str] = set()
        for relative in filter(_is_text_file, self._files):
            text = checkout_text(self.root / relative)
            if text is None:
                continue
            found.update(_IDENT.findall(text))
            # Read here too, so the checkout's files are read once.
            for name, value in assignments(text).items():
                self._everywhere.setdefault(name, []).append(Declaration(relative, value))
        return frozenset(found)

    @cached_property
    def kin(self) -> Kin:
        """The checkout's names by their words, for a name it lacks (`memsync.dream.renamed`)."""
        return Kin(self.identifiers)

    @cached_property
    def assigned_everywhere(self) -> dict[str, str]:
        """Names of two words or more (``READ_TIMEOUT``, ``maxBatchSize``) that the
        checkout's files assign one number, with that number: a name of one word
        ("port") is too common to tie to a memory's sentence without its file."""
        self.identifiers  # noqa: B018 - reads the files, filling _everywhere
        return {
            name: values[0].value
            for name, values in self._everywhere.items()
            if len({d.value for d in values}) == 1 and len(name_words(name)) >= 2
        }

    @cached_property
    def ignore_rules(self) -> list[tuple[str, str]]:
        self.paths  # noqa: B018 - walks the tree once, filling _files
        return ignore_rules(self.root, self._files)

    def ignored(self, path: str) -> bool:
        """Whether the checkout's ``.gitignore`` files ignore `path`."""
        return is_ignored(path, self.ignore_rules)

    @cached_property
    def declared_in(self) -> dict[str, str]:
        """Name → the first file assigning it, for `assigned_everywhere`."""
        self.identifiers  # noqa: B018 - reads the files, filling _everywhere
        return {name: values[0].file for name, values in self._everywhere.items()}

    @cached_property
    def npm_scripts(self) -> frozenset[str] | None:
        """Scripts of every package.json; None when there is none."""
        manifests = [p for p in self.paths if p.rsplit("/", 1)[-1] == "package.json"]
        if not manifests:
            return None
        scripts: set[str] = set()
        for relative in manifests:
            try:
                data = json.loads((self.root / relative).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(data, dict) and isinstance(data.get("scripts"), dict):
                scripts.update(str(name) for name in data["scripts"])
        return frozenset(scripts)

    @cached_property
    def console_scripts(self) -> frozenset[str] | None:
        """Commands the checkout's Python packages install; None when none declares any."""
        declared: set[str] = set()
        for relative in self.paths:
            name = relative.rsplit("/", 1)[-1]
            if name in ("pyproject.toml", "setup.cfg"):
                try:
                    text = (self.root / relative).read_text(encoding="utf-8", errors="ignore")
                except OSError:
                    continue
                declared.update(declared_commands(name, text))
        return frozenset(declared) or None

    @cached_property
    def make_targets(self) -> frozenset[str] | None:
        makefiles = [p for p in self.paths if p.rsplit("/", 1)[-1] in ("Makefile", "makefile")]
        if not makefiles:
            return None
        targets: set[str] = set()
        for relative in makefiles:
            try:
                text = (self.root / relative).read_text(encoding="utf-8", errors="ignore")
            except OSError:
                continue
            targets.update(_MAKE_TARGET.findall(text))
        return frozenset(targets)

    def assigned(self, relative: str) -> dict[str, str]:
        """`memsync.dream.code_values.assignments` of one file, read once."""
        if relative not in self._assigned:
            self._assigned[relative] = assignments(checkout_text(self.root / relative) or "")
        return self._assigned[relative]

    def declared_values(self, names: frozenset[str]) -> dict[str, list[Declaration]]:
        """Where the checkout's text files assign each of `names`."""
        self.paths  # noqa: B018 - walks the tree once, filling _files
        readable = [f for f in self._files if _is_text_file(f)]
        return declared_values(self.root, readable, set(names))

    @cached_property
    def dependencies(self) -> dict[str, list[Declared]]:
        """What the checkout's manifests pin its dependencies to."""
        self.paths  # noqa: B018 - walks the tree once, filling _files
        return declared_dependencies(self.root, filter(is_dependency_manifest, self._files))

    @cached_property
    def published_ports(self) -> list[Published]:
        """The host ports the checkout's compose files publish, service by service."""
        self.paths  # noqa: B018 - walks the tree once, filling _files
        return published_ports(self.root, filter(is_compose_file, self._files))

    @cached_property
    def compose_services(self) -> frozenset[str] | None:
        """The services the checkout's compose files declare; None when there is none."""
        self.paths  # noqa: B018 - walks the tree once, filling _files
        return compose_services(self.root, filter(is_compose_file, self._files))

    @cached_property
    def versions(self) -> dict[str, list[Declared]]:
        """What the checkout's manifests declare, tool by tool."""
        self.paths  # noqa: B018 - walks the tree once, filling _files
        return declared_versions(self.root, filter(is_manifest, self._files))


def _is_text_file(relative: str) -> bool:
    name = relative.rsplit("/", 1)[-1]
    suffix = "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return (
        suffix in CODE_SUFFIXES
        or name in ("Makefile", "Dockerfile", "Procfile")
        or name.startswith(".env")
    )


def code_evidence(text: str, code: CodeCheckout) -> tuple[str, str] | None:
    """(kind, reason) for the first thing `text` cites that the checkout lacks or
    declares otherwise, in a sentence about this checkout (`memsync.dream.looking_away.here`)."""
    text = here(text)
    missing = _missing_from(text, code)
    if missing is not None:
        return missing
    conflict = version_conflict(text, code.versions) or dependency_conflict(text, code.dependencies)
    if conflict is not None:
        return "version", conflict
    port = port_conflict(text, code.published_ports)
    return None if port is None else ("port", port)


def _missing_from(text: str, code: CodeCheckout) -> tuple[str, str] | None:
    """(kind, why) for the first thing `text` cites that the checkout lacks, in a
    sentence about now: "We used to run `make migrate`" cites the past on purpose."""
    text = _about_now(text)
    ticked = _BACKTICKED.findall(text)
    commands = commands_in(text, ticked)
    for cited in cited_paths(text, ticked):
        candidate = cited.rstrip(".,;:!?)-")  # the end of a sentence is not the path's
        path = candidate.removeprefix("./").rstrip("/")
        missing = missing_path(path, code)
        if missing is not None:
            return "path", f"cites {candidate}, which the code checkout {missing}"
    identifiers = code.identifiers if code.read_code else None
    for module in cited_modules(ticked, commands):
        if (lacking := missing_module(module, code, identifiers)) is not None:
            return "module", f"cites {lacking}, which the code checkout no longer has"
    gone = missing_command(text, commands, code)
    if gone is not None:
        return gone[0], f"cites {gone[1]}, which the code checkout no longer has"
    if not code.read_code:
        return None
    symbols = [name for t in ticked if (name := _cited_symbol(t.strip(), code.identifiers))]
    bare = _BACKTICKED.sub(" ", text)
    symbols += _ENV.findall(bare)
    named = (found.group(found.lastindex or 0) for found in _BARE_SYMBOL.finditer(bare))
    symbols += [name for name in named if _SYMBOL.match(name)]
    for symbol in symbols:
        name = symbol.removesuffix("()")
        if name not in code.identifiers and (kin := code.kin.of(name)) is not None:
            why = f"cites {symbol}, which the code checkout no longer has (nearest: {kin})"
            return "symbol", why
    return None


def _cited_symbol(span: str, identifiers: frozenset[str]) -> str | None:
    """The symbol a span in backticks names: a symbol's spelling, or the function of a
    call with arguments (`sync_customers(since)`); none for a member of an object the
    checkout never names (`queryClient.invalidateQueries()`, `transaction.on_commit()`:
    a library's)."""
    if _SYMBOL.match(span):
        return span
    call = _CALL.match(span)
    if call is None or not _SYMBOL.match(call.group(1)):
        return None
    owner = span.split("(", 1)[0].split(".")[0]
    return call.group(1) if owner == call.group(1) or owner in identifiers else None


# A sentence holding one of these speaks of the past or of what is rejected.
# ("never" and "not" are no such word here: "never by hand" still tells what to run).
# A story told in the past ("in March we ran `make reindex`", "it lived in ingest.py and
# became importer.py") and what it says is gone cite the past on purpose too, and a
# sentence looking ahead ("once we add staging", "create it if missing") cites what the
# checkout need not have yet.
_LOOKS_BACK = re.compile(
    r"\b(?:used to|was|were|previously|formerly|no longer|instead of|replac\w*|renamed"
    r"|removed|deleted|deprecated|legacy|ran|lived|became|(?:is|are)\s+gone"
    r"|going to|plan(?:s|ned)?\s+to|once we|eventually|not yet|if (?:it is\s+)?missing)\b"
    r"|以前|之前|曾经|不再|改名|删掉|删除|去掉|将来|以后|计划",
    re.IGNORECASE,
)


def _about_now(text: str) -> str:
    """`text` less its sentences that look back or away (`_LOOKS_BACK`)."""
    return without(text, _LOOKS_BACK)


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
        ticked = _BACKTICKED.findall(text)
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
