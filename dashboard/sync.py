"""Team sync in the Django layer: project repositories with their hooks, member merges
as review items, conflict resolution.

The Git work is done by ``memsync.sync``; this module adds what only the server knows
(users, projects, rows) and is shared by the Git endpoint, the API, the merge use case
(``dashboard/services/merges.py``), the admin commands and the dashboard.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from memsync.store import Identity, MemoryRepo
from memsync.store.refs import conflict_ref
from memsync.store.repo import merge_driver_command
from memsync.sync.hooks import install_hooks
from memsync.sync.merge import (
    Member,
    MemberConflict,
    MemberMerge,
    Resolution,
    ResolutionRefused,
    keep_conflict_sides,
    merge_member,
    settle_conflict,
)

from . import notifications
from .models import ConflictItem, ConflictStatus, Project

# An address for users without one: Git needs an email, and .invalid never delivers.
FALLBACK_EMAIL_DOMAIN = "users.memsync.invalid"


def member_for(username: str) -> Member:
    """How ``username`` signs merges of their branch (their email when they have one)."""
    email = User.objects.filter(username=username).values_list("email", flat=True).first()
    return Member(username, email or f"{username}@{FALLBACK_EMAIL_DOMAIN}")


def create_repository(project: Project) -> MemoryRepo:
    """Initialise the project's repository (idempotent) with memsync's hooks."""
    repo = MemoryRepo.init(project.repo_dir)
    configure_repository(repo)
    return repo


def configure_repository(repo: MemoryRepo) -> None:
    """What the server keeps in a repository's git directory, written under its lock when
    the repository is created and again at each ``manage.py migrate`` (a deploy): marked
    as the server's (interrupted operations are cleared), and memsync's hooks."""
    with repo.lock.held():
        repo.mark_server_owned()
        install_hooks(repo.path / ".git")
        repo.set_merge_driver(merge_driver_command())


def configure_all_repositories() -> int:
    """:func:`configure_repository` for every project that has a repository."""
    configured = 0
    for project in Project.objects.only("pk", "slug").iterator():
        if (project.repo_dir / ".git").is_dir():
            configure_repository(MemoryRepo(project.repo_dir))
            configured += 1
    return configured


def open_repository(project: Project) -> MemoryRepo:
    """The project's repository, as it is: nothing is written on the way (its hooks and
    config are written at creation and migration, :func:`configure_repository`).

    Raises ``memsync.store.StoreError`` when the repository was never created.
    """
    return MemoryRepo(project.repo_dir)


def merge_member_branch(
    project: Project,
    username: str,
    branch: str | None = None,
    *,
    repo: MemoryRepo | None = None,
) -> tuple[MemberMerge, list[ConflictItem]]:
    """Merge ``members/<username>`` (or ``branch``, another of theirs: the server's
    ``extractions/<username>``) into ``main``; each conflicted file becomes an open
    review item whose both sides are pinned on ``refs/memsync/conflicts/<id>/``.

    ``repo``: the project's repository as the caller opened it, when the caller holds
    its lock (the lock is re-entrant per repository object, not per process)."""
    repo = repo or open_repository(project)
    merge = merge_member(repo, member_for(username), branch=branch)
    items = [_record_conflict(repo, project, username, found) for found in merge.conflicts]
    for item in items:
        notifications.conflict_opened(project, item.pk, username, item.path)
    return merge, items


def _record_conflict(
    repo: MemoryRepo, project: Project, username: str, found: MemberConflict
) -> ConflictItem:
    with transaction.atomic():
        item = ConflictItem.objects.create(
            project=project,
            member=username,
            path=found.path,
            base_commit=found.base_commit or "",
            main_commit=found.main_commit,
            member_commit=found.member_commit,
        )
        item.ref = conflict_ref(item.pk)
        item.save(update_fields=["ref"])
        keep_conflict_sides(repo, item.ref, found)
    return item


def identity_for(user: User) -> Identity:
    """How a dashboard action by ``user`` signs its commit."""
    name = user.get_full_name() or user.username
    return Identity(name, user.email or f"{user.username}@{FALLBACK_EMAIL_DOMAIN}")


def resolve_conflict(
    conflict: ConflictItem, choice: str, content: str | bytes | None = None, *, by: User
) -> str:
    """Settle a review item on ``main`` with a merge-kind commit authored by ``by``.

    ``choice`` is a `Resolution`: main's side, the member's, or ``edit`` (with
    ``content``; text from a browser form has its CRLF line ends turned into LF, as
    memory files have them). The item is claimed with a conditional UPDATE, so two
    maintainers clicking at once make one commit; the second gets ``ResolutionRefused``
    (a ``ValueError``), as do an unknown choice and edited content with a secret.
    Returns the commit.
    """
    resolution = Resolution(choice)
    data = content.replace("\r\n", "\n").encode("utf-8") if isinstance(content, str) else content
    now = timezone.now()
    claimed = ConflictItem.objects.filter(pk=conflict.pk, status=ConflictStatus.OPEN).update(
        status=ConflictStatus.RESOLVED, resolution=resolution, resolved_by=by, resolved_at=now
    )
    if not claimed:
        raise ResolutionRefused(f"the conflict on {conflict.path} is already resolved")
    try:
        sha = settle_conflict(
            open_repository(conflict.project),
            MemberConflict(
                conflict.path,
                conflict.base_commit or None,
                conflict.main_commit,
                conflict.member_commit,
            ),
            conflict_id=conflict.pk,
            member=member_for(conflict.member),
            choice=resolution,
            by=identity_for(by),
            content=data,
        )
    except BaseException:
        ConflictItem.objects.filter(pk=conflict.pk).update(
            status=ConflictStatus.OPEN, resolution="", resolved_by=None, resolved_at=None
        )
        raise
    ConflictItem.objects.filter(pk=conflict.pk).update(resolution_commit=sha)
    conflict.refresh_from_db()
    return sha
