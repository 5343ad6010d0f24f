"""A commit of named files (`MemoryRepo.commit` with paths goes through write-tree,
commit-tree and update-ref) records what ``git commit`` records, checked against the
real ``git commit`` on a twin repository."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from memsync.store import CommitKind, Identity, MemoryRepo
from memsync.store.history import format_message

BOB = Identity("Bob Member", "bob@example.com")
# Fixed dates: the two commits must come out byte for byte the same.
DATES = {"GIT_AUTHOR_DATE": "1700000000 +0000", "GIT_COMMITTER_DATE": "1700000000 +0000"}
# Trailing spaces, a line git reads as a comment, blank lines: what --cleanup=strip cleans.
BODY = "Saved a.md   \n# dropped as a comment\n\n\n\nRefused: something\t\n"


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True,
        env={**os.environ, **DATES, **(env or {})},
    ).stdout  # fmt: skip


def twins(tmp_path: Path) -> tuple[MemoryRepo, Path]:
    repo = MemoryRepo.init(tmp_path / "memsync")
    twin = tmp_path / "git"
    git(tmp_path, "clone", "-q", str(repo.path), str(twin))
    git(twin, "config", "user.name", git(repo.path, "config", "user.name").strip())
    git(twin, "config", "user.email", git(repo.path, "config", "user.email").strip())
    for root in (repo.path, twin):
        (root / "a.md").write_text("a\n")
        (root / "MEMORY.md").write_text("- [A](a.md) — a\n")
    return repo, twin


def test_it_records_the_commit_git_commit_would(tmp_path, monkeypatch):
    for key, value in DATES.items():
        monkeypatch.setenv(key, value)
    repo, twin = twins(tmp_path)

    made = repo.commit(
        CommitKind.EXTRACT, "s1 — saved 1 memory", [("Memsync-Session", "s1")],
        paths=["a.md", "MEMORY.md"], author=BOB, body=BODY,
    )  # fmt: skip
    paragraphs = format_message(
        CommitKind.EXTRACT, "s1 — saved 1 memory", [("Memsync-Session", "s1")], BODY
    )
    git(twin, "add", "--", "a.md", "MEMORY.md")
    message = [arg for paragraph in paragraphs for arg in ("-m", paragraph)]
    git(twin, "commit", "-q", "--cleanup=strip", *message, env=BOB.env("AUTHOR"))

    # The same tree, parent, author, committer, dates and message: the same commit.
    assert made == git(twin, "rev-parse", "HEAD").strip()
    assert made == git(repo.path, "rev-parse", "HEAD").strip()
    assert git(repo.path, "status", "--porcelain") == ""
    reflog = ["reflog", "-1", "--format=%gs"]
    assert git(repo.path, *reflog) == git(twin, *reflog) == "commit: extract: s1 — saved 1 memory\n"


def test_it_makes_no_commit_when_the_named_files_did_not_change(tmp_path):
    repo = MemoryRepo.init(tmp_path / "memory")
    (repo.path / "a.md").write_text("a\n")
    first = repo.commit(CommitKind.MANUAL, "add a", paths=["a.md"])

    again = repo.commit(CommitKind.MANUAL, "add a again", paths=["a.md"])

    assert first is not None and again is None
    assert git(repo.path, "rev-parse", "HEAD").strip() == first


def traced_commands(trace: Path) -> list[str]:
    """The git commands a GIT_TRACE file records, in order (``write-tree``, …)."""
    lines = trace.read_text().splitlines() if trace.exists() else []
    return [
        line.split("trace: built-in: git ", 1)[1].split()[0] for line in lines if "built-in" in line
    ]


def test_it_commits_named_files_in_four_git_processes(tmp_path, monkeypatch):
    repo = MemoryRepo.init(tmp_path / "memory")
    (repo.path / "a.md").write_text("a\n")
    first = repo.commit(CommitKind.MANUAL, "add a", paths=["a.md"])
    (repo.path / "a.md").write_text("a, changed\n")
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))

    made = repo.commit(CommitKind.EXTRACT, "s1 — saved 1 memory", paths=["a.md"])

    # HEAD and its tree were read from the files the last commit left, not asked of git.
    # The files are staged by name: no listing of the directory for untracked files.
    assert traced_commands(trace) == ["update-index", "write-tree", "commit-tree", "update-ref"]
    assert git(repo.path, "rev-parse", f"{made}^").strip() == first
    assert git(repo.path, "status", "--porcelain") == ""


def test_it_asks_git_for_head_when_the_commit_is_packed(tmp_path, monkeypatch):
    repo = MemoryRepo.init(tmp_path / "memory")
    (repo.path / "a.md").write_text("a\n")
    first = repo.commit(CommitKind.MANUAL, "add a", paths=["a.md"])
    git(repo.path, "gc", "-q", "--prune=now")  # the commit packed, main in packed-refs
    (repo.path / "a.md").write_text("a, changed\n")
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))

    made = repo.commit(CommitKind.EXTRACT, "s1 — saved 1 memory", paths=["a.md"])

    assert "rev-parse" in traced_commands(trace)
    assert git(repo.path, "rev-parse", f"{made}^").strip() == first
    assert git(repo.path, "show", "HEAD:a.md") == "a, changed\n"
    again = repo.commit(CommitKind.EXTRACT, "s1 — saved nothing", paths=["a.md"])
    assert again is None


def test_it_commits_a_new_file_and_a_deletion_together_and_skips_a_path_never_there(tmp_path):
    repo = MemoryRepo.init(tmp_path / "memory")
    (repo.path / "old.md").write_text("old\n")
    repo.commit(CommitKind.MANUAL, "add old", paths=["old.md"])
    (repo.path / "old.md").unlink()
    (repo.path / "new.md").write_text("new\n")

    made = repo.commit(
        CommitKind.EXTRACT, "s1 — saved 1, forgot 1", paths=["new.md", "old.md", "never.md"]
    )

    assert git(repo.path, "show", "--name-status", "--format=", made) == "A\tnew.md\nD\told.md\n"
    assert git(repo.path, "status", "--porcelain") == ""
    assert repo.commit(CommitKind.EXTRACT, "s1 — nothing", paths=["never.md"]) is None
