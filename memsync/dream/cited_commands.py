"""Commands a memory runs that the code checkout no longer declares (issue 15 item 4):
a package script, a console script that was renamed, a Makefile target, a compose
service, or a package manager the checkout's lockfiles say it left
(`memsync.dream.staleness` reads the checkout and calls `missing_command`).

A command counts where it is written as one: in backticks or on a line of a fenced
code block (``cd web && pnpm test:watch`` is two commands), and for ``npm run x``,
``npm test`` and ``make x`` also in prose — ``make`` only after a word that runs it
("run make lint", "with make release"), since "make sure" and "make targets" are
English, and never for a word that is no target's ("use make targets", "run make from
the root"); ``pnpm x`` (``yarn``, ``bun``) never in prose, where "run yarn later" is
English too, nor for a dependency the checkout declares (``pnpm vitest --ui``: pnpm runs
a package's binary when no script has its name). A compose command (``docker compose
logs -f worker``) is stale when none of the words after its subcommand names a service
of the compose files. A package manager
is left when the memory installs with it (``npm ci``, ``poetry install``) while the
checkout locks that ecosystem's dependencies with another's lockfile and has none of
its own (``pnpm-lock.yaml`` and no ``package-lock.json``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Protocol

_NPM = re.compile(r"\b(npm|pnpm|yarn|bun)\s+run\s+([\w:.-]+)")
_NPM_LIFECYCLE = re.compile(r"\bnpm\s+(test|start|stop|restart)\b")
_MANAGER_SCRIPT = re.compile(r"^(pnpm|yarn|bun)\s+([A-Za-z][\w:.-]*)")
_MANAGER_COMMANDS = frozenset({
    "add", "audit", "bin", "cache", "config", "create", "dedupe", "dlx", "exec", "global",
    "help", "i", "import", "info", "init", "install", "link", "list", "login", "logout", "ls",
    "outdated", "pack", "patch", "prune", "publish", "rebuild", "remove", "rm", "run", "set",
    "store", "unlink", "up", "update", "upgrade", "version", "why", "workspace", "workspaces",
    "x",
})  # fmt: skip
_COMMAND = re.compile(r"^[a-z][a-z0-9_.-]*$")
_SHELL_WORDS = frozenset({
    "alias", "break", "builtin", "command", "continue", "declare", "export", "history",
    "local", "printf", "readonly", "return", "shift", "source", "typeset", "ulimit", "umask",
    "unset", "docker", "python", "python3", "kubectl", "terraform",
})  # fmt: skip
_MAKE = re.compile(
    r"\b(?:run|runs|running|with|via|using|use|call|type)\s+make\s+([A-Za-z_][\w.-]*)",
    re.IGNORECASE,
)
# Words after "make" in prose that speak of make itself or go on with the sentence.
_NOT_TARGETS = frozenset({
    "target", "targets", "command", "commands", "file", "files", "from", "in", "on", "at",
    "to", "for", "with", "and", "or", "the", "a", "an", "again", "instead", "itself", "here",
    "there", "directly", "only", "first", "inside", "rather", "than", "if", "when",
})  # fmt: skip
_MAKE_COMMAND = re.compile(r"^make\s+([A-Za-z_][\w.-]*)")
_COMPOSE = re.compile(
    r"^docker(?:-compose|\s+compose)\s+(?:-f\s+\S+\s+|-p\s+\S+\s+)*"
    r"(?:up|run|exec|logs|restart|stop|start|build|rm|pull|kill)\s+(.+)$"
)
_FENCED = re.compile(r"^\s*```[^\n]*\n(.*?)^\s*```", re.MULTILINE | re.DOTALL)
_COMMAND_BREAK = re.compile(r"\s*(?:&&|\|\||;|\|)\s*")
_PROMPT = re.compile(r"^(?:\$|>|%)\s+")
# Package manager → (ecosystem, the lockfiles it writes).
_LOCKFILES = {
    "npm": ("js", ("package-lock.json", "npm-shrinkwrap.json")),
    "yarn": ("js", ("yarn.lock",)),
    "pnpm": ("js", ("pnpm-lock.yaml",)),
    "bun": ("js", ("bun.lockb", "bun.lock")),
    "poetry": ("python", ("poetry.lock",)),
    "pipenv": ("python", ("Pipfile.lock",)),
    "uv": ("python", ("uv.lock",)),
    "pdm": ("python", ("pdm.lock",)),
}
# Installing a project's dependencies (not a global tool: ``npm install -g``).
_INSTALLS = re.compile(
    r"^(npm|yarn|pnpm|bun|poetry|pipenv|uv|pdm)(?:\s+(?:install|i|ci|add|sync|lock)\b|$)"
    r"(?!.*\s(?:-g|--global)\b)"
)


class Declares(Protocol):
    """What of the checkout `missing_command` reads (`memsync.dream.code_checkout.CodeCheckout`)."""

    @property
    def npm_scripts(self) -> frozenset[str] | None: ...
    @property
    def console_scripts(self) -> frozenset[str] | None: ...
    @property
    def make_targets(self) -> frozenset[str] | None: ...
    @property
    def basenames(self) -> frozenset[str]: ...
    @property
    def compose_services(self) -> frozenset[str] | None: ...
    @property
    def dependencies(self) -> Mapping[str, object]: ...


def commands_in(text: str, ticked: list[str]) -> list[str]:
    """The commands `text` writes as such: its spans in backticks (`ticked`) and each
    command of each line of its fenced code blocks, less a prompt (``$ ``)."""
    if "```" not in text:
        return [span.strip() for span in ticked]
    return [span.strip() for span in ticked] + [
        _PROMPT.sub("", command)
        for block in _FENCED.findall(text)
        for line in block.splitlines()
        for command in _COMMAND_BREAK.split(line.strip())
        if command
    ]


def missing_command(text: str, commands: list[str], code: Declares) -> tuple[str, str] | None:
    """(kind, the command) for the first package script, console script, Makefile
    target or package manager `text` runs (`commands`: `commands_in`) that the checkout
    does not declare."""
    scripts = code.npm_scripts
    if scripts is not None:
        for manager, name in _package_scripts(text, commands):
            binary = manager in ("pnpm", "yarn", "bun") and name.casefold() in code.dependencies
            if name not in scripts and not binary:
                return "npm-script", f"{manager} {name}"
    renamed = _renamed_command(commands, code.console_scripts)
    if renamed is not None:
        return "console-script", renamed
    targets = code.make_targets
    if targets is not None:
        ran = [name for name in _MAKE.findall(text) if name.casefold() not in _NOT_TARGETS]
        ran += [found.group(1) for c in commands if (found := _MAKE_COMMAND.match(c))]
        for name in ran:
            if name not in targets:
                return "make-target", f"make {name}"
    services = code.compose_services
    if services is not None:
        for command in commands:
            compose = _COMPOSE.match(command)
            if compose is not None and not _names_service(compose.group(1), services):
                return "compose-service", command
    left = _left_manager(commands, code.basenames)
    return None if left is None else ("package-manager", left)


def _names_service(arguments: str, services: frozenset[str]) -> bool:
    """Whether a compose command's `arguments` name one of `services`, or none at all
    (``up -d``): its words less flags and ``KEY=value`` pairs."""
    words = [w for w in arguments.split() if not w.startswith("-") and "=" not in w]
    return not words or any(word in services for word in words)


def _package_scripts(text: str, commands: list[str]) -> Iterator[tuple[str, str]]:
    """(how it was run, script name): ``npm run x`` and ``npm test`` anywhere; ``pnpm x``,
    ``yarn x``, ``bun x`` only as a command, where a word after them is one."""
    for match in _NPM.finditer(text):
        yield f"{match.group(1)} run", match.group(2)
    for match in _NPM_LIFECYCLE.finditer(text):
        yield "npm", match.group(1)
    for span in commands:
        if (ran := _MANAGER_SCRIPT.match(span)) and ran.group(2) not in _MANAGER_COMMANDS:
            yield ran.group(1), ran.group(2)


def _renamed_command(commands: list[str], declared: frozenset[str] | None) -> str | None:
    """A command the checkout no longer declares while it declares one that extends its
    name (``reprice`` → ``acme-reprice``) or spells it with ``-`` for ``_``: a renamed
    console script."""
    if not declared:
        return None
    for span in commands:
        command = span.split(" ", 1)[0]
        if len(command) < 5 or command in _SHELL_WORDS or not _COMMAND.match(command):
            continue  # too short to tell (``sync``), or the shell's own (``export X=1``)
        if command in declared:
            continue
        for script in sorted(declared):
            if _extends(script, command) or script.replace("_", "-") == command.replace("_", "-"):
                return f"the command {command} (it declares {script})"
    return None


def _extends(script: str, command: str) -> bool:
    return script.endswith(("-" + command, "_" + command)) or script.startswith(command + "-")


def _left_manager(commands: list[str], files: frozenset[str]) -> str | None:
    """The install command of a package manager whose lockfile the checkout lacks while
    it has another's of the same ecosystem, with that lockfile."""
    for command in commands:
        found = _INSTALLS.match(command)
        if found is None:
            continue
        ecosystem, own = _LOCKFILES[found.group(1)]
        if any(name in files for name in own):
            continue
        others = sorted(
            name
            for manager, (theirs, names) in _LOCKFILES.items()
            if theirs == ecosystem and manager != found.group(1)
            for name in names
            if name in files
        )
        if others:
            return f"{command} (it locks with {others[0]})"
    return None
