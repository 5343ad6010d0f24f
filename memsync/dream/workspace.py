"""One memory directory as the deterministic dream changes it, and what it reports.

`DreamDirectory` holds the parsed topic files and index files of one memory directory
of the worktree (the root, or ``team/``) and the changes not yet written;
`DreamWriter` writes them, never through a symbolic link, and reports each file to
the run (SPEC D7); `DreamReport` collects what was done, for the summary and notes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

from memsync.confined import ConfinedRoot, EntryKind
from memsync.dream.engine import DreamContext, DreamProgress
from memsync.dream.index_edit import SUBINDEX_DIRNAME, IndexLines
from memsync.dream.staleness import StaleMemory
from memsync.memory import INDEX_FILENAME, MemoryDirectory, MemoryFile, ProblemCode
from memsync.memory.dates import has_date_hint

# Instructions for people and other tools, never memories (SPEC D4: CLAUDE.md wins).
PROTECTED_NAMES = frozenset({"claude.md", "claude.local.md"})


@dataclass
class DreamReport:
    """What a deterministic dream did, for its summary and notes."""

    notes: list[str] = field(default_factory=list)
    improved: dict[str, None] = field(default_factory=dict)
    merged: list[str] = field(default_factory=list)
    dates: int = 0
    dated_files: int = 0
    dead: int = 0
    indexed: int = 0
    shortened: dict[str, None] = field(default_factory=dict)
    moved: list[str] = field(default_factory=list)
    stale: list[StaleMemory] = field(default_factory=list)

    def improve(self, path: str) -> None:
        self.improved[path] = None


class DreamWriter:
    """Writes the dream's changes into the worktree and reports each file (SPEC D7)."""

    def __init__(self, workdir: Path, progress: DreamProgress) -> None:
        self.workdir = workdir
        self.confined = ConfinedRoot(workdir)
        self.progress = progress
        self.touched: dict[str, None] = {}

    def put(self, relative: str, data: bytes | None) -> None:
        # Component by component, never through a link (issue 10): a link anywhere on
        # the way raises `ConfinementError` instead of redirecting the write.
        if data is None:
            if self.confined.kind(relative) is EntryKind.FILE:
                self.confined.unlink(relative)
        else:
            # In place: the worktree is thrown away if the dream fails, so atomic
            # replacement buys nothing there and costs a new inode per file.
            self.confined.write(relative, data, in_place=True)
        if not self.touched:
            self.progress.phase("updating")
        if relative not in self.touched:
            self.touched[relative] = None
            self.progress.touched(relative)


class DreamDirectory:
    """One memory directory of the worktree (the root, or ``team/``) being consolidated."""

    def __init__(self, context: DreamContext, prefix: str, conservative: bool) -> None:
        self.context = context
        self.prefix = prefix
        self.conservative = conservative
        self.root = context.workdir / prefix if prefix else context.workdir
        confined = ConfinedRoot(self.root)
        # Only the files and their own problems: the checks across files are the
        # prune steps' to make, on the dream's edits.
        read = MemoryDirectory.read(self.root, links=False)
        broken = {
            problem.path
            for problem in read.problems
            if problem.code is ProblemCode.FRONTMATTER_BROKEN
        }
        self.memories: dict[str, MemoryFile] = {}
        self.left_alone: list[str] = []
        # `MemoryDirectory.read` lists no link and reads each file without following
        # one, so no file here is a link: asking again costs a stat per memory.
        for path, memory in read.files.items():
            if path.casefold() in PROTECTED_NAMES:
                continue
            if not memory.is_text or path in broken:
                self.left_alone.append(path)
                continue
            self.memories[path] = memory
        self.index: IndexLines | None = None
        # A linked MEMORY.md may lead anywhere; it is neither read nor written.
        self.index_linked = confined.kind(INDEX_FILENAME) is EntryKind.LINK
        if read.index is not None and not self.index_linked:
            self.index = IndexLines.of(read.index)
        self.subindexes: dict[str, IndexLines] = {}
        folder = confined.kind(SUBINDEX_DIRNAME)
        self.can_split = folder in (EntryKind.DIRECTORY, None)
        if folder is EntryKind.DIRECTORY:
            for entry in confined.scan(SUBINDEX_DIRNAME):
                if entry.name.endswith(".md") and entry.kind is EntryKind.FILE:
                    path = f"{SUBINDEX_DIRNAME}/{entry.name}"
                    data = confined.read_bytes(path).decode("utf-8", "surrogateescape")
                    self.subindexes[path] = IndexLines.parse(data)
        self.confined = confined
        self.pending: dict[str, bytes | None] = {}
        self.removed: set[str] = set()
        self._date_hints: dict[str, bool] = {}

    def shown(self, path: str) -> str:
        return self.prefix + path

    def reference(self, path: str) -> date:
        changed = self.context.last_changed.get(self.shown(path))
        if changed is None:
            return self.context.now.date()
        return changed.astimezone(self.context.now.tzinfo).date()

    def has_date_hint(self, text: str) -> bool:
        """`has_date_hint(text)`, once per text: an entry's hook is most often its
        memory's description, and both are read for relative dates."""
        found = self._date_hints.get(text)
        if found is None:
            found = self._date_hints[text] = has_date_hint(text)
        return found

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
        text = lines.render()
        if current is not None and current.render() == text:
            return
        if path == INDEX_FILENAME:
            self.index = lines
        else:
            self.subindexes[path] = lines
        self.pending[path] = text.encode("utf-8", "surrogateescape")

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
        # A link counts as there (a dangling one too): nothing may be written over it.
        return self.confined.kind(path) is not None

    def flush(self, writer: DreamWriter) -> None:
        for path, data in sorted(self.pending.items()):
            writer.put(self.shown(path), data)
        self.pending.clear()
