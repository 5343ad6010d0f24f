"""Extraction on the server: onto a branch of the member's, never onto ``main`` (SPEC E5,
T1), and never onto ``members/<user>`` either.

An uploaded session belongs to one member, so its extraction lands on the server's
``extractions/<user>`` and reaches ``main`` the way a push does: through the member
merge, with its secret scan and review. ``members/<user>`` only ever moves when its
member pushes: a commit of the server's there made their next push non-fast-forward.
The work happens in a worktree of its own (``extract/<name>`` started from ``main``
when the branch is already merged there, else from the branch), so nothing else is
touched meanwhile. The result moves the branch with a compare-and-swap: if it moved
during the extraction (another extraction of the member's), `MemberBranchMoved` is
raised and nothing changes (the caller keeps the cursor, the next upload retries).

The commit records the session's cursor after it (``Memsync-Cursor``), so a caller
that stores the cursor only once the branch has moved, and is killed in between, finds
it again with `landed_cursor`: its retry extracts nothing twice.

Before anything is committed the changes are screened as a push would be: secrets,
the size cap, path safety, encoding (`screen_for_team`). A refused extraction
leaves no commit and no blob behind.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from memsync.extract.engine import ExtractionEngine
from memsync.extract.run import ExtractionResult, extract_messages, skipped_result
from memsync.extract.transcript import Transcript
from memsync.secrets import check_blob, check_path
from memsync.store import MAIN, GitError, Identity, MemoryRepo, refs, trailers

_NO_COMMIT = "0" * 40


class MemberBranchMoved(Exception):
    """The member's branch changed while the extraction ran; nothing was stored."""


def screen_for_team(changes: Mapping[str, bytes | None]) -> list[str]:
    """What would refuse these changes in a push (messages never hold the secret)."""
    messages = []
    for path, data in sorted(changes.items()):
        unsafe = check_path(path)
        if unsafe is not None:
            messages.append(unsafe.message())
        elif data is not None:
            messages += [finding.message() for finding in check_blob(path, data)]
    return messages


def extract_onto_branch(
    repo: MemoryRepo,
    transcript: Transcript,
    engine: ExtractionEngine,
    *,
    branch: str,
    workdir: Path,
    since: int,
    every_turns: int = 1,
    author: Identity | None = None,
) -> ExtractionResult:
    """Extract into a worktree at `workdir` and move `branch` to the result.

    `workdir` must not exist; it is removed afterwards, with its temporary branch.
    """
    skipped = skipped_result(transcript, engine, since=since, every_turns=every_turns)
    if skipped is not None:
        return skipped
    ref = refs.head_ref(branch)
    tip = repo.rev_parse(ref)
    main = repo.rev_parse(MAIN)
    start = main if tip is None or (main is not None and repo.is_ancestor(tip, main)) else tip
    assert start is not None, "a memsync repository always has a first commit on main"
    scratch = refs.extraction_scratch_branch(workdir.name)
    worktree = repo.add_worktree(workdir, scratch, start)
    try:
        result = extract_messages(
            worktree,
            transcript,
            engine,
            since=since,
            screen=screen_for_team,
            author=author,
            extra_trailers=[trailers.CURSOR(transcript.next_cursor)],
        )
        if result.commit is not None:
            try:
                repo.update_ref(ref, result.commit, old=tip or _NO_COMMIT)
            except GitError as error:
                raise MemberBranchMoved(
                    f"{branch} moved while the extraction ran; it was left as it is"
                ) from error
        return result
    finally:
        repo.remove_worktree(workdir)
        if repo.rev_parse(refs.head_ref(scratch)) is not None:
            repo.delete_branch(scratch)


def landed_cursor(repo: MemoryRepo, branch: str, session_id: str) -> int | None:
    """The cursor recorded by the newest extraction of `session_id` on `branch`; None
    when none landed there. Only the server's extractions record one: a developer's own
    extraction of the same session, merged into ``main``, does not count."""
    # A plain-text match also finds a longer session id starting with this one: checked
    # below, newest first.
    found = repo.log(
        refs.head_ref(branch),
        containing=[f"{trailers.SESSION.name}: {session_id}", trailers.CURSOR.name],
    )
    for commit in found:
        cursor = trailers.CURSOR.last(commit)
        if trailers.SESSION.last(commit) == session_id and cursor and cursor.isdigit():
            return int(cursor)
    return None
