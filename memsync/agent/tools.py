"""The tools an agent gets (SPEC E2, D3): read, grep, glob, a read-only shell, write, edit,
and, when a run asks for it, delete. All of them go through one `Sandbox`.

`ToolSet` is both the catalogue sent to the API and the record of the run: which
files the model read, wrote and deleted, and every refusal. The dream reports
"files touched" from it; extraction counts saved memories from it.

Deleting: SPEC E2 forbids deleting through the shell, yet "forget X" (E3) and a
dream's merge of near-duplicates (D3) end with a topic file gone. Emptying the
file instead would leave an F6 problem behind and a stale index entry. So a
`delete` tool exists, offered only when the caller asks (``allow_delete=True``),
and it only unlinks regular ``.md`` files that are not ``MEMORY.md``: no
directories, no symlinks, nothing under ``.git``. Each deletion is recorded so
the commit and the dream's report can name it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memsync.agent.files import ToolFailure, glob_matches, read_text, require_file, walk
from memsync.agent.sandbox import Sandbox, SandboxDenied
from memsync.agent.search import GrepOptions, grep
from memsync.agent.shell import PROGRAMS, ReadOnlyShell
from memsync.confined import ConfinedRoot, ConfinementError
from memsync.memory.index import INDEX_FILENAME

WRITING_TOOLS = ("write", "edit", "delete")

_MAX_LINE_CHARS = 2000
_GREP_MAX_LINES = 200
_GLOB_MAX_PATHS = 500

_PATH = {
    "type": "string",
    "description": "Relative to the memory directory (or an absolute path inside it).",
}

_DEFINITIONS: dict[str, dict[str, Any]] = {
    "read": {
        "description": (
            "Read a text file in the memory directory. Returns its lines numbered like "
            "`cat -n` (line number, a tab, the text). For long files pass offset (first line, "
            "from 1) and limit (number of lines). Binary files and files over 256,000 bytes "
            "are refused. Read a file before you edit or overwrite it."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "path": _PATH,
                "offset": {"type": "integer", "minimum": 1, "description": "First line, from 1."},
                "limit": {"type": "integer", "minimum": 1, "description": "How many lines."},
            },
            "required": ["path"],
        },
    },
    "grep": {
        "description": (
            "Search file contents with a Python regular expression. Searches the whole "
            "memory directory unless path names a file or folder; glob keeps only matching "
            "files (`*.md`, `team/*.md`). Prints `path:line:text`, at most 200 lines. "
            ".git is never searched."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "pattern": {"type": "string", "description": "Python regular expression."},
                "path": _PATH,
                "glob": {"type": "string", "description": "File filter, e.g. `*.md`."},
                "case_insensitive": {"type": "boolean"},
            },
            "required": ["pattern"],
        },
    },
    "glob": {
        "description": (
            "List the files whose path matches a glob, relative to the memory directory "
            "(or to path): `*.md` for the top level, `**/*.md` for every level, `team/*.md`. "
            "Sorted by path, at most 500."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "pattern": {"type": "string", "description": "Glob; `**` spans folders."},
                "path": _PATH,
            },
            "required": ["pattern"],
        },
    },
    "shell": {
        "description": (
            f"Run one read-only command: {', '.join(PROGRAMS)}, with their usual flags "
            "(`ls -la`, `find . -name '*.md' -type f`, `head -n 20 notes.md`, "
            "`wc -l MEMORY.md`, `grep -rn pattern .`, `stat notes.md`). The working directory "
            "is the memory directory. This is not a real shell: pipes, `;`, `&&`, redirection, "
            "`$(...)`, backticks, variables and every other program are refused."
        ),
        "input_schema": {
            "type": "object",
            "properties": {"command": {"type": "string", "description": "One command line."}},
            "required": ["command"],
        },
    },
    "write": {
        "description": (
            "Create a file in the memory directory, or replace a whole file, with content. "
            "Parent folders are created. An existing file must be read in this run first. "
            "Nothing under .git/ and not the lock file .consolidate-lock."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "path": _PATH,
                "content": {"type": "string", "description": "The complete new file."},
            },
            "required": ["path", "content"],
        },
    },
    "edit": {
        "description": (
            "Replace text in a file you have read in this run. old_string must occur exactly "
            "once (include surrounding lines to make it unique) unless replace_all is true. "
            "Copy text exactly as it appears in the file, without the line-number prefix."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "path": _PATH,
                "old_string": {"type": "string", "description": "Exact text to replace."},
                "new_string": {"type": "string", "description": "Replacement text."},
                "replace_all": {"type": "boolean", "description": "Replace every occurrence."},
            },
            "required": ["path", "old_string", "new_string"],
        },
    },
    "delete": {
        "description": (
            "Delete one topic file (a .md file) from the memory directory, when a memory is "
            "forgotten or merged into another file. MEMORY.md cannot be deleted: remove its "
            "entry by editing it, and do update it after a deletion."
        ),
        "input_schema": {
            "type": "object",
            "properties": {"path": _PATH},
            "required": ["path"],
        },
    },
}


@dataclass(frozen=True)
class Denial:
    """One refused tool call: which tool, what it asked for, why it was refused."""

    tool: str
    request: str
    reason: str


@dataclass(frozen=True)
class ToolOutcome:
    text: str
    is_error: bool = False


class ToolSet:
    """The tools of one agent run over one sandbox, and what the run did with them."""

    def __init__(
        self,
        sandbox: Sandbox,
        *,
        allow_delete: bool = False,
        max_output_chars: int = 30_000,
        max_read_lines: int = 2000,
    ) -> None:
        self.sandbox = sandbox
        self.allow_delete = allow_delete
        self.max_output_chars = max_output_chars
        self.max_read_lines = max_read_lines
        self.denials: list[Denial] = []
        self._read: dict[str, None] = {}
        self._written: dict[str, None] = {}
        self._deleted: dict[str, None] = {}
        # What the model has seen of each file (its mtime then), so edits and overwrites
        # never act on content it did not see.
        self._seen: dict[Path, int] = {}
        self._shell = ReadOnlyShell(sandbox, self._note_read, max_output_chars)

    @property
    def names(self) -> list[str]:
        offered = ["read", "grep", "glob", "shell"]
        if self.sandbox.writable:
            offered += ["write", "edit"] + (["delete"] if self.allow_delete else [])
        return offered

    def definitions(self) -> list[dict[str, Any]]:
        """Tool definitions for the Messages API, in a stable order (the cache depends on it)."""
        return [{"name": name, **_DEFINITIONS[name]} for name in self.names]

    @property
    def files_read(self) -> list[str]:
        return list(self._read)

    @property
    def files_written(self) -> list[str]:
        return list(self._written)

    @property
    def files_deleted(self) -> list[str]:
        return list(self._deleted)

    @property
    def files_touched(self) -> list[str]:
        """Files this run changed: written or deleted, sorted."""
        return sorted({*self._written, *self._deleted})

    def run(self, name: str, tool_input: object) -> ToolOutcome:
        """Execute one tool call; refusals and failures come back as error outcomes."""
        try:
            executor = self._executor(name)
            if not isinstance(tool_input, Mapping):
                raise ToolFailure(f"{name}: the input must be a JSON object")
            text = executor(tool_input)
        except SandboxDenied as denied:
            self.denials.append(Denial(name, _describe(tool_input), denied.reason))
            return ToolOutcome(_sendable(denied.reason), is_error=True)
        except ToolFailure as failure:
            return ToolOutcome(_sendable(str(failure)), is_error=True)
        except OSError as error:
            return ToolOutcome(f"{name} failed: {error.strerror or error}", is_error=True)
        return ToolOutcome(_sendable(self._cap(text)))

    def _executor(self, name: str) -> Callable[[Mapping[str, Any]], str]:
        executors: dict[str, Callable[[Mapping[str, Any]], str]] = {
            "read": self._read_file,
            "grep": self._grep,
            "glob": self._glob,
            "shell": self._run_shell,
            "write": self._write,
            "edit": self._edit,
            "delete": self._delete,
        }
        if name in self.names:
            return executors[name]
        if name in WRITING_TOOLS and not self.sandbox.writable:
            raise SandboxDenied(f"refused {name}: the memory directory is read-only in this run")
        if name == "delete":
            raise SandboxDenied("refused delete: deleting files is not offered in this run")
        raise ToolFailure(f"unknown tool {name!r}; the tools are: {', '.join(self.names)}")

    def _read_file(self, tool_input: Mapping[str, Any]) -> str:
        shown = _text(tool_input, "path")
        target = self.sandbox.resolve(shown)
        offset = _whole_number(tool_input, "offset") or 1
        limit = _whole_number(tool_input, "limit") or self.max_read_lines
        lines = read_text(target, shown).splitlines()
        self._note_read(target)
        self._seen[target] = target.stat().st_mtime_ns
        if not lines:
            return f"({shown} is empty)"
        if offset > len(lines):
            raise ToolFailure(f"{shown} has {len(lines)} lines; offset {offset} is past the end")
        chosen = lines[offset - 1 : offset - 1 + limit]
        end = offset + len(chosen) - 1
        text = "\n".join(f"{number:>6}\t{_cut(line)}" for number, line in enumerate(chosen, offset))
        if offset > 1 or end < len(lines):
            text += f"\n(lines {offset}-{end} of {len(lines)}; use offset and limit for the rest)"
        return text

    def _grep(self, tool_input: Mapping[str, Any]) -> str:
        pattern = _text(tool_input, "pattern")
        where = _text(tool_input, "path", required=False) or "."
        glob = _text(tool_input, "glob", required=False)
        flags = re.IGNORECASE if tool_input.get("case_insensitive") is True else 0
        try:
            regex = re.compile(pattern, flags)
        except re.error as error:
            raise ToolFailure(f"invalid regular expression {pattern!r}: {error}") from None
        if glob:
            self.sandbox.check_spelling(glob, "glob")
        options = GrepOptions(
            regex=regex,
            recursive=True,
            line_numbers=True,
            with_names=True,
            include=(glob,) if glob and "/" not in glob else (),
            path_glob=glob if glob and "/" in glob else None,
            names_from_root=True,
            max_lines=_GREP_MAX_LINES,
        )
        found = grep(self.sandbox, [where], options)
        lines = found.problems + found.lines
        if found.cut:
            lines.append(f"[cut at {_GREP_MAX_LINES} lines; narrow the pattern, path or glob]")
        return "\n".join(lines) if lines else f"No matches for {pattern!r} in {where}"

    def _glob(self, tool_input: Mapping[str, Any]) -> str:
        pattern = _text(tool_input, "pattern")
        where = _text(tool_input, "path", required=False) or "."
        self.sandbox.check_spelling(pattern, "glob pattern")
        if pattern.startswith("/"):
            raise SandboxDenied(
                f"refused glob pattern {pattern!r}: patterns are relative to the memory directory"
            )
        if ".." in pattern.split("/"):
            raise SandboxDenied(
                f"refused glob pattern {pattern!r}: '..' leads out of the memory directory"
            )
        base = self.sandbox.resolve(where)
        if not base.is_dir():
            raise ToolFailure(f"{where} is not a directory")
        matches = sorted(
            self.sandbox.relative(path)
            for path, depth in walk(base)
            if depth
            and path.is_file()
            and self.sandbox.contains(path)
            and glob_matches(pattern, path.relative_to(base).as_posix())
        )
        if not matches:
            return f"No files match {pattern!r}"
        if len(matches) > _GLOB_MAX_PATHS:
            cut = len(matches) - _GLOB_MAX_PATHS
            return "\n".join(matches[:_GLOB_MAX_PATHS]) + f"\n[{cut} more not shown]"
        return "\n".join(matches)

    def _run_shell(self, tool_input: Mapping[str, Any]) -> str:
        outcome = self._shell.run(_text(tool_input, "command"))
        if outcome.failed:
            raise ToolFailure(outcome.text)
        return outcome.text

    def _write(self, tool_input: Mapping[str, Any]) -> str:
        shown = _text(tool_input, "path")
        content = _text(tool_input, "content", allow_empty=True)
        target = self.sandbox.resolve_for_write(shown)
        if target.is_dir():
            raise ToolFailure(f"{shown} is a directory")
        existed = target.exists()
        if existed:
            self._require_seen(target, shown, "overwrite")
        self._store(target, content)
        self._note_write(target)
        verb = "Updated" if existed else "Created"
        lines = len(content.splitlines())
        return f"{verb} {self.sandbox.relative(target)} ({lines} line{'' if lines == 1 else 's'})"

    def _edit(self, tool_input: Mapping[str, Any]) -> str:
        shown = _text(tool_input, "path")
        old = _text(tool_input, "old_string", allow_empty=True)
        new = _text(tool_input, "new_string", allow_empty=True)
        replace_all = tool_input.get("replace_all") is True
        target = self.sandbox.resolve_for_write(shown)
        require_file(target, shown)
        self._require_seen(target, shown, "edit")
        if not old:
            raise ToolFailure("old_string is empty; use write to create or replace a whole file")
        if old == new:
            raise ToolFailure("old_string and new_string are the same; nothing would change")
        try:
            text = self._confined(target, ConfinedRoot.read_bytes).decode("utf-8")
        except UnicodeDecodeError:
            raise ToolFailure(
                f"{shown} is not valid UTF-8; editing it would lose bytes, so it is left as is"
            ) from None
        count = text.count(old)
        if count == 0:
            raise ToolFailure(
                f"old_string was not found in {shown}; copy it exactly from the file "
                "(whitespace included, line-number prefix excluded)"
            )
        if count > 1 and not replace_all:
            raise ToolFailure(
                f"old_string occurs {count} times in {shown}; include more surrounding text to "
                "make it unique, or set replace_all to replace every occurrence"
            )
        self._store(target, text.replace(old, new) if replace_all else text.replace(old, new, 1))
        self._note_write(target)
        replaced = count if replace_all else 1
        return f"Edited {self.sandbox.relative(target)}: replaced {replaced} occurrence(s)"

    def _delete(self, tool_input: Mapping[str, Any]) -> str:
        shown = _text(tool_input, "path")
        target = self.sandbox.resolve_for_delete(shown)
        if not target.exists():
            raise ToolFailure(f"{shown}: no such file")
        if target.name == INDEX_FILENAME:
            raise SandboxDenied(
                f"refused to delete {shown!r}: MEMORY.md is the index; edit its entries instead"
            )
        if not target.is_file() or target.suffix != ".md":
            raise SandboxDenied(f"refused to delete {shown!r}: only .md topic files can be deleted")
        self._confined(target, ConfinedRoot.unlink)
        relative = self.sandbox.relative(target)
        self._deleted[relative] = None
        self._written.pop(relative, None)
        self._seen.pop(target, None)
        return f"Deleted {relative}"

    def _confined(self, target: Path, operation: Callable[[ConfinedRoot, str], Any]) -> Any:
        """Run `operation` on `target` (already resolved by the sandbox) component by
        component with ``O_NOFOLLOW`` (issue 10): a link that appeared since the sandbox
        looked is refused instead of followed."""
        try:
            return operation(ConfinedRoot(self.sandbox.root), self.sandbox.relative(target))
        except ConfinementError as error:
            raise SandboxDenied(f"refused {error.path!r}: {error.reason}") from None

    def _store(self, target: Path, content: str) -> None:
        self._confined(target, lambda root, path: root.write(path, content.encode("utf-8")))

    def _require_seen(self, target: Path, shown: str, action: str) -> None:
        seen = self._seen.get(target)
        if seen is None:
            raise ToolFailure(
                f"refused to {action} {shown}: it was not read in this run; "
                "read it with the read tool first"
            )
        if target.stat().st_mtime_ns != seen:
            raise ToolFailure(
                f"{shown} changed on disk since you read it; read it again before you {action} it"
            )

    def _note_read(self, target: Path) -> None:
        self._read[self.sandbox.relative(target)] = None

    def _note_write(self, target: Path) -> None:
        relative = self.sandbox.relative(target)
        self._written[relative] = None
        self._deleted.pop(relative, None)
        self._seen[target] = target.stat().st_mtime_ns

    def _cap(self, text: str) -> str:
        if len(text) <= self.max_output_chars:
            return text
        return text[: self.max_output_chars] + f"\n[output cut at {self.max_output_chars:,} chars]"


def _text(
    tool_input: Mapping[str, Any], key: str, *, required: bool = True, allow_empty: bool = False
) -> str:
    value = tool_input.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise ToolFailure(f"{key} is required and must be a string")
    if not value and required and not allow_empty:
        raise ToolFailure(f"{key} must not be empty")
    return value


def _whole_number(tool_input: Mapping[str, Any], key: str) -> int | None:
    value = tool_input.get(key)
    if value is None:
        return None
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ToolFailure(f"{key} must be a whole number from 1")
    return value


def _cut(line: str) -> str:
    if len(line) <= _MAX_LINE_CHARS:
        return line
    return line[:_MAX_LINE_CHARS] + " [line cut]"


def _sendable(text: str) -> str:
    """Text that encodes as UTF-8: a file name with undecodable bytes arrives from the OS
    with lone surrogates, which would make the next API request fail to serialise."""
    return text.encode("utf-8", errors="backslashreplace").decode("utf-8")


def _describe(tool_input: object) -> str:
    text = json.dumps(tool_input, ensure_ascii=False, default=str)
    return text if len(text) <= 300 else text[:300] + "…"
