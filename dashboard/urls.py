"""The dashboard's pages. Every pattern here has an authorization rule in
``tests/dashboard/test_authorization.py``; a new one without a rule fails that test."""

from django.urls import path, re_path

from .views import (
    activity,
    editing,
    history,
    members,
    memories,
    progress,
    projects,
    proposals,
    review,
    team,
    tokens,
)

app_name = "dashboard"

SHA = r"(?P<sha>[0-9a-f]{7,40})"
SLUG = r"(?P<slug>[-a-zA-Z0-9_]+)"

urlpatterns = [
    path("", projects.project_list, name="projects"),
    path("tokens/", tokens.token_list, name="tokens"),
    path("tokens/new", tokens.token_create, name="token-create"),
    path("tokens/<int:token_id>/revoke", tokens.token_revoke, name="token-revoke"),
    # Memory
    path("p/<slug:slug>/", memories.memory_index, name="index"),
    path("p/<slug:slug>/memory/<path:path>", memories.memory_detail, name="memory"),
    path("p/<slug:slug>/blame/<path:path>", memories.memory_blame, name="blame"),
    path("p/<slug:slug>/edit/<path:path>", editing.memory_edit, name="memory-edit"),
    path("p/<slug:slug>/preview/<path:path>", editing.memory_preview, name="memory-preview"),
    path("p/<slug:slug>/delete/<path:path>", editing.memory_delete, name="memory-delete"),
    path("p/<slug:slug>/confirm/<path:path>", editing.memory_confirm, name="memory-confirm"),
    # History
    path("p/<slug:slug>/history/", history.history, name="history"),
    re_path(rf"^p/{SLUG}/commits/{SHA}/$", history.commit_detail, name="commit"),
    re_path(rf"^p/{SLUG}/commits/{SHA}/revert$", history.commit_revert, name="commit-revert"),
    # Dreams
    path("p/<slug:slug>/dreams/", proposals.proposal_list, name="proposals"),
    path("p/<slug:slug>/dreams/start", proposals.dream_start, name="dream-start"),
    path("p/<slug:slug>/dreams/<str:dream_id>/", proposals.proposal_detail, name="proposal"),
    path(
        "p/<slug:slug>/dreams/<str:dream_id>/approve",
        proposals.proposal_approve,
        name="proposal-approve",
    ),
    path(
        "p/<slug:slug>/dreams/<str:dream_id>/reject",
        proposals.proposal_reject,
        name="proposal-reject",
    ),
    path(
        "p/<slug:slug>/dreams/<str:dream_id>/comment",
        review.proposal_comment,
        name="proposal-comment",
    ),
    path(
        "p/<slug:slug>/dreams/<str:dream_id>/request-changes",
        review.proposal_request_changes,
        name="proposal-request-changes",
    ),
    path(
        "p/<slug:slug>/dreams/<str:dream_id>/viewed",
        review.proposal_viewed,
        name="proposal-viewed",
    ),
    path("p/<slug:slug>/runs/<int:run_id>/", progress.dream_run, name="dream-run"),
    path(
        "p/<slug:slug>/runs/<int:run_id>/progress",
        progress.dream_run_progress,
        name="dream-run-progress",
    ),
    path(
        "p/<slug:slug>/runs/<int:run_id>/cancel",
        progress.dream_run_cancel,
        name="dream-run-cancel",
    ),
    # Background runs
    path("p/<slug:slug>/activity/", activity.activity, name="activity"),
    # Team
    path("p/<slug:slug>/team/", team.team, name="team"),
    path("p/<slug:slug>/conflicts/<int:conflict_id>/", team.conflict_detail, name="conflict"),
    path(
        "p/<slug:slug>/conflicts/<int:conflict_id>/resolve",
        team.conflict_resolve,
        name="conflict-resolve",
    ),
    # Members
    path("p/<slug:slug>/members/", members.member_list, name="members"),
    path("p/<slug:slug>/members/add", members.member_add, name="member-add"),
    path(
        "p/<slug:slug>/members/<int:membership_id>/role",
        members.member_role,
        name="member-role",
    ),
    path(
        "p/<slug:slug>/members/<int:membership_id>/remove",
        members.member_remove,
        name="member-remove",
    ),
]
