"""The recall index kept on disk between calls: only what changed is read again."""

from __future__ import annotations

import os

from memsync.recall.disk import INDEX_NAME, DiskIndex
from memsync.store import MemoryRepo


def memory(name: str, description: str, body: str = "") -> bytes:
    return f"---\nname: {name}\ndescription: {description}\ntype: project\n---\n\n{body}\n".encode()


def paths(disk: DiskIndex, query: str) -> list[str]:
    return [hit.document.path for hit in disk.index.search(query, 5)]


def test_it_keeps_the_index_in_the_git_directory_and_reads_only_what_changed(tmp_path):
    repo = MemoryRepo.init(tmp_path / "memory")
    repo.apply(
        {
            "deploy_freeze.md": memory("Deploy freeze", "No deploys on Fridays"),
            "db_backup.md": memory("Database backups", "Backups are kept 30 days"),
        },
        "manual",
        "two memories",
    )

    first = DiskIndex(repo.path)
    assert first.location == repo.path / ".git" / "memsync" / INDEX_NAME
    assert first.location.is_file() and first.changed == 2
    first.close()

    again = DiskIndex(repo.path)
    assert again.changed == 0
    assert paths(again, "friday deploys") == ["deploy_freeze.md"]
    again.close()

    (repo.path / "db_backup.md").write_bytes(memory("Database backups", "Snapshots kept 90 days"))
    (repo.path / "oncall.md").write_bytes(memory("On-call", "Pager rotation is weekly"))
    (repo.path / "deploy_freeze.md").unlink()
    later = DiskIndex(repo.path)

    assert later.changed == 2
    assert paths(later, "snapshots") == ["db_backup.md"]
    assert paths(later, "pager rotation") == ["oncall.md"]
    assert paths(later, "friday deploys") == []
    assert len(later.index) == 2


def test_ages_follow_new_commits_without_rereading_files(tmp_path):
    repo = MemoryRepo.init(tmp_path / "memory")
    repo.apply({"a.md": memory("Alpha", "The alpha service")}, "manual", "one")
    DiskIndex(repo.path).close()
    os.utime(repo.path / "a.md", ns=(0, 0))  # an mtime far from the commit time

    repo.apply({"b.md": memory("Beta", "The beta service")}, "manual", "two")
    disk = DiskIndex(repo.path)
    ages = repo.ages()

    by_path = {document.path: document.modified for document in disk.index.documents}
    assert by_path == {"a.md": ages["a.md"], "b.md": ages["b.md"]}


def test_a_damaged_index_file_is_rebuilt(tmp_path):
    root = tmp_path / "memory"
    root.mkdir()
    (root / "a.md").write_bytes(memory("Alpha", "The alpha service"))
    location = tmp_path / "cache" / "index.sqlite"
    location.parent.mkdir()
    location.write_bytes(b"not a database at all" * 100)

    disk = DiskIndex(root, location)

    assert disk.changed == 1 and paths(disk, "alpha") == ["a.md"]


def test_a_link_out_of_the_directory_is_not_indexed_or_read(tmp_path):
    root = tmp_path / "memory"
    root.mkdir()
    secret = tmp_path / "secret.md"
    secret.write_bytes(memory("Secret", "The launch codes"))
    (root / "link.md").symlink_to(secret)

    disk = DiskIndex(root, tmp_path / "index.sqlite")

    assert len(disk.index) == 0 and paths(disk, "launch codes") == []
    assert disk.read("link.md") is None and disk.read("../secret.md") is None
