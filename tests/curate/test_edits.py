"""A maintainer's edit, delete and "still true" (issue 13): one commit each on main, the
index kept consistent, and a refusal that leaves everything as it was."""

from __future__ import annotations

import os
import subprocess
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from memsync.curate import EditRefused, confirm_memory, delete_memory, edit_memory
from memsync.curate.edits import MAX_EDIT_BYTES, blob_id
from memsync.store import MAIN, CommitKind, Identity, MemoryRepo

ALICE = Identity("Alice Martin", "alice@example.com")
OLD = "2026-01-01T00:00:00+00:00"
INDEX = (
    b"# Memory\n\n- [deploys](deploys.md) \xe2\x80\x94 how we deploy\n"
    b"- [Style](style.md) \xe2\x80\x94 code style\n"
)


def memory(name: str, description: str, body: str = "Body.\n") -> bytes:
    return f"---\nname: {name}\ndescription: {description}\ntype: project\n---\n\n{body}".encode()


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    repo = MemoryRepo.init(tmp_path / "memory")
    for path, data in {
        "MEMORY.md": INDEX,
        "deploys.md": memory("deploys", "how we deploy"),
        "style.md": memory("style", "code style"),
    }.items():
        (repo.path / path).write_bytes(data)
    env = {"GIT_AUTHOR_DATE": OLD, "GIT_COMMITTER_DATE": OLD}
    subprocess.run(["git", "add", "-A"], cwd=repo.path, check=True)
    subprocess.run(
        ["git", "commit", "-qm", "manual: seed"],
        cwd=repo.path,
        check=True,
        env={**os.environ, **env},
    )
    return repo


def test_it_edits_a_memory_in_one_commit_and_follows_the_description_in_the_index(repo):
    new = memory("deploys", "how we deploy, since the move to Fly", "We deploy with fly.\n")

    commit = edit_memory(repo, "deploys.md", new, author=ALICE)

    assert commit is not None
    info = repo.commit_info(commit)
    assert (info.kind, info.author_name, info.subject) == (
        "edit",
        "Alice Martin",
        "edit: edit deploys.md",
    )
    assert repo.read(MAIN, "deploys.md") == new
    index = (repo.read(MAIN, "MEMORY.md") or b"").decode()
    assert "- [deploys](deploys.md) — how we deploy, since the move to Fly\n" in index
    assert "- [Style](style.md) — code style\n" in index
    assert {f.path for f in info.files} == {"deploys.md", "MEMORY.md"}


def test_it_refuses_broken_frontmatter_secrets_and_huge_content_and_changes_nothing(repo):
    head = repo.rev_parse(MAIN)
    broken = b"---\nname: deploys\nname: again\ndescription: d\ntype: project\n---\n\nBody.\n"
    secret = memory("deploys", "keys", "token = AKIAIOSFODNN7ABCDEFG\naws_secret = x\n")
    huge = memory("deploys", "huge", "x" * (MAX_EDIT_BYTES + 1))

    reasons = {}
    for label, data in {"broken": broken, "secret": secret, "huge": huge}.items():
        with pytest.raises(EditRefused) as refused:
            edit_memory(repo, "deploys.md", data, author=ALICE)
        reasons[label] = " ".join(refused.value.reasons)

    assert reasons["broken"].startswith("line 3: key 'name' appears twice")
    assert "secret" in reasons["secret"] and "AKIA" not in reasons["secret"]
    assert "over the" in reasons["huge"]
    assert repo.rev_parse(MAIN) == head
    assert repo.read(MAIN, "deploys.md") == memory("deploys", "how we deploy")


def test_it_refuses_an_edit_of_a_version_main_no_longer_has(repo):
    opened = blob_id(repo.read(MAIN, "deploys.md") or b"")
    edit_memory(repo, "deploys.md", memory("deploys", "changed meanwhile"), author=ALICE)

    with pytest.raises(EditRefused, match="changed on main since you opened it"):
        edit_memory(repo, "deploys.md", memory("deploys", "mine"), author=ALICE, based_on=opened)


def test_it_deletes_a_memory_and_its_index_entry_in_one_commit(repo):
    commit = delete_memory(repo, "deploys.md", author=ALICE)

    assert commit is not None and repo.commit_info(commit).kind == CommitKind.DELETE
    assert repo.read(MAIN, "deploys.md") is None
    assert (
        repo.read(MAIN, "MEMORY.md") == b"# Memory\n\n- [Style](style.md) \xe2\x80\x94 code style\n"
    )


def test_still_true_records_the_day_and_renews_the_age(repo):
    assert repo.ages()["style.md"] == datetime(2026, 1, 1, tzinfo=UTC)

    commit = confirm_memory(repo, "style.md", author=ALICE, today=date(2026, 12, 3))

    assert commit is not None and repo.commit_info(commit).kind == CommitKind.CONFIRM
    assert b"confirmed: '2026-12-03'\n" in (repo.read(MAIN, "style.md") or b"")
    assert repo.ages()["style.md"] == repo.commit_info(commit).date.astimezone(UTC)
    assert confirm_memory(repo, "style.md", author=ALICE, today=date(2026, 12, 3)) is None


def test_it_refuses_what_is_not_a_memory_file(repo):
    with pytest.raises(EditRefused, match="not a memory file"):
        delete_memory(repo, "MEMORY.md", author=ALICE)
    with pytest.raises(EditRefused, match="not on main"):
        confirm_memory(repo, "gone.md", author=ALICE, today=date(2026, 12, 3))
