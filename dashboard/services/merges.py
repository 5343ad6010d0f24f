"""Merging a member's branch into ``main`` as a run (queued by the post-receive hook, an
extraction, or the sweep), and the periodic sweep that queues what was never merged.

The Git work and the review items are ``dashboard.sync.merge_member_branch``; this
module adds the ``Run`` the dashboard shows and the dream's nudge after a merge.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Iterator

from django.contrib.auth.models import User

from memsync.store import GitError, MemoryRepo, StoreError, refs
from memsync.store.lock import RepoLockTimeout
from memsync.store.refs import EXTRACTIONS, extraction_branch, member_branch
from memsync.sync.status import unmerged_members

from .. import notifications, sync
from ..models import Project, Run, RunKind, RunStatus
from ..queue import queue_dream_gate_check, queue_facts_warmup, queue_merge
from ..recovery import abandon_dead_runs, queue_held_uploads, queue_unextracted_uploads
from ..runs import finish_run, start_run

log = logging.getLogger(__name__)

# The most member merges one pass makes while holding the project's lock: other writers
# (an extraction's commit, a conflict resolution) wait for the lock meanwhile, and the
# tasks queued behind this one take over whatever is left.
MAX_MERGES_PER_PASS = 50
# The niceness a merge pass runs at (0 is the default, 19 the lowest priority): a storm
# of pushes and the merges it queues share the server's cores, and a push keeps its
# pusher waiting while a merge only has to reach main within seconds (issue 14).
MERGE_NICENESS = 10


def merge_into_main(
    project_id: int, username: str, *, tip: str, branch: str, task_id: str, worker: str
) -> str:
    """Merge ``members/<username>`` into ``main`` and write a merge ``Run`` for the dashboard;
    then, under the same lock, every other member branch that is ahead of ``main``.

    ``tip`` is the commit the push left on the branch, recorded for the record; the
    merge takes whatever the branch holds when it runs, so several queued merges of one
    member's pushes end in one merge and no-change runs. ``branch`` names another branch
    of the member's to merge the same way: the server's ``extractions/<username>``.

    Twenty members pushing at once queue twenty merges of one project, and each waited
    for the lock the one before held (issue 14): the first task to take the lock merges
    every member branch waiting, each with its own run, and the tasks behind it find
    their branch in ``main`` (a no-change run each) and return at once.
    """
    project = Project.objects.filter(pk=project_id).first()
    if project is None:
        return f"project {project_id} no longer exists"
    extraction = bool(branch) and branch != member_branch(username)
    branch = branch or member_branch(username)
    run = _start_merge_run(project, username, tip, task_id, worker, extraction=extraction)
    try:
        repo = sync.open_repository(project)
        with _behind_pushes(), repo.lock.held():
            summary, merged = _merge_recorded(project, repo, run, username, branch)
            merged += _merge_members_ahead(project, repo, task_id, worker)
    except (StoreError, GitError, RepoLockTimeout) as error:
        # Opening the repository or taking its lock failed: each merge records its own.
        return finish_run(run, RunStatus.FAILED, f"could not merge {branch}", error=str(error))
    if merged:
        queue_dream_gate_check(project.pk, "push")
        queue_facts_warmup(project.pk)
    return summary


@contextlib.contextmanager
def _behind_pushes() -> Iterator[None]:
    """Run the calling thread, and the git processes it starts, at :data:`MERGE_NICENESS`.

    Linux keeps a niceness per thread and a child inherits its forking thread's, so the
    worker's other threads are untouched. Raising it needs no privilege; lowering it
    back does, so an unprivileged worker process stays at this niceness once it merged
    (its later tasks are background work too).
    """
    thread = threading.get_native_id()
    before = os.getpriority(os.PRIO_PROCESS, thread)
    if before < MERGE_NICENESS:
        os.setpriority(os.PRIO_PROCESS, thread, MERGE_NICENESS)
    try:
        yield
    finally:
        with contextlib.suppress(PermissionError):
            os.setpriority(os.PRIO_PROCESS, thread, before)


def _start_merge_run(
    project: Project, username: str, tip: str, task_id: str, worker: str, *, extraction: bool
) -> Run:
    return start_run(
        project,
        RunKind.MERGE,
        trigger="extraction" if extraction else "push",
        task_id=task_id,
        worker=worker,
        requested_by=User.objects.filter(username=username).first(),
        detail={"member": username, "pushed": tip},
    )


def _merge_members_ahead(project: Project, repo: MemoryRepo, task_id: str, worker: str) -> int:
    """Merge every member branch ``main`` lacks, one run each; how many were merged.

    Listed again after each round: a push that lands meanwhile is merged in this pass.
    A branch that could not be merged (its run says why) is not tried again here.
    """
    merged = 0
    tried: set[str] = set()
    while len(tried) < MAX_MERGES_PER_PASS:
        try:
            waiting = [name for name in unmerged_members(repo) if name not in tried]
        except (StoreError, GitError):
            log.exception("could not list the member branches of %s", project.slug)
            break
        if not waiting:
            break
        for username in waiting[: MAX_MERGES_PER_PASS - len(tried)]:
            tried.add(username)
            branch = member_branch(username)
            tip = repo.rev_parse(refs.head_ref(branch)) or ""
            run = _start_merge_run(project, username, tip, task_id, worker, extraction=False)
            merged += _merge_recorded(project, repo, run, username, branch)[1]
    return merged


def _merge_recorded(
    project: Project, repo: MemoryRepo, run: Run, username: str, branch: str
) -> tuple[str, int]:
    """Merge ``branch`` of ``username`` and finish ``run`` with the outcome: its summary,
    and 1 when something was merged into ``main``."""
    try:
        merge, conflicts = sync.merge_member_branch(project, username, branch, repo=repo)
    except (StoreError, GitError) as error:
        return finish_run(run, RunStatus.FAILED, f"could not merge {branch}", error=str(error)), 0
    detail = {
        "merged": merge.member_commit or "",
        "commit": merge.commit or "",
        "conflicts": [{"id": item.pk, "path": item.path} for item in conflicts],
    }
    if merge.status == "no-branch":
        status, summary = RunStatus.SKIPPED, f"{branch} does not exist (deleted after the push)"
    elif not merge.merged:
        status, summary = RunStatus.NO_CHANGES, f"{branch} is already in main"
    elif conflicts:
        paths = ", ".join(item.path for item in conflicts)
        status, summary = RunStatus.CONFLICT, f"merged {branch} into main; kept for review: {paths}"
    else:
        status, summary = RunStatus.MERGED, f"merged {branch} into main"
    return finish_run(run, status, summary, detail=detail), int(merge.merged)


def sweep_unmerged() -> str:
    """Queue the merge of every member branch ``main`` does not contain yet.

    The post-receive hook queues a merge after each push; if it could not (the broker
    was down), or a worker died mid-merge, the push would wait for the member's next one.
    This periodic sweep makes sure it does not wait longer than one interval. It also
    closes the runs of dead workers, queues the redactions and extractions the sessions
    API could not (``dashboard.recovery``) and the notifications whose message was lost
    (``dashboard.notifications.queue_overdue``).
    """
    # Runs of dead workers first: the merge pass below is what retries an abandoned merge.
    abandoned = abandon_dead_runs()
    queued = 0
    for project in Project.objects.only("pk", "slug").iterator():
        if not (project.repo_dir / ".git").exists():
            continue
        try:
            repo = MemoryRepo(project.repo_dir)
            members = unmerged_members(repo)
            extractions = unmerged_members(repo, EXTRACTIONS)
        except (StoreError, GitError):
            continue
        for username in members:
            queue_merge(project.pk, username)
            queued += 1
        for username in extractions:
            queue_merge(project.pk, username, branch=extraction_branch(username))
            queued += 1
    redactions, dropped = queue_held_uploads()
    uploads = queue_unextracted_uploads()
    deliveries = notifications.queue_overdue()
    return (
        f"{queued} member merges queued, {redactions} redactions queued, "
        f"{uploads} extractions queued, {dropped} unclaimed uploads removed, "
        f"{deliveries} notifications queued again, {len(abandoned)} abandoned runs"
    )
