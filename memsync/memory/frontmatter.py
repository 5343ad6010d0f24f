"""The YAML frontmatter block of a topic file: find it, read it, edit it in place.

We split the block ourselves and hand only the mapping to YAML, so a file renders
back byte for byte. Reading follows Claude Code: YAML 1.2 scalars (``2026-01-05``
stays a string, ``yes`` is not a boolean), and when a block fails to parse, one
retry with plain ``key: value`` lines quoted, the way Claude Code rescues
``description: use case: foo``. Editing touches only the lines of the keys that
changed, so comments, quoting and key order elsewhere survive and Git diffs stay
small; when that cannot be done safely the block is written out anew.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import yaml

from memsync.memory.frozen import built

_OPENING = re.compile(r"^---[ \t]*(?:\r?\n|$)")
# A line that closes the block: ``---``, spaces or tabs after it, and any carriage
# returns before its line feed.
_CLOSING_LINE = re.compile(r"---[ \t]*\r*(?:\n|\Z)")

# (tag, pattern, possible first characters; "" lets the empty scalar be null): the YAML
# 1.2 core-schema scalars, as JavaScript YAML parsers read them.
_CORE_SCALARS: list[tuple[str, re.Pattern[str], list[str]]] = [
    ("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")),
    ("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), [*"~nN", ""]),
    (
        "tag:yaml.org,2002:int",
        re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"),
        list("-+0123456789"),
    ),
    (
        "tag:yaml.org,2002:float",
        re.compile(
            r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
        ),
        list("-+0123456789."),
    ),
]


@functools.cache
def _yaml() -> tuple[type[yaml.SafeLoader], type[yaml.SafeDumper]]:
    """The loader and dumper, built the first time a block needs the YAML parser or
    emitter: most blocks never do (`_plain_mapping`, `_plain_dump`), and importing
    PyYAML cost every extraction process ~10 ms (issue 14)."""
    import yaml

    # SafeLoader with YAML 1.2 core-schema scalars.
    base: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class FrontmatterLoader(base):  # type: ignore[misc,valid-type]
        pass

    FrontmatterLoader.yaml_implicit_resolvers = {}
    for tag, pattern, first in _CORE_SCALARS:
        FrontmatterLoader.add_implicit_resolver(tag, pattern, first)
    FrontmatterLoader.add_constructor("tag:yaml.org,2002:int", _construct_core_int)

    class FrontmatterDumper(yaml.SafeDumper):
        pass

    # Quote any string that either YAML 1.1 or 1.2 would read as something else, so
    # what we write reads back the same in Python, in Claude Code and in any other tool.
    for tag, pattern, first in _CORE_SCALARS:
        FrontmatterDumper.add_implicit_resolver(tag, pattern, first)
    FrontmatterDumper.add_representer(str, _represent_str)
    return FrontmatterLoader, FrontmatterDumper


def _construct_core_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    # YAML 1.2: "012" is twelve, not an octal ten.
    value = str(loader.construct_scalar(node))
    if value.startswith("0o"):
        return int(value[2:], 8)
    if value.startswith("0x"):
        return int(value[2:], 16)
    return int(value, 10)


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    # NEL and the Unicode line/paragraph separators are line breaks to YAML 1.1
    # emitters; written raw they read back as spaces. Double quotes escape them.
    style = '"' if any(c in value for c in "\x85\u2028\u2029") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


# Claude Code's rescue for unquoted values containing YAML syntax.
_SIMPLE_LINE = re.compile(r"^([a-zA-Z_-]+):\s+(.+)$")
_YAML_SPECIAL = re.compile(r"[{}\[\]*&#!|>%@`]|: ")


def _quote_problem_values(text: str) -> str:
    out = []
    for line in text.split("\n"):
        match = _SIMPLE_LINE.match(line.rstrip("\r"))
        if match:
            key, value = match.groups()
            quoted = (value.startswith('"') and value.endswith('"')) or (
                value.startswith("'") and value.endswith("'")
            )
            if not quoted and _YAML_SPECIAL.search(value):
                escaped = value.replace("\\", "\\\\").replace('"', '\\"')
                line = f'{key}: "{escaped}"' + ("\r" if line.endswith("\r") else "")
        out.append(line)
    return "\n".join(out)


@dataclass(frozen=True)
class YamlTrouble:
    """Why a frontmatter block could not be read; `line` counts within the YAML text (0-based)."""

    message: str
    line: int | None


_PLAIN_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):[ \t]+(\S(?:.*\S)?)[ \t]*")
# A first character, or a sequence anywhere, that gives a YAML plain scalar another
# meaning (indicators, comments, quotes, nested mappings): such lines go to YAML.
_NOT_PLAIN_START = frozenset("-?:,[]{}#&*!|>'\"%@`")
_NOT_PLAIN_INSIDE = re.compile(r": |:$| #|\t")


_RESCUABLE_KEY = re.compile(r"[a-zA-Z_-]+")
_NESTED_OPENING = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*:")
_SINGLE_QUOTED = re.compile(r"'([^']*)'")
# A value YAML would read as a bool, null, int or float: one pattern for the four, and
# only for values starting with a character one of them can start with.
_CORE_SCALAR = re.compile("|".join(f"(?:{pattern.pattern})" for _t, pattern, _f in _CORE_SCALARS))
_CORE_FIRST = frozenset(first for _t, _p, firsts in _CORE_SCALARS for first in firsts if first)


def _plain_mapping(text: str) -> dict[str, Any] | None:
    """Most frontmatter is ``key: plain text`` lines, at most one level of nesting
    (``metadata:`` over indented lines) and a quoted value here and there; read those
    without a YAML parser (several times faster on big directories, and no PyYAML
    import for a process that reads one file). Anything else returns None and goes to
    the full parser, which gives the same answer for what this accepts.

    A value holding ": " (``description: Deploys: never on Friday``) makes YAML reject
    the block, and the rescue below then quotes it; the value read is the text as
    written, which this gives directly."""
    mapping: dict[str, Any] = {}
    parent: dict[str, Any] | None = None  # the nested mapping indented lines go into
    indent = ""
    rescued = nested = False
    for raw in text.split("\n"):
        line = raw.removesuffix("\r")
        if not line:
            continue
        target = mapping
        if parent is not None and line.startswith(" "):
            indent = indent or line[: len(line) - len(line.lstrip(" "))]
            if not line.startswith(indent) or line[len(indent) :][:1] in ("", " "):
                return None
            target, line = parent, line[len(indent) :]
        else:
            if parent is not None and not parent:
                return None  # "key:" with nothing under it: null
            parent, indent = None, ""
            # The patterns here and below are tried only on lines holding what they
            # look for (a final ":", a quote, a ":", "#" or tab): most lines hold none,
            # and each pattern cost more than all the rest of a line's reading.
            if line[-1] == ":" and _NESTED_OPENING.fullmatch(line):
                key = line[:-1]
                if key in mapping:
                    return None
                parent = mapping[key] = {}
                nested = True
                continue
        match = _PLAIN_LINE.fullmatch(line)
        if match is None:
            return None
        key, value = match.groups()
        if key in target:
            return None
        quoted = _SINGLE_QUOTED.fullmatch(value) if value[0] == "'" else None
        if quoted is not None and quoted.group(1).isprintable():
            target[key] = quoted.group(1)
            continue
        if value[0] in _NOT_PLAIN_START:
            return None
        marked = ":" in value or "#" in value or "\t" in value
        inside = _NOT_PLAIN_INSIDE.findall(value) if marked else None
        if inside:
            # The rescue quotes top-level lines only.
            if set(inside) != {": "} or not _RESCUABLE_KEY.fullmatch(key) or target is not mapping:
                return None
            rescued = True
        elif value[0] in _CORE_FIRST and _CORE_SCALAR.match(value):
            return None
        target[key] = value
    if parent is not None and not parent:
        return None
    return None if rescued and nested else mapping


def load_mapping(text: str) -> tuple[dict[str, Any] | None, YamlTrouble | None]:
    """The mapping in a frontmatter block, or why there is none. Never raises."""
    mapping, trouble, _plain = read_mapping(text)
    return mapping, trouble


def read_mapping(text: str) -> tuple[dict[str, Any] | None, YamlTrouble | None, bool]:
    """`load_mapping`, and whether every line of the block was a plain ``key: value``
    line, each key once: then nothing else about its keys needs checking."""
    plain = _plain_mapping(text)
    if plain is not None:
        return plain, None, True
    mapping, trouble = _yaml_mapping(text)
    return mapping, trouble, False


def _yaml_mapping(text: str) -> tuple[dict[str, Any] | None, YamlTrouble | None]:
    import yaml

    loader, _ = _yaml()
    try:
        value = yaml.load(text, Loader=loader)  # noqa: S506 (a safe loader)
    except yaml.YAMLError as error:
        try:
            value = yaml.load(_quote_problem_values(text), Loader=loader)  # noqa: S506
        except yaml.YAMLError:
            return None, _trouble(error)
        if not isinstance(value, dict):
            return None, _trouble(error)
    except (ValueError, RecursionError) as error:  # e.g. an int too long to convert
        return None, YamlTrouble(f"frontmatter cannot be read: {error}", None)
    if value is None:
        return {}, None
    if not isinstance(value, dict):
        kind = "a list" if isinstance(value, list) else f"a single {type(value).__name__} value"
        return None, YamlTrouble(f"frontmatter is {kind}, not a mapping of fields", 0)
    return value, None


def _trouble(error: yaml.YAMLError) -> YamlTrouble:
    mark = getattr(error, "problem_mark", None)
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    return YamlTrouble(f"frontmatter is not valid YAML: {problem}", mark.line if mark else None)


def dump_mapping(mapping: Mapping[str, Any], indent: str = "", newline: str = "\n") -> str:
    lines = _plain_dump(mapping)
    if lines is None:
        text = _yaml_dump(mapping)
        lines = [] if text == "{}\n" else text.split("\n")[:-1]
    return "".join(f"{indent}{line}{newline}" for line in lines)


def _yaml_dump(mapping: Mapping[str, Any]) -> str:
    import yaml

    _, dumper = _yaml()
    return yaml.dump(
        dict(mapping),
        Dumper=dumper,
        allow_unicode=True,
        sort_keys=False,
        default_flow_style=False,
        width=math.inf,
    )


# What YAML 1.1 (PyYAML's dumper) or 1.2 reads as a bool or null when it starts with a
# letter; a scalar starting with a digit may be a number or a timestamp
# (`_number_or_time`); one starting with any other of `_NOT_PLAIN_OUT_START` is left
# to the emitter.
_WORD_SCALARS = frozenset(
    variant
    for word in ("yes", "no", "true", "false", "on", "off", "null")
    for variant in (word, word.capitalize(), word.upper())
)
_NOT_PLAIN_OUT_START = frozenset("-?:,[]{}#&*!|>'\"%@`+.~<= ")
_DIGITS = frozenset("0123456789")
# The emitter writes a key as a "? key" complex key once it and its tag ("!!str") reach
# 128 characters.
_SIMPLE_KEY_CHARS = 128 - len("!!str")


def _plain_dump(mapping: Mapping[str, Any]) -> list[str] | None:
    """The lines the YAML emitter writes for a mapping of plain text (one level of
    nesting allowed), without it: ``key: value`` for what it would write unquoted,
    ``key: 'value'`` for text it quotes only because it reads as a number or date
    (a new memory's ``modified``). None for anything else, which goes to the
    emitter. A new memory's fields are almost always such text, and this spares each
    extraction PyYAML's import."""
    lines: list[str] = []
    for key, value in mapping.items():
        if not _plain_key(key):
            return None
        if isinstance(value, str):
            if (written := _scalar_out(value)) is None:
                return None
            lines.append(f"{key}: {written}")
        elif isinstance(value, dict) and value:
            lines.append(f"{key}:")
            for child_key, child in value.items():
                written = _scalar_out(child) if isinstance(child, str) else None
                if not _plain_key(child_key) or written is None:
                    return None
                lines.append(f"  {child_key}: {written}")
        else:
            return None
    return lines


def _plain_key(key: object) -> bool:
    return isinstance(key, str) and len(key) < _SIMPLE_KEY_CHARS and _scalar_out(key) == key


def _scalar_out(text: str) -> str | None:
    """`text` as the emitter writes it when that is plain or single-quoted: printable
    on one line, no leading or trailing space, no indicator at the start; quoted when
    a resolver would read it as another type, or when it holds ``: `` or `` #`` or
    ends with ``:`` (a description such as ``Dana, SRE: how to work with them``,
    which would otherwise cost the dream that rewrites its date PyYAML's import).
    None when it is none of these."""
    if not (text and text.isprintable() and text[-1] != " "):
        return None
    if text[-1] == ":" or ": " in text or " #" in text:
        indicated = text[0] in _NOT_PLAIN_OUT_START
        return None if indicated else "'" + text.replace("'", "''") + "'"
    if text[0] in _DIGITS:
        return f"'{text}'" if _number_or_time(text) else text
    if text[0] in _NOT_PLAIN_OUT_START or text in _WORD_SCALARS:
        return None
    return text


def _number_or_time(text: str) -> bool:
    """Whether either YAML version reads `text` (starting with a digit) as an int, a
    float or a timestamp: PyYAML's YAML 1.1 resolvers, then the 1.2 core ones."""
    return bool(_yaml11_numbers().match(text) or _CORE_SCALAR.match(text))


@functools.cache
def _yaml11_numbers() -> re.Pattern[str]:
    # PyYAML's resolver.py, its float, int and timestamp patterns, verbatim.
    return re.compile(
        r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
        |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
        |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN))$
        |^(?:[-+]?0b[0-1_]+
        |[-+]?0[0-7_]+
        |[-+]?(?:0|[1-9][0-9_]*)
        |[-+]?0x[0-9a-fA-F_]+
        |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$
        |^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
        |[0-9][0-9][0-9][0-9] -[0-9][0-9]? -[0-9][0-9]?
         (?:[Tt]|[ \t]+)[0-9][0-9]?
         :[0-9][0-9] :[0-9][0-9] (?:\.[0-9]*)?
         (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$""",
        re.X,
    )


# -- the block --------------------------------------------------------------------


@dataclass(frozen=True)
class FrontmatterBlock:
    """A file split at its frontmatter; concatenating the parts gives the text back."""

    opening: str  # "---" and its line ending, as written
    yaml_text: str
    closing: str  # "---" and its line ending ("" at the end of the file)
    gap: str  # the one blank line after the block, if there is one
    body: str
    newline: str

    @property
    def head(self) -> str:
        return self.opening + self.yaml_text + self.closing + self.gap


@dataclass(frozen=True)
class UnterminatedBlock:
    pass


def split_frontmatter(text: str) -> FrontmatterBlock | UnterminatedBlock | None:
    """None when the text has no frontmatter (it does not start with a ``---`` line)."""
    if text.startswith("---\n"):
        opening = "---\n"  # most files: what the pattern finds, without it
    else:
        opening_match = _OPENING.match(text) if text.startswith("---") else None
        if opening_match is None:
            return None
        opening = opening_match.group(0)
        if not opening.endswith("\n"):
            return UnterminatedBlock()
    newline = "\r\n" if opening.endswith("\r\n") else "\n"
    found = _closing_line(text, len(opening))
    if found is None:
        return UnterminatedBlock()
    position, line_end = found
    rest = text[line_end:]
    gap = ""
    if rest.startswith("\n"):
        gap, rest = "\n", rest[1:]
    elif rest.startswith("\r\n"):
        gap, rest = "\r\n", rest[2:]
    return built(
        FrontmatterBlock,
        opening=opening,
        yaml_text=text[len(opening) : position],
        closing=text[position:line_end],
        gap=gap,
        body=rest,
        newline=newline,
    )


def _closing_line(text: str, start: int) -> tuple[int, int] | None:
    """Where the first line from `start` (just after the opening line's newline) that
    closes the block starts and ends. Only lines starting with ``---`` are tried,
    found by a substring search (a pattern searching for them tried every character
    of the block), and a plain ``---`` line needs no pattern."""
    line = text.find("\n---", start - 1) + 1
    while line:
        if text.startswith("---\n", line):
            return line, line + 4
        closing = _CLOSING_LINE.match(text, line)
        if closing is not None:
            return closing.span()
        line = text.find("\n---", line) + 1
    return None


def key_line(yaml_text: str, key: str, parent: str | None = None) -> int | None:
    """0-based line of a plain key in the block: top-level, or one level under `parent`."""
    lines = yaml_text.split("\n")
    if parent is None:
        pattern = re.compile(rf"^{re.escape(key)}[ \t]*:")
        return next((n for n, line in enumerate(lines) if pattern.match(line)), None)
    parent_line = key_line(yaml_text, parent)
    if parent_line is None:
        return None
    nested = re.compile(rf"^[ \t]+{re.escape(key)}[ \t]*:")
    for number in range(parent_line + 1, len(lines)):
        line = lines[number]
        if line.strip() and not line[:1].isspace():
            return None  # past the parent's block
        if nested.match(line):
            return number
    return None


# -- editing ------------------------------------------------------------------------


class _CannotSplice(Exception):
    pass


_KEY_LINE = re.compile(r"^(?P<indent>[ ]*)(?P<key>[A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:(?:[ \t]|$)")


@dataclass
class _Block:
    key: str
    start: int  # the key line
    end: int  # one past the last line holding its value (trailing blanks and comments excluded)


def _blocks(lines: list[str], indent: str) -> list[_Block]:
    blocks: list[_Block] = []
    seen: set[str] = set()
    for number, line in enumerate(lines):
        content = line.rstrip("\r\n")
        stripped = content.strip()
        if not stripped or stripped.startswith("#"):
            continue
        own_indent = len(content) - len(content.lstrip(" "))
        if content[:1] == "\t":
            raise _CannotSplice
        if own_indent > len(indent) or (
            own_indent == len(indent) and stripped.startswith("-") and blocks
        ):
            if not blocks:
                raise _CannotSplice
            blocks[-1].end = number + 1
            continue
        match = _KEY_LINE.match(content)
        if own_indent < len(indent) or match is None or match["key"] in seen:
            raise _CannotSplice
        seen.add(match["key"])
        blocks.append(_Block(match["key"], number, number + 1))
    return blocks


def _splice(
    lines: list[str],
    indent: str,
    current: Mapping[str, Any],
    target: Mapping[str, Any],
    newline: str,
) -> list[str]:
    blocks = {block.key: block for block in _blocks(lines, indent)}
    if any(not isinstance(key, str) for key in (*current, *target)) or set(blocks) != set(current):
        raise _CannotSplice
    replacements: dict[int, tuple[int, list[str]]] = {}
    for key, block in blocks.items():
        if key not in target:
            replacements[block.start] = (block.end, [])
        elif target[key] != current[key] or type(target[key]) is not type(current[key]):
            old, new = current[key], target[key]
            value_lines = lines[block.start + 1 : block.end]
            head_value = _KEY_LINE.sub("", lines[block.start].rstrip("\r\n"), count=1).strip()
            nested = isinstance(old, dict) and isinstance(new, dict) and old and value_lines
            if nested and not head_value:
                child = next(v for v in value_lines if v.strip() and not v.strip().startswith("#"))
                child_indent = " " * (len(child) - len(child.lstrip(" ")))
                spliced = _splice(value_lines, child_indent, old, new, newline)
                replacements[block.start] = (block.end, [lines[block.start], *spliced])
            else:
                dumped = dump_mapping({key: new}, indent, newline)
                replacements[block.start] = (block.end, dumped.splitlines(keepends=True))
    added = {key: value for key, value in target.items() if key not in blocks}
    out: list[str] = []
    number = 0
    last_end = max((block.end for block in blocks.values()), default=len(lines))
    while number < len(lines):
        if number in replacements:
            end, new_lines = replacements[number]
            out.extend(new_lines)
            number = end
        else:
            out.append(lines[number])
            number += 1
        if number == last_end and added:
            out.extend(dump_mapping(added, indent, newline).splitlines(keepends=True))
            added = {}
    if added:
        out.extend(dump_mapping(added, indent, newline).splitlines(keepends=True))
    for position, line in enumerate(out[:-1]):
        if not line.endswith("\n"):
            out[position] = line + newline
    return out


def edit_yaml(
    yaml_text: str, current: Mapping[str, Any], target: Mapping[str, Any], newline: str
) -> str:
    """`yaml_text` changed so it reads as `target`, touching only the keys that differ."""
    try:
        expected, _ = load_mapping(dump_mapping(target))
    except Exception as error:
        import yaml  # loaded already if it raised: only the emitter can

        if isinstance(error, yaml.YAMLError):
            raise ValueError(f"these fields cannot be written as YAML: {error}") from error
        raise
    try:
        lines = yaml_text.splitlines(keepends=True)
        spliced = "".join(_splice(lines, "", current, target, newline))
        if spliced and not spliced.endswith("\n"):
            spliced += newline
        if load_mapping(spliced)[0] == expected:
            return spliced
    except _CannotSplice:
        pass
    return dump_mapping(target, "", newline)
