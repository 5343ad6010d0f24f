"""A repository that already holds symlinks (committed before pushes refused them) cannot
make any server-side writer touch a file outside it (issue 10).

Each test plants links with plain ``git`` in the project's repository, the way a tree
accepted before the fix looks, and puts a victim file outside every repository (a
shell rc file, as in the report). Then the real extraction task, the dream, the member
merge, the store's apply (the conflict editor's write) and recall run against it: the
victim keeps its bytes and its mtime, nothing new appears beside it, and the run says
which link it refused.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from dashboard.models import Project, RunKind, RunStatus
from dashboard.sync import merge_member_branch
from dashboard.tasks.extract import extract_uploaded_session
from memsync.dream.deterministic import DeterministicEngine
from memsync.dream.engine import Scope
from memsync.dream.locks import ConsolidationLock
from memsync.dream.run import DreamRequest, DreamStatus, run_dream
from memsync.memory import MemoryDirectory, ProblemCode
from memsync.recall.sources import disk_source, repository_source
from memsync.store import MemoryRepo, StoreError
from memsync.store.gitcmd import GitRunner
from tests.dashboard.world import World, member_commit, projects_dir, topic, world  # noqa: F401
from tests.extract.sessions import SessionLog
from tests.extract.test_server import (  # noqa: F401 (the fixtures)
    allow_uploads,
    eager,
    eager_tasks,
    runs,
    upload,
)

VICTIM_TEXT = "# the member's shell rc\nexport PATH=$HOME/bin:$PATH\n"
WANTED = "mobile-team-owns-release.md"  # the statement below, saved in Claude Code 2.1 layout
STATEMENT = "Remember that the mobile team owns the release calendar."


@dataclass
class Outside:
    """Files outside every repository, and what they were before the test."""

    folder: Path
    victim: Path
    mtime_ns: int

    def untouched(self) -> None:
        assert self.victim.read_text() == VICTIM_TEXT
        assert self.victim.stat().st_mtime_ns == self.mtime_ns
        assert sorted(p.name for p in self.folder.iterdir()) == [self.victim.name]


@pytest.fixture
def outside(tmp_path: Path) -> Outside:
    folder = tmp_path / "home" / "victim"
    folder.mkdir(parents=True)
    victim = folder / ".bashrc"
    victim.write_text(VICTIM_TEXT)
    return Outside(folder, victim, victim.stat().st_mtime_ns)


def _commit_links(project: Project, links: dict[str, str], files: dict[str, bytes]) -> None:
    """Links (and files) committed on main with plain git, in the server's working tree."""
    root = project.repo_dir

    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-C", str(root), "-c", "user.name=old", "-c", "user.email=old@x", *args],
            check=True, capture_output=True,
        )  # fmt: skip

    for path, data in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
    for path, target in links.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).unlink(missing_ok=True)
        (root / path).symlink_to(target)
    git("add", "--all")
    git("commit", "-q", "-m", "links from before the fix")


def _chain_to(victim: Path) -> dict[str, str]:
    """Issue 10's chain: x/y -> .., u1 -> x/y/.., … MEMORY.md -> u4/…/victim."""
    climb = "../" * 30  # past the file system's root, wherever the checkout is
    return {
        "x/y": "..",
        "u1": "x/y/..",
        "u2": "u1/..",
        "u3": "u2/..",
        "u4": "u3/..",
        "MEMORY.md": "u4/" + climb + str(victim).lstrip("/"),
        "team": str(victim.parent),
    }


@pytest.fixture
def chained(world: World, outside: Outside) -> Iterator[World]:  # noqa: F811
    _commit_links(
        world.acme,
        _chain_to(outside.victim),
        {"user_role.md": topic("role", "A team of backend developers", "user")},
    )
    # Really does reach the victim when followed: the hole this test guards.
    assert (world.acme.repo_dir / "MEMORY.md").resolve() == outside.victim.resolve()
    yield world
    outside.untouched()


@pytest.fixture
def dangling(world: World, outside: Outside) -> Iterator[World]:  # noqa: F811
    _commit_links(
        world.acme,
        {WANTED: str(outside.folder / "created.md"), "indexes": str(outside.folder / "idx")},
        {"MEMORY.md": b"- [Role](user_role.md) - who we are\n"},
    )
    yield world
    outside.untouched()


# --- extraction -----------------------------------------------------------------------


def test_an_extraction_through_the_chain_fails_naming_the_link(
    chained: World,
    eager: None,  # noqa: F811
) -> None:
    acme = allow_uploads(chained.acme)
    record = upload(acme, chained.users["bob"], SessionLog().turn(STATEMENT))

    summary = extract_uploaded_session.delay(record.pk).get()

    (run,) = runs(acme, RunKind.EXTRACT)
    assert run.status == RunStatus.FAILED, summary
    assert "MEMORY.md" in run.error and "symbolic link" in run.error
    assert "links are not followed" in run.error
    assert chained.repo().rev_parse("members/bob") is None
    record.refresh_from_db()
    assert record.extracted_messages == 0  # the messages wait for a clean tree


def test_a_dangling_link_is_not_taken_for_a_free_name(
    dangling: World,
    eager: None,  # noqa: F811
) -> None:
    acme = allow_uploads(dangling.acme)
    record = upload(acme, dangling.users["bob"], SessionLog().turn(STATEMENT))

    extract_uploaded_session.delay(record.pk).get()

    (run,) = runs(acme, RunKind.EXTRACT)
    assert run.status == RunStatus.SUCCEEDED, run.error
    saved = WANTED.removesuffix(".md") + "-2.md"
    assert run.detail["saved"] == [saved]
    repo = dangling.repo()
    assert b"mobile team owns the release calendar" in (repo.read("main", saved) or b"")


# --- dream ----------------------------------------------------------------------------


def test_a_dream_reports_the_links_and_writes_through_none(
    chained: World, outside: Outside, tmp_path: Path
) -> None:
    project = chained.acme
    # A link planted where the consolidation lock goes, too.
    (project.repo_dir / ".consolidate-lock").symlink_to(outside.victim)
    request = DreamRequest(
        repo_path=project.repo_dir,
        engine=DeterministicEngine(),
        worktrees_dir=tmp_path / "dream-worktrees",
        scope=Scope.TEAM,
    )

    outcome = run_dream(request)

    assert outcome.status in (DreamStatus.PROPOSED, DreamStatus.NO_CHANGES), outcome.reason
    assert any("MEMORY.md is a symbolic link" in note for note in outcome.notes)
    assert "MEMORY.md" not in outcome.files_touched
    lock = project.repo_dir / ".consolidate-lock"
    assert not lock.is_symlink() and lock.is_file()
    assert ConsolidationLock(lock).last_consolidated() is not None


def test_a_dream_takes_no_dangling_link_for_an_absent_file(dangling: World, tmp_path: Path) -> None:
    request = DreamRequest(
        repo_path=dangling.acme.repo_dir,
        engine=DeterministicEngine(),
        worktrees_dir=tmp_path / "dream-worktrees",
        scope=Scope.TEAM,
    )

    outcome = run_dream(request)

    assert outcome.status in (DreamStatus.PROPOSED, DreamStatus.NO_CHANGES), outcome.reason
    assert not any(path.startswith("indexes/") for path in outcome.files_touched)


# --- merge and the store's writes -----------------------------------------------------


def test_a_member_merge_over_held_links_writes_nothing_outside(chained: World) -> None:
    member_commit(
        chained.acme, "bob", {"project_freeze.md": topic("freeze", "No deploys on Friday")}, "x"
    )

    merge, conflicts = merge_member_branch(chained.acme, "bob")

    assert merge.status == "merged" and conflicts == []
    assert chained.repo().read("main", "project_freeze.md") is not None


@pytest.mark.parametrize(
    ("path", "link"),
    [
        ("MEMORY.md", "MEMORY.md"),
        ("u4/notes.md", "u4"),
        ("x/y/notes.md", "x/y"),
        ("team/a.md", "team"),
    ],
)
def test_the_store_refuses_to_write_through_a_held_link(
    chained: World, path: str, link: str
) -> None:
    repo = chained.repo()
    head = repo.head()

    with pytest.raises(StoreError) as refused:
        repo.apply({path: b"$(touch /tmp/pwned)\n"}, "edit", "resolve a conflict")

    assert f"`{link}` is a symbolic link" in str(refused.value)
    assert repo.head() == head
    assert GitRunner(repo.path).run("status", "--porcelain") == ""


# --- recall and reading ---------------------------------------------------------------


def test_recall_and_the_directory_reader_report_links_and_read_none(chained: World) -> None:
    root = chained.acme.repo_dir

    source = disk_source(root)

    assert source.read("MEMORY.md") is None
    assert source.read("team/.bashrc") is None
    assert all("PATH" not in document.body for document in source.documents)
    directory = MemoryDirectory.read(root)
    linked = {p.path for p in directory.problems if p.code is ProblemCode.SYMLINK_OUTSIDE}
    assert {"MEMORY.md", "team"} <= linked
    assert directory.index is None
    committed = repository_source(MemoryRepo(root))
    assert all("PATH" not in document.body for document in committed.documents)
