"""What a push adds, read from the repository while Git holds it in quarantine.

The pre-receive hook runs before any ref moves, with the pushed objects in a
quarantine directory that Git deletes when the hook refuses. ``git rev-list --objects
<new tips> --not --all`` names exactly the objects the push adds; their types and sizes,
and then the trees and blobs, come from one ``git cat-file --batch-command`` process for
the whole push. The hook is a fork of a large warm process, where starting a process
costs about 2 ms of CPU before git runs at all (issue 14): a push starts four.

The hook starts on every push: this module imports nothing of the store but its runner
(``memsync.store.gitcmd``), so a push pays for no more than it reads.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from .gitcmd import GitError, GitRunner

TREE_MODE = "40000"
SYMLINK_MODE = "120000"
GITLINK_MODE = "160000"


class PushReadError(Exception):
    """The pushed objects could not be read; the push is refused with this message."""


@dataclass(frozen=True)
class PushedObject:
    sha: str
    type: str  # commit, tree, blob, tag
    size: int


@dataclass(frozen=True)
class TreeEntry:
    """A name in a tree the push adds, with its full path from the repository root."""

    path: bytes
    mode: str
    sha: str
    depth: int  # directories above it: 0 for a file at the root


def _git(git_dir: Path, *args: str, env: Mapping[str, str | None] | None = None) -> bytes:
    runner = GitRunner(git_dir, git_dir=git_dir)
    try:
        return runner.run_bytes(*args, env=env)
    except GitError as error:
        raise PushReadError(f"git {args[0]} failed: {error.stderr}") from None


def pushed_objects(
    git_dir: Path, reader: ObjectReader, tips: Iterable[str]
) -> dict[str, PushedObject]:
    """Every object reachable from ``tips`` that no ref reaches yet, with type and size."""
    wanted = list(tips)
    if not wanted:
        return {}
    listed = _git(git_dir, "rev-list", "--objects", "--no-object-names", *wanted, "--not", "--all")
    described = reader.describe(listed.decode().split())
    return {sha: _present(sha, pushed) for sha, pushed in described.items()}


def quarantined_objects(git_dir: Path) -> dict[str, PushedObject]:
    """Every object the push brought, reachable from its tips or not.

    Git hands the pre-receive hook the quarantine's path; listing that directory alone
    (no alternates: the repository's own objects) names exactly what the pack carried,
    including objects no pushed ref reaches, which Git would otherwise keep. Empty
    outside a hook.
    """
    quarantine = os.environ.get("GIT_QUARANTINE_PATH")
    if not quarantine:
        return {}
    # None unsets: without alternates, only the quarantine's own objects are listed.
    env = {"GIT_OBJECT_DIRECTORY": quarantine, "GIT_ALTERNATE_OBJECT_DIRECTORIES": None}
    listing = ("cat-file", "--batch-all-objects", f"--batch-check={_DESCRIPTION}")
    lines = _git(git_dir, *listing, env=env).decode().splitlines()
    return {line.split(" ", 1)[0]: _present(line, _described(line)) for line in lines}


_DESCRIPTION = "%(objectname) %(objecttype) %(objectsize)"
# Commands written before their answers are read: the answers (under 100 bytes each)
# then never fill the 64 KiB pipe while git still waits for the rest of the commands.
_COMMANDS_PER_ROUND = 256


def _present(name: str, pushed: PushedObject | None) -> PushedObject:
    # Fail closed: an object listed as pushed but unreadable refuses the push.
    if pushed is None:
        raise PushReadError(f"object {name} is missing from the push")
    return pushed


def _described(line: str) -> PushedObject | None:
    """A ``%(objectname) %(objecttype) %(objectsize)`` line; None for ``<id> missing``."""
    parts = line.split(" ")
    if len(parts) != 3:
        return None
    sha, kind, size = parts
    return PushedObject(sha, kind, int(size))


def tip_links(git_dir: Path, tip: str) -> list[tuple[str, bytes]]:
    """(mode, path) of every symlink and gitlink anywhere in the tree of commit ``tip``.

    The pushed trees alone are not enough: a tip may reuse a tree (or a whole commit)
    the repository already holds, links and all, so the tip's full tree is listed.
    """
    listed = _git(git_dir, "ls-tree", "-r", "-z", "--full-tree", tip)
    found = []
    for record in listed.split(b"\0"):
        if not record:
            continue
        header, _, path = record.partition(b"\t")
        mode = header.split(b" ", 1)[0].decode()
        if mode in (SYMLINK_MODE, GITLINK_MODE):
            found.append((mode, path))
    return found


class ObjectReader:
    """One ``git cat-file --batch-command`` process for a whole push: what objects are
    (``info``) and what they hold (``contents``).

    Without ``--buffer``, cat-file flushes after every command, so an answer can be
    read before the next command is written and no pipe ever fills up.
    """

    def __init__(self, git_dir: Path) -> None:
        self._process = GitRunner(git_dir, git_dir=git_dir).start(
            "cat-file", f"--batch-command={_DESCRIPTION}"
        )

    def describe(self, shas: Iterable[str]) -> dict[str, PushedObject | None]:
        """Type and size of each object; None for one the repository does not have."""
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        wanted = list(dict.fromkeys(shas))
        found: dict[str, PushedObject | None] = {}
        for start in range(0, len(wanted), _COMMANDS_PER_ROUND):
            chunk = wanted[start : start + _COMMANDS_PER_ROUND]
            stdin.write("".join(f"info {sha}\n" for sha in chunk).encode())
            stdin.flush()
            for sha in chunk:
                found[sha] = _described(stdout.readline().decode().rstrip("\n"))
        return found

    def read(self, sha: str) -> tuple[str, bytes]:
        """(type, content) of one object."""
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(f"contents {sha}\n".encode())
        stdin.flush()
        header = stdout.readline().decode().split()
        if len(header) != 3:
            raise PushReadError(f"object {sha} is missing from the push")
        _, kind, size = header
        content = stdout.read(int(size))
        stdout.read(1)  # the newline after each object
        return kind, content

    def close(self) -> None:
        if self._process.stdin:
            self._process.stdin.close()
        if self._process.stdout:
            self._process.stdout.close()
        self._process.wait()

    def __enter__(self) -> ObjectReader:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def parse_tree(data: bytes, hash_length: int = 20) -> Iterator[tuple[str, bytes, str]]:
    """(mode, name, sha) of each entry of a raw tree object (``<mode> <name>\\0<id>``).

    ``hash_length`` is 20 in a SHA-1 repository and 32 in a SHA-256 one.
    """
    position = 0
    while position < len(data):
        space = data.find(b" ", position)
        nul = data.find(b"\0", space + 1)
        if space < 0 or nul < 0 or nul + 1 + hash_length > len(data):
            raise PushReadError("a pushed tree is malformed (cut short)")
        mode = data[position:space].decode("ascii", "replace")
        name = data[space + 1 : nul]
        sha = data[nul + 1 : nul + 1 + hash_length].hex()
        position = nul + 1 + hash_length
        yield mode, name, sha


def commit_tree(content: bytes) -> str:
    """The root tree of a raw commit object (its first header line)."""
    first = content.split(b"\n", 1)[0].decode()
    if not first.startswith("tree "):
        raise PushReadError("a pushed commit has no tree")
    return first.removeprefix("tree ")


@dataclass(frozen=True)
class PushedTree:
    """A tree the push adds, where it first appears, and its raw content."""

    sha: str
    prefix: bytes  # its path from the repository root with a final `/`; empty for a root
    depth: int
    content: bytes

    def entries(self) -> Iterator[TreeEntry]:
        for mode, name, sha in parse_tree(self.content, len(self.sha) // 2):
            yield TreeEntry(self.prefix + name, mode, sha, self.depth)


def new_trees(reader: ObjectReader, new: dict[str, PushedObject]) -> Iterator[PushedTree]:
    """Every tree the push adds that its commits reach, from the roots down.

    Trees the repository already had are not entered: everything under them was
    checked when they arrived (or was written by the server). A tree pushed at several
    places at the same depth is walked once, which bounds the work a crafted push of
    repeated subtrees can cause.
    """
    seen: set[tuple[str, int]] = set()
    stack: list[tuple[str, bytes, int]] = []
    for obj in new.values():
        if obj.type == "commit":
            tree = commit_tree(reader.read(obj.sha)[1])
            if tree in new:
                stack.append((tree, b"", 0))
    while stack:
        tree, prefix, depth = stack.pop()
        if (tree, depth) in seen:
            continue
        seen.add((tree, depth))
        kind, content = reader.read(tree)
        if kind != "tree":
            raise PushReadError(f"object {tree} should be a tree but is a {kind}")
        pushed = PushedTree(tree, prefix, depth, content)
        yield pushed
        for entry in pushed.entries():
            if entry.mode == TREE_MODE and entry.sha in new:
                stack.append((entry.sha, entry.path + b"/", depth + 1))
