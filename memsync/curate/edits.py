"""Edit, delete and confirm one memory on `main`, each as one commit.

Every verb reads `main` and commits under the repository's lock (``MemoryRepo.lock``
is re-entrant), so a concurrent extraction or merge cannot slip in between the read of
``MEMORY.md`` and the commit that rewrites it. What is refused raises `EditRefused`
with every reason, before anything is written.
"""

from __future__ import annotations

import hashlib
from datetime import date

from memsync.memory import INDEX_FILENAME, TEAM_DIRNAME, MemoryFile, MemoryIndex, is_topic_path
from memsync.secrets import MAX_BLOB_BYTES, check_blob
from memsync.store import MAIN, CommitKind, Identity, MemoryRepo

# "Still true" writes the day into the frontmatter: the content changes, so the memory's
# age (the time its content appeared on main) starts again, and the file says why.
CONFIRMED_FIELD = "confirmed"
MAX_EDIT_BYTES = MAX_BLOB_BYTES  # what a push may carry is what an edit may store


class EditRefused(ValueError):
    def __init__(self, reasons: list[str]) -> None:
        super().__init__("; ".join(reasons))
        self.reasons = reasons


def blob_id(data: bytes) -> str:
    """Git's id for ``data``: what an edit form carries to notice a change under it."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _scope_split(path: str) -> tuple[str, str]:
    """(index folder prefix, file name inside the scope) of a repository path."""
    team = f"{TEAM_DIRNAME}/"
    return (team, path.removeprefix(team)) if path.startswith(team) else ("", path)


def check_memory(path: str, data: bytes) -> MemoryFile:
    """The memory ``data`` would be at ``path``; `EditRefused` when it may not be stored:
    not a topic file, too large, a secret, not UTF-8, or frontmatter with errors."""
    _, name = _scope_split(path)
    if not is_topic_path(name):
        raise EditRefused([f"{path} is not a memory file"])
    if len(data) > MAX_EDIT_BYTES:
        raise EditRefused([f"{len(data):,} bytes is over the {MAX_EDIT_BYTES:,}-byte limit"])
    findings = check_blob(path, data)
    if findings:
        raise EditRefused([finding.message() for finding in findings])
    memory = MemoryFile.parse(name, data)
    reasons = [problem.message for problem in memory.errors]  # each names its line
    if not memory.has_frontmatter:
        reasons.append("a memory starts with its frontmatter: ---, name, description, type, ---")
    if reasons:
        raise EditRefused(reasons)
    return memory


def _current(repo: MemoryRepo, path: str) -> bytes:
    data = repo.read(MAIN, path)
    if data is None:
        raise EditRefused([f"{path} is not on main (deleted meanwhile?)"])
    return data


def _index_after_edit(
    repo: MemoryRepo, path: str, before: MemoryFile, after: MemoryFile
) -> bytes | None:
    """The scope's ``MEMORY.md`` with the entry's hook (and title, when it was the
    memory's name) following the edit, or None when it needs no change."""
    prefix, name = _scope_split(path)
    raw = repo.read(MAIN, prefix + INDEX_FILENAME)
    if raw is None or (before.description, before.name) == (after.description, after.name):
        return None
    index = MemoryIndex.parse_bytes(raw)
    entry = index.entry_for(name)
    if entry is None:
        return None
    title = after.name if after.name and entry.title == before.name else entry.title
    hook = " ".join((after.description or entry.hook).split())
    updated = index.with_entry(title, entry.target, hook)
    return None if updated is index else updated.render_bytes()


def edit_memory(
    repo: MemoryRepo, path: str, data: bytes, *, author: Identity, based_on: str | None = None
) -> str | None:
    """Store ``data`` as ``path`` on `main` in one ``edit:`` commit (None: unchanged).

    ``based_on`` is the blob id the editor started from; when `main` has another
    version now, the edit is refused rather than silently undoing that change."""
    after = check_memory(path, data)
    with repo.lock.held():
        current = _current(repo, path)
        if based_on is not None and blob_id(current) != based_on:
            raise EditRefused([f"{path} changed on main since you opened it; reload and redo"])
        if current == data:
            return None
        before = MemoryFile.parse(after.path, current)
        changes: dict[str, bytes | None] = {path: data}
        index = _index_after_edit(repo, path, before, after)
        if index is not None:
            changes[_scope_split(path)[0] + INDEX_FILENAME] = index
        return repo.apply(changes, CommitKind.EDIT, f"edit {after.path}", author=author)


def delete_memory(repo: MemoryRepo, path: str, *, author: Identity) -> str | None:
    """Remove ``path`` and its index entry from `main` in one ``delete:`` commit."""
    prefix, name = _scope_split(path)
    if not is_topic_path(name):
        raise EditRefused([f"{path} is not a memory file"])
    with repo.lock.held():
        _current(repo, path)
        changes: dict[str, bytes | None] = {path: None}
        raw = repo.read(MAIN, prefix + INDEX_FILENAME)
        if raw is not None:
            index = MemoryIndex.parse_bytes(raw)
            without = index.without_entry(name)
            if without is not index:
                changes[prefix + INDEX_FILENAME] = without.render_bytes()
        return repo.apply(changes, CommitKind.DELETE, f"delete {name}", author=author)


def confirm_memory(repo: MemoryRepo, path: str, *, author: Identity, today: date) -> str | None:
    """Record that ``path`` is still true: ``confirmed: <today>`` in its frontmatter, in
    one ``confirm:`` commit (None when it was already confirmed today)."""
    _, name = _scope_split(path)
    if not is_topic_path(name):
        raise EditRefused([f"{path} is not a memory file"])
    with repo.lock.held():
        memory = MemoryFile.parse(name, _current(repo, path))
        if not memory.has_frontmatter:
            raise EditRefused([f"{path} has no frontmatter to record the confirmation in"])
        try:
            confirmed = memory.replace(
                metadata={**memory.metadata, CONFIRMED_FIELD: today.isoformat()}
            )
        except ValueError as error:
            raise EditRefused([str(error)]) from None
        if confirmed.render() == memory.render():
            return None
        return repo.apply(
            {path: confirmed.render()},
            CommitKind.CONFIRM,
            f"confirm {name} is still true",
            author=author,
        )
