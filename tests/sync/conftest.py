"""Team sync against a live server: gunicorn running memsync, the real ``git`` CLI, and
(where merges matter) a real Celery worker.

Personas as everywhere in memsync's tests: alice maintains the project, bob is a member,
carol a viewer, mallory an outsider (a valid token, no membership). Each test gets its
own project (a fresh slug), because repositories stay on disk while the database is
flushed between tests.
"""

from __future__ import annotations

import itertools
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command

from dashboard.models import AccessToken, Project, Run
from memsync.processes import web_command
from memsync.store import MemoryRepo
from memsync.store.gitcmd import GitRunner
from tests.support.celery_worker import test_database_url

ROLES = {"alice": "maintainer", "bob": "member", "carol": "viewer"}
_slugs = itertools.count(1)


@dataclass
class GitServer:
    url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def other_spelling(python: str) -> str:
    """The same interpreter by another of its names (``python3`` for ``python``): what a
    server process writes into a repository must not depend on how it was started."""
    path = Path(python)
    for name in ("python3", "python"):
        other = path.with_name(name)
        if other.name != path.name and other.exists():
            return str(other)
    return python


def start_server(log_dir: Path, env: dict[str, str] | None = None) -> GitServer:
    """gunicorn with memsync's production command line, against the test database,
    started by another spelling of the interpreter than the tests' own."""
    port = _free_port()
    log_path = log_dir / "gunicorn.log"
    env = {
        **os.environ,
        "DATABASE_URL": test_database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "MEMSYNC_DATA_DIR": str(settings.DATA_DIR),
        **(env or {}),
    }
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [other_spelling(sys.executable), "-m", *web_command(f"127.0.0.1:{port}", workers=2)],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = GitServer(f"http://127.0.0.1:{port}", process, log_path)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited early:\n{server.log()[-4000:]}")
        try:
            urllib.request.urlopen(f"{server.url}/git/none.git/info/refs", timeout=2)
        except urllib.error.HTTPError:
            return server  # any HTTP answer means Django is up
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise RuntimeError(f"gunicorn did not answer within 60s:\n{server.log()[-4000:]}")


@pytest.fixture(scope="session")
def git_server(
    django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[GitServer]:
    """One server for the session: it keeps no state of its own between tests."""
    server = start_server(tmp_path_factory.mktemp("gunicorn"))
    yield server
    server.process.terminate()
    try:
        server.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.process.kill()


@dataclass
class Team:
    project: Project
    users: dict[str, User]
    tokens: dict[str, str]

    @property
    def slug(self) -> str:
        return self.project.slug

    @property
    def repo(self) -> MemoryRepo:
        return MemoryRepo(self.project.repo_dir)

    def git_dir(self) -> Path:
        return self.project.repo_dir / ".git"


def email(name: str) -> str:
    return f"{name}@example.com"


def make_team(slug: str, members: dict[str, str], outsiders: tuple[str, ...] = ()) -> Team:
    call_command("memsync_project", "create", slug, "--name", slug.title())
    users: dict[str, User] = {}
    tokens: dict[str, str] = {}
    for name, role in members.items():
        call_command("memsync_member", "add", slug, name, "--role", role, "--email", email(name))
    for name in (*members, *outsiders):
        user, _ = User.objects.get_or_create(username=name, defaults={"email": email(name)})
        users[name] = user
        tokens[name] = AccessToken.issue(user, "test")[1]
    return Team(Project.objects.get(slug=slug), users, tokens)


@pytest.fixture
def team(transactional_db: None) -> Team:
    """A fresh project with alice, bob and carol, and mallory outside it."""
    return make_team(f"team-{os.getpid()}-{next(_slugs)}", ROLES, outsiders=("mallory",))


@dataclass
class GitResult:
    code: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


class GitUser:
    """Someone running the real ``git`` against the server.

    The token reaches git through a credential helper reading the environment, never
    through the URL: git asks for it after the server's 401, as it would for a person.
    """

    HELPER = '!f() { test "$1" = get && echo username=$MS_USER && echo password=$MS_TOKEN; }; f'

    def __init__(self, server: GitServer, username: str, token: str, home: Path) -> None:
        self.server = server
        self.username = username
        self.token = token
        self.home = home
        home.mkdir(parents=True, exist_ok=True)
        (home / ".gitconfig").write_text(
            f"[user]\n\tname = {username}\n\temail = {username}@example.com\n"
            "[init]\n\tdefaultBranch = main\n"
        )

    def url(self, slug: str) -> str:
        return f"{self.server.url}/git/{slug}.git"

    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "HOME": str(self.home),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_ASKPASS": "",
            "MS_USER": self.username,
            "MS_TOKEN": self.token,
            "LC_ALL": "C",
        }

    def git(self, *args: str, cwd: Path | None = None, check: bool = True) -> GitResult:
        command = ["git", "-c", "credential.helper=", "-c", f"credential.helper={self.HELPER}"]
        done = subprocess.run(
            [*command, *args], cwd=cwd, env=self.env(), capture_output=True, text=True,
            timeout=300,
        )  # fmt: skip
        result = GitResult(done.returncode, done.stdout, done.stderr)
        if check and done.returncode != 0:
            raise AssertionError(f"git {' '.join(args)} failed ({done.returncode}):\n{result.text}")
        return result

    def clone(self, slug: str, into: Path, *, check: bool = True) -> GitResult:
        return self.git("clone", self.url(slug), str(into), check=check)

    def workspace(self, slug: str, into: Path) -> Path:
        """A clone with ``members/<me>`` checked out from ``main``."""
        self.clone(slug, into)
        self.git("checkout", "-q", "-b", f"members/{self.username}", cwd=into)
        return into

    def commit(self, clone: Path, files: dict[str, str | bytes], message: str) -> str:
        for path, content in files.items():
            target = clone / path
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content)
        self.git("add", "--all", cwd=clone)
        self.git("commit", "-q", "-m", message, cwd=clone)
        return self.git("rev-parse", "HEAD", cwd=clone).out.strip()

    def push(self, clone: Path, refspec: str | None = None, *, check: bool = True) -> GitResult:
        spec = refspec or f"members/{self.username}"
        return self.git("push", "origin", spec, cwd=clone, check=check)


@pytest.fixture
def people(git_server: GitServer, team: Team, tmp_path: Path) -> dict[str, GitUser]:
    return {
        name: GitUser(git_server, name, token, tmp_path / "homes" / name)
        for name, token in team.tokens.items()
    }


def topic(name: str, description: str, body: str = "") -> str:
    return (
        f"---\nname: {name}\ndescription: {description}\ntype: project\n---\n\n"
        f"{body or description + '.'}\n\n**Why:** it came up.\n**How to apply:** remember it.\n"
    )


def stored(team: Team, sha: str) -> bool:
    """Whether the server's repository has the object ``sha`` at all."""
    done = subprocess.run(
        ["git", f"--git-dir={team.git_dir()}", "cat-file", "-e", sha], capture_output=True
    )
    return done.returncode == 0


def quarantines(team: Team) -> list[Path]:
    return list((team.git_dir() / "objects").glob("tmp_objdir-incoming-*"))


def wait_for_merges(team: Team, timeout: float = 120.0) -> None:
    """Until no member (or extraction) branch waits and no merge run is unfinished."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pending = GitRunner(team.repo.path).run(
            "for-each-ref", "--no-merged=main", "--format=%(refname)",
            "refs/heads/members/", "refs/heads/extractions/",
        )  # fmt: skip
        busy = Run.objects.filter(project=team.project, finished_at__isnull=True).exists()
        if not pending and not busy:
            return
        time.sleep(0.2)
    raise AssertionError(f"merges still pending after {timeout}s: {pending or 'runs unfinished'}")
