"""Crafted trees are refused by memsync's hook, naming the file and the rule (issue 10).

A stock `git commit` never writes these trees; `git hash-object --literally` does, and
`git push` sends them. Git's own fsck used to refuse them before the hook ran, with an
object id and an fsck message id; now the pusher reads which path breaks which rule,
and nothing of the push is kept.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from memsync.sync.hooks import install_hooks
from memsync.sync.inspection import inspect_push
from memsync.sync.refs import RefUpdate
from tests.sync.conftest import GitUser, Team, quarantines, stored, topic

pytestmark = pytest.mark.slow

Entry = tuple[bytes, bytes, str]  # mode, name, object id


def write_tree(repo: Path, entries: list[Entry], env: dict[str, str] | None = None) -> str:
    """A raw tree written byte for byte, whatever Git would think of it."""
    data = b"".join(mode + b" " + name + b"\0" + bytes.fromhex(sha) for mode, name, sha in entries)
    return _git(
        repo, "hash-object", "-t", "tree", "--literally", "-w", "--stdin", data=data, env=env
    )


def _git(
    repo: Path, *args: str, data: bytes | None = None, env: dict[str, str] | None = None
) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        input=data, capture_output=True, check=True, env=env,
    )  # fmt: skip
    return done.stdout.decode().strip()


def _crafted(note: str) -> dict[str, tuple[list[Entry], str]]:
    """Each case: the root tree's entries ("" for a subtree holding `config`), and the
    start of the refusal line: `path: kind (rule)`."""
    folders = {
        "upper-case .git": (b".GIT", "path-git-directory"),
        "NTFS short name": (b"git~1", "path-git-directory"),
        "trailing dot": (b".git.", "path-git-directory"),
        "dot": (b".", "path-dot"),
        "dot-dot": (b"..", "path-parent"),
    }
    cases: dict[str, tuple[list[Entry], str]] = {
        case: ([(b"40000", name, "")], f"{name.decode()}/config: unsafe-path ({rule})")
        for case, (name, rule) in folders.items()
    }
    files = {
        "slash in a name": ([b"notes/a.md"], "notes/a.md: unsafe-path (tree-name-slash)"),
        "duplicate": ([b"a.md", b"a.md"], "a.md: unsafe-path (tree-duplicate-name)"),
        "unsorted": ([b"b.md", b"a.md"], "a.md: unsafe-path (tree-order)"),
    }
    for case, (names, line) in files.items():
        cases[case] = ([(b"100644", name, note) for name in names], line)
    for mode in (b"0100644", b"100664"):
        line = f"a.md: unsafe-path (tree-mode): file mode {mode.decode()} is not one Git writes"
        cases[f"mode {mode.decode()}"] = ([(mode, b"a.md", note)], line)
    return cases


CASES = list(_crafted("0" * 40))


@pytest.mark.parametrize("case", CASES)
def test_a_crafted_tree_is_refused_with_memsyncs_line(
    team: Team, people: dict[str, GitUser], tmp_path: Path, case: str
) -> None:
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    note = _git(clone, "hash-object", "-w", "--stdin", data=topic("a", "A note").encode())
    config = write_tree(clone, [(b"100644", b"config", note)])
    entries, expected = _crafted(note)[case]
    root = write_tree(clone, [(mode, name, sha or config) for mode, name, sha in entries])
    tip = _git(clone, "commit-tree", root, "-p", "HEAD", "-m", f"crafted: {case}")

    result = bob.push(clone, f"{tip}:refs/heads/members/bob", check=False)

    assert result.code != 0
    assert "memsync: push refused" in result.err, result.err
    assert f"remote: memsync:   {expected}" in result.err, result.err
    assert "fsck" not in result.err and "unpacker error" not in result.err
    assert not stored(team, tip) and not stored(team, root)
    assert quarantines(team) == []


def test_every_crafted_tree_check_is_the_hooks_to_make(tmp_path: Path) -> None:
    """Git's fsck keeps every other check: a tree it finds broken is still refused."""
    repo = tmp_path / "server"
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    install_hooks(repo / ".git")
    settings = _git(repo, "config", "--get-regexp", r"^receive\.fsck\.")
    assert all(line.endswith(" ignore") for line in settings.splitlines())
    assert _git(repo, "config", "receive.fsckObjects") == "true"


def test_a_tree_no_pushed_commit_reaches_is_checked_too(tmp_path: Path, monkeypatch) -> None:
    """A crafted pack may carry objects no ref reaches; Git would keep them, and a later
    push could build on a tree nobody checked. The hook lists the whole quarantine."""
    repo = tmp_path / "server"
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    _git(repo, "commit", "-q", "--allow-empty", "-m", "start")
    quarantine = tmp_path / "incoming"
    (quarantine / "pack").mkdir(parents=True)
    # As Git runs the hook: new objects in the quarantine, the repository's as alternates.
    env = {"GIT_OBJECT_DIRECTORY": str(quarantine),
           "GIT_ALTERNATE_OBJECT_DIRECTORIES": str(repo / ".git" / "objects"),
           "GIT_QUARANTINE_PATH": str(quarantine)}  # fmt: skip
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    note = _git(repo, "hash-object", "-w", "--stdin", data=topic("a", "A note").encode())
    hidden = write_tree(repo, [(b"100644", b"config", note)])
    write_tree(repo, [(b"40000", b".git", hidden)])  # reached by nothing
    tip = _git(repo, "commit-tree", write_tree(repo, [(b"100644", b"a.md", note)]), "-m", "ok")

    report = inspect_push(
        repo / ".git", [RefUpdate("0" * 40, tip, "refs/heads/members/bob")], "bob"
    )

    assert not report.accepted
    assert any(
        line.endswith(")/.git: unsafe-path (path-git-directory): path enters a `.git` "
                      "directory — rename it to a plain relative path inside the memory directory")
        and line.startswith("(tree ")
        for line in report.refusals
    ), report.refusals  # fmt: skip
