"""Who may do what, and the record of background work.

Memory content never lives here: it lives in each project's Git repository
(``settings.PROJECTS_DIR/<slug>/repo``), which is the truth the dashboard reads.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.db import models
from django.utils import timezone

from memsync.store import refs


class Role(models.TextChoices):
    VIEWER = "viewer", "viewer"
    MEMBER = "member", "member"
    MAINTAINER = "maintainer", "maintainer"


ROLE_RANK = {Role.VIEWER: 1, Role.MEMBER: 2, Role.MAINTAINER: 3}


class DreamEngineChoice(models.TextChoices):
    """The engine a project asks for by name (`memsync.dream.engine_choice`); the
    engines themselves implement `memsync.dream.engine.DreamEngine`."""

    AUTO = "auto", "anthropic when an API key is configured, else deterministic"
    DETERMINISTIC = "deterministic", "deterministic"
    ANTHROPIC = "anthropic", "anthropic"


class Project(models.Model):
    slug = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=200)
    created_at = models.DateTimeField(default=timezone.now)
    # Dream settings: None means "use the global default from settings".
    dream_enabled = models.BooleanField(null=True, blank=True)
    dream_min_hours = models.FloatField(null=True, blank=True)
    dream_min_sessions = models.PositiveIntegerField(null=True, blank=True)
    dream_engine = models.CharField(
        max_length=16, choices=DreamEngineChoice.choices, default=DreamEngineChoice.AUTO
    )
    allow_transcripts = models.BooleanField(
        default=False, help_text="Members may upload (redacted) session transcripts."
    )
    last_session_scan_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.slug

    @property
    def base_dir(self) -> Path:
        return Path(settings.PROJECTS_DIR) / self.slug

    @property
    def repo_dir(self) -> Path:
        return self.base_dir / "repo"

    @property
    def transcripts_dir(self) -> Path:
        return self.base_dir / "transcripts"

    @property
    def inbox_dir(self) -> Path:
        """Raw transcript uploads waiting for the worker's redaction."""
        return self.base_dir / "inbox"

    @property
    def worktrees_dir(self) -> Path:
        return self.base_dir / "worktrees"


class Membership(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["project", "user"], name="one_membership_per_user")
        ]
        ordering = ["project__slug", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} is {self.role} of {self.project}"

    def allows(self, role: str) -> bool:
        return ROLE_RANK[Role(self.role)] >= ROLE_RANK[Role(role)]


TOKEN_PREFIX = "msk_"


def hash_token(token: str) -> str:
    """Tokens carry 240 bits of randomness, so one SHA-256 is enough (no slow KDF needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


class AccessTokenQuerySet(models.QuerySet["AccessToken"]):
    def active(self) -> AccessTokenQuerySet:
        return self.filter(revoked_at__isnull=True)


class AccessToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens"
    )
    name = models.CharField(max_length=100)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    hint = models.CharField(max_length=16, editable=False, help_text="First characters, shown")
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = AccessTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…)"

    @classmethod
    def issue(cls, user: object, name: str) -> tuple[AccessToken, str]:
        """Create a token; the clear text is returned once and never stored."""
        clear = TOKEN_PREFIX + secrets.token_urlsafe(30)
        token = cls.objects.create(
            user=user, name=name, digest=hash_token(clear), hint=clear[: len(TOKEN_PREFIX) + 4]
        )
        return token, clear

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class SessionRecord(models.Model):
    """A Claude Code session a member reported; the dream's session gate counts these."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="sessions")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memsync_sessions"
    )
    session_id = models.CharField(max_length=100)
    touched_at = models.DateTimeField()
    messages = models.PositiveIntegerField(default=0)
    transcript = models.CharField(max_length=500, blank=True, help_text="Stored redacted copy")
    extracted_messages = models.PositiveIntegerField(
        default=0, help_text="Extraction cursor: messages already analysed"
    )
    extraction_task = models.CharField(
        max_length=64, blank=True, help_text="The Celery task extracting this session now"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["project", "session_id"], name="one_record_per_session")
        ]
        indexes = [models.Index(fields=["project", "touched_at"])]
        ordering = ["-touched_at"]

    def __str__(self) -> str:
        return f"{self.session_id} ({self.project})"


class RunKind(models.TextChoices):
    DREAM = "dream", "dream"
    MERGE = "merge", "merge"
    EXTRACT = "extract", "extract"
    GATE = "gate", "gate check"


class RunStatus(models.TextChoices):
    QUEUED = "queued", "queued"
    RUNNING = "running", "running"
    PROPOSED = "proposed", "proposed"
    MERGED = "merged", "merged"
    SUCCEEDED = "succeeded", "succeeded"
    NO_CHANGES = "no-changes", "no changes"
    SKIPPED = "skipped", "skipped"
    LOCKED = "locked", "locked"
    CONFLICT = "conflict", "conflict"
    FAILED = "failed", "failed"
    CANCELLED = "cancelled", "cancelled"


FINISHED_STATUSES = frozenset(RunStatus) - {RunStatus.QUEUED, RunStatus.RUNNING}


class Run(models.Model):
    """One background run (dream, merge, extraction), written by the task, read by the UI."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="runs")
    kind = models.CharField(max_length=16, choices=RunKind.choices)
    status = models.CharField(max_length=16, choices=RunStatus.choices, default=RunStatus.QUEUED)
    trigger = models.CharField(max_length=32, blank=True, help_text="beat, session, push, manual")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    session = models.ForeignKey(
        SessionRecord,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="runs",
        help_text="The session an extraction run extracted",
    )
    dream_id = models.CharField(
        max_length=64, blank=True, db_index=True, help_text="The dream a dream run made"
    )
    task_id = models.CharField(max_length=64, blank=True)
    worker = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    summary = models.TextField(blank=True)
    error = models.TextField(blank=True)
    # D7 progress, written and read as dashboard.runs.RunProgress.
    progress = models.JSONField(default=dict, blank=True)
    cancel_requested = models.BooleanField(default=False)
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["project", "kind", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} {self.status}"

    @property
    def is_finished(self) -> bool:
        return self.status in FINISHED_STATUSES

    @property
    def duration(self) -> timedelta | None:
        """How long the work took, from its worker's own start and end marks."""
        if self.started_at is None or self.finished_at is None:
            return None
        return max(self.finished_at - self.started_at, timedelta(0))

    @property
    def conflict_ids(self) -> list[int]:
        """The conflict items a merge run left for review."""
        items = self.detail.get("conflicts") if isinstance(self.detail, dict) else None
        if not isinstance(items, list):
            return []
        return [item["id"] for item in items if isinstance(item, dict) and "id" in item]


class ConflictStatus(models.TextChoices):
    OPEN = "open", "open"
    RESOLVED = "resolved", "resolved"


class ConflictItem(models.Model):
    """A topic file both main and a member changed; both sides are kept on refs."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="conflicts")
    member = models.CharField(max_length=150, help_text="username whose branch conflicted")
    path = models.CharField(max_length=500)
    base_commit = models.CharField(max_length=40, blank=True)
    main_commit = models.CharField(max_length=40, help_text="main when the merge was tried")
    member_commit = models.CharField(max_length=40, help_text="the member's commit")
    ref = models.CharField(max_length=200, help_text=f"{refs.CONFLICTS}<id>")
    status = models.CharField(
        max_length=16, choices=ConflictStatus.choices, default=ConflictStatus.OPEN
    )
    resolution = models.CharField(max_length=16, blank=True, help_text="mine, theirs, edit")
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution_commit = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"conflict on {self.path} ({self.member})"


class ReviewVerdict(models.TextChoices):
    COMMENT = "comment", "commented"
    CHANGES = "changes", "requested changes"


class ProposalComment(models.Model):
    """A review comment on a dream proposal, on the whole of it or on one file.

    Proposals live in Git (``memsync.dream.proposals``); a comment names its dream by
    id, so it outlives the ``dream/<id>`` branch and reads the same after a decision.
    A maintainer's request for changes is a comment with that verdict: the proposal
    stays open, unlike a rejection.
    """

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="proposal_comments")
    dream_id = models.CharField(max_length=64)
    path = models.CharField(max_length=500, blank=True, help_text="empty: the whole proposal")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    verdict = models.CharField(
        max_length=16, choices=ReviewVerdict.choices, default=ReviewVerdict.COMMENT
    )
    body = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["project", "dream_id"])]

    def __str__(self) -> str:
        return f"{self.get_verdict_display()} on {self.dream_id} {self.path}".rstrip()

    @property
    def requests_changes(self) -> bool:
        return self.verdict == ReviewVerdict.CHANGES


class ViewedFile(models.Model):
    """One reviewer's "viewed" mark on one file of a proposal; a dream commit never
    changes, so a mark never goes out of date."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="viewed_files")
    dream_id = models.CharField(max_length=64)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="viewed_files"
    )
    path = models.CharField(max_length=500)
    viewed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["project", "dream_id", "user", "path"], name="one_viewed_mark_per_file"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} viewed {self.path} of {self.dream_id}"


class NotificationEvent(models.TextChoices):
    PROPOSAL = "proposal", "a new dream proposal"
    CONFLICT = "conflict", "a conflict waiting for review"
    PUSH_REFUSED = "push-refused", "a refused push"


class WebhookFormat(models.TextChoices):
    SLACK = "slack", 'Slack-compatible ({"text": …})'
    GENERIC = "generic", "generic JSON (event, project, url, details)"


class Webhook(models.Model):
    """Where a project's events are POSTed (dashboard.notifications)."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    format = models.CharField(max_length=16, choices=WebhookFormat.choices)
    # Signs each body (X-Memsync-Signature: sha256=HMAC); stored as given: it must sign.
    secret = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.project.slug} → {self.url}"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "pending"
    DELIVERED = "delivered", "delivered"
    FAILED = "failed", "failed"


class Delivery(models.Model):
    """One event sent to one webhook, or by email to the project's maintainers
    (``webhook`` empty, ``target`` the addresses); retried by the worker with backoff."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="deliveries")
    webhook = models.ForeignKey(
        Webhook, null=True, blank=True, on_delete=models.CASCADE, related_name="deliveries"
    )
    target = models.CharField(max_length=1000, help_text="the URL, or 'email: a@x, b@y'")
    event = models.CharField(max_length=32, choices=NotificationEvent.choices)
    payload = models.JSONField(default=dict)
    status = models.CharField(
        max_length=16, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    response_code = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the worker should try a pending delivery next; the sweep queues one again that
    # is overdue (its message was lost with the broker, or with a dead worker's retry).
    next_attempt_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
