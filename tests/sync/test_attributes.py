"""A member's ``.gitattributes`` changes nothing on the server (issue 10, item 6).

bob pushes, through the real git client and the live server, a ``.gitattributes``
that re-encodes every checkout as UTF-16LE, union-merges Markdown (which concatenated
conflicting edits into ``main`` past review), hides diffs and turns on filters. The
server's ``info/attributes`` puts all of it back to Git's defaults: files stay UTF-8
in the working tree, a conflicting edit still becomes a review item, History still
shows the change, and extraction of a later upload works as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dashboard.models import ConflictItem, Project, Run, RunKind, RunStatus, SessionRecord
from dashboard.sync import merge_member_branch
from dashboard.tasks.extract import extract_uploaded_session
from memsync.celery import app
from memsync.store.gitcmd import GitRunner
from memsync.sync.hooks import SERVER_ATTRIBUTES
from tests.extract.sessions import SessionLog
from tests.sync.conftest import GitUser, Team, topic

HOSTILE = (
    "[attr]sneaky merge=union\n"
    "* working-tree-encoding=UTF-16LE\n"
    "*.md merge=union -diff ident eol=crlf filter=lfs\n"
    "*.txt sneaky\n"
)
SHARED = "shared.md"


@pytest.fixture
def eager(transactional_db: None) -> Iterator[None]:
    """Tasks run in this process, and what they queue is sent at once: with no test
    transaction around them, "after the commit" (dashboard/queue.py) is now."""
    before = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


def workspace(person: GitUser, slug: str, into: Path) -> Path:
    """A clone whose own checkouts ignore the hostile attributes (its ``info/attributes``
    pins them as the server's does), so the test can write plain UTF-8 files in it."""
    person.git("clone", "-q", "--no-checkout", person.url(slug), str(into))
    (into / ".git" / "info").mkdir(exist_ok=True)
    (into / ".git" / "info" / "attributes").write_text(SERVER_ATTRIBUTES)
    person.git("reset", "-q", "--hard", cwd=into)
    person.git("checkout", "-q", "-b", f"members/{person.username}", cwd=into)
    return into


def test_a_pushed_gitattributes_changes_nothing_on_the_server(
    team: Team, people: dict[str, GitUser], tmp_path: Path, eager
):
    bob, alice = people["bob"], people["alice"]
    clone = workspace(bob, team.slug, tmp_path / "bob")
    index = "# Team\n- [Shared](shared.md) — what we noted\n"
    bob.commit(
        clone,
        {
            ".gitattributes": HOSTILE,
            SHARED: topic("shared", "What we noted", "café déjà vu"),
            "MEMORY.md": index,
        },
        "bob's attributes",
    )
    bob.push(clone)
    merged, _ = merge_member_branch(team.project, "bob")
    assert merged.merged

    repo = team.repo
    for path in (SHARED, "MEMORY.md", ".gitattributes"):
        assert (repo.path / path).read_bytes() == repo.read("main", path), path
    assert "café déjà vu" in (repo.path / SHARED).read_text(encoding="utf-8")
    [change] = [f for f in repo.diff(merged.commit).files if f.path == SHARED]
    assert not change.binary and change.hunks

    # Both edit the shared file from the same base: alice's lands, bob's is kept for
    # review — not concatenated into main by merge=union.
    theirs = workspace(alice, team.slug, tmp_path / "alice")
    alice.commit(theirs, {SHARED: topic("shared", "What we noted", "alice's version")}, "a")
    alice.push(theirs)
    assert merge_member_branch(team.project, "alice")[0].merged
    bob.commit(clone, {SHARED: topic("shared", "What we noted", "bob's version")}, "b")
    bob.push(clone)
    second, conflicts = merge_member_branch(team.project, "bob")

    assert second.merged and [item.path for item in conflicts] == [SHARED]
    main_text = repo.read("main", SHARED).decode()
    assert "alice's version" in main_text and "bob's version" not in main_text
    assert ConflictItem.objects.filter(project=team.project, path=SHARED).count() == 1
    assert git_status(repo) == ""

    # Extraction of an upload checks files out and writes them back: still UTF-8.
    Project.objects.filter(pk=team.project.pk).update(allow_transcripts=True)
    log = SessionLog().turn("Remember that the mobile team owns the release calendar.")
    path = log.write(team.project.transcripts_dir)
    record = SessionRecord.objects.create(
        project=team.project,
        user=team.users["bob"],
        session_id=log.session_id,
        touched_at=datetime.now(UTC),
        transcript=path.relative_to(team.project.base_dir).as_posix(),
    )

    extract_uploaded_session.delay(record.pk).get()

    [run] = Run.objects.filter(project=team.project, kind=RunKind.EXTRACT)
    assert run.status == RunStatus.SUCCEEDED, (run.summary, run.error)
    commit = run.detail["commit"]
    [saved] = run.detail["saved"]
    assert "The mobile team owns the release calendar." in repo.read(commit, saved).decode()
    extracted_index = repo.read(commit, "MEMORY.md").decode("utf-8")
    assert "(shared.md)" in extracted_index and f"({saved})" in extracted_index
    assert "\r\n" not in extracted_index


def git_status(repo) -> str:
    return GitRunner(repo.path).run("status", "--porcelain", "--untracked-files=no")
