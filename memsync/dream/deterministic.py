"""The deterministic dream: the structural part of consolidation, without a model (SPEC D8).

It does only what it can explain in one line each, and it never loses content:

1. relative dates in bodies and descriptions become absolute, against the day the
   file last changed (``context.last_changed``);
2. near-duplicates of one type merge into the newest of them (`memsync.dream.dedupe`):
   every line of the others is kept, after the newest's, and their index entries go;
3. index entries that point at no file are removed;
4. topic files no entry links get one (under their type's heading when the index is
   grouped by type);
5. entries over 150 characters are cut at a word boundary, and what was cut goes
   into the memory file unless the file already says it;
6. ``MEMORY.md`` is brought within 200 lines and 25,000 bytes by moving groups into
   sub-indexes (`memsync.dream.index_budget`);
7. memories older than a threshold are listed as possibly stale; their text is not
   touched, since only a reader who knows the project can tell what changed.

Scopes: in a personal dream the personal directory is consolidated and ``team/`` is
read-only; in a team dream (the server's repository) duplicates merge only when they
are exact or near-exact copies. ``CLAUDE.md`` is never edited (SPEC D4).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

from memsync.dream.dedupe import Candidate, DuplicateGroup, covered, find_duplicates, union_bodies
from memsync.dream.engine import (
    DreamCancelled,
    DreamContext,
    DreamProgress,
    EngineResult,
    Scope,
)
from memsync.dream.index_budget import fit_budget, within_budget
from memsync.dream.index_edit import (
    SUBINDEX_DIRNAME,
    IndexLines,
    cut_part,
    entry_path,
    fit_line,
    heading_type,
    is_subindex_path,
    sections,
    shortened,
    with_hook,
    with_target,
)
from memsync.memory import (
    INDEX_FILENAME,
    MAX_ENTRY_CHARS,
    MAX_INDEX_BYTES,
    MAX_INDEX_LINES,
    TEAM_DIRNAME,
    IndexEntry,
    MemoryDirectory,
    MemoryFile,
    ProblemCode,
    age_days,
    format_entry,
    rewrite_relative_dates,
)

ENGINE_NAME = "deterministic"
# Past three months a memory has likely outlived at least one release or re-org;
# Claude Code already warns about anything older than a day, which is too often to
# be worth listing in a proposal.
STALE_AFTER_DAYS = 90
# Instructions for people and other tools, never memories (SPEC D4: CLAUDE.md wins).
PROTECTED_NAMES = frozenset({"claude.md", "claude.local.md"})

# Every phrase `rewrite_relative_dates` handles contains one of these; most memories
# contain none, and the check is far cheaper than the rewrite.
_DATE_HINT = re.compile(
    r"\b(?:today|yesterday|tomorrow|ago)\b"
    r"|\b(?:last|this|next)\s+(?:week|month|year|mon|tue|wed|thu|fri|sat|sun)"
    r"|[天日周期拜月年]",
    re.IGNORECASE,
)
_LISTED = 10


@dataclass
class _Report:
    notes: list[str] = field(default_factory=list)
    improved: dict[str, None] = field(default_factory=dict)
    merged: list[str] = field(default_factory=list)
    dates: int = 0
    dated_files: int = 0
    dead: int = 0
    indexed: int = 0
    shortened: dict[str, None] = field(default_factory=dict)
    moved: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)

    def improve(self, path: str) -> None:
        self.improved[path] = None


class _Writer:
    """Writes the dream's changes into the worktree and reports each file (SPEC D7)."""

    def __init__(self, workdir: Path, progress: DreamProgress) -> None:
        self.workdir = workdir
        self.progress = progress
        self.touched: dict[str, None] = {}

    def put(self, relative: str, data: bytes | None) -> None:
        target = self.workdir / relative
        if data is None:
            if target.is_file() and not target.is_symlink():
                target.unlink()
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            # The tree was read without following links; a link appearing since then
            # must not redirect the write.
            flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW
            with os.fdopen(os.open(target, flags, 0o644), "wb") as handle:
                handle.write(data)
        if not self.touched:
            self.progress.phase("updating")
        if relative not in self.touched:
            self.touched[relative] = None
            self.progress.touched(relative)


class _Directory:
    """One memory directory of the worktree (the root, or ``team/``) being consolidated."""

    def __init__(self, context: DreamContext, prefix: str, conservative: bool) -> None:
        self.context = context
        self.prefix = prefix
        self.conservative = conservative
        self.root = context.workdir / prefix if prefix else context.workdir
        read = MemoryDirectory.read(self.root)
        broken = {
            problem.path
            for problem in read.problems
            if problem.code is ProblemCode.FRONTMATTER_BROKEN
        }
        self.memories: dict[str, MemoryFile] = {}
        self.left_alone: list[str] = []
        for path, memory in read.files.items():
            if path.casefold() in PROTECTED_NAMES or (self.root / path).is_symlink():
                continue
            if not memory.is_text or path in broken:
                self.left_alone.append(path)
                continue
            self.memories[path] = memory
        self.index: IndexLines | None = None
        if read.index is not None and not (self.root / INDEX_FILENAME).is_symlink():
            self.index = IndexLines.parse(read.index.render())
        self.subindexes: dict[str, IndexLines] = {}
        folder = self.root / SUBINDEX_DIRNAME
        self.can_split = not folder.is_symlink() and (folder.is_dir() or not folder.exists())
        if self.can_split and folder.is_dir():
            for entry in sorted(os.scandir(folder), key=lambda e: e.name):
                if entry.name.endswith(".md") and entry.is_file(follow_symlinks=False):
                    data = Path(entry.path).read_bytes().decode("utf-8", "surrogateescape")
                    self.subindexes[f"{SUBINDEX_DIRNAME}/{entry.name}"] = IndexLines.parse(data)
        self.pending: dict[str, bytes | None] = {}
        self.removed: set[str] = set()

    def shown(self, path: str) -> str:
        return self.prefix + path

    def reference(self, path: str) -> date:
        changed = self.context.last_changed.get(self.shown(path))
        if changed is None:
            return self.context.now.date()
        return changed.astimezone(self.context.now.tzinfo).date()

    def changed_at(self, path: str) -> datetime:
        return self.context.last_changed.get(self.shown(path), self.context.now)

    def set_memory(self, memory: MemoryFile) -> None:
        current = self.memories.get(memory.path)
        if current is not None and current.render() == memory.render():
            return
        self.memories[memory.path] = memory
        self.pending[memory.path] = memory.render()

    def remove_memory(self, path: str) -> None:
        del self.memories[path]
        self.removed.add(path)
        self.pending[path] = None

    def set_index(self, path: str, lines: IndexLines) -> None:
        current = self.index if path == INDEX_FILENAME else self.subindexes.get(path)
        if current is not None and current.render() == lines.render():
            return
        if path == INDEX_FILENAME:
            self.index = lines
        else:
            self.subindexes[path] = lines
        self.pending[path] = lines.render().encode("utf-8", "surrogateescape")

    def remove_subindex(self, path: str) -> None:
        self.subindexes.pop(path, None)
        self.removed.add(path)
        self.pending[path] = None

    def index_files(self) -> list[tuple[str, IndexLines]]:
        found = [(INDEX_FILENAME, self.index)] if self.index is not None else []
        return found + sorted(self.subindexes.items())

    def exists(self, path: str) -> bool:
        if path in self.removed:
            return False
        if path in self.memories or path in self.subindexes:
            return True
        if path == INDEX_FILENAME:
            return self.index is not None
        return (self.root / path).exists()

    def flush(self, writer: _Writer) -> None:
        for path, data in sorted(self.pending.items()):
            writer.put(self.shown(path), data)
        self.pending.clear()


class DeterministicEngine:
    """Structural consolidation without a model (SPEC D8)."""

    name = ENGINE_NAME

    def __init__(self, *, stale_after_days: int = STALE_AFTER_DAYS) -> None:
        self.stale_after_days = stale_after_days

    def consolidate(self, context: DreamContext, progress: DreamProgress) -> EngineResult:
        report = _Report()
        writer = _Writer(context.workdir, progress)

        def step(run: Callable[[_Directory, _Report], None], directories: list[_Directory]) -> None:
            for directory in directories:
                if progress.cancelled():
                    raise DreamCancelled("the dream was cancelled")
                run(directory, report)
                directory.flush(writer)

        progress.phase("orient")
        directories = self._directories(context, report)
        progress.phase("gather")
        step(self._list_stale, directories)
        progress.phase("consolidate")
        step(_rewrite_dates, directories)
        step(_rewrite_hook_dates, directories)
        step(_merge_duplicates, directories)
        progress.phase("prune")
        step(_drop_dead_entries, directories)
        step(_index_orphans, directories)
        step(_shorten_entries, directories)
        step(_fit_index, directories)
        if progress.cancelled():
            raise DreamCancelled("the dream was cancelled")
        return EngineResult(
            summary=_summary(report, self.stale_after_days),
            files_touched=sorted(writer.touched),
            engine=ENGINE_NAME,
            notes=report.notes,
        )

    def _directories(self, context: DreamContext, report: _Report) -> list[_Directory]:
        team = context.scope is Scope.TEAM
        directories = [_Directory(context, "", conservative=team)]
        team_root = context.workdir / TEAM_DIRNAME
        if team_root.is_dir() and not team_root.is_symlink():
            if team:
                directories.append(_Directory(context, f"{TEAM_DIRNAME}/", conservative=True))
            else:
                report.notes.append(
                    f"{TEAM_DIRNAME}/ is the team's memory: read-only in a personal dream, "
                    "so nothing in it was changed"
                )
        for directory in directories:
            for path in directory.left_alone:
                report.notes.append(
                    f"{directory.shown(path)}: left as it is (not UTF-8 text, or its "
                    "frontmatter cannot be read)"
                )
        return directories

    def _list_stale(self, directory: _Directory, report: _Report) -> None:
        for path in sorted(directory.memories):
            days = age_days(directory.changed_at(path), directory.context.now)
            if days > self.stale_after_days:
                report.stale.append(directory.shown(path))
                report.notes.append(
                    f"{directory.shown(path)}: possibly stale, last changed {days} days ago; "
                    "check it against the project before relying on it"
                )


# -- consolidate ------------------------------------------------------------------


def _rewrite_dates(directory: _Directory, report: _Report) -> None:
    for path in sorted(directory.memories):
        memory = directory.memories[path]
        reference = directory.reference(path)
        changes: dict[str, str] = {}  # "body" and/or "description"
        phrases: list[str] = []
        if _DATE_HINT.search(memory.body):
            body, found = rewrite_relative_dates(memory.body, reference)
            if found:
                changes["body"] = body
                phrases += [f"'{item.phrase}' → {item.text}" for item in found]
        description = memory.metadata.get("description")
        if isinstance(description, str) and _DATE_HINT.search(description):
            rewritten, found = rewrite_relative_dates(description, reference)
            if found:
                changes["description"] = rewritten
                phrases += [f"'{item.phrase}' → {item.text}" for item in found]
        if not changes:
            continue
        try:
            updated = memory.replace(
                body=changes.get("body"), description=changes.get("description")
            )
        except ValueError as error:
            report.notes.append(
                f"{directory.shown(path)}: relative dates left as written ({error})"
            )
            continue
        directory.set_memory(updated)
        report.dates += len(phrases)
        report.dated_files += 1
        report.improve(directory.shown(path))
        report.notes.append(
            f"{directory.shown(path)}: relative dates made absolute against "
            f"{reference.isoformat()}, when the file last changed: {', '.join(phrases)}"
        )


def _rewrite_hook_dates(directory: _Directory, report: _Report) -> None:
    """Hooks often repeat the description, relative dates included. A hook was written
    with its memory, so the memory's last change is its reference."""
    for path, lines in directory.index_files():
        replace: dict[int, list[str]] = {}
        for entry in lines.index().entries:
            if not _DATE_HINT.search(entry.hook):
                continue
            target = entry_path(path, entry.target)
            known = target is not None and target in directory.memories
            reference = directory.reference(target if known and target else path)
            hook, found = rewrite_relative_dates(entry.hook, reference)
            if found:
                replace[entry.line] = [with_hook(entry, hook)]
                report.dates += len(found)
                report.notes.append(
                    f"{directory.shown(path)}: relative dates in the entry '{entry.title}' made "
                    f"absolute against {reference.isoformat()}: "
                    + ", ".join(f"'{item.phrase}' → {item.text}" for item in found)
                )
        if replace:
            directory.set_index(path, lines.edited(replace))


def _merge_duplicates(directory: _Directory, report: _Report) -> None:
    candidates = [
        Candidate(
            path=path,
            type=kind,
            name=memory.name,
            text=f"{memory.description or ''}\n{memory.body}",
            changed=directory.changed_at(path),
        )
        for path, memory in sorted(directory.memories.items())
        if (kind := memory.memory_type) is not None
    ]
    merged = [
        group
        for group in find_duplicates(candidates, conservative=directory.conservative)
        if _merge(directory, group, report)
    ]
    if not merged:
        return
    moved = {path: group.keep for group in merged for path in group.absorbed}
    _redirect_entries(directory, merged)
    for path in _redirect_links(directory, moved):
        report.notes.append(
            f"{directory.shown(path)}: its links to merged files now lead to the kept ones"
        )


def _merge(directory: _Directory, group: DuplicateGroup, report: _Report) -> bool:
    keeper = directory.memories[group.keep]
    older = [directory.memories[path] for path in group.absorbed]
    body, _added = union_bodies(keeper.body, *(memory.body for memory in older))
    known = f"{keeper.name or ''}\n{keeper.description or ''}\n{body}"
    # A description the merged text does not already say would otherwise be lost.
    extra = [
        memory.description
        for memory in older
        if memory.description and not covered(memory.description, known)
    ]
    if extra:
        body = body.rstrip("\r\n") + "\n\n" + "\n".join(extra) + "\n"
    try:
        merged = keeper.replace(body=body)
    except ValueError as error:
        report.notes.append(f"{directory.shown(group.keep)}: not merged ({error})")
        return False
    directory.set_memory(merged)
    report.improve(directory.shown(group.keep))
    for path in group.absorbed:
        directory.remove_memory(path)
        report.improve(directory.shown(path))
        report.merged.append(f"{directory.shown(path)} into {directory.shown(group.keep)}")
        report.notes.append(
            f"merged {directory.shown(path)} into {directory.shown(group.keep)} "
            f"({group.reasons[path]}): the newer file's text comes first, then every line "
            "of the older one it did not already have; the older file and its index entry "
            "were removed"
        )
    return True


def _redirect_entries(directory: _Directory, groups: list[DuplicateGroup]) -> None:
    """Entries of absorbed files go; when the kept file had none, the first of theirs
    is pointed at it, so it keeps the place a person gave it."""
    keeper_of = {path: group.keep for group in groups for path in group.absorbed}
    parsed = [(path, lines, lines.index().entries) for path, lines in directory.index_files()]
    linked = {
        target
        for path, _lines, entries in parsed
        for entry in entries
        if (target := entry_path(path, entry.target)) is not None
    }
    for path, lines, entries in parsed:
        replace: dict[int, list[str]] = {}
        for entry in entries:
            keeper = keeper_of.get(entry_path(path, entry.target) or "")
            if keeper is None:
                continue
            if keeper in linked:
                replace[entry.line] = []
            else:
                target = keeper if path == INDEX_FILENAME else f"../{keeper}"
                replace[entry.line] = [with_target(entry, target)]
                linked.add(keeper)
        if replace:
            directory.set_index(path, lines.edited(replace))


def _redirect_links(directory: _Directory, moved: dict[str, str]) -> list[str]:
    """Links in topic files to a merged-away file, pointed at the file that kept it."""
    names = "|".join(re.escape(path) for path in sorted(moved, key=len, reverse=True))
    pattern = re.compile(r"\]\((?:\./)?(" + names + r")(#[^)\s]*)?\)")
    changed: list[str] = []
    for path, memory in sorted(directory.memories.items()):
        if "](" not in memory.body:
            continue
        body = pattern.sub(lambda m: f"]({moved[m.group(1)]}{m.group(2) or ''})", memory.body)
        if body != memory.body:
            directory.set_memory(memory.replace(body=body))
            changed.append(path)
    return changed


# -- prune --------------------------------------------------------------------------


def _drop_dead_entries(directory: _Directory, report: _Report) -> None:
    for path, lines in directory.index_files():
        replace: dict[int, list[str]] = {}
        for entry in lines.index().entries:
            target = entry_path(path, entry.target)
            if target is None or directory.exists(target):
                continue
            replace[entry.line] = []
            report.dead += 1
            report.notes.append(
                f"{directory.shown(path)}: removed the entry '{entry.title}', which linked "
                f"{entry.target}, a file that does not exist (its hook was: {entry.hook!r})"
            )
        if replace:
            directory.set_index(path, lines.edited(replace))


def _reachable(directory: _Directory) -> tuple[set[str], set[str]]:
    """Files linked from MEMORY.md directly or through a sub-index it links, and the
    sub-indexes it links."""
    if directory.index is None:
        return set(), set()
    direct = {
        target
        for entry in directory.index.index().entries
        if (target := entry_path(INDEX_FILENAME, entry.target)) is not None
    }
    linked_subindexes = {path for path in direct if path in directory.subindexes}
    reached = set(direct)
    for path in linked_subindexes:
        for entry in directory.subindexes[path].index().entries:
            target = entry_path(path, entry.target)
            if target is not None:
                reached.add(target)
    return reached, linked_subindexes


def _index_orphans(directory: _Directory, report: _Report) -> None:
    reached, linked_subindexes = _reachable(directory)
    loose_subindexes = sorted(set(directory.subindexes) - linked_subindexes)
    orphans = sorted(path for path in directory.memories if path not in reached)
    if not orphans and not loose_subindexes:
        return
    created = directory.index is None
    index = directory.index or IndexLines.parse("# Memory Index\n\n")
    parts = sections(index)
    typed = {heading_type(section.title): section for section in parts if section.heading}
    typed.pop(None, None)
    after: dict[int, list[str]] = {}
    appended: list[str] = []
    new_sections: dict[str, list[str]] = {}
    for path in loose_subindexes:
        appended.append(_subindex_entry(path, directory.subindexes[path]))
        report.notes.append(
            f"{directory.shown(path)}: a sub-index nothing linked; linked it from {INDEX_FILENAME}"
        )
    for path in orphans:
        memory = directory.memories[path]
        line = _orphan_entry(path, memory)
        kind = memory.memory_type
        report.indexed += 1
        report.improve(directory.shown(path))
        report.notes.append(f"{directory.shown(path)}: no entry linked it; added one")
        if not typed or kind is None:
            appended.append(line)
        elif kind in typed:
            section = typed[kind]
            last = max(
                (
                    n
                    for n in range(section.first, section.last + 1)
                    if index.lines[n - 1][0].strip()
                ),
                default=section.heading or 0,
            )
            after.setdefault(last, []).append(line)
        else:
            new_sections.setdefault(kind, []).append(line)
    replace = {n: [index.lines[n - 1][0], *lines] for n, lines in after.items() if n > 0}
    for kind, lines in new_sections.items():
        appended += ["", f"## {kind.capitalize()}", *lines]
    directory.set_index(INDEX_FILENAME, index.edited(replace, appended))
    if created:
        report.notes.append(f"{directory.shown(INDEX_FILENAME)}: there was none; created it")


def _orphan_entry(path: str, memory: MemoryFile) -> str:
    title = memory.name or path.removesuffix(".md")
    hook = memory.description or next(
        (line.strip() for line in memory.body.splitlines() if line.strip()), ""
    )
    title = fit_line("- [", title, MAX_ENTRY_CHARS - len(path) - 8) or path
    prefix = format_entry(title, path) + " — "
    hook = fit_line(prefix, hook.strip(), MAX_ENTRY_CHARS)
    return format_entry(title, path, hook)


def _subindex_entry(path: str, lines: IndexLines) -> str:
    contents = [content for content, _ in lines.lines if content.strip()]
    title = contents[0].lstrip("#").strip() if contents and contents[0].startswith("#") else path
    count = len(lines.index().entries)
    return format_entry(fit_line("", title, 60), path, f"{count} entries")


def _shorten_entries(directory: _Directory, report: _Report) -> None:
    for path, lines in directory.index_files():
        replace: dict[int, list[str]] = {}
        for entry in lines.index().entries:
            if len(entry.raw) <= MAX_ENTRY_CHARS:
                continue
            line = shortened(entry)
            target = entry_path(path, entry.target)
            if line is None:
                report.notes.append(
                    f"{directory.shown(path)}: the entry '{entry.title}' is over "
                    f"{MAX_ENTRY_CHARS} characters even without its hook; left for a person"
                )
                continue
            if target is not None and is_subindex_path(target):
                pass  # its hook only lists the sub-index's titles
            elif target in directory.memories:
                if not _keep_cut_detail(directory, path, entry, line, target, report):
                    continue
            else:
                report.notes.append(
                    f"{directory.shown(path)}: the entry '{entry.title}' is over "
                    f"{MAX_ENTRY_CHARS} characters, but it links no memory file that could "
                    "take the detail; left as it is"
                )
                continue
            replace[entry.line] = [line]
            report.shortened[directory.shown(target or entry.target)] = None
        if replace:
            directory.set_index(path, lines.edited(replace))


def _keep_cut_detail(
    directory: _Directory,
    index_path: str,
    entry: IndexEntry,
    line: str,
    target: str,
    report: _Report,
) -> bool:
    """Append the entry's hook to the memory when shortening cuts something the
    memory does not say. False when the memory cannot be edited."""
    memory = directory.memories[target]
    cut = cut_part(entry, line)
    known = f"{memory.name or ''}\n{memory.description or ''}\n{memory.body}"
    report.improve(directory.shown(target))
    if not cut or covered(cut, known):
        report.notes.append(
            f"{directory.shown(index_path)}: shortened the entry for {target} to "
            f"{MAX_ENTRY_CHARS} characters; the file already says what was cut"
        )
        return True
    hook, _ = rewrite_relative_dates(entry.hook, directory.reference(index_path))
    body = memory.body.rstrip("\r\n")
    try:
        updated = memory.replace(body=(body + "\n\n" if body else "") + hook + "\n")
    except ValueError as error:
        report.notes.append(f"{directory.shown(target)}: entry left long ({error})")
        return False
    directory.set_memory(updated)
    report.notes.append(
        f"{directory.shown(index_path)}: shortened the entry for {target} to "
        f"{MAX_ENTRY_CHARS} characters and added its full hook to {directory.shown(target)}, "
        "which did not say it yet"
    )
    return True


def _fit_index(directory: _Directory, report: _Report) -> None:
    if directory.index is None or within_budget(directory.index):
        return
    shown = directory.shown(INDEX_FILENAME)
    if not directory.can_split:
        report.notes.append(
            f"{shown} is over {MAX_INDEX_LINES} lines or {MAX_INDEX_BYTES:,} bytes, but "
            f"{directory.shown(SUBINDEX_DIRNAME)} is not a plain folder; left for a person"
        )
        return
    type_of = {path: memory.memory_type for path, memory in directory.memories.items()}
    result = fit_budget(directory.index, directory.subindexes, type_of)
    for path in result.removed:
        directory.remove_subindex(path)
    for path, lines in result.subindexes.items():
        directory.set_index(path, lines)
    directory.set_index(INDEX_FILENAME, result.index)
    for group in result.moved:
        files = ", ".join(directory.shown(path) for path in group.files)
        report.moved.append(group.title)
        report.notes.append(
            f"{shown}: moved the {group.entries} entries of '{group.title}' into {files}, "
            "linked from one entry each, to keep the index within "
            f"{MAX_INDEX_LINES} lines and {MAX_INDEX_BYTES:,} bytes"
        )
    if not result.fits:
        report.notes.append(
            f"{shown} is still over {MAX_INDEX_LINES} lines or {MAX_INDEX_BYTES:,} bytes: "
            "what is left is text, not entries, and is never deleted; left for a person"
        )
    # Links one folder down are three characters longer.
    _shorten_entries(directory, report)


# -- the summary --------------------------------------------------------------------


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:_LISTED])
    return shown + (f" and {len(items) - _LISTED} more" if len(items) > _LISTED else "")


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _summary(report: _Report, stale_after_days: int) -> str:
    done: list[str] = []
    if report.merged:
        done.append(f"merged {_listed(report.merged)}")
    if report.dates:
        done.append(
            f"made {_plural(report.dates, 'relative date')} absolute in "
            f"{_plural(report.dated_files, 'file')}"
        )
    if report.dead:
        done.append(
            f"removed {_plural(report.dead, 'index entry', 'index entries')} that linked no file"
        )
    if report.indexed:
        done.append(f"indexed {_plural(report.indexed, 'file')} no entry linked")
    if report.shortened:
        done.append(
            f"shortened {_plural(len(report.shortened), 'index entry', 'index entries')} "
            f"to {MAX_ENTRY_CHARS} characters"
        )
    if report.moved:
        done.append(
            f"moved {_listed(report.moved)} into sub-indexes to keep {INDEX_FILENAME} within "
            f"{MAX_INDEX_LINES} lines and {MAX_INDEX_BYTES:,} bytes"
        )
    improved = list(report.improved)
    if done:
        text = (
            f"Improved {_plural(len(improved), 'memory', 'memories')} ({_listed(improved)}): "
            + "; ".join(done)
            + "."
        )
    else:
        text = "Nothing to improve: no duplicates, relative dates or index problems found."
    if report.stale:
        text += (
            f" {_plural(len(report.stale), 'memory is', 'memories are')} over "
            f"{stale_after_days} days old and may be stale: {_listed(report.stale)}."
        )
    return text
