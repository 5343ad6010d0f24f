"""Repository upkeep (issue 10 item 9, issue 14 item 6): quarantines a killed push left
behind are removed after an hour, and the commit-graph git uses for per-path history is
written with changed-path filters and kept up to date as commits arrive."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from memsync.store import CommitKind, MemoryRepo
from memsync.store.upkeep import QUARANTINE_MAX_AGE_SECONDS, keep_up


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    return MemoryRepo.init(tmp_path / "memory")


def quarantine(repo: MemoryRepo, name: str, age_seconds: float) -> Path:
    """A folder as ``git receive-pack`` leaves it when the push is killed."""
    folder = repo.path / ".git" / "objects" / f"tmp_objdir-incoming-{name}"
    (folder / "pack").mkdir(parents=True)
    pack = folder / "pack" / "pack-0123.pack"
    pack.write_bytes(b"P" * 4096)
    then = time.time() - age_seconds
    for path in (pack, folder / "pack", folder):
        os.utime(path, (then, then))
    return folder


def graph_layers(repo: MemoryRepo) -> list[Path]:
    chain = repo.path / ".git" / "objects" / "info" / "commit-graphs"
    return sorted(chain.glob("*.graph"))


def test_it_removes_quarantines_older_than_an_hour_and_keeps_a_running_push(repo):
    stale = quarantine(repo, "stale", QUARANTINE_MAX_AGE_SECONDS + 60)
    running = quarantine(repo, "running", 30)

    report = keep_up(repo.path)

    assert not stale.exists() and running.exists()
    assert report.quarantines_removed == 1 and report.bytes_freed == 4096
    assert "removed 1 stale quarantine folders (4,096 bytes)" in str(report)


def test_a_quarantine_still_being_written_is_kept_though_the_folder_is_old(repo):
    folder = quarantine(repo, "busy", QUARANTINE_MAX_AGE_SECONDS * 3)
    (folder / "pack" / "pack-0123.pack").touch()  # the push is writing right now

    keep_up(repo.path)

    assert folder.exists()


def test_it_writes_a_commit_graph_with_changed_path_filters_and_updates_it(repo):
    (repo.path / "a.md").write_text("one\n")
    repo.commit(CommitKind.MANUAL, "first", paths=["a.md"])

    assert keep_up(repo.path).commit_graph_error is None
    first = graph_layers(repo)
    (repo.path / "a.md").write_text("two\n")
    repo.commit(CommitKind.MANUAL, "second", paths=["a.md"])
    keep_up(repo.path)

    layers = graph_layers(repo)
    assert first and layers and layers != first
    # BIDX/BDAT are the chunks holding the changed-path Bloom filters.
    assert all(b"BIDX" in layer.read_bytes() and b"BDAT" in layer.read_bytes() for layer in layers)
    subprocess.run(["git", "commit-graph", "verify"], cwd=repo.path, check=True)
    history = subprocess.run(
        ["git", "log", "--format=%s", "--", "a.md"], cwd=repo.path, check=True,
        capture_output=True, text=True,
    ).stdout.splitlines()  # fmt: skip
    assert history == ["manual: second", "manual: first"]
