"""Versions a code checkout declares for its runtimes and services, and the versions a
memory states for them (issue 15 item 4: a memory "changed after it was written"); and
the commands its Python packages declare (`declared_commands`).

A memory that says "we run Postgres 15" is stale once the checkout's compose file runs
``postgres:16``. Only a file made to declare a version counts:

- Node: ``engines.node`` in package.json, ``.nvmrc``, ``.node-version``;
- Python: ``requires-python`` in pyproject.toml, ``.python-version``, ``runtime.txt``;
- Go: the ``go`` line of go.mod;
- these and the common services (Postgres, MySQL, MariaDB, Redis, MongoDB,
  Elasticsearch, RabbitMQ, Memcached): ``image:`` lines of compose files, ``FROM`` lines
  of Dockerfiles, and ``.tool-versions``.

A memory's version conflicts when it agrees with no declaration of that tool, compared at
the memory's precision: "Python 3.11" agrees with 3.11.4, and a lower bound ``>=20.11``
agrees with "Node 20" and "Node 22" but not "Node 18". When unsure, nothing is flagged: a
mention that looks back or away ("upgraded from Node 16", "never Python 2", "以前用
Postgres 14", "we started on Postgres 12", "Python 3.10 is not supported") or ahead
("we plan to move to Postgres 18") is no claim about now, nor one of another instance
("a separate Postgres 14", "its own Redis"), and a memory that also names an agreeing
version of the tool, or looks away from the version it names elsewhere in its text, is
not flagged. Compose files say what runs locally: a clause about production or staging and not the
local setup ("Production uses ElastiCache Redis 6.2") is not held against them.
"""

from __future__ import annotations

import configparser
import json
import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memsync.dream.looking_away import anywhere

# Canonical tool → how memories and image names spell it.
_SPELLINGS = {
    "node": ("node", "nodejs", "node.js"),
    "python": ("python", "cpython"),
    "go": ("go", "golang"),
    "postgres": ("postgres", "postgresql"),
    "mysql": ("mysql",),
    "mariadb": ("mariadb",),
    "redis": ("redis",),
    "mongodb": ("mongo", "mongodb"),
    "elasticsearch": ("elasticsearch",),
    "rabbitmq": ("rabbitmq",),
    "memcached": ("memcached",),
}
_TOOL_OF = {spelling: tool for tool, spellings in _SPELLINGS.items() for spelling in spellings}
TOOL_NAMES = frozenset(_TOOL_OF)  # a word that names one of these names no person
_MENTION = re.compile(
    r"(?<![\w.-])(node(?:\.?js)?|c?python|golang|go|postgres(?:ql)?|mysql|mariadb|redis"
    r"|mongo(?:db)?|elasticsearch|rabbitmq|memcached)[ \t-]*v?(\d+(?:\.\d+){0,2})(?!\w|\.\w)",
    re.IGNORECASE,
)
# Words before a mention, in the same clause, that make it no claim about now.
_LOOKS_AWAY = anywhere(
    r"from",
    r"off",
    r"used to",
    r"legacy",
    r"older",
    r"until",
    r"before",
    r"upgrad\w*",
    r"migrat\w*",
    r"no",
    r"don't",
    r"drop\w*",
    r"deprecat\w*",
    r"removed",
    r"eol",
    # A version planned or weighed is no claim about now either ("we plan to move to
    # Postgres 18", "will need Node 24").
    r"plan\w*",
    r"will",
    r"going to",
    r"want to",
    r"consider\w*",
    r"evaluat\w*",
    r"eventually",
    # Where it started, and another instance than the checkout's.
    r"started",
    r"began",
    r"separate",
    r"another",
    r"its own",
    r"their own",
    chinese="以前|之前|曾|旧|不|别|禁止|升级|迁移|弃用|计划|打算|将|另一个|单独",
)
# Words after a mention, in the same clause, that say it is not in use ("Python 3.10 is
# not supported", "Node 18 reached end of life").
_LEFT_AFTER = re.compile(
    r"\b(?:not supported|unsupported|no longer|end of life|eol|deprecated|dropped|removed"
    r"|not used)\b|不再|不支持|弃用",
    re.IGNORECASE,
)
# A clause about a deployed environment, which a compose file (run locally) cannot tell
# of, unless it speaks of the local one too ("locally, same as prod").
_DEPLOYED = re.compile(r"\b(?:production|prod|staging)\b|生产|预发", re.IGNORECASE)
_LOCAL = re.compile(r"\b(?:local|locally|compose|docker-compose|dev)\b|本地", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[.;!?]\s|\n|[。；！？]")
_VERSION = re.compile(r"\d+(?:\.\d+){0,2}")
_MAJOR_LIMIT = 100  # "Redis 6379" is a port, not a version
_COMPOSE = re.compile(r"^(?:docker-)?compose[\w.-]*\.ya?ml$")
_IMAGE = re.compile(r"^\s*image:\s*[\"']?([^\s\"'#]+)", re.MULTILINE)
_FROM = re.compile(r"^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)", re.MULTILINE | re.IGNORECASE)
_GO_LINE = re.compile(r"^go\s+(\d+\.\d+(?:\.\d+)?)\s*$", re.MULTILINE)
_MANIFESTS = frozenset({
    "package.json", ".nvmrc", ".node-version", "pyproject.toml", ".python-version",
    "runtime.txt", "go.mod", ".tool-versions",
})  # fmt: skip


@dataclass(frozen=True)
class Declared:
    """One version the checkout declares: exact at its precision, or a lower bound."""

    tool: str
    version: tuple[int, ...]
    lower_bound: bool
    source: str  # the file, relative to the checkout
    text: str  # as written there: ``postgres:16``, ``"node": ">=20.11"``

    def agrees_with(self, stated: tuple[int, ...]) -> bool:
        declared = self.version[: len(stated)]
        if self.lower_bound:
            return stated >= declared
        return stated[: len(declared)] == declared


@dataclass(frozen=True)
class Mention:
    tool: str
    version: tuple[int, ...]
    text: str  # as the memory wrote it
    looks_away: bool
    deployed: bool = False  # in a clause about production or staging


def is_manifest(relative: str) -> bool:
    """Whether a checkout file may declare a version (read by `declared_versions`)."""
    name = relative.rsplit("/", 1)[-1]
    return (
        name in _MANIFESTS
        or bool(_COMPOSE.match(name))
        or name == "Dockerfile"
        or name.startswith("Dockerfile.")
        or name.endswith(".Dockerfile")
    )


def declared_versions(root: Path, manifests: Iterable[str]) -> dict[str, list[Declared]]:
    """Tool → what the checkout's `manifests` (relative paths) declare for it."""
    found: dict[str, list[Declared]] = {}
    for relative in sorted(manifests):
        try:
            text = (root / relative).read_text(encoding="utf-8", errors="ignore")
        except OSError:
            continue
        for declared in _read_manifest(relative, text):
            found.setdefault(declared.tool, []).append(declared)
    return found


def version_conflict(text: str, declared: dict[str, list[Declared]]) -> str | None:
    """Why `text` (a memory) states a version the checkout no longer has, or None."""
    by_tool: dict[str, list[Mention]] = {}
    for mention in mentions(text):
        if mention.tool in declared:
            by_tool.setdefault(mention.tool, []).append(mention)
    for tool, stated in sorted(by_tool.items()):
        versions = declared[tool]
        if all(is_compose_file(d.source) for d in versions):
            stated = [m for m in stated if not m.deployed]
        if any(any(d.agrees_with(m.version) for d in versions) for m in stated):
            continue  # the memory also names what the checkout has
        # A version looked away from once is so throughout (a heading "Node 18" over
        # "Node 18 reached end of life").
        away = {m.version for m in stated if m.looks_away}
        claim = next((m for m in stated if m.version not in away), None)
        if claim is None:
            continue
        shown = "; ".join(f"{d.source} has {d.text}" for d in versions[:2])
        return f"says {claim.text}, but the code checkout's {shown}"
    return None


def mentions(text: str) -> Iterator[Mention]:
    for match in _MENTION.finditer(text):
        tool = _TOOL_OF[match.group(1).casefold()]
        written = match.group(2)
        if tool == "go" and "." not in written:
            continue  # "go 2 steps back": Go versions are written 1.22
        version = tuple(int(part) for part in written.split("."))
        if version[0] >= _MAJOR_LIMIT:
            continue
        clause_start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, match.start())),
                           default=0)  # fmt: skip
        before = text[clause_start : match.start()]
        clause_end = _CLAUSE_END.search(text, match.end())
        end = clause_end.start() if clause_end else len(text)
        clause = text[clause_start:end]
        yield Mention(
            tool,
            version,
            match.group(0).strip(),
            bool(_LOOKS_AWAY.search(before) or _LEFT_AFTER.search(text, match.end(), end)),
            bool(_DEPLOYED.search(clause)) and not _LOCAL.search(clause),
        )


def _read_manifest(relative: str, text: str) -> Iterator[Declared]:
    name = relative.rsplit("/", 1)[-1]
    if name == "package.json":
        yield from _package_json(relative, text)
    elif name in (".nvmrc", ".node-version"):
        yield from _exact("node", relative, text.strip(), text.strip())
    elif name == ".python-version":
        yield from _exact("python", relative, text.strip(), text.strip())
    elif name == "runtime.txt":
        yield from _exact("python", relative, text.strip().removeprefix("python-"), text.strip())
    elif name == "pyproject.toml":
        yield from _requires_python(relative, text)
    elif name == "go.mod":
        for version in _GO_LINE.findall(text):
            yield Declared("go", _parse(version), True, relative, f"go {version}")
    elif name == ".tool-versions":
        for line in text.splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[0].casefold() in _TOOL_OF:
                yield from _exact(_TOOL_OF[parts[0].casefold()], relative, parts[1], line.strip())
    else:
        pattern = _FROM if name.endswith("Dockerfile") or name.startswith("Dockerfile") else _IMAGE
        for image in pattern.findall(text):
            yield from _image(relative, image)


def _package_json(relative: str, text: str) -> Iterator[Declared]:
    try:
        data = json.loads(text)
    except ValueError:
        return
    engines = data.get("engines") if isinstance(data, dict) else None
    node = engines.get("node") if isinstance(engines, dict) else None
    if not isinstance(node, str):
        return
    for alternative in node.split("||"):
        yield from _range("node", relative, alternative.strip(), f'"node": "{node}"')


def _requires_python(relative: str, text: str) -> Iterator[Declared]:
    try:
        project = tomllib.loads(text).get("project", {})
    except tomllib.TOMLDecodeError:
        return
    spec = project.get("requires-python") if isinstance(project, dict) else None
    if isinstance(spec, str):
        for clause in spec.split(","):
            yield from _range("python", relative, clause.strip(), f'requires-python = "{spec}"')


def _range(tool: str, relative: str, clause: str, shown: str) -> Iterator[Declared]:
    """One clause of a version range: ``>=3.11`` is a lower bound, ``^18``, ``~20.1``,
    ``20.x`` and ``==3.12.*`` exact at their precision; upper bounds say nothing here."""
    if clause.startswith("<") or clause.startswith("!="):
        return
    match = _VERSION.search(clause)
    if match is None:
        return
    lower = clause.startswith((">", "~=")) or " - " in clause  # ``18 - 20``: 18 or later
    yield Declared(tool, _parse(match.group(0)), lower, relative, shown)


def _exact(tool: str, relative: str, written: str, shown: str) -> Iterator[Declared]:
    match = _VERSION.match(written.removeprefix("v"))
    if match is not None:
        yield Declared(tool, _parse(match.group(0)), False, relative, shown)


def _image(relative: str, image: str) -> Iterator[Declared]:
    """``postgres:16-alpine``, ``docker.io/library/redis:7.2``, ``bitnami/postgresql:15``."""
    reference, _, tag = image.rpartition(":")
    if not reference or "/" in tag:
        return  # no tag (``host:5000/img``), or a registry port
    name = reference.rsplit("/", 1)[-1].casefold()
    if name in _TOOL_OF:
        yield from _exact(_TOOL_OF[name], relative, tag, image)


def is_compose_file(relative: str) -> bool:
    return bool(_COMPOSE.match(relative.rsplit("/", 1)[-1]))


def image_tool(image: str) -> str | None:
    """The runtime or service an image runs (``postgres:16`` → postgres), if known."""
    name = image.rsplit(":", 1)[0].rsplit("/", 1)[-1].casefold() if image else ""
    return _TOOL_OF.get(name)


def _parse(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def declared_commands(name: str, text: str) -> set[str]:
    """Console scripts a ``pyproject.toml`` (``[project.scripts]``, ``[project.gui-scripts]``,
    ``[tool.poetry.scripts]``) or ``setup.cfg`` (``console_scripts``) declares."""
    if name == "pyproject.toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return set()
        project, poetry = data.get("project", {}), data.get("tool", {}).get("poetry", {})
        tables = [project.get("scripts"), project.get("gui-scripts"), poetry.get("scripts")]
        return {str(key) for table in tables if isinstance(table, dict) for key in table}
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
        lines = parser.get("options.entry_points", "console_scripts", fallback="")
    except configparser.Error:
        return set()
    return {line.split("=", 1)[0].strip() for line in lines.splitlines() if "=" in line}


# -- dependencies ----------------------------------------------------------------------

_DEPENDENCY_MANIFESTS = frozenset({"package.json", "go.mod", "pyproject.toml"})
_REQUIREMENTS = re.compile(r"^requirements[\w.-]*\.txt$")
_REQUIREMENT = re.compile(
    r"^\s*([A-Za-z][\w.-]*)\s*(?:\[[^\]]*\])?\s*(==|>=|~=)\s*(\d+(?:\.\d+){0,2})"
)
_GO_REQUIRE = re.compile(
    r"^\s*(?:require\s+)?([\w.-]+(?:/[\w.-]+)+)\s+v(\d+(?:\.\d+){0,2})", re.MULTILINE
)
_MAJOR_SUFFIX = re.compile(r"^v\d+$")
_DEPENDENCY_TABLES = ("dependencies", "devDependencies", "peerDependencies")
# Names too like words to read as a dependency in prose ("next 3 days", "request 2").
_WORDLIKE = frozenset({
    "next", "request", "requests", "express", "commander", "chalk", "debug", "glob", "ms",
    "ws", "uuid", "test", "core", "react-is", "util", "path", "os", "time", "sentry",
})  # fmt: skip


def is_dependency_manifest(relative: str) -> bool:
    name = relative.rsplit("/", 1)[-1]
    return name in _DEPENDENCY_MANIFESTS or bool(_REQUIREMENTS.match(name))


def declared_dependencies(root: Path, manifests: Iterable[str]) -> dict[str, list[Declared]]:
    """Dependency name (case-folded) → the versions the checkout's manifests pin it to:
    package.json's dependency tables, go.mod's ``require`` lines (``grpc`` for
    ``google.golang.org/grpc``), ``requirements*.txt`` and pyproject's dependencies."""
    found: dict[str, list[Declared]] = {}
    for relative in sorted(manifests):
        if "node_modules/" in relative or "vendor/" in relative:
            continue
        try:
            text = (root / relative).read_text(encoding="utf-8", errors="ignore")
        except OSError:
            continue
        for name, declared in _dependencies(relative, text):
            if name not in _TOOL_OF and len(name) >= 3 and name not in _WORDLIKE:
                found.setdefault(name, []).append(declared)
    return found


def _dependencies(relative: str, text: str) -> Iterator[tuple[str, Declared]]:
    name = relative.rsplit("/", 1)[-1]
    if name == "package.json":
        try:
            data = json.loads(text)
        except ValueError:
            return
        for table in _DEPENDENCY_TABLES:
            entries = data.get(table) if isinstance(data, dict) else None
            for package, spec in (entries or {}).items() if isinstance(entries, dict) else ():
                if isinstance(spec, str) and not package.startswith("@types/"):
                    yield from _npm(relative, package, spec)
    elif name == "go.mod":
        for module, version in _GO_REQUIRE.findall(text):
            parts = module.split("/")
            last = parts[-2] if _MAJOR_SUFFIX.match(parts[-1]) and len(parts) > 1 else parts[-1]
            key = last.casefold()
            yield key, Declared(key, _parse(version), False, relative, f"{module} v{version}")
    else:
        lines: Iterable[str] = text.splitlines()
        if name == "pyproject.toml":
            try:
                project = tomllib.loads(text).get("project", {})
            except tomllib.TOMLDecodeError:
                return
            listed = project.get("dependencies") if isinstance(project, dict) else None
            lines = [item for item in listed or () if isinstance(item, str)]
        for line in lines:
            if match := _REQUIREMENT.match(line):
                package, operator, version = match.groups()
                key = package.casefold()
                lower = operator != "=="
                yield key, Declared(key, _parse(version), lower, relative, line.strip())


def _npm(relative: str, package: str, spec: str) -> Iterator[tuple[str, Declared]]:
    """``^18.2.0`` pins the major, ``~4.17.1`` the minor, ``4.17.21`` all; ``>=`` is a
    lower bound; anything else (tags, URLs, ranges with ``||``) says nothing here."""
    spec = spec.strip()
    match = re.fullmatch(r"(\^|~|>=|=)?v?(\d+(?:\.\d+){0,2})", spec)
    if match is None:
        return
    operator, written = match.groups()
    version = _parse(written)
    if operator == "^":
        version = version[:1] if version[0] else version[:2]
    elif operator == "~":
        version = version[:2]
    key = package.casefold().rsplit("/", 1)[-1] if package.startswith("@") else package.casefold()
    yield key, Declared(key, version, operator == ">=", relative, f'"{package}": "{spec}"')


def dependency_conflict(text: str, declared: dict[str, list[Declared]]) -> str | None:
    """Why `text` states a version of a dependency the checkout pins otherwise, or None.
    A mention counts when written ``name 1.2``, ``name v1``, ``name@1.2`` or ``name
    version 1.2``, and either has a dot or a ``v``/``@``, or names the dependency
    capitalised or in backticks ("React 17", "`zod` 3"). A name's dashes may be written
    as spaces ("React Query v4" for ``react-query``)."""
    if not declared:
        return None
    folded = text.casefold()
    named = [n for n in declared if n in folded or ("-" in n and n.replace("-", " ") in folded)]
    names = sorted(named, key=len, reverse=True)
    if not names:
        return None
    spelled = (re.escape(name).replace(r"\-", r"[-\s]") for name in names)
    pattern = re.compile(
        r"(?<![\w@/.-])(`?)(" + "|".join(spelled) + r")`?"
        r"(\s+version\s+v?|\s+v|@v?|\s+)(\d+(?:\.\d+){0,2})(?![\w]|\.\d)",
        re.IGNORECASE,
    )
    stated: dict[str, list[tuple[tuple[int, ...], str, bool]]] = {}
    for match in pattern.finditer(text):
        ticked, written, joiner, version = match.groups()
        if not ("." in version or "v" in joiner or "@" in joiner or ticked
                or written[0].isupper()):  # fmt: skip
            continue
        clause_start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, match.start())),
                           default=0)  # fmt: skip
        away = bool(_LOOKS_AWAY.search(text[clause_start : match.start()]))
        stated.setdefault(re.sub(r"\s", "-", written.casefold()), []).append(
            (_parse(version), match.group(0).strip(" `"), away)
        )
    for name, mentions_of in sorted(stated.items()):
        versions = declared[name]
        if any(d.agrees_with(version) for d in versions for version, _, _ in mentions_of):
            continue
        claim = next((shown for _, shown, away in mentions_of if not away), None)
        if claim is None:
            continue
        shown = "; ".join(f"{d.source} has {d.text}" for d in versions[:2])
        return f"says {claim}, but the code checkout's {shown}"
    return None
