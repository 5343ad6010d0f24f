"""What a memory may cite from a code checkout, and whether the checkout still has it
(issue 15 item 4): the evidence `memsync.dream.staleness` flags a memory with when a
checkout is at hand.

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
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

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
    assignments,
    checkout_text,
    declared_values,
    name_words,
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
from memsync.dream.looking_away import here, without
from memsync.dream.published_ports import (
    Published,
    compose_services,
    port_conflict,
    published_ports,
)
from memsync.dream.renamed import Kin

BACKTICKED = re.compile(r"`([^`\n]+)`")
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
    ticked = BACKTICKED.findall(text)
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
    bare = BACKTICKED.sub(" ", text)
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


def _about_now(text: str) -> str:
    """`text` less its sentences that look back or away (`_LOOKS_BACK`)."""
    return without(text, _LOOKS_BACK)
