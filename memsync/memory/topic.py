"""A topic file: one memory, YAML frontmatter then a Markdown body (SPEC F2).

Claude Code's canonical layout is::

    ---
    name: user-role
    description: one specific line that decides relevance later
    type: user
    ---

    The body.

Real files also nest the type (``metadata: {type: project}``), carry extra keys
(``originSessionId``, ``created``, ...), have no frontmatter at all, use CRLF or a
BOM. All of them are read, and an unchanged file renders back byte for byte.
A `MemoryFile` always is the parse of its own bytes: `replace` builds new bytes and
parses them again, so its problems are always current.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memsync.memory.decoding import decode_memory_bytes
from memsync.memory.frontmatter import (
    FrontmatterBlock,
    UnterminatedBlock,
    dump_mapping,
    edit_yaml,
    key_line,
    read_mapping,
    split_frontmatter,
)
from memsync.memory.frozen import built, derived
from memsync.memory.problems import Problem, ProblemCode, Severity

MEMORY_TYPES = ("user", "feedback", "project", "reference")
# Types whose body is the rule or fact, then a **Why:** and a **How to apply:** line.
STRUCTURED_TYPES = ("feedback", "project")
REQUIRED_FIELDS = ("name", "description", "type")

_WHY = re.compile(r"^[ \t>]*(?:[-*+][ \t]+)?\*\*Why(?::\*\*|\*\*[ \t]*:)", re.IGNORECASE | re.M)
_HOW = re.compile(
    r"^[ \t>]*(?:[-*+][ \t]+)?\*\*How[ \t]+to[ \t]+apply(?::\*\*|\*\*[ \t]*:)",
    re.IGNORECASE | re.MULTILINE,
)
_TOP_LEVEL_KEY = re.compile(r"^([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:(?:[ \t]|$)")
_FIELD_PURPOSE = {
    "name": "a short name for the memory",
    "description": "one specific line that decides when this memory is relevant",
    "type": "one of " + ", ".join(MEMORY_TYPES),
}


def _scalar_text(value: Any) -> str | None:
    if type(value) is str:
        return value  # almost every field: what `str` gives for it
    if value is None or isinstance(value, dict | list):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class MemoryFile:
    path: str
    raw: bytes
    metadata: dict[str, Any]
    body: str
    has_frontmatter: bool
    problems: tuple[Problem, ...]
    # How the text was laid out, so render() can rebuild it exactly and replace() can
    # keep it: BOM, the frontmatter block as written, and its state.
    _bom: str = field(default="", repr=False, compare=False)
    _block: FrontmatterBlock | None = field(default=None, repr=False, compare=False)
    _broken: bool = field(default=False, repr=False, compare=False)
    _is_text: bool = field(default=True, repr=False, compare=False)

    # -- reading -------------------------------------------------------------------

    @classmethod
    def parse(cls, path: str, data: bytes) -> MemoryFile:
        """Read a topic file. Never raises; whatever is wrong becomes a problem."""
        decoded = decode_memory_bytes(path, data)
        if decoded.text is None:
            unreadable = (decoded.problem,) if decoded.problem else ()
            return cls(path, data, {}, "", False, unreadable, _is_text=False)
        text, bom = decoded.text, decoded.bom
        split = split_frontmatter(text)
        if split is None:
            return cls(path, data, {}, text, False, (), _bom=bom)
        if isinstance(split, UnterminatedBlock):
            problem = Problem.at(
                ProblemCode.FRONTMATTER_BROKEN,
                path,
                1,
                "frontmatter opened with '---' is never closed by a '---' line",
            )
            return cls(path, data, {}, text, True, (problem,), _bom=bom, _broken=True)
        mapping, trouble, plain = read_mapping(split.yaml_text)
        if mapping is None:
            line = trouble.line + 2 if trouble and trouble.line is not None else 1
            message = trouble.message if trouble else "frontmatter cannot be read"
            problem = Problem.at(ProblemCode.FRONTMATTER_BROKEN, path, line, message)
            return cls(
                path, data, {}, split.body, True, (problem,), _bom=bom, _block=split, _broken=True
            )
        problems = tuple(_field_problems(path, mapping, split, keys_once=plain))
        # Most files end here: built at once, as a directory of them is read.
        return built(
            cls,
            path=path,
            raw=data,
            metadata=mapping,
            body=split.body,
            has_frontmatter=True,
            problems=problems,
            _bom=bom,
            _block=split,
            _broken=False,
            _is_text=True,
        )

    @property
    def is_text(self) -> bool:
        return self._is_text

    # The fields below are read again and again by every phase of a dream (thousands
    # of memories, each compared with many others), so each is worked out once per
    # memory: a `MemoryFile` never changes (`replace` gives a new one), nor does its
    # metadata once parsed.

    @derived
    def name(self) -> str | None:
        return _scalar_text(self.metadata.get("name"))

    @derived
    def description(self) -> str | None:
        return _scalar_text(self.metadata.get("description"))

    @derived
    def type(self) -> str | None:
        """The type as written: top-level ``type``, else ``metadata.type``. It may be
        one Claude Code does not know; `memory_type` gives only a known one."""
        if "type" in self.metadata:
            return _scalar_text(self.metadata["type"])
        nested = self.metadata.get("metadata")
        if isinstance(nested, dict):
            return _scalar_text(nested.get("type"))
        return None

    @derived
    def memory_type(self) -> str | None:
        declared = self.type
        return declared if declared in MEMORY_TYPES else None

    @property
    def has_nested_type(self) -> bool:
        nested = self.metadata.get("metadata")
        return "type" not in self.metadata and isinstance(nested, dict) and "type" in nested

    @property
    def frontmatter_text(self) -> str:
        """The YAML between the delimiters, exactly as written ("" when there is none)."""
        return self._block.yaml_text if self._block else ""

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.ERROR)

    def render(self) -> bytes:
        if not self._is_text:
            return self.raw
        head = self._block.head if self._block is not None else ""
        return (self._bom + head + self.body).encode("utf-8")

    # -- writing -------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: str,
        *,
        name: str,
        description: str,
        type: str,
        body: str,
        extra: Mapping[str, Any] | None = None,
    ) -> MemoryFile:
        """A new memory in Claude Code's canonical layout."""
        _check_fields(name=name, description=description, type=type, body=body)
        extra = dict(extra or {})
        clash = sorted(set(extra) & set(REQUIRED_FIELDS))
        if clash:
            raise ValueError(f"extra repeats {', '.join(clash)}; pass them as arguments")
        mapping = {"name": name, "description": description, "type": type, **extra}
        text = "---\n" + dump_mapping(mapping) + "---\n"
        if body:
            text += "\n" + body + ("" if body.endswith("\n") else "\n")
        return cls.parse(path, text.encode("utf-8"))

    def replace(
        self,
        *,
        name: str | None = None,
        description: str | None = None,
        type: str | None = None,
        body: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> MemoryFile:
        """A changed copy. Omitted arguments stay as they are; `metadata` replaces the
        whole mapping and the named fields apply on top of it. Only the lines of
        changed keys are rewritten, a nested ``metadata.type`` stays nested, and the
        frontmatter is kept verbatim when only the body changes."""
        if not self._is_text:
            raise ValueError(f"{self.path} is not UTF-8 text; it cannot be edited")
        _check_fields(name=name, description=description, type=type, body=body)
        target = dict(self.metadata if metadata is None else metadata)
        if name is not None:
            target["name"] = name
        if description is not None:
            target["description"] = description
        if type is not None:
            nested = target.get("metadata")
            if "type" not in target and isinstance(nested, dict) and "type" in nested:
                target["metadata"] = {**nested, "type": type}
            else:
                target["type"] = type
        fields_change = target != self.metadata
        if self._broken and fields_change:
            broken = self.problems[0].message if self.problems else "broken"
            raise ValueError(f"{self.path}: frontmatter is broken ({broken}); fix it first")
        if self._broken and self._block is None:
            raise ValueError(f"{self.path}: frontmatter is never closed; fix it first")

        block = self._block
        newline = block.newline if block else ("\r\n" if "\r\n" in self.body else "\n")
        new_body = self.body if body is None else _with_newlines(body, newline)
        if block is None:
            if not fields_change:
                text = new_body
            else:
                head = "---" + newline + dump_mapping(target, "", newline) + "---" + newline
                text = head + (newline + new_body if new_body else "")
        else:
            yaml_text = block.yaml_text
            if fields_change:
                yaml_text = edit_yaml(yaml_text, self.metadata, target, newline)
            closing, gap = block.closing, block.gap
            if new_body and not closing.endswith("\n"):
                closing += newline
            if not gap and new_body.startswith(("\n", "\r\n")):
                gap = newline  # else the body's own blank first line would read as the gap
            text = block.opening + yaml_text + closing + gap + new_body
        if text == self._text():
            return self
        return MemoryFile.parse(self.path, (self._bom + text).encode("utf-8"))

    def _text(self) -> str:
        head = self._block.head if self._block is not None else ""
        return head + self.body


def _with_newlines(body: str, newline: str) -> str:
    if newline == "\r\n":
        return body.replace("\r\n", "\n").replace("\n", "\r\n")
    return body


def _check_fields(**fields: str | None) -> None:
    for key, value in fields.items():
        if value is None:
            continue
        if key == "body" and "\x00" in value:
            raise ValueError("body has a NUL character; a memory file is text")
        if key in ("name", "description") and ("\n" in value or "\r" in value):
            raise ValueError(f"{key} must be one line")
        if key == "type" and value not in MEMORY_TYPES:
            raise ValueError(f"type {value!r} is not one of {', '.join(MEMORY_TYPES)}")


def _field_problems(
    path: str, mapping: dict[str, Any], block: FrontmatterBlock, *, keys_once: bool = False
) -> list[Problem]:
    """What is wrong with the fields; `keys_once` when the block is known to write no
    key twice (`read_mapping` said it was plain), so no line needs looking at again."""
    found: list[Problem] = []
    first_seen: dict[str, int] = {}
    for number, line in enumerate(() if keys_once else block.yaml_text.split("\n"), start=2):
        written = _TOP_LEVEL_KEY.match(line)
        if written is None:
            continue
        key, first = written[1], first_seen.get(written[1])
        if first is None:
            first_seen[key] = number
            continue
        # PyYAML keeps the last value, JavaScript's `yaml` rejects the whole block:
        # Claude Code may see none of this file's fields.
        found.append(
            Problem.at(
                ProblemCode.FRONTMATTER_BROKEN,
                path,
                number,
                f"key '{key}' appears twice (lines {first} and {number}); "
                "YAML readers disagree on which one counts",
            )
        )

    if _fields_fine(mapping):
        declared: str | None = mapping["type"]
    else:
        declared = _check_fields_fully(path, mapping, block, found)
    _check_structure(path, declared, block, found)
    return found


def _check_fields_fully(
    path: str, mapping: dict[str, Any], block: FrontmatterBlock, found: list[Problem]
) -> str | None:
    """The required fields checked one by one, adding what is wrong to `found`;
    returns the type as declared."""

    def line_of(key: str, parent: str | None = None) -> int | None:
        number = key_line(block.yaml_text, key, parent)
        return None if number is None else number + 2  # after the opening "---" line

    nested = mapping.get("metadata")
    nested_type = "type" not in mapping and isinstance(nested, dict) and "type" in nested
    for key in REQUIRED_FIELDS:
        present = key in mapping or (key == "type" and nested_type)
        value = (nested or {}).get("type") if key == "type" and nested_type else mapping.get(key)
        if not present or _scalar_text(value) in (None, ""):
            what = "has no" if not present else "has an empty"
            found.append(
                Problem.at(
                    ProblemCode.FIELD_MISSING,
                    path,
                    1 if not present else line_of(key, "metadata" if nested_type else None),
                    f"frontmatter {what} '{key}' ({_FIELD_PURPOSE[key]})",
                )
            )
    declared = _scalar_text((nested or {}).get("type") if nested_type else mapping.get("type"))
    raw_type = (nested or {}).get("type") if nested_type else mapping.get("type")
    if raw_type is not None and declared not in MEMORY_TYPES and declared != "":
        shown = declared if declared is not None else type(raw_type).__name__
        found.append(
            Problem.at(
                ProblemCode.TYPE_UNKNOWN,
                path,
                line_of("type", "metadata" if nested_type else None),
                f"type '{shown}' is not one of {', '.join(MEMORY_TYPES)}",
            )
        )
    description = mapping.get("description")
    if isinstance(description, str) and "\n" in description.strip():
        found.append(
            Problem.at(
                ProblemCode.DESCRIPTION_MULTILINE,
                path,
                line_of("description"),
                f"description runs over {description.strip().count(chr(10)) + 1} lines; "
                "it should be one specific line",
                Severity.WARNING,
            )
        )
    return declared


def _fields_fine(mapping: dict[str, Any]) -> bool:
    """True when `_check_fields_fully` finds nothing, told from the three fields
    alone: top-level, non-empty text, a known type, a one-line description. Almost
    every file is so, and those checks cost a fifth of reading one."""
    name, description = mapping.get("name"), mapping.get("description")
    return (
        type(name) is str
        and type(description) is str
        and type(mapping.get("type")) is str
        and name != ""
        and mapping["type"] in MEMORY_TYPES
        and description != ""
        and "\n" not in description
    )


def _has_line(body: str, label: str, pattern: re.Pattern[str]) -> bool:
    """``pattern.search(body)``: true at once when a line starts with `label` as
    written (which `pattern` matches), as in almost every file; the search only for the
    rest. The search tried every position of the body before the line."""
    return body.startswith(label) or f"\n{label}" in body or pattern.search(body) is not None


def _check_structure(
    path: str, declared: str | None, block: FrontmatterBlock, found: list[Problem]
) -> None:
    """A structured type's body lacking its **Why:** or **How to apply:** line."""
    if declared in STRUCTURED_TYPES:
        missing = [
            label
            for label, pattern in (("**Why:**", _WHY), ("**How to apply:**", _HOW))
            if not _has_line(block.body, label, pattern)
        ]
        if missing:
            body_line = block.head.count("\n") + 1
            found.append(
                Problem.at(
                    ProblemCode.BODY_STRUCTURE,
                    path,
                    body_line,
                    f"a {declared} memory's body should state the rule, then a "
                    f"{' and a '.join(missing)} line; this one has no "
                    f"{' and no '.join(missing)}",
                    Severity.WARNING,
                )
            )
