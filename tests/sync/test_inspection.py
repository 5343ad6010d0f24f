"""The pre-receive verdict on crafted pushes, without a server: objects are written into
a repository without moving a ref, which is what Git's quarantine looks like to a hook."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from memsync.sync.hooks import install_hooks
from memsync.sync.inspection import inspect_push
from memsync.sync.push_rules import RefUpdate, refusal

ZERO = "0" * 40


def git(repo: Path, *args: str, data: bytes | None = None) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        input=data, check=True, capture_output=True,
    ).stdout.decode().strip()  # fmt: skip


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    git(path, "commit", "-q", "--allow-empty", "-m", "start")
    return path


def blob(repo: Path, data: bytes) -> str:
    return git(repo, "hash-object", "-w", "--stdin", data=data)


def tree(repo: Path, *entries: tuple[str, str, str]) -> str:
    """A tree from (mode, sha, name) entries, written without touching any ref."""
    kinds = {"040000": "tree", "160000": "commit"}
    lines = "".join(f"{m} {kinds.get(m, 'blob')} {s}\t{n}\n" for m, s, n in entries)
    return git(repo, "mktree", "--missing", data=lines.encode())


def commit(repo: Path, root: str) -> str:
    return git(repo, "commit-tree", root, "-p", "main", "-m", "pushed")


def verdict(repo: Path, tip: str, pusher: str = "bob", ref: str = "refs/heads/members/bob"):
    return inspect_push(repo / ".git", [RefUpdate(ZERO, tip, ref)], pusher)


def test_it_accepts_clean_memory(repo: Path):
    note = blob(repo, b"---\nname: n\ndescription: d\ntype: user\n---\n\nfine\n")

    report = verdict(repo, commit(repo, tree(repo, ("100644", note, "note.md"))))

    assert report.accepted and report.refusals == []


def test_it_refuses_a_submodule(repo: Path):
    gitlink = tree(repo, ("160000", "a" * 40, "vendored"))

    report = verdict(repo, commit(repo, gitlink))

    assert report.refusals == [
        "vendored: unsafe-path (path-submodule): submodules are not memory — rename it to a "
        "plain relative path inside the memory directory"
    ]


def test_it_refuses_every_copy_of_a_symlink_even_one_that_stays_inside(repo: Path):
    # The same subtree twice: `../../x.md` stays inside at depth 2 and leaves at depth 1;
    # both are refused, since judging targets is what let a chain of links through.
    link = blob(repo, b"../../x.md")
    inner = tree(repo, ("120000", link, "link.md"))
    deep = tree(repo, ("040000", inner, "b"))
    root = tree(repo, ("040000", deep, "a"), ("040000", inner, "c"))

    report = verdict(repo, commit(repo, root))

    assert sorted(line.split(":")[0] for line in report.refusals) == ["a/b/link.md", "c/link.md"]
    assert all("unsafe-path (symlink)" in line for line in report.refusals)


def test_it_refuses_a_path_that_is_not_utf8(repo: Path):
    data = blob(repo, b"x\n")
    raw = (
        subprocess.run(
            ["git", "-C", str(repo), "mktree"],
            input=b"100644 blob " + data.encode() + b"\tcaf\xe9.md\n",
            check=True,
            capture_output=True,
        )
        .stdout.decode()
        .strip()
    )

    report = verdict(repo, commit(repo, raw))

    assert report.refusals[0].startswith("caf\\xe9.md: unsafe-path (path-encoding)")


def test_it_refuses_a_tip_that_is_not_a_commit(repo: Path):
    report = verdict(repo, blob(repo, b"just a blob\n"))

    assert report.refusals == ["refs/heads/members/bob: must point at a commit"]


def test_it_refuses_a_push_without_a_pusher(repo: Path):
    report = verdict(repo, git(repo, "rev-parse", "main"), pusher="")

    assert report.refusals == [
        "the push carries no user: push through the memsync server's HTTP endpoint"
    ]


def test_it_lets_members_delete_their_own_branch():
    update = RefUpdate("a" * 40, ZERO, "refs/heads/members/bob")

    assert update.is_delete and refusal(update, "bob") is None
    assert refusal(update, "alice") is not None


def test_it_reports_at_most_forty_problems_and_counts_the_rest(repo: Path):
    entries = [("100644", blob(repo, f"x{n}\n".encode()), f"bad\\{n}.md") for n in range(45)]

    report = verdict(repo, commit(repo, tree(repo, *entries)))
    lines = report.lines()

    assert len(report.refusals) == 45
    assert "memsync:   … and 5 more" in lines
    assert lines[0] == "memsync: push refused (45 problems):"
    assert lines[-1] == "memsync: nothing of this push was stored."


def test_it_finds_the_one_secret_among_more_objects_than_one_round_of_questions(repo: Path):
    # Types and sizes are asked 256 objects at a time (memsync.store.objects): a push of
    # 600 blobs takes three rounds, and the secret is in the last.
    entries = [("100644", blob(repo, f"fact {n}\n".encode()), f"m{n:03d}.md") for n in range(599)]
    secret = blob(repo, b"token ghp_" + b"A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8\n")
    entries.append(("100644", secret, "z-last.md"))

    report = verdict(repo, commit(repo, tree(repo, *entries)))

    assert len(report.refusals) == 1
    assert report.refusals[0].startswith("z-last.md:1: secret")


def test_it_refuses_a_tip_the_push_did_not_carry(repo: Path):
    report = verdict(repo, "1" * 40)

    assert report.refusals == ["refs/heads/members/bob: must point at a commit"]


def test_it_installs_hooks_once_and_again_only_after_a_change(repo: Path):
    git_dir = repo / ".git"

    assert install_hooks(git_dir, python="/usr/bin/python3") is True
    assert install_hooks(git_dir, python="/usr/bin/python3") is False
    (git_dir / "hooks" / "post-receive").write_text("#!/bin/sh\n")
    assert install_hooks(git_dir, python="/usr/bin/python3") is True
    assert "exec /usr/bin/python3 -m memsync.sync.postreceive" in (
        (git_dir / "hooks" / "post-receive").read_text()
    )
