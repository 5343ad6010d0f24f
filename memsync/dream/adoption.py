"""What a reviewer does with a proposal (SPEC D5): approve, reject, revert.

Approve merges ``dream/<id>`` into ``main`` with a merge commit (a real merge when
``main`` moved; ``MEMORY.md`` goes through the entry merge driver). A conflict in a
topic file changes nothing: the proposal is marked conflicted and keeps its branch.

Partial adoption (the dashboard lets a maintainer drop files): an adoption commit on
top of the dream restores each dropped file to what it was when the dream started, and
mends ``MEMORY.md`` so it points at no file that is not there and keeps the entries of
files that still are; that commit is what gets merged. Both commits and the merge say
``Memsync-Dropped: <path>``. Reverting the merge later undoes exactly what was adopted.

Reject keeps the dream commit under ``refs/memsync/rejected/<id>`` (a tag object naming
who and when) and deletes the branch. Nothing here ever rewrites history.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from memsync.confined import ConfinedRoot
from memsync.dream.proposals import adoption_commit
from memsync.dream.run import default_worktrees_dir
from memsync.memory import INDEX_FILENAME, MemoryIndex
from memsync.store import (
    MAIN,
    CommitInfo,
    CommitKind,
    Identity,
    MemoryRepo,
    MergeResult,
    StoreError,
    refs,
    trailers,
)


class ProposalError(StoreError):
    """The proposal cannot be acted on as asked; the message says why."""


@dataclass(frozen=True)
class Approval:
    dream_id: str
    status: str  # adopted, conflict
    commit: str | None = None  # the merge on main
    conflicts: tuple[str, ...] = field(default=())
    dropped: tuple[str, ...] = field(default=())

    @property
    def adopted(self) -> bool:
        return self.status == "adopted"


def approve(
    repo: MemoryRepo,
    dream_id: str,
    *,
    approver: str | Identity,
    exclude: Iterable[str] = (),
    author: Identity | None = None,
    worktrees_dir: Path | None = None,
) -> Approval:
    """Merge the proposal into ``main``, without the files in ``exclude``. The approver
    (a name, or an identity that then also authors the merge) goes in a trailer."""
    if author is None and isinstance(approver, Identity):
        author = approver
    branch = refs.dream_branch(dream_id)
    dream = _open_proposal(repo, dream_id)
    if repo.current_branch() != MAIN:
        raise ProposalError(f"{repo.path} must have {MAIN} checked out to adopt a dream")
    dropped = _checked_drops(dream, exclude)
    written = [trailers.DREAM(dream_id), trailers.APPROVED_BY(approver)]
    written += [trailers.DROPPED(path) for path in dropped]
    source = branch
    if dropped:
        source = _adoption_branch(
            repo, dream, dropped, author, worktrees_dir or default_worktrees_dir(repo.path)
        )
    try:
        conflicts = repo.merge_preview(source, MAIN)
        result = None
        if not conflicts:
            result = repo.merge(
                source,
                kind=CommitKind.MERGE,
                summary=f"adopt dream {dream_id}",
                trailers=written,
                author=author,
                body=dream.body,
            )
            conflicts = [conflict.path for conflict in result.conflicts]
        if result is None or result.status == "conflict":
            main = repo.rev_parse(MAIN)
            assert main is not None
            repo.update_ref(refs.conflicted_ref(dream_id), main)
            return Approval(dream_id, "conflict", conflicts=tuple(conflicts), dropped=dropped)
        if result.status != "merged":
            raise ProposalError(f"dream {dream_id} is already part of {MAIN}")
    finally:
        if source != branch:
            repo.delete_branch(source)
    repo.delete_branch(branch)
    if repo.rev_parse(refs.conflicted_ref(dream_id)) is not None:
        repo.delete_ref(refs.conflicted_ref(dream_id))
    return Approval(dream_id, "adopted", commit=result.commit, dropped=dropped)


def reject(repo: MemoryRepo, dream_id: str, *, by: str | Identity, reason: str = "") -> str:
    """Close the proposal; its commit stays under ``refs/memsync/rejected/<id>``."""
    dream = _open_proposal(repo, dream_id)
    who = by if isinstance(by, Identity) else Identity(by, "")
    message = f"reject dream {dream_id}\n" + (f"\n{reason.strip()}\n" if reason.strip() else "")
    tag = repo.tag_object(dream.sha, f"rejected/{dream_id}", tagger=who, message=message)
    ref = refs.rejected_ref(dream_id)
    repo.update_ref(ref, tag)
    repo.delete_branch(refs.dream_branch(dream_id))
    if repo.rev_parse(refs.conflicted_ref(dream_id)) is not None:
        repo.delete_ref(refs.conflicted_ref(dream_id))
    return ref


def revert(repo: MemoryRepo, rev: str, *, author: Identity | None = None) -> MergeResult:
    """Undo an adopted dream (by id, by its merge or by its dream commit) or any commit,
    with a revert commit on ``main`` that keeps every later edit."""
    merge = adoption_commit(repo, rev)
    if merge is None:
        sha = repo.rev_parse(rev)
        if sha is None:
            raise ProposalError(f"no adopted dream or commit {rev!r}")
        info = repo.commit_info(sha)
        dream_id = trailers.DREAM.last(info)
        if dream_id and not info.is_merge:
            merge = adoption_commit(repo, dream_id)  # the dream commit: revert its adoption
        target = merge.sha if merge is not None else sha
    else:
        dream_id, target = rev, merge.sha
    if repo.current_branch() != MAIN:
        raise ProposalError(f"{repo.path} must have {MAIN} checked out to revert")
    summary = f"revert dream {dream_id}" if dream_id and merge is not None else None
    written = [trailers.DREAM(dream_id)] if dream_id and merge is not None else []
    return repo.revert(target, summary=summary, trailers=written, author=author)


def reconcile_index(
    index: MemoryIndex, existing: Collection[str], fallbacks: Sequence[MemoryIndex] = ()
) -> MemoryIndex:
    """``index`` without entries for files not in ``existing``, plus the entries the
    ``fallbacks`` have for existing files ``index`` does not list (under their heading)."""
    result = index
    for entry in index.entries:
        if entry.file is not None and entry.file not in existing:
            result = result.without_entry(entry.target)
    for fallback in fallbacks:
        for entry in fallback.entries:
            if entry.file is None or entry.file not in existing:
                continue
            if result.entry_for(entry.file) is not None:
                continue
            result = result.with_entry(
                entry.title, entry.target, entry.hook, heading=fallback.heading_for(entry)
            )
    return result


def _open_proposal(repo: MemoryRepo, dream_id: str) -> CommitInfo:
    tip = repo.rev_parse(refs.head_ref(refs.dream_branch(dream_id)))
    if tip is None:
        if repo.rev_parse(refs.rejected_ref(dream_id)) is not None:
            raise ProposalError(f"dream {dream_id} was rejected")
        if adoption_commit(repo, dream_id) is not None:
            raise ProposalError(f"dream {dream_id} was already adopted")
        raise ProposalError(f"no open proposal {dream_id!r}")
    info = repo.commit_info(tip)
    if trailers.DREAM.last(info) != dream_id:
        raise ProposalError(
            f"{refs.dream_branch(dream_id)} holds no dream commit (an abandoned dream)"
        )
    return info


def _checked_drops(dream: CommitInfo, exclude: Iterable[str]) -> tuple[str, ...]:
    changed = {stat.path for stat in dream.files}
    dropped = []
    for raw in exclude:
        path = PurePosixPath(raw.strip()).as_posix()
        if path not in changed:
            raise ProposalError(
                f"{raw!r} is not changed by this dream; it changes {', '.join(sorted(changed))}"
            )
        dropped.append(path)
    return tuple(sorted(set(dropped)))


def _adoption_branch(
    repo: MemoryRepo,
    dream: CommitInfo,
    dropped: tuple[str, ...],
    author: Identity | None,
    worktrees_dir: Path,
) -> str:
    """A commit on top of the dream that takes ``dropped`` back to the dream's base and
    mends the index; returns the temporary branch holding it."""
    dream_id = trailers.DREAM.last(dream) or ""
    base = dream.parents[0]
    branch = refs.adoption_scratch_branch(dream_id)
    worktree = worktrees_dir / f"adopt-{dream_id}"
    repo.remove_worktree(worktree)  # what an interrupted approval may have left
    if repo.rev_parse(refs.head_ref(branch)) is not None:
        repo.delete_branch(branch)
    worktrees_dir.mkdir(parents=True, exist_ok=True)
    workspace = repo.add_worktree(worktree, branch, dream.sha)
    try:
        # Never through a link the tree may hold (issue 10).
        confined = ConfinedRoot(worktree)
        existing = set(repo.files(dream.sha))
        for path in dropped:
            original = repo.read(base, path)
            if original is None:
                confined.unlink(path, missing_ok=True)
                existing.discard(path)
            else:
                confined.write(path, original)
                existing.add(path)
        if confined.exists(INDEX_FILENAME):
            current = MemoryIndex.parse_bytes(confined.read_bytes(INDEX_FILENAME))
            fallbacks = [
                MemoryIndex.parse_bytes(data)
                for data in (repo.read(base, INDEX_FILENAME), repo.read(dream.sha, INDEX_FILENAME))
                if data is not None
            ]
            mended = reconcile_index(current, existing, fallbacks)
            if mended != current:
                confined.write(INDEX_FILENAME, mended.render_bytes())
        workspace.commit(
            CommitKind.DREAM,
            f"adopt dream {dream_id} without {', '.join(dropped)}",
            [trailers.DREAM(dream_id), *(trailers.DROPPED(path) for path in dropped)],
            author=author,
        )
    finally:
        repo.remove_worktree(worktree)
    return branch
