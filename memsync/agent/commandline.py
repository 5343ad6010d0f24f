"""GNU-style options for the read-only shell's programs.

Models write options the way GNU coreutils accept them (``-la``, ``-n20``,
``--include=*.md``, options after operands), so the parser accepts the same
spellings and names any option it does not know rather than guessing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from memsync.agent.files import ToolFailure
from memsync.agent.search import GrepOptions

_GREP_LONG: Mapping[str, tuple[str, bool]] = {
    "recursive": ("r", False),
    "dereference-recursive": ("R", False),
    "line-number": ("n", False),
    "ignore-case": ("i", False),
    "files-with-matches": ("l", False),
    "count": ("c", False),
    "invert-match": ("v", False),
    "word-regexp": ("w", False),
    "line-regexp": ("x", False),
    "extended-regexp": ("E", False),
    "fixed-strings": ("F", False),
    "basic-regexp": ("G", False),
    "with-filename": ("H", False),
    "no-filename": ("h", False),
    "only-matching": ("o", False),
    "no-messages": ("s", False),
    "color": ("color", False),
    "colour": ("color", False),
    "regexp": ("e", True),
    "after-context": ("A", True),
    "before-context": ("B", True),
    "context": ("C", True),
    "max-count": ("m", True),
    "include": ("include", True),
    "exclude": ("exclude", True),
    "exclude-dir": ("exclude-dir", True),
}

# In a basic regular expression these are literal unless escaped; in Python, the reverse.
_BRE_SWAPPED = frozenset("|(){}+?")


def parse_options(
    program: str,
    args: Sequence[str],
    booleans: str = "",
    valued: str = "",
    long: Mapping[str, tuple[str, bool]] | None = None,
) -> tuple[dict[str, list[str]], list[str]]:
    """Options by key (each occurrence's value, ``""`` for flags) and the operands."""
    opts: dict[str, list[str]] = {}
    operands: list[str] = []
    pending = list(args)
    while pending:
        arg = pending.pop(0)
        if arg == "--":
            operands.extend(pending)
            break
        if arg.startswith("--"):
            name, has_value, value = arg[2:].partition("=")
            if not long or name not in long:
                raise ToolFailure(f"{program}: option --{name} is not supported here")
            key, takes_value = long[name]
            if takes_value and not has_value:
                value = _option_value(program, f"--{name}", pending)
            opts.setdefault(key, []).append(value if takes_value else "")
        elif arg.startswith("-") and len(arg) > 1:
            _short_options(program, arg[1:], booleans, valued, pending, opts)
        else:
            operands.append(arg)
    return opts, operands


def _short_options(
    program: str,
    letters: str,
    booleans: str,
    valued: str,
    pending: list[str],
    opts: dict[str, list[str]],
) -> None:
    for position, letter in enumerate(letters):
        if letter in valued:
            value = letters[position + 1 :] or _option_value(program, f"-{letter}", pending)
            opts.setdefault(letter, []).append(value)
            return
        if letter not in booleans:
            known = " ".join(f"-{c}" for c in booleans + valued) or "none"
            raise ToolFailure(
                f"{program}: option -{letter} is not supported here (supported: {known})"
            )
        opts.setdefault(letter, []).append("")


def _option_value(program: str, option: str, pending: list[str]) -> str:
    if not pending:
        raise ToolFailure(f"{program}: option {option} needs a value")
    return pending.pop(0)


def grep_options(args: Sequence[str]) -> tuple[GrepOptions, list[str]]:
    """The shell's ``grep`` command line as search options and file operands."""
    opts, operands = parse_options(
        "grep", args, booleans="rRnilcvwxEFGHhosI", valued="eABCm", long=_GREP_LONG
    )
    patterns = opts.get("e", [])
    if not patterns:
        if not operands:
            raise ToolFailure("grep: no pattern given")
        patterns = [operands.pop(0)]
    context = _number("C", opts, 0)
    max_count = _number("m", opts, -1)
    options = GrepOptions(
        regex=_compile(patterns, opts),
        recursive="r" in opts or "R" in opts,
        line_numbers="n" in opts,
        with_names=True if "H" in opts else False if "h" in opts else None,
        invert="v" in opts,
        only_matching="o" in opts,
        files_with_matches="l" in opts,
        count="c" in opts,
        before=_number("B", opts, context),
        after=_number("A", opts, context),
        max_count=None if max_count < 0 else max_count,
        include=tuple(opts.get("include", [])),
        exclude=tuple(opts.get("exclude", [])),
        exclude_dirs=tuple(opts.get("exclude-dir", [])),
    )
    return options, operands


def _number(key: str, opts: Mapping[str, list[str]], default: int) -> int:
    if key not in opts:
        return default
    text = opts[key][-1]
    if not text.isdigit():
        raise ToolFailure(f"grep: -{key} needs a whole number, not {text!r}")
    return int(text)


def _compile(patterns: list[str], opts: Mapping[str, list[str]]) -> re.Pattern[str]:
    if "F" in opts:
        sources = [re.escape(p) for p in patterns]
    elif "E" in opts:
        sources = list(patterns)
    else:
        sources = [basic_to_python(p) for p in patterns]
    if "x" in opts:
        sources = [f"^(?:{s})$" for s in sources]
    elif "w" in opts:
        sources = [rf"(?<!\w)(?:{s})(?!\w)" for s in sources]
    flags = re.IGNORECASE if "i" in opts else 0
    try:
        return re.compile("|".join(f"(?:{s})" for s in sources), flags)
    except re.error as error:
        raise ToolFailure(f"grep: invalid regular expression {patterns!r}: {error}") from None


def basic_to_python(pattern: str) -> str:
    r"""A POSIX basic regular expression (grep's default) as a Python one: ``a\|b`` → ``a|b``."""
    out: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            following = pattern[index + 1]
            out.append(following if following in _BRE_SWAPPED else char + following)
            index += 2
            continue
        out.append("\\" + char if char in _BRE_SWAPPED else char)
        index += 1
    return "".join(out)
