"""The dashboard's test world: personas, their projects with real repositories, and
real dreams and conflicts made through memsync's own domain functions.

alice maintains acme, bob is a member of it, carol a viewer; mallory maintains another
project (other) and is an outsider to acme. Every repository lives under this test's
own PROJECTS_DIR, so tests never see each other's Git history.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from dashboard.models import Membership, Project, Role
from dashboard.sync import create_repository, merge_member_branch
from memsync.dream.engine import DreamContext, DreamProgress, EngineResult
from memsync.dream.run import DreamOutcome, DreamRequest, DreamStatus, run_dream
from memsync.store import CommitKind, Identity, MemoryRepo
from memsync.store.gitcmd import GitRunner

PASSWORD = "correct horse battery staple"
PERSONAS = ("alice", "bob", "carol", "mallory")


def topic(name: str, description: str, type_: str = "project", body: str = "") -> bytes:
    body = body or f"{description}.\n\n**Why:** it came up.\n**How to apply:** remember it.\n"
    return f"---\nname: {name}\ndescription: {description}\ntype: {type_}\n---\n\n{body}".encode()


def entry(title: str, target: str, hook: str) -> str:
    return f"- [{title}]({target}) — {hook}\n"


@dataclass
class World:
    acme: Project
    other: Project
    users: dict[str, User]

    def repo(self, project: Project | None = None) -> MemoryRepo:
        return MemoryRepo((project or self.acme).repo_dir)

    def client(self, name: str | None) -> Client:
        client = Client()
        if name is not None:
            client.force_login(self.users[name])
        return client


def build_world() -> World:
    users = {
        name: User.objects.create_user(name, f"{name}@example.com", PASSWORD) for name in PERSONAS
    }
    acme = Project.objects.create(slug="acme", name="Acme")
    other = Project.objects.create(slug="other", name="Other")
    for name, project, role in (
        ("alice", acme, Role.MAINTAINER),
        ("bob", acme, Role.MEMBER),
        ("carol", acme, Role.VIEWER),
        ("mallory", other, Role.MAINTAINER),
    ):
        Membership.objects.create(project=project, user=users[name], role=role)
    create_repository(acme)
    create_repository(other)
    return World(acme, other, users)


@pytest.fixture
def projects_dir(settings, tmp_path: Path) -> Path:
    settings.PROJECTS_DIR = tmp_path / "projects"
    return settings.PROJECTS_DIR


@pytest.fixture
def world(db, projects_dir: Path) -> World:
    return build_world()


def commit_memories(
    repo: MemoryRepo,
    changes: Mapping[str, bytes | None],
    kind: str = CommitKind.EXTRACT,
    summary: str = "saved memories",
    trailers: tuple[tuple[str, str], ...] = (),
    author: Identity | None = None,
) -> str:
    sha = repo.apply(changes, kind, summary, trailers, author=author)
    assert sha is not None
    return sha


def commit_days_ago(
    repo: MemoryRepo,
    changes: Mapping[str, bytes],
    days: int,
    summary: str,
    kind: str = CommitKind.EXTRACT,
    trailers: tuple[tuple[str, str], ...] = (),
    author: Identity | None = None,
) -> str:
    """A commit dated ``days`` ago, as history imported from elsewhere would have it."""
    when = (datetime.now(UTC) - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%S+0000")
    for path, data in changes.items():
        target = repo.path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    GitRunner(repo.path).run("add", "--", *changes)
    message = [
        f"{kind}: {summary}",
        "\n".join(f"{k}: {v}" for k, v in (("Memsync-Kind", kind), *trailers)),
    ]
    args = ["commit", "--quiet"] + [part for paragraph in message for part in ("-m", paragraph)]
    env = {"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    GitRunner(repo.path).run(*args, env={**env, **(author.env("AUTHOR") if author else {})})
    sha = repo.head()
    assert sha is not None
    return sha


class ScriptedEngine:
    """A real dream engine that writes (or deletes) the files it is given."""

    name = "scripted"

    def __init__(self, changes: Mapping[str, bytes | None], summary: str) -> None:
        self.changes = changes
        self.summary = summary

    def consolidate(self, context: DreamContext, progress: DreamProgress) -> EngineResult:
        progress.phase("consolidate")
        progress.turn(1)
        for path, data in self.changes.items():
            target = context.workdir / path
            if data is None:
                target.unlink()
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            progress.touched(path)
        return EngineResult(
            summary=self.summary,
            files_touched=list(self.changes),
            engine=self.name,
            model="test-model",
            turns=1,
            usage={"input": 1200, "output": 340},
        )


def dream(
    project: Project,
    changes: Mapping[str, bytes | None],
    summary: str = "Improved memories.",
    sessions: tuple[str, ...] = ("s-1", "s-2"),
) -> DreamOutcome:
    """A real dream of ``project`` through ``run_dream``: a proposal on ``dream/<id>``."""
    outcome = run_dream(
        DreamRequest(
            repo_path=project.repo_dir,
            engine=ScriptedEngine(changes, summary),
            worktrees_dir=project.worktrees_dir,
            sessions=sessions,
            now=datetime.now(UTC),
        )
    )
    assert outcome.status == DreamStatus.PROPOSED, outcome.to_dict()
    return outcome


def member_commit(
    project: Project, username: str, changes: Mapping[str, bytes | None], summary: str
) -> str:
    """What a member's push leaves on the server: a ``sync`` commit on
    ``members/<username>`` (branched from ``main`` the first time), not merged yet."""
    repo = MemoryRepo(project.repo_dir)
    branch = f"members/{username}"
    worktree = project.worktrees_dir / f"push-{username}"
    project.worktrees_dir.mkdir(parents=True, exist_ok=True)
    if repo.rev_parse(branch) is None:
        workspace = repo.add_worktree(worktree, branch, "main")
    else:
        GitRunner(repo.path).run("worktree", "add", "--quiet", str(worktree), branch)
        workspace = MemoryRepo(worktree)
    try:
        sha = workspace.apply(
            changes, CommitKind.SYNC, summary, author=Identity(username, f"{username}@example.com")
        )
    finally:
        repo.remove_worktree(worktree)
    assert sha is not None
    return sha


def merge_member(project: Project, username: str):
    """The server's merge of ``members/<username>`` into ``main`` (conflicts recorded)."""
    return merge_member_branch(project, username)
