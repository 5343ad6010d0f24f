"""Twenty members pushing five commits each at the same time: none fails, nothing is lost.

The server runs several gunicorn workers started by another spelling of the interpreter
than the process that created the repository: no request may rewrite the repository's
config or hooks (two writers racing on ``.git/config`` made pushes fail with 500).

Every commit carries one change with a unique marker. Half the changes are new topic
files with their `MEMORY.md` entry (they never conflict: the index merges by entry);
the other half append to one shared topic file, so members' merges do conflict. Each
change must end in `main` or on the member's side of a conflict review item.
"""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import pytest

from dashboard.models import ConflictItem, Run, RunStatus
from tests.sync.conftest import GitServer, GitUser, Team, make_team, topic, wait_for_merges

pytestmark = [pytest.mark.slow, pytest.mark.worker]

MEMBERS = [f"m{n:02d}" for n in range(1, 21)]
COMMITS = 5
SHARED = "shared.md"


@pytest.fixture
def crowd(transactional_db: None, tmp_path: Path) -> Team:
    team = make_team(f"crowd-{tmp_path.name[-10:]}", dict.fromkeys(MEMBERS, "member"))
    repo = team.repo
    (repo.path / SHARED).write_text(topic("shared", "What the whole team noted"))
    (repo.path / "MEMORY.md").write_text("# Team\n\n- [Shared](shared.md) — what we noted\n")
    repo.commit("manual", "seed")
    return team


def _member_work(person: GitUser, slug: str, clone: Path, errors: list[str]) -> None:
    try:
        person.workspace(slug, clone)
        for n in range(1, COMMITS + 1):
            marker = f"change-{person.username}-{n}"
            if n % 2:
                name = f"{person.username}_{n}.md"
                index = (clone / "MEMORY.md").read_text()
                files = {
                    name: topic(marker, f"Noted by {person.username}", marker),
                    "MEMORY.md": index + f"- [{marker}]({name}) — by {person.username}\n",
                }
            else:
                files = {SHARED: (clone / SHARED).read_text() + f"\n- {marker}\n"}
            person.commit(clone, files, marker)
            person.push(clone)
    except Exception as error:  # reported by the test, with the member's name
        errors.append(f"{person.username}: {error}")


def _configuration(team: Team) -> list[Path]:
    git_dir = team.git_dir()
    return [git_dir / "config", git_dir / "info" / "attributes", *(git_dir / "hooks").iterdir()]


def _identity(path: Path) -> tuple[int, int]:
    """Which file this is: git and memsync both replace such files by a rename."""
    stat = path.stat()
    return stat.st_ino, stat.st_mtime_ns


def test_it_loses_none_of_a_hundred_concurrent_changes(
    crowd: Team, git_server: GitServer, tmp_path: Path, celery_worker_factory
):
    celery_worker_factory(concurrency=2)
    people = [
        GitUser(git_server, name, crowd.tokens[name], tmp_path / "homes" / name) for name in MEMBERS
    ]
    errors: list[str] = []
    threads = [
        threading.Thread(target=_member_work, args=(p, crowd.slug, tmp_path / p.username, errors))
        for p in people
    ]

    written = {path: _identity(path) for path in _configuration(crowd)}

    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    wait_for_merges(crowd, timeout=600)

    assert errors == []
    assert {path: _identity(path) for path in _configuration(crowd)} == written
    repo = crowd.repo
    main_files = set(repo.files("main"))
    index = repo.read("main", "MEMORY.md").decode()
    shared_main = repo.read("main", SHARED).decode()
    conflicts = ConflictItem.objects.filter(project=crowd.project)
    kept_aside = {
        (item.member, repo.read(item.member_commit, item.path).decode()) for item in conflicts
    }
    lost = []
    for member in MEMBERS:
        for n in range(1, COMMITS + 1):
            marker = f"change-{member}-{n}"
            if n % 2:
                name = f"{member}_{n}.md"
                if name not in main_files or f"]({name})" not in index:
                    lost.append(marker)
            elif marker not in shared_main and not any(
                who == member and marker in text for who, text in kept_aside
            ):
                lost.append(marker)
    assert lost == []
    assert "<<<<<<<" not in index and "<<<<<<<" not in shared_main
    assert {item.path for item in conflicts} <= {SHARED}
    for item in conflicts:
        assert repo.rev_parse(f"{item.ref}/member") == item.member_commit
    runs = Run.objects.filter(project=crowd.project, kind="merge")
    assert not runs.filter(status=RunStatus.FAILED).exists()
    assert runs.filter(status__in=[RunStatus.MERGED, RunStatus.CONFLICT]).count() >= len(MEMBERS)
    fsck = subprocess.run(
        ["git", "-C", str(repo.path), "fsck", "--no-progress"], capture_output=True, text=True
    )
    assert fsck.returncode == 0, fsck.stderr
