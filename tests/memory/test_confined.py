"""`ConfinedRoot`: no read, write or listing ever goes through a symlink (issue 10)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memsync.confined import ConfinedRoot, ConfinementError, EntryKind


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    path = tmp_path / "outside" / "victim"
    path.parent.mkdir()
    path.write_text("untouched\n")
    return path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "data" / "repo"
    path.mkdir(parents=True)
    (path / "notes.md").write_text("hello\n")
    (path / "team").mkdir()
    (path / "team" / "shared.md").write_text("shared\n")
    return path


def _chain(root: Path, victim: Path) -> None:
    """The pushed chain of issue 10: each link looks harmless on its own."""
    (root / "x").mkdir()
    (root / "x" / "y").symlink_to("..")
    (root / "u1").symlink_to("x/y/..")
    (root / "u2").symlink_to("u1/..")
    (root / "u3").symlink_to("u2/..")
    (root / "u4").symlink_to("u3/..")
    # x/y is the root, u1 its parent, u2 the test's folder: the victim's, too.
    relative = os.path.relpath(victim, root.parent.parent)
    (root / "MEMORY.md").symlink_to(f"u2/{relative}")
    # The chain really does reach the victim when links are followed.
    assert (root / "MEMORY.md").resolve() == victim.resolve()


def test_it_reads_and_writes_plain_files(root: Path) -> None:
    confined = ConfinedRoot(root)
    assert confined.read_text("notes.md") == "hello\n"
    assert confined.read_bytes("team/shared.md") == b"shared\n"
    confined.write("team/new/deep.md", "deep\n")
    assert (root / "team" / "new" / "deep.md").read_text() == "deep\n"
    confined.write("notes.md", b"changed\n")
    assert (root / "notes.md").read_text() == "changed\n"
    assert confined.exists("notes.md") and confined.is_file("notes.md")
    assert confined.is_dir("team") and not confined.exists("absent.md")
    assert confined.listdir() == ["notes.md", "team"]
    confined.unlink("notes.md")
    assert not (root / "notes.md").exists()
    confined.unlink("notes.md", missing_ok=True)
    with pytest.raises(FileNotFoundError):
        confined.read_bytes("notes.md")


def test_it_leaves_no_temporary_file_behind(root: Path) -> None:
    ConfinedRoot(root).write("notes.md", "x")
    assert sorted(p.name for p in root.iterdir()) == ["notes.md", "team"]


def test_it_refuses_the_chain_of_links_from_the_issue(root: Path, victim: Path) -> None:
    _chain(root, victim)
    confined = ConfinedRoot(root)
    with pytest.raises(ConfinementError, match=r"MEMORY\.md.*symbolic link") as caught:
        confined.write("MEMORY.md", "$(touch /tmp/pwned)\n")
    assert caught.value.link == "MEMORY.md"
    with pytest.raises(ConfinementError):
        confined.read_text("MEMORY.md")
    with pytest.raises(ConfinementError, match="u4"):
        confined.write("u4/anything.md", "x")
    with pytest.raises(ConfinementError, match="x/y"):
        confined.read_bytes("x/y/repo/notes.md")
    assert victim.read_text() == "untouched\n"


def test_a_dangling_link_does_not_look_absent(root: Path, tmp_path: Path) -> None:
    target = tmp_path / "outside" / "created-later.md"
    (root / "free.md").symlink_to(target)
    confined = ConfinedRoot(root)
    with pytest.raises(ConfinementError, match=r"free\.md"):
        confined.exists("free.md")
    with pytest.raises(ConfinementError):
        confined.write("free.md", "x")
    with pytest.raises(ConfinementError):
        confined.read_bytes("free.md")
    assert not target.exists()
    (root / "gone").symlink_to(tmp_path / "outside" / "dir")
    with pytest.raises(ConfinementError, match="gone"):
        confined.write("gone/file.md", "x")
    with pytest.raises(ConfinementError):
        confined.mkdirs("gone/sub")
    assert not (tmp_path / "outside" / "dir").exists()


def test_it_refuses_a_link_to_a_link(root: Path, victim: Path) -> None:
    (root / "first").symlink_to(victim)
    (root / "second.md").symlink_to("first")
    confined = ConfinedRoot(root)
    for path in ("first", "second.md"):
        with pytest.raises(ConfinementError, match=path):
            confined.write(path, "overwritten")
    assert victim.read_text() == "untouched\n"


def test_it_refuses_a_directory_link_even_inside_the_root(root: Path, victim: Path) -> None:
    (root / "alias").symlink_to("team")
    (root / "out").symlink_to(victim.parent)
    confined = ConfinedRoot(root)
    with pytest.raises(ConfinementError, match="alias"):
        confined.read_text("alias/shared.md")
    with pytest.raises(ConfinementError, match="out"):
        confined.write("out/victim", "overwritten")
    with pytest.raises(ConfinementError, match="out"):
        confined.listdir("out")
    with pytest.raises(ConfinementError):
        confined.exists("out/victim")
    assert victim.read_text() == "untouched\n"


def test_it_reports_links_in_listings_without_entering_them(root: Path, victim: Path) -> None:
    (root / "out").symlink_to(victim.parent)
    (root / "link.md").symlink_to(victim)
    confined = ConfinedRoot(root)
    kinds = {entry.name: entry.kind for entry in confined.scan()}
    assert kinds["out"] is EntryKind.LINK and kinds["link.md"] is EntryKind.LINK
    walked = [path for path, _ in confined.walk()]
    assert "out/victim" not in walked and "team/shared.md" in walked


def test_unlinking_a_link_removes_the_link_not_its_target(root: Path, victim: Path) -> None:
    (root / "link.md").symlink_to(victim)
    ConfinedRoot(root).unlink("link.md")
    assert not (root / "link.md").is_symlink()
    assert victim.read_text() == "untouched\n"


@pytest.mark.parametrize("path", ["/etc/passwd", "../outside/victim", "team/../../x", "a/../b"])
def test_it_refuses_absolute_and_parent_paths(root: Path, path: str) -> None:
    confined = ConfinedRoot(root)
    with pytest.raises(ConfinementError, match=r"absolute|`\.\.`"):
        confined.write(path, "x")
    with pytest.raises(ConfinementError):
        confined.read_bytes(path)


def test_a_fifo_is_refused_without_blocking(root: Path) -> None:
    os.mkfifo(root / "pipe.md")
    with pytest.raises(ConfinementError, match="not a regular file"):
        ConfinedRoot(root).read_bytes("pipe.md")


def test_a_link_swapped_in_after_the_check_is_replaced_not_followed(
    root: Path, victim: Path
) -> None:
    # The rename replaces whatever is at the name: a link planted there between the
    # check and the write is replaced by the file, its target untouched.
    confined = ConfinedRoot(root)
    (root / "race.md").symlink_to(victim)
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        temporary = ".race.tmp"
        with os.fdopen(os.open(temporary, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "wb") as f:
            f.write(b"new")
        os.replace(temporary, "race.md", src_dir_fd=fd, dst_dir_fd=fd)
    finally:
        os.close(fd)
    assert confined.read_text("race.md") == "new"
    assert victim.read_text() == "untouched\n"


def _open_descriptors() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def test_a_held_root_is_opened_once_and_closed_after(root: Path) -> None:
    confined = ConfinedRoot(root)
    before = _open_descriptors()
    with confined.held():
        held = _open_descriptors() - before
        assert len(held) == 1
        with confined.held():  # nested: the same descriptor
            confined.write("team/new.md", "new\n")
            assert confined.read_text("notes.md") == "hello\n"
            assert confined.listdir("team") == ["new.md", "shared.md"]
        assert _open_descriptors() - before == held
    assert _open_descriptors() == before
    assert (root / "team" / "new.md").read_text() == "new\n"


def test_a_held_root_still_refuses_links(root: Path, victim: Path) -> None:
    _chain(root, victim)
    confined = ConfinedRoot(root)
    with confined.held():
        with pytest.raises(ConfinementError):
            confined.write("MEMORY.md", "overwritten\n", in_place=True)
        with pytest.raises(ConfinementError):
            confined.read_bytes("u2/outside/victim")
    assert victim.read_text() == "untouched\n"


def test_an_in_place_write_changes_the_file_itself(root: Path) -> None:
    confined = ConfinedRoot(root)
    (root / "notes.md").chmod(0o600)
    inode = (root / "notes.md").stat().st_ino
    confined.write("notes.md", "a longer text than before\n", in_place=True)
    assert (root / "notes.md").read_text() == "a longer text than before\n"
    confined.write("notes.md", "short\n", in_place=True)
    assert (root / "notes.md").read_text() == "short\n"
    info = (root / "notes.md").stat()
    assert (info.st_ino, info.st_mode & 0o777) == (inode, 0o600)
    confined.write("team/fresh.md", "fresh\n", in_place=True)  # absent: created
    assert (root / "team" / "fresh.md").read_text() == "fresh\n"


def test_an_in_place_write_never_writes_through_a_hard_link(root: Path, victim: Path) -> None:
    # A second name for the file may be outside the root: the write replaces this name
    # instead, and the other keeps its content.
    os.link(victim, root / "linked.md")
    ConfinedRoot(root).write("linked.md", "new\n", in_place=True)
    assert (root / "linked.md").read_text() == "new\n"
    assert victim.read_text() == "untouched\n"


def test_an_in_place_write_replaces_a_fifo_without_blocking(root: Path) -> None:
    os.mkfifo(root / "pipe.md")
    ConfinedRoot(root).write("pipe.md", "text\n", in_place=True)
    assert (root / "pipe.md").read_text() == "text\n"
