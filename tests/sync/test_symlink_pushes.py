"""Pushes carrying symlinks are refused outright, through the real server (issue 10).

The attack that reached a shell rc file began with this chain, each link harmless-looking
on its own: ``x/y -> ..``, ``u1 -> x/y/..``, ``u2 -> u1/..`` … ``MEMORY.md -> u4/…``.
A memory directory has no use for links, so none is accepted, wherever it hides: in the
tip, in an earlier commit of the push, under a tree the server already had, or in a
commit the server already had pushed to a new branch.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.sync.conftest import GitUser, Team, quarantines, stored, topic

pytestmark = pytest.mark.slow


def _chain(clone: Path) -> None:
    (clone / "x").mkdir()
    (clone / "x" / "y").symlink_to("..")
    (clone / "u1").symlink_to("x/y/..")
    for number in range(2, 5):
        (clone / f"u{number}").symlink_to(f"u{number - 1}/..")
    (clone / "MEMORY.md").unlink(missing_ok=True)
    (clone / "MEMORY.md").symlink_to("u4/" + "../" * 6 + "home/victim/.bashrc")


def _dangling(clone: Path) -> None:
    (clone / "later.md").symlink_to("/tmp/memsync-not-yet-there.md")


def _link_to_link(clone: Path) -> None:
    (clone / "real.md").write_text(topic("real", "A real note"))
    (clone / "first.md").symlink_to("real.md")
    (clone / "second.md").symlink_to("first.md")


def _directory_link(clone: Path) -> None:
    (clone / "team").symlink_to(".")


def _absolute(clone: Path) -> None:
    (clone / "passwd.md").symlink_to("/etc/passwd")


VARIANTS: dict[str, tuple[Callable[[Path], None], list[str]]] = {
    "chain": (_chain, ["x/y", "u1", "u2", "u3", "u4", "MEMORY.md"]),
    "dangling": (_dangling, ["later.md"]),
    "link-to-link": (_link_to_link, ["first.md", "second.md"]),
    "directory": (_directory_link, ["team"]),
    "absolute": (_absolute, ["passwd.md"]),
}


def _refused(result_err: str, links: list[str]) -> None:
    assert "memsync: push refused" in result_err
    for link in links:
        assert f"remote: memsync:   {link}: unsafe-path (symlink): " in result_err
    assert "nothing of this push was stored" in result_err


@pytest.mark.parametrize("variant", VARIANTS, ids=list(VARIANTS))
def test_it_refuses_a_push_with_symlinks(
    team: Team, people: dict[str, GitUser], tmp_path: Path, variant: str
) -> None:
    make, links = VARIANTS[variant]
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    make(clone)
    pushed = bob.commit(clone, {}, f"links: {variant}")

    result = bob.push(clone, check=False)

    assert result.code != 0
    _refused(result.err, links)
    assert not stored(team, pushed)
    assert quarantines(team) == []
    assert team.repo.rev_parse("members/bob") is None


def test_it_refuses_a_link_added_and_removed_within_one_push(
    team: Team, people: dict[str, GitUser], tmp_path: Path
) -> None:
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    _chain(clone)
    hidden = bob.commit(clone, {}, "links")
    bob.git("rm", "-q", "-r", "x", "u1", "u2", "u3", "u4", "MEMORY.md", cwd=clone)
    tip = bob.commit(clone, {"note.md": topic("note", "A note")}, "links gone")

    result = bob.push(clone, check=False)

    assert result.code != 0
    _refused(result.err, ["MEMORY.md", "x/y"])
    assert not stored(team, hidden) and not stored(team, tip)


def _plant_on_main(team: Team, links: dict[str, str], files: dict[str, bytes]) -> str:
    """A commit on the server's main holding links, as a repository made before the fix."""
    git_dir = team.git_dir()

    def git(*args: str, data: bytes | None = None) -> str:
        done = subprocess.run(
            ["git", f"--git-dir={git_dir}", "-c", "user.name=old", "-c", "user.email=o@x", *args],
            input=data, capture_output=True, check=True,
        )  # fmt: skip
        return done.stdout.decode().strip()

    index = {**os.environ, "GIT_INDEX_FILE": str(team.project.repo_dir.parent / "plant-index")}
    subprocess.run(["git", f"--git-dir={git_dir}", "read-tree", "main"], env=index, check=True)
    for path, target in links.items():
        sha = git("hash-object", "-w", "--stdin", data=target.encode())
        info = ["update-index", "--add", "--cacheinfo", f"120000,{sha},{path}"]
        subprocess.run(["git", f"--git-dir={git_dir}", *info], env=index, check=True)
    for path, data in files.items():
        sha = git("hash-object", "-w", "--stdin", data=data)
        info = ["update-index", "--add", "--cacheinfo", f"100644,{sha},{path}"]
        subprocess.run(["git", f"--git-dir={git_dir}", *info], env=index, check=True)
    tree = (
        subprocess.run(
            ["git", f"--git-dir={git_dir}", "write-tree"],
            env=index,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .strip()
    )
    commit = git("commit-tree", tree, "-p", "main", "-m", "links from before the fix")
    git("update-ref", "refs/heads/main", commit)
    return commit


def test_it_refuses_a_push_of_a_commit_the_server_already_holds_with_links(
    team: Team, people: dict[str, GitUser], tmp_path: Path
) -> None:
    held = _plant_on_main(team, {"old/link.md": "../../victim"}, {"old/fine.md": b"fine\n"})
    bob = people["bob"]
    clone = tmp_path / "bob"
    bob.clone(team.slug, clone)

    # Nothing new in this push: only the tip's own tree shows the link.
    result = bob.push(clone, "origin/main:refs/heads/members/bob", check=False)

    assert result.code != 0
    _refused(result.err, ["old/link.md"])
    assert team.repo.rev_parse("members/bob") is None
    assert team.repo.rev_parse("main") == held


def test_it_refuses_a_push_that_keeps_an_old_subtree_holding_a_link(
    team: Team, people: dict[str, GitUser], tmp_path: Path
) -> None:
    _plant_on_main(team, {"old/link.md": "../../victim"}, {"old/fine.md": b"fine\n"})
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    # A new root tree, but `old/` is the tree the server already had: not pushed again.
    tip = bob.commit(clone, {"new.md": topic("new", "A new note")}, "a new note")

    result = bob.push(clone, check=False)

    assert result.code != 0
    _refused(result.err, ["old/link.md"])
    assert not stored(team, tip)


def test_a_push_that_removes_the_held_link_is_accepted(
    team: Team, people: dict[str, GitUser], tmp_path: Path
) -> None:
    _plant_on_main(team, {"old/link.md": "../../victim"}, {"old/fine.md": b"fine\n"})
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    bob.git("rm", "-q", "old/link.md", cwd=clone)
    tip = bob.commit(clone, {}, "drop the link")

    result = bob.push(clone)

    assert result.code == 0
    assert team.repo.rev_parse("members/bob") == tip


def test_it_refuses_a_gitlink(team: Team, people: dict[str, GitUser], tmp_path: Path) -> None:
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    info = ["update-index", "--add", "--cacheinfo", f"160000,{'a' * 40},vendored"]
    bob.git(*info, cwd=clone)
    bob.git("commit", "-q", "-m", "a submodule", cwd=clone)

    result = bob.push(clone, check=False)

    assert result.code != 0
    assert "remote: memsync:   vendored: unsafe-path (path-submodule)" in result.err
