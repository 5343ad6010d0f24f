"""Merging a member's branch into ``main`` as a run (queued by the post-receive hook, an
extraction, or the sweep), and the periodic sweep that queues what was never merged.

The Git work and the review items are ``dashboard.sync.merge_member_branch``; this
module adds the ``Run`` the dashboard shows and the dream's nudge after a merge.
"""

from __future__ import annotations

from django.contrib.auth.models import User

from memsync.store import GitError, MemoryRepo, StoreError
from memsync.store.lock import RepoLockTimeout
from memsync.store.refs import EXTRACTIONS, extraction_branch, member_branch
from memsync.sync.status import unmerged_members

from .. import notifications, sync
from ..models import Project, RunKind, RunStatus
from ..queue import queue_dream_gate_check, queue_merge
from ..recovery import abandon_dead_runs, queue_held_uploads, queue_unextracted_uploads
from ..runs import finish_run, start_run


def merge_into_main(
    project_id: int, username: str, *, tip: str, branch: str, task_id: str, worker: str
) -> str:
    """Merge ``members/<username>`` into ``main`` and write a merge ``Run`` for the dashboard.

    ``tip`` is the commit the push left on the branch, recorded for the record; the
    merge takes whatever the branch holds when it runs, so several queued merges of one
    member's pushes end in one merge and no-change runs. ``branch`` names another branch
    of the member's to merge the same way: the server's ``extractions/<username>``.
    """
    project = Project.objects.filter(pk=project_id).first()
    if project is None:
        return f"project {project_id} no longer exists"
    run = start_run(
        project,
        RunKind.MERGE,
        trigger="extraction" if branch else "push",
        task_id=task_id,
        worker=worker,
        requested_by=User.objects.filter(username=username).first(),
        detail={"member": username, "pushed": tip},
    )
    branch = branch or member_branch(username)
    try:
        merge, conflicts = sync.merge_member_branch(project, username, branch)
    except (StoreError, GitError, RepoLockTimeout) as error:
        return finish_run(run, RunStatus.FAILED, f"could not merge {branch}", error=str(error))
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
    finish_run(run, status, summary, detail=detail)
    if merge.merged:
        queue_dream_gate_check(project.pk, "push")
    return summary


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
