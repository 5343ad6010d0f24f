"""The admin commands: memsync_project, memsync_member, memsync_token."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from dashboard.models import AccessToken, Membership, Project, hash_token
from memsync.store import MemoryRepo
from memsync.store.gitcmd import GitRunner

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def slug(tmp_path: Path) -> str:
    return f"cmd-{tmp_path.name[-12:]}"


def test_it_creates_a_project_with_its_repository_and_hooks(slug: str):
    output = run("memsync_project", "create", slug, "--name", "Command Team")

    project = Project.objects.get(slug=slug)
    assert project.name == "Command Team" and not project.allow_transcripts
    repo = MemoryRepo(project.repo_dir)
    assert repo.current_branch() == "main" and repo.head() is not None
    hooks = project.repo_dir / ".git" / "hooks"
    assert "-m memsync.sync.prereceive" in (hooks / "pre-receive").read_text()
    assert "-m memsync.sync.postreceive" in (hooks / "post-receive").read_text()
    assert (hooks / "pre-receive").stat().st_mode & 0o111
    assert GitRunner(repo.path).run("config", "core.hooksPath") == str(hooks)
    assert GitRunner(repo.path).run("config", "receive.fsckObjects") == "true"
    attributes = (project.repo_dir / ".git" / "info" / "attributes").read_text()
    assert "MEMORY.md merge=memsync-index" in attributes
    assert f"git/{slug}.git" in output


def test_it_refuses_a_second_project_with_the_same_slug_and_a_bad_slug(slug: str):
    run("memsync_project", "create", slug)

    with pytest.raises(CommandError, match="already exists"):
        run("memsync_project", "create", slug)
    with pytest.raises(CommandError, match="not a valid slug"):
        run("memsync_project", "create", "no spaces/here")


def test_it_adds_a_new_user_without_a_usable_password(slug: str):
    run("memsync_project", "create", slug)

    output = run("memsync_member", "add", slug, "dora", "--role", "member")

    dora = User.objects.get(username="dora")
    assert not dora.has_usable_password()
    assert Membership.objects.get(user=dora).role == "member"
    assert "created user dora" in output and f"dora added member of {slug}" in output


def test_it_sets_a_password_when_given_and_changes_an_existing_role(slug: str):
    run("memsync_project", "create", slug)
    run("memsync_member", "add", slug, "erin", "--role", "viewer", "--password", "s3cret-pass")

    output = run("memsync_member", "add", slug, "erin", "--role", "maintainer")

    erin = User.objects.get(username="erin")
    assert erin.check_password("s3cret-pass")
    assert Membership.objects.get(user=erin).role == "maintainer"
    assert f"erin now maintainer of {slug}" in output


def test_it_refuses_unknown_roles_and_projects(slug: str):
    run("memsync_project", "create", slug)

    with pytest.raises(CommandError, match="unknown role 'owner': use one of viewer, member"):
        run("memsync_member", "add", slug, "fay", "--role", "owner")
    with pytest.raises(CommandError, match="no project 'ghost'"):
        run("memsync_member", "add", "ghost", "fay", "--role", "member")
    assert not User.objects.filter(username="fay").exists()


def test_it_prints_a_new_token_alone_on_the_last_line(slug: str):
    run("memsync_project", "create", slug)
    run("memsync_member", "add", slug, "gus", "--role", "member")

    output = run("memsync_token", "create", "gus", "--name", "laptop")

    token = output.rstrip("\n").splitlines()[-1]
    assert token.startswith("msk_") and token == token.strip()
    stored = AccessToken.objects.get(user__username="gus")
    assert stored.name == "laptop" and stored.digest == hash_token(token)
    assert token not in {stored.digest, stored.hint}


def test_it_revokes_tokens_by_name_and_refuses_unknown_users(slug: str):
    run("memsync_project", "create", slug)
    run("memsync_member", "add", slug, "hal", "--role", "member")
    run("memsync_token", "create", "hal", "--name", "laptop")

    output = run("memsync_token", "revoke", "hal", "laptop")

    assert "revoked 1 token of hal" in output
    assert not AccessToken.objects.active().filter(user__username="hal").exists()
    with pytest.raises(CommandError, match="no active token named 'laptop'"):
        run("memsync_token", "revoke", "hal", "laptop")
    with pytest.raises(CommandError, match="no user 'nobody'"):
        run("memsync_token", "create", "nobody")
