"""``RepoReader``: what a memory repository holds, read without the write lock.

Refs, the files at any commit, history, diffs, blame and each file's age: every one a
``git`` process or two, none of them taking the repository's lock (readers never wait
for a writer; see docs/git-notes.md#concurrency). `memsync.store.repo.MemoryRepo` is a
``RepoReader`` with memsync's writing verbs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from .gitcmd import GitRunner
from .history import LOG_FORMAT, CommitInfo, parse_log, split_show
from .plumbing import common_dir_of, git_dir_of
from .refs import MAIN, head_ref
from .refstamp import RefsStamp, refs_stamp
from .tags import TagInfo, parse_tagger
from .trailers import Trailer

if TYPE_CHECKING:
    from .diff import Diff, FileDiff

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
_FULL_SHA = re.compile(r"[0-9a-f]{40}")
# Exact paths (raw part, NUL-separated) and the patches, in one call (memsync.store.diff).
_DIFF_OPTIONS = (
    "--raw", "-z", "--patch", "--no-color", "--no-ext-diff", "--no-renames", "--no-abbrev",
    "--full-index",
)  # fmt: skip
# read_many looks up this many paths by name; more, and it lists the tree once instead.
_NAMED_LOOKUPS = 16


class StoreError(Exception):
    """A repository operation could not be done; the message says why."""


@dataclass(frozen=True)
class BlameLine:
    number: int
    text: str
    commit: CommitInfo


class RepoReader:
    """Reads of the repository checked out at ``path`` (`MemoryRepo` opens one)."""

    path: Path
    _git: GitRunner
    _common: Path | None

    # --- where it lives ------------------------------------------------------------------
    @property
    def git_dir(self) -> Path:
        """This checkout's own Git directory (a worktree's, not the one it shares)."""
        found = git_dir_of(self.path)
        return (
            found if found is not None else Path(self._git.run("rev-parse", "--absolute-git-dir"))
        )

    @property
    def _common_dir(self) -> Path:
        """The repository's .git directory (shared by its worktrees)."""
        if self._common is None:
            self._common = common_dir_of(self.git_dir)
        return self._common

    # --- refs --------------------------------------------------------------------------
    def head(self) -> str | None:
        return self.rev_parse("HEAD")

    def current_branch(self) -> str | None:
        status, out, _ = self._git.run_status("symbolic-ref", "--short", "-q", "HEAD")
        return out.strip() if status == 0 else None

    def rev_parse(self, rev: str) -> str | None:
        status, out, _ = self._git.run_status("rev-parse", "--verify", "-q", f"{rev}^{{commit}}")
        return out.strip() if status == 0 else None

    def branches(self, prefix: str = "") -> dict[str, str]:
        """Branch name → commit, for branches starting with ``prefix`` (e.g. ``dream/``)."""
        return self.refs(head_ref(prefix), strip=head_ref(""))

    def refs(self, prefix: str, *, strip: str = "") -> dict[str, str]:
        output = self._git.run("for-each-ref", "--format=%(objectname) %(refname)", prefix)
        found = {}
        for line in output.splitlines():
            sha, name = line.split(" ", 1)
            if name.startswith(prefix.rstrip("*")):
                found[name.removeprefix(strip)] = sha
        return found

    def refs_stamp(self, prefix: str) -> RefsStamp | None:
        """A value that changes whenever a ref under the folder ``prefix`` moves, read
        without starting git (``memsync.store.refstamp``); None when it cannot tell. Take
        it before reading the refs it stands for."""
        return refs_stamp(self._common_dir, prefix)

    def tip_containing(self, commit: str, branch: str = MAIN) -> str | None:
        """The commit ``branch`` points at when it contains ``commit``, else None: what
        :meth:`rev_parse` and :meth:`is_ancestor` tell together, in one process."""
        return (
            self._git.run(
                "for-each-ref", f"--contains={commit}", "--format=%(objectname)", head_ref(branch)
            )
            or None
        )

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        status, _, _ = self._git.run_status("merge-base", "--is-ancestor", ancestor, descendant)
        return status == 0

    def ahead_behind(self, branch: str, base: str = MAIN) -> tuple[int, int]:
        """How many commits ``branch`` has that ``base`` lacks, and the other way round."""
        out = self._git.run("rev-list", "--left-right", "--count", f"{branch}...{base}")
        ahead, behind = out.split()
        return int(ahead), int(behind)

    def merge_base(self, a: str, b: str) -> str | None:
        status, out, _ = self._git.run_status("merge-base", a, b)
        return out.strip() if status == 0 else None

    def unmerged_refs(self, prefix: str, into: str = MAIN) -> list[tuple[str, str]]:
        """(ref name, commit) of every ref under ``prefix`` (a ``refs/heads/…/`` path)
        holding commits ``into`` lacks: one ``git for-each-ref`` for all of them."""
        output = self._git.run(
            "for-each-ref", f"--no-merged={into}", "--format=%(refname) %(objectname)", prefix
        )
        return [(ref, sha) for ref, _, sha in (line.partition(" ") for line in output.splitlines())]

    def read_tag(self, rev: str) -> TagInfo:
        """The commit ``rev`` names, and who tagged it when ``rev`` is an annotated tag."""
        commit = self.rev_parse(rev) or rev
        status, text, _ = self._git.run_status("cat-file", "tag", rev)
        if status != 0:
            return TagInfo(commit, None, None)  # a plain ref to the commit
        return TagInfo(commit, *parse_tagger(text))

    # --- reading -----------------------------------------------------------------------
    def files(self, rev: str = "HEAD") -> list[str]:
        """Every file path in the tree at ``rev`` (none when there is no such commit)."""
        status, output = self._git.run_bytes_status(
            "ls-tree", "-r", "-z", "--name-only", f"{rev}^{{commit}}"
        )
        if status != 0:
            return []
        return [p.decode("utf-8", "replace") for p in output.split(b"\0") if p]

    def read(self, rev: str, path: str) -> bytes | None:
        """A file's bytes at ``rev``, or None when it is not there."""
        status, _, _ = self._git.run_status("cat-file", "-e", f"{rev}:{path}")
        if status != 0:
            return None
        return self._git.run_bytes("cat-file", "blob", f"{rev}:{path}")

    def read_many(self, rev: str, paths: Iterable[str]) -> dict[str, bytes]:
        """Several files at ``rev`` through one ``git cat-file --batch`` process."""
        wanted = [p for p in paths if "\n" not in p]
        if not wanted:
            return {}
        if len(wanted) <= _NAMED_LOOKUPS:
            names = [f"{rev}:{p}" for p in wanted]
        else:
            # Each "rev:path" is a walk of the directory's tree inside cat-file: quadratic
            # over a 10,000-file directory (25 s). One ls-tree gives every blob id at once.
            ids = self.blobs(rev)
            wanted = [p for p in wanted if p in ids]
            names = [ids[p] for p in wanted]
        contents = batch_blobs(self._git, names)
        return {path: data for path, data in zip(wanted, contents, strict=True) if data is not None}

    def log(
        self,
        rev: str = "HEAD",
        *,
        paths: Sequence[str] = (),
        limit: int | None = None,
        skip: int = 0,
        first_parent: bool = False,
        containing: Sequence[str] = (),
    ) -> list[CommitInfo]:
        """Commits reachable from ``rev``, newest first, with kind, trailers and file stats;
        only those whose message holds every string of ``containing``, when given."""
        if self.rev_parse(rev) is None:
            return []
        args = ["log", f"--format={LOG_FORMAT}", "--numstat", "-z", "--no-renames"]
        if limit is not None:
            args.append(f"--max-count={limit}")
        if skip:
            args.append(f"--skip={skip}")
        if first_parent:
            args.append("--first-parent")
        if containing:
            args += ["--fixed-strings", "--all-match", *(f"--grep={text}" for text in containing)]
        args += [rev, "--", *paths]
        return parse_log(self._git.run_bytes(*args))

    def commit_info(self, rev: str) -> CommitInfo:
        commits = self.log(rev, limit=1)
        if not commits:
            raise StoreError(f"no commit {rev!r} in {self.path}")
        return commits[0]

    def commits(self, shas: Sequence[str]) -> dict[str, CommitInfo]:
        """Several commits with their file stats through one ``git log --no-walk``."""
        if not shas:
            return {}
        output = self._git.run_bytes(
            "log", "--no-walk=unsorted", f"--format={LOG_FORMAT}", "--numstat", "-z",
            "--no-renames", *shas,
        )  # fmt: skip
        return {info.sha: info for info in parse_log(output)}

    def show(self, rev: str) -> tuple[CommitInfo, Diff]:
        """A commit (without file stats: its diff has them) and what it changed against
        its first parent, or against nothing for a root commit: one ``git show``, where
        :meth:`commits` and :meth:`diff` take three processes."""
        output = self._git.run_bytes(
            "show", f"--format={LOG_FORMAT}", "--diff-merges=first-parent", *_DIFF_OPTIONS,
            f"{rev}^{{commit}}",
        )  # fmt: skip
        header, patch = split_show(output)
        commits = parse_log(header)
        if not commits:
            raise StoreError(f"no commit {rev!r} in {self.path}")
        commit = commits[0]
        base = commit.parents[0] if commit.parents else None
        from .diff import parse_diff  # for the pages that show diffs, not every writer

        return commit, parse_diff(patch, base, commit.sha)

    def commits_with_trailers(
        self, *trailers: Trailer, rev: str = MAIN, first_parent: bool = False
    ) -> list[CommitInfo]:
        """Commits reachable from ``rev`` carrying any of ``trailers``, newest first,
        without file stats: git does the filtering, so a long history costs one process."""
        args = [
            "log",
            f"--format={LOG_FORMAT}",
            *(f"--grep={trailer.grep}" for trailer in trailers),
        ]
        if first_parent:
            args.append("--first-parent")
        return parse_log(self._git.run_bytes(*args, rev, "--"))

    def diff(self, rev: str, base: str | None = None) -> Diff:
        """What ``rev`` changed: against ``base``, else its first parent (or nothing)."""
        head = self.rev_parse(rev)
        if head is None:
            raise StoreError(f"no commit {rev!r} in {self.path}")
        if base is None:
            base = self.rev_parse(f"{head}^1")
        output = self._git.run_bytes("diff", *_DIFF_OPTIONS, base or EMPTY_TREE, head)
        from .diff import parse_diff

        return parse_diff(output, base, head)

    def file_diff(self, path: str, old: str | None, new: str | None) -> FileDiff | None:
        """How ``path`` changes from commit ``old`` to commit ``new`` (None, or a commit
        that does not exist: the file is absent on that side); None when it does not."""
        before, after = (self.rev_parse(rev) if rev else None for rev in (old, new))
        output = self._git.run_bytes(
            "diff", *_DIFF_OPTIONS, before or EMPTY_TREE, after or EMPTY_TREE, "--", path
        )
        from .diff import parse_diff

        return parse_diff(output, before, after or EMPTY_TREE).file(path)

    def blame(self, path: str, rev: str = "HEAD") -> list[BlameLine]:
        """Which commit last changed each line of ``path`` at ``rev`` (with its kind,
        session and dream from the trailers), through one ``git blame --porcelain`` and
        one ``git log --no-walk`` for the commits it names."""
        output = self._git.run_bytes("blame", "--porcelain", rev, "--", path)
        rows: list[tuple[str, int, str]] = []
        sha = ""
        number = 0
        for raw in output.split(b"\n"):
            if raw.startswith(b"\t"):
                rows.append((sha, number, raw[1:].decode("utf-8", "replace")))
                continue
            parts = raw.split(b" ")
            if len(parts) >= 3 and len(parts[0]) == 40 and parts[1].isdigit():
                sha, number = parts[0].decode(), int(parts[2])
        shas = sorted({row[0] for row in rows})
        commits: dict[str, CommitInfo] = {}
        if shas:
            output = self._git.run_bytes(
                "log", "--no-walk=unsorted", f"--format={LOG_FORMAT}", *shas
            )
            commits = {commit.sha: commit for commit in parse_log(output)}
        return [BlameLine(number, text, commits[sha]) for sha, number, text in rows]

    def ages(
        self, rev: str = "HEAD", *, cached: bool = True, blobs: dict[str, str] | None = None
    ) -> dict[str, datetime]:
        """When each file at ``rev`` got its current content on ``rev``'s first-parent
        line: one pass the first time, then only the commits since the last answer (see
        ``memsync.store.ages``). ``blobs``: :meth:`blobs` of ``rev``, when the caller has
        read them already (a 10,000-file ``ls-tree`` is not free)."""
        # A full commit id needs no rev-parse process (the dashboard passes one).
        head = rev if _FULL_SHA.fullmatch(rev) else self.rev_parse(rev)
        if blobs is None:
            blobs = self.blobs(head) if head else {}
        if not blobs or head is None:
            return {}
        cache_dir = self._common_dir / "memsync" if cached else None
        from .ages import first_parent_ages  # loads tempfile: not on every commit's path

        return first_parent_ages(cache_dir, head, blobs, self._walk_first_parent, self.is_ancestor)

    def blobs(self, rev: str = "HEAD") -> dict[str, str]:
        """Every file path in the tree at ``rev`` with its blob id."""
        status, output = self._git.run_bytes_status("ls-tree", "-r", "-z", f"{rev}^{{commit}}")
        if status != 0:
            return {}
        found = {}
        for record in output.split(b"\0"):
            meta, _, path = record.partition(b"\t")
            parts = meta.split()
            if path and len(parts) == 3 and parts[1] == b"blob":
                found[path.decode("utf-8", "replace")] = parts[2].decode()
        return found

    def _walk_first_parent(self, revisions: str) -> Iterator[bytes]:
        """``git log --first-parent --reverse --raw -z`` over ``revisions``, oldest first,
        as NUL-separated records: each commit's blobs against its first parent."""
        with self._git.stream(
            "log", "--first-parent", "--reverse", "--raw", "-z", "--no-abbrev", "--no-renames",
            "--format=%x1e%ct%x1f%P", revisions,
        ) as log:  # fmt: skip
            assert log.stdout is not None
            yield from _split_nul(log.stdout)


def batch_blobs(git: GitRunner, names: Sequence[str]) -> list[bytes | None]:
    """The content of each blob ``names`` names (a blob id or ``rev:path``), in order,
    through one ``git cat-file --batch``; None for a name that is missing or no blob."""
    request = "".join(f"{name}\n" for name in names).encode()
    out = git.run_with_input(request, "cat-file", "--batch")
    contents: list[bytes | None] = []
    position = 0
    for _ in names:
        line_end = out.index(b"\n", position)
        header = out[position:line_end].split(b" ")
        position = line_end + 1
        if len(header) != 3:  # "<name> missing" (or ambiguous): no content follows
            contents.append(None)
            continue
        size = int(header[2])
        contents.append(out[position : position + size] if header[1] == b"blob" else None)
        position += size + 1
    return contents


def _split_nul(stream: object) -> Iterable[bytes]:
    """NUL-separated records from a binary stream, read in chunks."""
    buffer = b""
    read = stream.read1 if hasattr(stream, "read1") else stream.read  # type: ignore[attr-defined]
    while True:
        chunk = read(1 << 16)
        if not chunk:
            break
        buffer += chunk
        *records, buffer = buffer.split(b"\0")
        yield from records
    if buffer:
        yield buffer
