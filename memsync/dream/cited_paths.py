"""Paths and Python modules a memory cites that the code checkout no longer has (issue
15 item 4; `memsync.dream.staleness` reads the checkout and calls `missing_path` and
`missing_module` with what `cited_paths` and `cited_modules` find).

A path is cited in backticks, as an argument with a ``/`` of a command in backticks
(`./scripts/reindex.sh --all`, `python tools/seed.py`), or in prose; a place in the file
(``app.py:42``, ``test_x.py::test_y``, ``#L42``) cites the file. URLs, absolute and home
paths (``/etc/hosts``, ``~/.config``), API routes and placeholders (``{id}``,
``<name>``, ``*``, ``$VAR``) are never checked.

A path counts as missing when its first folder is the checkout's and it is neither
there nor the tail of a path there (cited from inside a sub-project:
``scripts/icons.mjs`` for ``web/scripts/icons.mjs``) nor a path its ``.gitignore``
files ignore (``api/.env``, ``.claude/settings.local.json``: a user's own, which no
checkout holds); a bare file name when it has an
extension and the checkout has a file like it (`memsync.dream.renamed.nearest_file`:
a bare folder, "dist/", may be built, and ``settings.json`` may be the user's); a path
through a folder a build writes (``web/dist/…``) never. An API route is no path, even
without its leading ``/``: a span in backticks opening with an HTTP method (``POST
api/v2/exports``), nor is a resource named ``TYPE/NAME`` to a cluster's tool
(``kubectl rollout restart deploy/worker``). Placeholders are marked with braces,
angle brackets, ``*`` or ``$``, and also with square brackets (``[feature]``), a folder
in capitals with an underscore (``APP_NAME``), or an ellipsis (``…``, ``...``). A path
whose first folder the checkout lacks counts when its file, of a name of two words or
more (``rotate_keys.py``), is in the checkout once, elsewhere: the file moved.

A dotted Python module (`tidepool.sync.ingest` in backticks, ``python -m
tidepool.sync.ingest``) counts as missing when a package of the checkout (a folder with
``__init__.py``) holds its parent and neither the module nor a package of that name;
one more name after a module of the checkout (`tidepool.billing.tasks.send_reminders`,
a Celery task's name) must be one of the checkout's identifiers. A module whose first
package the checkout does not hold is a library's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from fnmatch import fnmatchcase as fnmatch
from pathlib import Path
from typing import Protocol

from memsync.dream.renamed import nearest_file

SKIPPED_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", "dist"})
# Folders a build, an install or a tool writes: a path through one ("web/dist/",
# "coverage/index.html") may be there after a build and never be checked in.
_BUILT_DIRS = SKIPPED_DIRS | frozenset({
    "build", "coverage", "htmlcov", ".next", ".nuxt", "out", "target", ".pytest_cache",
    ".mypy_cache", ".ruff_cache", ".tox", "site-packages",
})  # fmt: skip
CODE_SUFFIXES = frozenset({
    ".py", ".pyi", ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".go", ".rs", ".java", ".kt",
    ".kts", ".swift", ".rb", ".php", ".cs", ".c", ".h", ".cc", ".cpp", ".hpp", ".scala", ".sh",
    ".bash", ".zsh", ".sql", ".toml", ".yaml", ".yml", ".json", ".ini", ".cfg", ".env",
    ".conf", ".gradle", ".proto", ".graphql", ".tf", ".vue", ".svelte", ".ex", ".exs", ".lua",
    ".dart", ".xml", ".md", ".txt", ".example", ".lock", ".properties",
})  # fmt: skip
_BACKTICKED = re.compile(r"`([^`\n]+)`")
_PATH = re.compile(r"(?<![\w/.:@-])(\.{0,2}/?[\w.-]+(?:/[\w.-]+)+/?)(?![\w/])")
_FILE = re.compile(r"^[\w.-]*\w\.[A-Za-z][\w]{0,7}$")
# A place in a file: a line (``app.py:42``, ``#L42-L50``) or a test (``test_x.py::test_y``).
_LOCATION = re.compile(r"(?::\d+(?::\d+)?|::[\w.\[\]-]+|#L\d+(?:-L?\d+)?)$")
# A name of two words or more: ``rotate_keys``, ``generate-icons``, ``seedDemo``.
_TWO_WORDS = re.compile(r"[A-Za-z0-9][_-][A-Za-z0-9]|[a-z][A-Z]")
# A dotted module in backticks (three names or more: "tidepool.io" is a host), or run
# with ``python -m`` (two or more).
_DOTTED = re.compile(r"^[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*){2,}$")
_RUN_MODULE = re.compile(r"^python[\d.]*\s+-m\s+([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+)\b")
_HTTP_METHOD = re.compile(r"^(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s")
# Tools that name a cluster's resources ``TYPE/NAME`` (``deploy/worker``, ``svc/api``).
_CLUSTER_TOOLS = re.compile(r"^(?:kubectl|oc|helm|k9s)\s")
_RESOURCE = re.compile(r"^[a-z][a-z0-9.-]*/[a-z0-9][a-z0-9-]*$")
# A placeholder folder: in capitals with an underscore (``APP_NAME``), or an ellipsis.
_PLACEHOLDER_PART = re.compile(r"^(?:[A-Z][A-Z0-9]*_[A-Z0-9_]+|\.{3}|…)$")


class Holds(Protocol):
    """What of the checkout the rules read (`memsync.dream.code_checkout.CodeCheckout`)."""

    @property
    def paths(self) -> frozenset[str]: ...
    @property
    def tails(self) -> frozenset[str]: ...
    @property
    def top_level(self) -> frozenset[str]: ...
    @property
    def basenames(self) -> frozenset[str]: ...
    @property
    def where(self) -> dict[str, list[str]]: ...
    def ignored(self, path: str) -> bool: ...


def cited_paths(text: str, ticked: list[str]) -> Iterator[str]:
    """The paths `text` cites (`ticked`: its spans in backticks), as the module says."""
    for span in ticked:
        if _HTTP_METHOD.match(span):
            continue  # an API route
        tokens = span.split()
        cluster = bool(_CLUSTER_TOOLS.match(span))
        for token in tokens if len(tokens) > 1 else tokens[:1]:
            token = _LOCATION.sub("", token)
            if placeholder(token) or "://" in token or token.startswith(("/", "~", "-")):
                continue
            if cluster and _RESOURCE.match(token):
                continue  # a resource of the cluster: ``deploy/worker``
            if "/" in token or (len(tokens) == 1 and is_file_name(token)):
                yield token
    bare = _BACKTICKED.sub(" ", text)
    for match in _PATH.finditer(bare):
        found = match.group(1)
        start = match.start(1)
        if bare[max(0, start - 3) : start] == "://" or found.startswith(("/", "~")):
            continue
        first = found.removeprefix("./").split("/", 1)[0]
        if "." in first and not first.startswith("."):
            continue  # a domain: github.com/…
        if placeholder(found):
            continue
        yield found


def missing_path(path: str, code: Holds) -> str | None:
    """How the checkout lacks `path` ("no longer has", "has at ops/x.py"), or None when
    it has it or cannot tell."""
    parts = path.split("/")
    if any(part in _BUILT_DIRS for part in parts[:-1]) or parts[-1] in _BUILT_DIRS:
        return None
    if len(parts) == 1:
        if not is_file_name(path) or path in code.basenames:
            return None
        nearest = nearest_file(path, code.paths)
        return None if nearest is None else f"no longer has (nearest: {nearest})"
    if path in code.paths or path in code.tails or code.ignored(path):
        return None
    if parts[0] in code.top_level:
        return "no longer has"
    name = parts[-1]
    elsewhere = code.where.get(name, [])
    if is_file_name(name) and _TWO_WORDS.search(name.rsplit(".", 1)[0]) and len(elsewhere) == 1:
        return f"has at {elsewhere[0]}"
    return None


def cited_modules(ticked: list[str], commands: Iterable[str]) -> Iterator[str]:
    """Dotted modules in backticks and modules run with ``python -m``."""
    for span in ticked:
        if _DOTTED.match(span.strip()):
            yield span.strip()
    for command in commands:
        if ran := _RUN_MODULE.match(command):
            yield ran.group(1)


def missing_module(module: str, code: Holds, identifiers: frozenset[str] | None) -> str | None:
    """The part of `module` the checkout lacks, by the module's rules, or None.
    `identifiers` None leaves a name after a module unchecked."""
    names = module.split(".")
    if not _has(code, "/".join(names[:1]) + "/__init__.py"):
        return None  # not a package of the checkout
    for depth in range(1, len(names)):
        folder, name = "/".join(names[:depth]), names[depth]
        if _has(code, f"{folder}/{name}/__init__.py") or _has(code, f"{folder}/{name}"):
            continue
        if _has(code, f"{folder}/{name}.py"):
            rest = names[depth + 1 :]
            if len(rest) == 1 and identifiers is not None and rest[0] not in identifiers:
                return module
            return None
        if _has(code, f"{folder}/__init__.py"):
            return ".".join(names[: depth + 1])
        return None
    return None


def _has(code: Holds, path: str) -> bool:
    return path in code.paths or path in code.tails


def is_file_name(text: str) -> bool:
    return bool(_FILE.match(text)) and "." + text.rsplit(".", 1)[-1].lower() in CODE_SUFFIXES


def placeholder(text: str) -> bool:
    return any(mark in text for mark in "{}<>*$[]") or any(
        _PLACEHOLDER_PART.match(part) for part in text.split("/")
    )


def ignore_rules(root: Path, files: Iterable[str]) -> list[tuple[str, str]]:
    """(folder, pattern) of each rule of the ``.gitignore`` files among `files`; a rule
    that re-includes (``!keep.txt``) is left out, so a path may read as ignored that Git
    keeps: then nothing is flagged, which is the safe side."""
    rules: list[tuple[str, str]] = []
    for relative in files:
        folder, _, name = relative.rpartition("/")
        if name != ".gitignore":
            continue
        try:
            text = (root / relative).read_text(encoding="utf-8", errors="ignore")
        except OSError:
            continue
        for line in text.splitlines():
            pattern = line.strip()
            if pattern and not pattern.startswith(("#", "!")):
                rules.append((folder, pattern))
    return rules


def is_ignored(path: str, rules: list[tuple[str, str]]) -> bool:
    """Whether a rule of `rules` ignores `path` or a folder it is in: a pattern with a
    ``/`` before its end from its ``.gitignore``'s folder, any other by a name."""
    parts = path.split("/")
    for folder, pattern in rules:
        prefix = folder + "/" if folder else ""
        if not path.startswith(prefix):
            continue
        inner = parts[len(prefix.split("/")) - 1 :] if folder else parts
        bare = pattern.rstrip("/")
        if "/" in bare:
            anchored = bare.lstrip("/")
            if any(fnmatch("/".join(inner[:end]), anchored) for end in range(1, len(inner) + 1)):
                return True
        elif any(fnmatch(part, bare) for part in inner):
            return True
    return False
