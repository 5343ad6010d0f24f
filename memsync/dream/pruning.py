"""The prune phase of the deterministic dream: the index files (SPEC F3, D8).

Entries that link no file are removed; topic files no entry reaches get one, under
their type's heading when the index is grouped by type; entries over 200 characters
are cut at a word boundary, the cut detail going into the memory unless it already
says it; and ``MEMORY.md`` is brought within what an agent sees (200 lines, 25,000
UTF-16 units) by moving the fewest, least useful entries into a sub-index
(`memsync.dream.index_budget`).
"""

from __future__ import annotations

from memsync.dream.dedupe import covered
from memsync.dream.index_budget import fit_budget, within_budget
from memsync.dream.index_edit import (
    SUBINDEX_DIRNAME,
    IndexLines,
    Section,
    cut_part,
    entry_path,
    fit_line,
    heading_type,
    is_subindex_path,
    sections,
    shortened,
)
from memsync.dream.usefulness import usefulness_of
from memsync.dream.visibility import MAX_INDEX_UTF16_UNITS
from memsync.dream.workspace import DreamDirectory, DreamReport
from memsync.memory import (
    INDEX_FILENAME,
    MAX_ENTRY_CHARS,
    MAX_INDEX_LINES,
    IndexEntry,
    MemoryFile,
    format_entry,
    rewrite_relative_dates,
)


def drop_dead_entries(directory: DreamDirectory, report: DreamReport) -> None:
    """Remove entries, in MEMORY.md and sub-indexes, whose file does not exist."""
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


def _reachable(directory: DreamDirectory) -> tuple[set[str], set[str]]:
    """Files linked from MEMORY.md directly or through a sub-index it links, and the
    sub-indexes it links."""
    if directory.index is None:
        return set(), set()
    direct = {
        target
        for written in directory.index.targets()
        if (target := entry_path(INDEX_FILENAME, written)) is not None
    }
    linked_subindexes = {path for path in direct if path in directory.subindexes}
    reached = set(direct)
    for path in linked_subindexes:
        for written in directory.subindexes[path].targets():
            target = entry_path(path, written)
            if target is not None:
                reached.add(target)
    return reached, linked_subindexes


def index_orphans(directory: DreamDirectory, report: DreamReport) -> None:
    """Give every topic file MEMORY.md does not reach an entry, and link loose
    sub-indexes; create MEMORY.md when there is none."""
    reached, linked_subindexes = _reachable(directory)
    loose_subindexes = sorted(set(directory.subindexes) - linked_subindexes)
    orphans = sorted(path for path in directory.memories if path not in reached)
    if not orphans and not loose_subindexes:
        return
    if directory.index_linked:
        return
    created = directory.index is None
    index = directory.index or IndexLines.parse("# Memory Index\n\n")
    parts = sections(index)
    typed = {heading_type(section.title): section for section in parts if section.heading}
    typed.pop(None, None)
    # Where each type's new entries go: after its section's last non-blank line.
    ends = {kind: _last_written(index, section) for kind, section in typed.items()}
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
            after.setdefault(ends[kind], []).append(line)
        else:
            new_sections.setdefault(kind, []).append(line)
    replace = {n: [index.lines[n - 1][0], *lines] for n, lines in after.items() if n > 0}
    for kind, lines in new_sections.items():
        appended += ["", f"## {kind.capitalize()}", *lines]
    directory.set_index(INDEX_FILENAME, index.edited(replace, appended))
    if created:
        report.notes.append(f"{directory.shown(INDEX_FILENAME)}: there was none; created it")


def _last_written(index: IndexLines, section: Section) -> int:
    """The last non-blank line of `section`, or its heading when it has none."""
    return max(
        (n for n in range(section.first, section.last + 1) if index.lines[n - 1][0].strip()),
        default=section.heading or 0,
    )


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


def shorten_entries(directory: DreamDirectory, report: DreamReport) -> None:
    """Cut entries over 200 characters, keeping what was cut in the memory."""
    for path, lines in directory.index_files():
        # An entry is one line as written: only long lines need parsing (after the
        # budget: dozens of files of entries, a few of them long).
        replace: dict[int, list[str]] = {}
        for entry in lines.long_entries(MAX_ENTRY_CHARS):
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
    directory: DreamDirectory,
    index_path: str,
    entry: IndexEntry,
    line: str,
    target: str,
    report: DreamReport,
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


def fit_index(directory: DreamDirectory, report: DreamReport) -> None:
    """Bring MEMORY.md within what an agent sees, moving the least useful entries out."""
    if directory.index is None or within_budget(directory.index):
        return
    shown = directory.shown(INDEX_FILENAME)
    limits = f"{MAX_INDEX_LINES} lines and {MAX_INDEX_UTF16_UNITS:,} UTF-16 units"
    if not directory.can_split:
        report.notes.append(
            f"{shown} is over {limits}, but {directory.shown(SUBINDEX_DIRNAME)} is not a "
            "plain folder; left for a person"
        )
        return
    rank = usefulness_of(directory.memories, directory.changed_at)
    result = fit_budget(directory.index, directory.subindexes, rank)
    for path in result.removed:
        directory.remove_subindex(path)
    for path, lines in result.subindexes.items():
        directory.set_index(path, lines)
    directory.set_index(INDEX_FILENAME, result.index)
    if result.blank_lines:
        report.notes.append(
            f"{shown}: removed {result.blank_lines} blank lines to keep entries within {limits}"
        )
    if result.moved:
        files = ", ".join(directory.shown(path) for path in sorted(result.subindexes))
        report.moved.extend(directory.shown(path) for path in result.moved)
        report.notes.append(
            f"{shown}: moved the entries of the {len(result.moved)} least useful memories "
            f"(by type, links from other memories, then age) into {files} to keep the index "
            f"within {limits}; every other entry stays where it was: "
            + ", ".join(directory.shown(path) for path in result.moved[:10])
            + (f" and {len(result.moved) - 10} more" if len(result.moved) > 10 else "")
        )
    if not result.fits:
        report.notes.append(
            f"{shown} is still over {limits}: what is left is text, not entries, and is "
            "never deleted; left for a person"
        )
    # Links one folder down are three characters longer.
    shorten_entries(directory, report)
