"""The deterministic dream: the structural part of consolidation, without a model (SPEC D8).

It does only what it can explain in one line each, and it never loses content:

1. relative dates in bodies and descriptions become absolute, against the day the
   file last changed (``context.last_changed``);
2. near-duplicates of one type merge into the newest of them (`memsync.dream.dedupe`):
   every line of the others is kept, after the newest's, and their index entries go;
3. index entries that point at no file are removed;
4. topic files no entry links get one (under their type's heading when the index is
   grouped by type);
5. entries over 200 characters are cut at a word boundary, and what was cut goes
   into the memory file unless the file already says it;
6. ``MEMORY.md`` is brought within what an agent sees (200 lines, 25,000 UTF-16
   units) by moving the fewest, least useful entries into a sub-index
   (`memsync.dream.index_budget`); steps 3 to 6 are in
   `memsync.dream.pruning`;
7. memories are listed as possibly stale only with evidence beyond age
   (`memsync.dream.staleness`): they cite what the code checkout no longer has, a
   newer memory supersedes them, or a teammate's contradicts them; their text is not
   touched, since only a reader who knows the project can tell what changed.

Each memory's reading (its words, profile and claims) and each compared pair's verdict
are worked out once per dream, and kept for the next dream of the same repository in
its Git directory (`memsync.dream.readings`): the next one reads only what changed.

Scopes: in a personal dream the personal directory is consolidated and ``team/`` is
read-only; in a team dream (the server's repository) duplicates merge only when they
are exact or near-exact copies. ``CLAUDE.md`` is never edited (SPEC D4).
"""

from __future__ import annotations

import contextlib
import gc
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import datetime

from memsync.dream.code_checkout import CodeCheckout
from memsync.dream.dedupe import Candidate, DuplicateGroup, covered, find_duplicates, union_bodies
from memsync.dream.engine import (
    DreamCancelled,
    DreamContext,
    DreamProgress,
    EngineResult,
    Scope,
)
from memsync.dream.index_edit import entry_path, with_hook, with_target
from memsync.dream.pruning import drop_dead_entries, fit_index, index_orphans, shorten_entries
from memsync.dream.readings import AnalysisCache, Readings, reading
from memsync.dream.staleness import find_stale
from memsync.dream.usefulness import inbound_links
from memsync.dream.visibility import MAX_INDEX_UTF16_UNITS
from memsync.dream.workspace import DreamDirectory, DreamReport, DreamWriter
from memsync.memory import (
    INDEX_FILENAME,
    MAX_ENTRY_CHARS,
    MAX_INDEX_LINES,
    TEAM_DIRNAME,
    MemoryDirectory,
    MemoryFile,
)
from memsync.memory.dates import has_date_hint, rewrite_hinted_dates

ENGINE_NAME = "deterministic"


@contextlib.contextmanager
def _collector_off() -> Iterator[None]:
    """A dream keeps what it reads until it ends and frees the rest by reference
    counting: it makes no cyclic garbage (none after a 10,000-memory dream), so every
    pass of the cyclic collector over its thousands of objects finds nothing, at a
    cost of a sixth of the reading and a fourteenth of the whole dream. Off while the
    dream runs, then as it was."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


_LISTED = 10
# Stale memories with a note each; the rest are counted.
_STALE_NOTES = 20
_STALE_IN_SUMMARY = 3

_Step = Callable[[DreamDirectory, DreamReport], None]


class DeterministicEngine:
    """Structural consolidation without a model (SPEC D8)."""

    name = ENGINE_NAME

    def __init__(self, cache: AnalysisCache | None = None) -> None:
        """`cache`: where each memory's reading is kept between dreams; by default the
        Git directory of the repository the worktree checks out (`AnalysisCache`)."""
        self.cache = cache

    def consolidate(self, context: DreamContext, progress: DreamProgress) -> EngineResult:
        cache = self.cache or AnalysisCache.of_worktree(context.workdir)
        readings = cache.load() if cache is not None else Readings()
        with _collector_off(), reading(readings):
            result = self._consolidate(context, progress)
        if cache is not None and readings.computed:
            cache.save(readings)
        return result

    def _consolidate(self, context: DreamContext, progress: DreamProgress) -> EngineResult:
        report = DreamReport()
        writer = DreamWriter(context.workdir, progress)

        def step(run: _Step, directories: list[DreamDirectory]) -> None:
            for directory in directories:
                if progress.cancelled():
                    raise DreamCancelled("the dream was cancelled")
                run(directory, report)
                directory.flush(writer)

        progress.phase("orient")
        directories = self._directories(context, report)
        progress.phase("gather")
        with writer.confined.held():  # one open for every write
            _list_stale(context, directories, report)
            progress.phase("consolidate")
            step(_rewrite_dates, directories)
            step(_rewrite_hook_dates, directories)
            step(_merge_duplicates, directories)
            progress.phase("prune")
            step(drop_dead_entries, directories)
            step(index_orphans, directories)
            step(shorten_entries, directories)
            step(fit_index, directories)
        if progress.cancelled():
            raise DreamCancelled("the dream was cancelled")
        return EngineResult(
            summary=_summary(report),
            files_touched=sorted(writer.touched),
            engine=ENGINE_NAME,
            notes=report.notes,
            stale=[f"{stale.path}: {stale.reason}" for stale in report.stale],
        )

    def _directories(self, context: DreamContext, report: DreamReport) -> list[DreamDirectory]:
        team = context.scope is Scope.TEAM
        directories = [DreamDirectory(context, "", conservative=team)]
        team_root = context.workdir / TEAM_DIRNAME
        if team_root.is_dir() and not team_root.is_symlink():
            if team:
                directories.append(DreamDirectory(context, f"{TEAM_DIRNAME}/", conservative=True))
            else:
                report.notes.append(
                    f"{TEAM_DIRNAME}/ is the team's memory: read-only in a personal dream, "
                    "so nothing in it was changed"
                )
        for directory in directories:
            if directory.index_linked:
                report.notes.append(
                    f"{directory.shown(INDEX_FILENAME)} is a symbolic link: the index was left "
                    "as it is"
                )
            for path in directory.left_alone:
                report.notes.append(
                    f"{directory.shown(path)}: left as it is (not UTF-8 text, or its "
                    "frontmatter cannot be read)"
                )
        return directories


def _list_stale(
    context: DreamContext, directories: list[DreamDirectory], report: DreamReport
) -> None:
    code = CodeCheckout(context.code_dir) if context.code_dir is not None else None
    teammates: dict[str, tuple[MemoryFile, datetime]] = {}
    team_root = context.workdir / TEAM_DIRNAME
    if context.scope is Scope.PERSONAL and team_root.is_dir() and not team_root.is_symlink():
        for path, memory in MemoryDirectory.read(team_root, links=False).files.items():
            shown = f"{TEAM_DIRNAME}/{path}"
            teammates[shown] = (memory, context.last_changed.get(shown, context.now))
    for directory in directories:
        report.stale += find_stale(
            directory.memories,
            directory.changed_at,
            shown=directory.shown,
            code=code,
            teammates=teammates if not directory.prefix else None,
        )
    for stale in report.stale[:_STALE_NOTES]:
        report.notes.append(
            f"{stale.path}: possibly stale: {stale.reason}; check it before relying on it"
        )
    if len(report.stale) > _STALE_NOTES:
        report.notes.append(
            f"{len(report.stale) - _STALE_NOTES} more memories are possibly stale (not listed)"
        )


# -- consolidate ------------------------------------------------------------------


def _rewrite_dates(directory: DreamDirectory, report: DreamReport) -> None:
    for path in sorted(directory.memories):
        memory = directory.memories[path]
        description = memory.metadata.get("description")
        in_body = has_date_hint(memory.body)
        in_description = isinstance(description, str) and directory.has_date_hint(description)
        if not in_body and not in_description:
            continue  # most memories: no need for the day the file last changed
        reference = directory.reference(path)
        changes: dict[str, str] = {}  # "body" and/or "description"
        phrases: list[str] = []
        if in_body:
            body, found = rewrite_hinted_dates(memory.body, reference)
            if found:
                changes["body"] = body
                phrases += [f"'{item.phrase}' → {item.text}" for item in found]
        if in_description and isinstance(description, str):
            rewritten, found = rewrite_hinted_dates(description, reference)
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


def _rewrite_hook_dates(directory: DreamDirectory, report: DreamReport) -> None:
    """Hooks often repeat the description, relative dates included. A hook was written
    with its memory, so the memory's last change is its reference."""
    for path, lines in directory.index_files():
        replace: dict[int, list[str]] = {}
        for entry in lines.index().entries:
            if not directory.has_date_hint(entry.hook):
                continue
            target = entry_path(path, entry.target)
            known = target is not None and target in directory.memories
            reference = directory.reference(target if known and target else path)
            hook, found = rewrite_hinted_dates(entry.hook, reference)
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


def _merge_duplicates(directory: DreamDirectory, report: DreamReport) -> None:
    linked = inbound_links(directory.memories)
    candidates = [
        Candidate(
            path=path,
            type=memory.memory_type or _type_from_name(path) or "",
            name=memory.name,
            text=f"{memory.description or ''}\n{memory.body}",
            changed=directory.changed_at(path),
            links=linked[path],
        )
        for path, memory in sorted(directory.memories.items())
    ]
    candidates = _typed_by_duplicates(candidates, directory.conservative)
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


def _typed_by_duplicates(candidates: list[Candidate], conservative: bool) -> list[Candidate]:
    """The candidates, each memory of no type (no frontmatter, no type in its file name)
    given the type of the memories it duplicates when they are all of one type, and
    left out otherwise. A type is what frontmatter adds, not a fact, so a copy of a
    typed memory is still a copy; duplicates in two types is no clear answer, and when
    unsure nothing merges. Costs a second pass only when such memories exist."""
    untyped = [memory for memory in candidates if not memory.type]
    typed = [memory for memory in candidates if memory.type]
    if not untyped:
        return candidates
    kinds = sorted({memory.type for memory in typed})
    trial = typed + [replace(memory, type=kind) for memory in untyped for kind in kinds]
    found: dict[str, set[str]] = {memory.path: set() for memory in untyped}
    by_path = {memory.path: memory for memory in typed}
    for group in find_duplicates(trial, conservative=conservative):
        members = [group.keep, *group.absorbed]
        kind = next((by_path[path].type for path in members if path in by_path), None)
        for path in members:
            if path in found and kind is not None:
                found[path].add(kind)
    return typed + [
        replace(memory, type=next(iter(found[memory.path])))
        for memory in untyped
        if len(found[memory.path]) == 1
    ]


def _type_from_name(path: str) -> str | None:
    """A memory without frontmatter still has a type in its name, as Claude Code names
    files (``feedback_testing.md``)."""
    prefix = path.partition("_")[0]
    return prefix if prefix in ("user", "feedback", "project", "reference") else None


def _merge(directory: DreamDirectory, group: DuplicateGroup, report: DreamReport) -> bool:
    keeper = directory.memories[group.keep]
    older = [directory.memories[path] for path in group.absorbed]
    body, _added = union_bodies(keeper.body, *(memory.body for memory in older))
    # A plain Markdown file kept over its typed copy takes that copy's frontmatter, so
    # the merged memory keeps the name, description and type Claude Code reads.
    typed = next((memory for memory in older if memory.memory_type), None)
    if typed is not None and not keeper.has_frontmatter:
        keeper = keeper.replace(metadata=typed.metadata)
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
            f"({group.reasons[path]}); kept {directory.shown(group.keep)} as "
            f"{group.kept_because}: its text comes first, then every line of the other it "
            "did not already have, so every fact of both stays; the other file and its "
            "index entry were removed"
        )
    return True


def _redirect_entries(directory: DreamDirectory, groups: list[DuplicateGroup]) -> None:
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


def _redirect_links(directory: DreamDirectory, moved: dict[str, str]) -> list[str]:
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


# -- the summary --------------------------------------------------------------------


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:_LISTED])
    return shown + (f" and {len(items) - _LISTED} more" if len(items) > _LISTED else "")


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _summary(report: DreamReport) -> str:
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
            f"moved the entries of {_plural(len(report.moved), 'memory', 'memories')} "
            f"({_listed(report.moved)}) into a sub-index to keep {INDEX_FILENAME} within "
            f"{MAX_INDEX_LINES} lines and {MAX_INDEX_UTF16_UNITS:,} UTF-16 units"
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
        kinds = Counter(stale.kind for stale in report.stale)
        top = "; ".join(
            f"{stale.path} ({stale.reason})" for stale in report.stale[:_STALE_IN_SUMMARY]
        )
        more = len(report.stale) - _STALE_IN_SUMMARY
        text += (
            f" {_plural(len(report.stale), 'memory', 'memories')} may be stale, with evidence ("
            + ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items()))
            + f"): {top}"
            + (f" and {more} more" if more > 0 else "")
            + "."
        )
    return text
