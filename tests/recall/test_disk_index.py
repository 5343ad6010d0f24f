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


def replace(path, data: bytes) -> None:
    """Write as memsync and most editors save: a new file renamed over the old one."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def test_an_index_opened_without_rescan_looks_only_at_files_added_removed_or_replaced(tmp_path):
    root = tmp_path / "memory"
    root.mkdir()
    for name in ("a", "b", "c", "d"):
        (root / f"{name}.md").write_bytes(memory(name.upper(), f"The {name} service"))
    location = tmp_path / "index.sqlite"
    DiskIndex(root, location).close()
    replace(root / "b.md", memory("B", "The billing service, rewritten"))
    (root / "c.md").unlink()
    (root / "e.md").write_bytes(memory("E", "The echo service"))

    disk = DiskIndex(root, location, ages=False, rescan=False)

    assert disk.stated == 2 and disk.changed == 2
    assert sorted(disk.index.paths()) == ["a.md", "b.md", "d.md", "e.md"]
    assert paths(disk, "billing") == ["b.md"] and paths(disk, "echo") == ["e.md"]
    disk.close()
    # The scan it kept is the one a full update takes: nothing is read again.
    again = DiskIndex(root, location)
    assert again.stated == 4 and again.changed == 0


def test_a_file_edited_in_place_waits_for_the_next_full_update(tmp_path):
    root = tmp_path / "memory"
    root.mkdir()
    (root / "a.md").write_bytes(memory("Alpha", "The alpha service"))
    location = tmp_path / "index.sqlite"
    DiskIndex(root, location).close()
    with (root / "a.md").open("r+b") as same_file:
        same_file.write(memory("Gamma", "The gamma service"))

    assert DiskIndex(root, location, rescan=False).stated == 0
    assert paths(DiskIndex(root, location), "gamma") == ["a.md"]


def test_a_file_the_listing_found_then_deleted_leaves_the_index_at_the_next_full_update(
    tmp_path,
):
    root = tmp_path / "memory"
    root.mkdir()
    (root / "a.md").write_bytes(memory("Alpha", "The alpha service"))
    location = tmp_path / "index.sqlite"
    DiskIndex(root, location).close()
    (root / "b.md").write_bytes(memory("Beta", "The beta service"))
    DiskIndex(root, location, rescan=False).close()
    (root / "b.md").unlink()

    disk = DiskIndex(root, location)

    assert disk.index.paths() == ["a.md"] and paths(disk, "beta") == []
