"""Merging a member's pushed branch into ``main`` (queued by the post-receive hook)."""

from __future__ import annotations

from celery import Task, shared_task
from django.contrib.auth.models import User
from django.utils import timezone

from memsync.store import GitError, MemoryRepo, StoreError
from memsync.store.lock import RepoLockTimeout
from memsync.store.refs import EXTRACTIONS, extraction_branch, member_branch
from memsync.sync.status import unmerged_members

from .. import sync
from ..models import Project, Run, RunKind, RunStatus
from ..recovery import abandon_dead_runs, queue_unextracted_uploads


@shared_task(bind=True, name=sync.MERGE_TASK)
def merge_member_branch_task(
    self: Task, project_id: int, username: str, tip: str = "", branch: str = ""
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
    run = Run.objects.create(
        project=project,
        kind=RunKind.MERGE,
        status=RunStatus.RUNNING,
        trigger="extraction" if branch else "push",
        requested_by=User.objects.filter(username=username).first(),
        task_id=self.request.id or "",
        worker=self.request.hostname or "",
        started_at=timezone.now(),
        detail={"member": username, "pushed": tip},
    )
    branch = branch or member_branch(username)
    try:
        merge, conflicts = sync.merge_member_branch(project, username, branch)
    except (StoreError, GitError, RepoLockTimeout) as error:
        _finish(run, RunStatus.FAILED, f"could not merge {branch}", error=str(error))
        return run.summary
    run.detail = {
        **run.detail,
        "merged": merge.member_commit or "",
        "commit": merge.commit or "",
        "conflicts": [{"id": item.pk, "path": item.path} for item in conflicts],
    }
    if merge.status == "no-branch":
        _finish(run, RunStatus.SKIPPED, f"{branch} does not exist (deleted after the push)")
    elif not merge.merged:
        _finish(run, RunStatus.NO_CHANGES, f"{branch} is already in main")
    elif conflicts:
        paths = ", ".join(item.path for item in conflicts)
        _finish(
            run,
            RunStatus.CONFLICT,
            f"merged {branch} into main; kept for review: {paths}",
        )
    else:
        _finish(run, RunStatus.MERGED, f"merged {branch} into main")
    if merge.merged:
        sync.request_dream_gate_check(project.pk, "push")
    return run.summary


@shared_task(name="dashboard.tasks.sync.sweep_unmerged_pushes")
def sweep_unmerged_pushes() -> str:
    """Queue the merge of every member branch ``main`` does not contain yet.

    The post-receive hook queues a merge after each push; if it could not (the broker
    was down), or a worker died mid-merge, the push would wait for the member's next one.
    This periodic sweep makes sure it does not wait longer than one interval. It also
    closes the runs of dead workers and queues extractions the sessions API could not
    (``dashboard.recovery``).
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
            merge_member_branch_task.apply_async((project.pk, username), {"tip": ""})
            queued += 1
        for username in extractions:
            branch = extraction_branch(username)
            merge_member_branch_task.apply_async((project.pk, username), {"branch": branch})
            queued += 1
    uploads = queue_unextracted_uploads()
    return (
        f"{queued} member merges queued, {uploads} extractions queued, "
        f"{len(abandoned)} abandoned runs"
    )


def _finish(run: Run, status: str, summary: str, *, error: str = "") -> None:
    run.status = status
    run.summary = summary
    run.error = error
    run.finished_at = timezone.now()
    run.save(update_fields=["status", "summary", "error", "finished_at", "detail"])
