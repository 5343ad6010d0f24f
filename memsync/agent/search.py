"""Searching the memory directory: grep and find, in Python, inside the sandbox.

Both the `grep` tool and the shell's ``grep`` and ``find`` come here, so the model
gets the same answers whichever it reaches for. Output follows GNU grep and find
closely enough that a model's habits (``grep -rn``, ``find . -name '*.md'``) work;
patterns are Python regular expressions, which is what ``grep -E`` users expect.
"""

from __future__ import annotations

import fnmatch
import re
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from memsync.agent.files import ToolFailure, glob_matches, iter_lines, looks_binary, walk
from memsync.agent.sandbox import Sandbox, SandboxDenied

# find's actions that run programs or change files: a read-only shell refuses them.
FIND_WRITING_ACTIONS = frozenset(
    {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}
)


@dataclass
class SearchOutput:
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    matched: bool = False
    cut: bool = False


@dataclass
class GrepOptions:
    regex: re.Pattern[str]
    recursive: bool = False
    line_numbers: bool = False
    # None: name files when more than one could match, as GNU grep does.
    with_names: bool | None = None
    invert: bool = False
    only_matching: bool = False
    files_with_matches: bool = False
    count: bool = False
    before: int = 0
    after: int = 0
    max_count: int | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    exclude_dirs: tuple[str, ...] = ()
    # A glob over the path below the operand (``team/*.md``, ``**/*.md``), for the grep tool.
    path_glob: str | None = None
    # The grep tool names files relative to the root whatever the operand was.
    names_from_root: bool = False
    max_lines: int = 500


def grep(sandbox: Sandbox, operands: Sequence[str], options: GrepOptions) -> SearchOutput:
    out = SearchOutput()
    with_names = options.with_names
    if with_names is None:
        with_names = options.recursive or len(operands) > 1
    for shown, path, explicit in _grep_targets(sandbox, operands, options, out.problems):
        if not explicit and looks_binary(path):
            continue
        try:
            lines = list(iter_lines(path, shown))
        except ToolFailure as failure:
            out.problems.append(f"grep: {failure}")
            continue
        if not _grep_file(shown, lines, options, with_names, out):
            out.cut = True
            break
    return out


def _grep_targets(
    sandbox: Sandbox, operands: Sequence[str], options: GrepOptions, problems: list[str]
) -> Iterator[tuple[str, Path, bool]]:
    for operand in operands:
        real = sandbox.resolve(operand)
        if not real.exists():
            problems.append(f"grep: {operand}: No such file or directory")
        elif not real.is_dir():
            yield (sandbox.relative(real) if options.names_from_root else operand), real, True
        elif not options.recursive:
            problems.append(f"grep: {operand}: Is a directory")
        else:
            for child, depth in walk(real):
                if depth == 0 or child.is_symlink() or not child.is_file():
                    continue
                relative = child.relative_to(real).as_posix()
                if not _grep_wants(relative, options):
                    continue
                if options.names_from_root:
                    yield sandbox.relative(child), child, False
                else:
                    yield f"{operand.rstrip('/')}/{relative}", child, False


def _grep_wants(relative: str, options: GrepOptions) -> bool:
    if options.path_glob is not None and not glob_matches(options.path_glob, relative):
        return False
    *directories, name = relative.split("/")
    if options.include and not any(fnmatch.fnmatchcase(name, g) for g in options.include):
        return False
    if any(fnmatch.fnmatchcase(name, g) for g in options.exclude):
        return False
    return not any(fnmatch.fnmatchcase(d, g) for d in directories for g in options.exclude_dirs)


def _grep_file(
    shown: str, lines: list[str], options: GrepOptions, with_names: bool, out: SearchOutput
) -> bool:
    """Add one file's output; False once the output cap is reached."""
    hits: list[int] = []
    for index, line in enumerate(lines):
        if bool(options.regex.search(line)) != options.invert:
            hits.append(index)
            if options.max_count is not None and len(hits) >= options.max_count:
                break
    if hits:
        out.matched = True
    if options.count:
        return _emit(out, options, f"{shown}:{len(hits)}" if with_names else str(len(hits)))
    if options.files_with_matches:
        return not hits or _emit(out, options, shown)
    if options.only_matching and not options.invert:
        for index in hits:
            for found in options.regex.finditer(lines[index]):
                if found.group(0) and not _emit(
                    out, options, _grep_prefix(shown, index, ":", options, with_names) + found[0]
                ):
                    return False
        return True
    shown_lines = _with_context(hits, len(lines), options.before, options.after)
    previous = None
    for index in shown_lines:
        gap = previous is not None and index != previous + 1
        if gap and (options.before or options.after) and not _emit(out, options, "--"):
            return False
        separator = ":" if index in hits else "-"
        line = _grep_prefix(shown, index, separator, options, with_names) + lines[index]
        if not _emit(out, options, line):
            return False
        previous = index
    return True


def _with_context(hits: list[int], total: int, before: int, after: int) -> list[int]:
    chosen: set[int] = set()
    for index in hits:
        chosen.update(range(max(0, index - before), min(total, index + after + 1)))
    return sorted(chosen)


def _grep_prefix(
    shown: str, index: int, separator: str, options: GrepOptions, with_names: bool
) -> str:
    prefix = f"{shown}{separator}" if with_names else ""
    if options.line_numbers:
        prefix += f"{index + 1}{separator}"
    return prefix


def _emit(out: SearchOutput, options: GrepOptions, line: str) -> bool:
    if len(out.lines) >= options.max_lines:
        return False
    out.lines.append(line)
    return True


_Predicate = Callable[[Path, str, int], bool]


def find(sandbox: Sandbox, args: Sequence[str], max_lines: int = 1000) -> SearchOutput:
    """GNU ``find`` with the tests a model uses to look around; actions are refused."""
    starts: list[str] = []
    position = 0
    while position < len(args) and not _starts_expression(args[position]):
        starts.append(args[position])
        position += 1
    predicates, min_depth, max_depth = _find_expression(sandbox, list(args[position:]))
    out = SearchOutput()
    for start in starts or ["."]:
        real = sandbox.resolve(start)
        if not real.exists() and not real.is_symlink():
            out.problems.append(f"find: '{start}': No such file or directory")
            continue
        for path, depth in walk(real):
            if max_depth is not None and depth > max_depth:
                continue
            if depth < min_depth:
                continue
            rel = path.relative_to(real).as_posix()
            shown = start if depth == 0 else f"{start.rstrip('/')}/{rel}"
            if all(test(path, shown, depth) for test in predicates):
                if len(out.lines) >= max_lines:
                    out.cut = True
                    return out
                out.lines.append(shown)
                out.matched = True
    return out


def _starts_expression(arg: str) -> bool:
    return arg.startswith("-") or arg in ("!", "(")


def _find_expression(
    sandbox: Sandbox, tokens: list[str]
) -> tuple[list[_Predicate], int, int | None]:
    predicates: list[_Predicate] = []
    min_depth, max_depth = 0, None
    negate = False
    now = time.time()
    tokens = list(tokens)
    while tokens:
        token = tokens.pop(0)
        if token in FIND_WRITING_ACTIONS:
            raise SandboxDenied(
                f"refused find {token}: it runs programs or changes files, "
                "and this shell is read-only"
            )
        if token in ("!", "-not"):
            negate = not negate
            continue
        if token in ("-a", "-and", "-print"):
            continue
        if token in ("-maxdepth", "-mindepth"):
            value = _find_int(token, _find_argument(token, tokens))
            if token == "-maxdepth":
                max_depth = value
            else:
                min_depth = value
            continue
        test = _find_test(sandbox, token, tokens, now)
        predicates.append(_negated(test) if negate else test)
        negate = False
    return predicates, min_depth, max_depth


def _find_test(sandbox: Sandbox, token: str, tokens: list[str], now: float) -> _Predicate:
    if token in ("-name", "-iname", "-path", "-ipath", "-wholename"):
        pattern = _find_argument(token, tokens)
        fold = token.startswith("-i")
        whole = token not in ("-name", "-iname")

        def matches(path: Path, shown: str, depth: int) -> bool:
            subject = shown if whole else (Path(shown).name or shown)
            if fold:
                return fnmatch.fnmatchcase(subject.casefold(), pattern.casefold())
            return fnmatch.fnmatchcase(subject, pattern)

        return matches
    if token == "-type":
        kinds = set(_find_argument(token, tokens).split(","))
        if not kinds <= {"f", "d", "l"}:
            raise ToolFailure(f"find: -type {','.join(sorted(kinds))}: only f, d and l are known")
        return lambda path, shown, depth: _kind(path) in kinds
    if token in ("-mtime", "-mmin"):
        spec = _find_argument(token, tokens)
        unit = 86_400 if token == "-mtime" else 60
        sign, amount = (spec[0], spec[1:]) if spec[:1] in ("+", "-") else ("", spec)
        limit = _find_int(token, amount)

        def aged(path: Path, shown: str, depth: int) -> bool:
            age = int((now - path.lstat().st_mtime) // unit)
            return age > limit if sign == "+" else age < limit if sign == "-" else age == limit

        return aged
    if token == "-newer":
        reference = sandbox.resolve(_find_argument(token, tokens))
        try:
            since = reference.stat().st_mtime
        except FileNotFoundError:
            raise ToolFailure(f"find: '{reference.name}': No such file or directory") from None
        return lambda path, shown, depth: path.lstat().st_mtime > since
    if token == "-empty":
        return lambda path, shown, depth: _is_empty(path)
    raise ToolFailure(
        f"find: {token} is not supported here; known tests: -name -iname -path -type "
        "-maxdepth -mindepth -mtime -mmin -newer -empty, with ! to negate"
    )


def _negated(test: _Predicate) -> _Predicate:
    return lambda path, shown, depth: not test(path, shown, depth)


def _find_argument(token: str, tokens: list[str]) -> str:
    if not tokens:
        raise ToolFailure(f"find: missing argument to {token}")
    return tokens.pop(0)


def _find_int(token: str, text: str) -> int:
    if not text.isdigit():
        raise ToolFailure(f"find: {token} needs a whole number, not {text!r}")
    return int(text)


def _kind(path: Path) -> str:
    mode = path.lstat().st_mode
    return "l" if stat.S_ISLNK(mode) else "d" if stat.S_ISDIR(mode) else "f"


def _is_empty(path: Path) -> bool:
    mode = path.lstat().st_mode
    if stat.S_ISDIR(mode):
        return not any(path.iterdir())
    return stat.S_ISREG(mode) and path.lstat().st_size == 0
