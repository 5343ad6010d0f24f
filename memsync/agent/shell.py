"""A read-only shell for the agent, written in Python: no real shell ever runs.

Models reach for ``ls -la``, ``find . -name '*.md'``, ``head -n 20 f`` and
``grep -rn pat .`` out of habit, so SPEC E2 gives them these eight programs and
nothing else. The command is checked for shell syntax first (pipes, separators,
redirection, substitution, expansion: each refused by name), split with `shlex`,
and run by the functions below against the `Sandbox`. Unquoted ``*``/``?``/``[``
in file operands are expanded inside the root, as a shell would.
"""

from __future__ import annotations

import os
import shlex
import stat
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import NoReturn

from memsync.agent.commandline import grep_options, parse_options
from memsync.agent.files import ToolFailure, glob_matches, iter_lines, read_text, require_file, walk
from memsync.agent.sandbox import GIT_DIR_NAME, Sandbox, SandboxDenied
from memsync.agent.search import SearchOutput, find, grep

PROGRAMS = ("ls", "find", "cat", "stat", "wc", "head", "tail", "grep")

_OPERATORS = {
    "|": "a pipe",
    ";": "a command separator",
    "&": "a background or '&&' operator",
    ">": "output redirection",
    "<": "input redirection",
    "(": "a subshell",
    ")": "a subshell",
}
_GLOB_CHARS = frozenset("*?[")


@dataclass
class ShellOutcome:
    text: str
    failed: bool


def refuse_shell_syntax(command: str) -> None:
    """Refuse anything a real shell would treat as more than one plain command."""
    for char, what in (("\n", "a newline"), ("\r", "a carriage return"), ("\x00", "a NUL byte")):
        if char in command:
            raise SandboxDenied(
                f"refused {command!r}: it contains {what}; run one command per call"
            )
    quote = ""
    index = 0
    while index < len(command):
        char = command[index]
        following = command[index + 1 : index + 2]
        if quote == "'":
            quote = "" if char == "'" else quote
        elif char == "\\":
            index += 1
        elif char == '"':
            quote = "" if quote == '"' else '"'
        elif char == "`":
            _refuse(command, "command substitution", "`")
        elif char == "$" and following == "(":
            _refuse(command, "command substitution", "$(")
        elif char == "$" and (following.isalnum() or following in "{_@*#?$!-"):
            _refuse(command, "variable expansion", "$" + following)
        elif not quote and char == "'":
            quote = "'"
        elif not quote and char in _OPERATORS:
            token = char * 2 if following == char else char
            _refuse(command, _OPERATORS[char], token)
        index += 1


def _refuse(command: str, what: str, token: str) -> NoReturn:
    raise SandboxDenied(
        f"refused {command!r}: {what} ({token!r}) is not available; this shell runs one "
        f"read-only command ({', '.join(PROGRAMS)}) with no pipes, redirection or substitution"
    )


class ReadOnlyShell:
    """Runs one command line of ls, find, cat, stat, wc, head, tail or grep."""

    def __init__(
        self,
        sandbox: Sandbox,
        on_read: Callable[[Path], None] | None = None,
        max_output_chars: int = 30_000,
    ) -> None:
        self.sandbox = sandbox
        self.max_output_chars = max_output_chars
        self._on_read = on_read or (lambda path: None)

    def run(self, command: str) -> ShellOutcome:
        refuse_shell_syntax(command)
        folded = unicodedata.normalize("NFKC", command)
        if folded != command:
            # A fullwidth ｜ or ； is plain text here, but refusing it keeps the rule
            # simple to state: what would be syntax after folding is refused.
            try:
                refuse_shell_syntax(folded)
            except SandboxDenied as denied:
                raise SandboxDenied(
                    f"{denied.reason} (found after Unicode NFKC folding of {command!r})"
                ) from None
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise ToolFailure(f"could not parse {command!r}: {error}") from None
        if not argv:
            raise ToolFailure("empty command")
        program, args = argv[0], argv[1:]
        if program not in PROGRAMS:
            raise SandboxDenied(
                f"refused {command!r}: {program!r} is not available; this shell only offers "
                f"the read-only programs {', '.join(PROGRAMS)} (nothing else can run here)"
            )
        if "-" in args and program != "find":
            raise ToolFailure(f"{program}: this shell has no standard input; name a file")
        commands: dict[str, Callable[[list[str]], tuple[list[str], bool]]] = {
            "ls": self._ls,
            "find": self._find,
            "cat": self._cat,
            "stat": self._stat,
            "wc": self._wc,
            "head": self._head,
            "tail": self._tail,
            "grep": self._grep,
        }
        lines, failed = commands[program](args)
        text = "\n".join(lines)
        if len(text) > self.max_output_chars:
            text = (
                text[: self.max_output_chars]
                + f"\n[output cut at {self.max_output_chars:,} characters]"
            )
        return ShellOutcome(text or "(no output)", failed)

    def _expand(self, operands: Sequence[str]) -> list[str]:
        """Operands with unquoted-looking globs expanded against the tree, as bash would.

        shlex forgets quoting, so a literal name wins: an operand that exists as written
        is never expanded.
        """
        expanded: list[str] = []
        for operand in operands:
            if not (_GLOB_CHARS & set(operand)) or operand.startswith("/"):
                expanded.append(operand)
                continue
            self.sandbox.check_spelling(operand)
            if (self.sandbox.root / operand).exists():
                expanded.append(operand)
                continue
            matches = [
                rel
                for path, depth in walk(self.sandbox.root)
                if depth
                and glob_matches(operand, rel := self.sandbox.relative(path))
                and _hidden_allowed(operand, rel)
            ]
            expanded.extend(sorted(matches) or [operand])
        return expanded

    def _ls(self, args: list[str]) -> tuple[list[str], bool]:
        opts, operands = parse_options(
            "ls",
            args,
            booleans="laAh1RtrdS",
            long={
                "all": ("a", False),
                "almost-all": ("A", False),
                "human-readable": ("h", False),
                "recursive": ("R", False),
                "reverse": ("r", False),
                "directory": ("d", False),
            },
        )
        operands = self._expand(operands) or ["."]
        out: list[str] = []
        failed = False
        plain: list[tuple[str, Path]] = []
        directories: list[tuple[str, Path]] = []
        for operand in operands:
            real = self.sandbox.resolve(operand)
            if not real.exists():
                out.append(f"ls: cannot access '{operand}': No such file or directory")
                failed = True
            elif real.is_dir() and "d" not in opts:
                directories.append((operand, real))
            else:
                plain.append((operand, real))
        out.extend(self._ls_entries(plain, opts))
        headed = len(operands) > 1 or "R" in opts
        for operand, real in directories:
            self._ls_directory(operand, real, opts, headed, out)
        return out, failed

    def _ls_directory(
        self, shown: str, real: Path, opts: Mapping[str, list[str]], headed: bool, out: list[str]
    ) -> None:
        show_hidden = "a" in opts or "A" in opts
        children = [
            (child.name, child)
            for child in real.iterdir()
            if show_hidden or not child.name.startswith(".")
        ]
        if out and headed:
            out.append("")
        if headed:
            out.append(f"{shown}:")
        entries = self._ls_entries(children, opts)
        out.extend(entries)
        if "R" not in opts:
            return
        for name, child in sorted(children):
            if name != GIT_DIR_NAME and not child.is_symlink() and child.is_dir():
                self._ls_directory(f"{shown.rstrip('/')}/{name}", child, opts, True, out)

    def _ls_entries(
        self, entries: list[tuple[str, Path]], opts: Mapping[str, list[str]]
    ) -> list[str]:
        infos = [(name, path, path.lstat()) for name, path in entries]
        if "t" in opts:
            infos.sort(key=lambda item: (-item[2].st_mtime, item[0]))
        elif "S" in opts:
            infos.sort(key=lambda item: (-item[2].st_size, item[0]))
        else:
            infos.sort(key=lambda item: item[0])
        if "r" in opts:
            infos.reverse()
        if "l" not in opts:
            return [name for name, _, _ in infos]
        lines = []
        for name, path, info in infos:
            size = _human(info.st_size) if "h" in opts else str(info.st_size)
            when = datetime.fromtimestamp(info.st_mtime).strftime("%Y-%m-%d %H:%M")
            line = f"{stat.filemode(info.st_mode)} {info.st_nlink:>2} {size:>8} {when} {name}"
            if stat.S_ISLNK(info.st_mode):
                line += f" -> {self._link_target(path)}"
            lines.append(line)
        return lines

    def _link_target(self, link: Path) -> str:
        if self.sandbox.contains(link):
            return self.sandbox.relative(link.resolve())
        return "(outside the memory directory)"

    def _cat(self, args: list[str]) -> tuple[list[str], bool]:
        opts, operands = parse_options("cat", args, booleans="n")
        operands = self._files_required("cat", self._expand(operands))
        out: list[str] = []
        failed = False
        for operand in operands:
            real = self.sandbox.resolve(operand)
            try:
                text = read_text(real, operand)
            except ToolFailure as failure:
                out.append(f"cat: {failure}")
                failed = True
                continue
            self._on_read(real)
            lines = text.splitlines()
            if "n" in opts:
                lines = [f"{number:>6}\t{line}" for number, line in enumerate(lines, 1)]
            out.extend(lines)
        return out, failed

    def _head(self, args: list[str]) -> tuple[list[str], bool]:
        return self._head_or_tail("head", args)

    def _tail(self, args: list[str]) -> tuple[list[str], bool]:
        return self._head_or_tail("tail", args)

    def _head_or_tail(self, program: str, args: list[str]) -> tuple[list[str], bool]:
        # The old spelling `head -20 f` still works in GNU head and in models' habits.
        args = [f"-n{arg[1:]}" if arg[:1] == "-" and arg[1:].isdigit() else arg for arg in args]
        opts, operands = parse_options(
            program,
            args,
            booleans="qv",
            valued="nc",
            long={"lines": ("n", True), "bytes": ("c", True), "quiet": ("q", False)},
        )
        operands = self._files_required(program, self._expand(operands))
        count_text = (opts.get("n") or ["10"])[-1]
        from_start = program == "tail" and count_text.startswith("+")
        count = _count(program, count_text.lstrip("+-"))
        out: list[str] = []
        failed = False
        headers = ("v" in opts or len(operands) > 1) and "q" not in opts
        for operand in operands:
            real = self.sandbox.resolve(operand)
            if headers:
                out.extend(([""] if out else []) + [f"==> {operand} <=="])
            try:
                if "c" in opts:
                    out.append(_byte_slice(program, real, operand, _count(program, opts["c"][-1])))
                else:
                    lines = list(iter_lines(real, operand))
                    if program == "head":
                        out.extend(lines[:count])
                    elif from_start:
                        out.extend(lines[max(count - 1, 0) :])
                    else:
                        out.extend(lines[-count:] if count else [])
            except ToolFailure as failure:
                out.append(f"{program}: {failure}")
                failed = True
                continue
            self._on_read(real)
        return out, failed

    def _wc(self, args: list[str]) -> tuple[list[str], bool]:
        opts, operands = parse_options(
            "wc",
            args,
            booleans="lwcm",
            long={"lines": ("l", False), "words": ("w", False), "bytes": ("c", False)},
        )
        operands = self._files_required("wc", self._expand(operands))
        chosen = [key for key in "lwmc" if key in opts] or ["l", "w", "c"]
        rows: list[tuple[list[int], str]] = []
        out: list[str] = []
        failed = False
        for operand in operands:
            real = self.sandbox.resolve(operand)
            try:
                require_file(real, operand)
            except ToolFailure as failure:
                out.append(f"wc: {failure}")
                failed = True
                continue
            data = real.read_bytes()
            counts = {
                "l": data.count(b"\n"),
                "w": len(data.split()),
                "m": len(data.decode("utf-8", errors="replace")),
                "c": len(data),
            }
            rows.append(([counts[key] for key in chosen], operand))
        if len(rows) > 1:
            rows.append(([sum(row[0][i] for row in rows) for i in range(len(chosen))], "total"))
        width = max((len(str(n)) for numbers, _ in rows for n in numbers), default=1)
        for numbers, name in rows:
            out.append(" ".join(f"{n:>{width}}" for n in numbers) + f" {name}")
        return out, failed

    def _stat(self, args: list[str]) -> tuple[list[str], bool]:
        opts, operands = parse_options(
            "stat", args, valued="c", long={"format": ("c", True), "printf": ("c", True)}
        )
        operands = self._files_required("stat", self._expand(operands))
        out: list[str] = []
        failed = False
        for operand in operands:
            real = self.sandbox.resolve(operand)
            try:
                info = real.stat()
            except FileNotFoundError:
                out.append(f"stat: cannot statx '{operand}': No such file or directory")
                failed = True
                continue
            if "c" in opts:
                out.append(_stat_format(opts["c"][-1], operand, info))
                continue
            out.extend(
                [
                    f"  File: {operand}",
                    f"  Size: {info.st_size}\tType: {_stat_type(info)}",
                    f"Access: ({stat.S_IMODE(info.st_mode):04o}/{stat.filemode(info.st_mode)})",
                    f"Modify: {_stat_time(info)}",
                ]
            )
        return out, failed

    def _grep(self, args: list[str]) -> tuple[list[str], bool]:
        options, operands = grep_options(args)
        operands = self._expand(operands)
        if not operands:
            if not options.recursive:
                raise ToolFailure(
                    "grep: no file given; this shell has no standard input "
                    "(name files, or use -r to search the directory)"
                )
            operands = ["."]
        return _search_lines(grep(self.sandbox, operands, options), "grep")

    def _find(self, args: list[str]) -> tuple[list[str], bool]:
        return _search_lines(find(self.sandbox, args), "find")

    @staticmethod
    def _files_required(program: str, operands: list[str]) -> list[str]:
        if not operands:
            raise ToolFailure(f"{program}: no file given; this shell has no standard input")
        return operands


def _search_lines(result: SearchOutput, program: str) -> tuple[list[str], bool]:
    lines = result.problems + result.lines
    if result.cut:
        lines.append(f"[{program} output cut at {len(result.lines)} lines; narrow the search]")
    return lines, bool(result.problems)


def _hidden_allowed(pattern: str, relative: str) -> bool:
    """Like a shell, ``*`` does not match a leading dot unless the pattern spells it."""
    parts = [p for p in pattern.split("/") if p not in ("", ".")]
    names = relative.split("/")
    return all(
        not name.startswith(".") or part.startswith(".")
        for part, name in zip(parts, names, strict=False)
    )


def _count(program: str, text: str) -> int:
    if not text.isdigit():
        raise ToolFailure(f"{program}: invalid number {text!r}")
    return int(text)


def _byte_slice(program: str, path: Path, shown: str, count: int) -> str:
    require_file(path, shown)
    with path.open("rb") as handle:
        if program == "head":
            data = handle.read(count)
        else:
            size = handle.seek(0, 2)
            handle.seek(max(size - count, 0))
            data = handle.read()
    return data.decode("utf-8", errors="replace")


def _human(size: int) -> str:
    value = float(size)
    for unit in ("", "K", "M", "G"):
        if value < 1024 or unit == "G":
            return f"{value:.0f}{unit}" if unit == "" or value >= 10 else f"{value:.1f}{unit}"
        value /= 1024
    return str(size)


def _stat_type(info: os.stat_result) -> str:
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISLNK(mode):
        return "symbolic link"
    return "regular file" if stat.S_ISREG(mode) else "other"


def _stat_time(info: os.stat_result) -> str:
    moment = datetime.fromtimestamp(info.st_mtime).astimezone()
    return moment.strftime("%Y-%m-%d %H:%M:%S.%f %z")


def _stat_format(spec: str, shown: str, info: os.stat_result) -> str:
    mode = info.st_mode
    fields: dict[str, Callable[[], str]] = {
        "n": lambda: shown,
        "s": lambda: str(info.st_size),
        "y": lambda: _stat_time(info),
        "Y": lambda: str(int(info.st_mtime)),
        "a": lambda: f"{stat.S_IMODE(mode):o}",
        "A": lambda: stat.filemode(mode),
        "F": lambda: _stat_type(info),
        "%": lambda: "%",
    }
    out: list[str] = []
    index = 0
    while index < len(spec):
        if spec[index] == "%" and index + 1 < len(spec):
            key = spec[index + 1]
            if key not in fields:
                raise ToolFailure(
                    f"stat: %{key} is not supported here (known: %n %s %y %Y %a %A %F)"
                )
            out.append(fields[key]())
            index += 2
        else:
            out.append(spec[index])
            index += 1
    return "".join(out)
