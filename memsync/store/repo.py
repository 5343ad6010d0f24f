"""``MemoryRepo``: one memory directory as a Git repository, with memsync's verbs.

Every write (stage-and-commit, merge, revert) runs under one ``flock`` per repository
and through the ``git`` binary, so concurrent writers serialise instead of losing
commits (see docs/git-notes.md#concurrency). Reads run without the lock. Nothing here
reads settings.
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath

from memsync.confined import ConfinedRoot, ConfinementError, EntryKind
from memsync.memory.index import INDEX_FILENAME

from .ages import first_parent_ages
from .commit_tree import commit_index
from .diff import Diff, FileDiff, parse_diff
from .gitcmd import GitError, GitRunner
from .history import (
    LOG_FORMAT,
    CommitInfo,
    CommitKind,
    format_message,
    parse_log,
    split_show,
)
from .lock import RepoLock
from .plumbing import common_dir_of, git_dir_of
from .recovery import clear_interrupted, is_server_owned, mark_server_owned
from .refs import MAIN, head_ref
from .tags import TagInfo, parse_tagger, tag_text
from .trailers import REVERTS, Trailer

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
LOCK_FILE_NAME = ".consolidate-lock"
MERGE_DRIVER_NAME = "memsync-index"
MERGE_DRIVER_DESCRIPTION = f"memsync {INDEX_FILENAME} entry merge"
GITATTRIBUTES = f"{INDEX_FILENAME} merge={MERGE_DRIVER_NAME}\n"
GITIGNORE = f"{LOCK_FILE_NAME}\n"
DEFAULT_IDENTITY = ("memsync", "memsync@localhost")
_LOCK_RETRIES = 5
_FULL_SHA = re.compile(r"[0-9a-f]{40}")
# Exact paths (raw part, NUL-separated) and the patches, in one call (memsync.store.diff).
_DIFF_OPTIONS = (
    "--raw", "-z", "--patch", "--no-color", "--no-ext-diff", "--no-renames", "--no-abbrev",
    "--full-index",
)  # fmt: skip


class StoreError(Exception):
    """A repository operation could not be done; the message says why."""


@dataclass(frozen=True)
class Identity:
    name: str
    email: str

    def env(self, role: str) -> dict[str, str]:
        return {f"GIT_{role}_NAME": self.name, f"GIT_{role}_EMAIL": self.email}

    def __str__(self) -> str:
        return f"{self.name} <{self.email}>"


@dataclass(frozen=True)
class ConflictedFile:
    """A path both sides changed in ways Git could not reconcile; blob ids per side."""

    path: str
    base_sha: str | None
    ours_sha: str | None
    theirs_sha: str | None


@dataclass(frozen=True)
class MergeResult:
    status: str  # merged, up-to-date, conflict
    commit: str | None = None
    conflicts: tuple[ConflictedFile, ...] = field(default=())

    @property
    def merged(self) -> bool:
        return self.status == "merged"


@dataclass(frozen=True)
class BlameLine:
    number: int
    text: str
    commit: CommitInfo


def merge_driver_command() -> str:
    """How git should call the index merge driver from this installation.

    Its own entry point (``memsync/memory/merge_driver.py``), not the developer CLI.
    """
    return f"'{sys.executable}' -m memsync.memory.merge_driver %O %A %B"


# read_many looks up this many paths by name; more, and it lists the tree once instead.
_NAMED_LOOKUPS = 16


class MemoryRepo:
    """A memory directory under Git. Open an existing one, or :meth:`init` a directory."""

    def __init__(self, path: Path, *, committer: Identity | None = None) -> None:
        self.path = Path(path).resolve()
        if not (self.path / ".git").exists():
            raise StoreError(f"{self.path} is not a memsync repository (no .git); run init")
        env = committer.env("COMMITTER") if committer else {}
        self._git = GitRunner(self.path, env=env)
        self._lock: RepoLock | None = None
        self._common: Path | None = None

    # --- setup -------------------------------------------------------------------------
    @classmethod
    def init(
        cls,
        path: Path,
        *,
        committer: Identity | None = None,
        driver_command: str | None = None,
        exclude: Sequence[str] = (),
    ) -> MemoryRepo:
        """Make ``path`` (new, or an existing memory directory) a memsync repository.

        Idempotent: branch ``main``, ``MEMORY.md`` routed to the index merge driver,
        the consolidation lock ignored, and a first commit holding what was there.
        ``exclude`` are top-level folders kept out of this repository (written to
        ``.git/info/exclude`` before anything is committed, and untracked if an
        earlier commit took them): a team clone inside a private memory directory
        must never become a gitlink in it.
        """
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        runner = GitRunner(path.resolve())
        if not (path / ".git").exists():
            runner.run("init", "--quiet", "--initial-branch", MAIN)
        repo = cls(path, committer=committer)
        for folder in exclude:
            info = repo._common_dir / "info"
            info.mkdir(exist_ok=True)
            _ensure_line(info / "exclude", f"/{folder.strip('/')}/\n")
            if repo.head() is not None:
                repo._git.run("rm", "--cached", "-r", "-q", "--ignore-unmatch", "--", folder)
        repo._git.run("config", f"merge.{MERGE_DRIVER_NAME}.name", MERGE_DRIVER_DESCRIPTION)
        repo._git.run(
            "config", f"merge.{MERGE_DRIVER_NAME}.driver", driver_command or merge_driver_command()
        )
        status, _, _ = repo._git.run_status("config", "user.email")
        if status != 0:
            repo._git.run("config", "user.name", DEFAULT_IDENTITY[0])
            repo._git.run("config", "user.email", DEFAULT_IDENTITY[1])
        _ensure_line(path / ".gitattributes", GITATTRIBUTES)
        _ensure_line(path / ".gitignore", GITIGNORE)
        if repo.head() is None:
            repo._git.run("symbolic-ref", "HEAD", head_ref(MAIN))
            repo.commit(CommitKind.MANUAL, "start memsync history", allow_empty=True)
        else:
            # The whole index is committed: an untracked folder's removal goes too.
            repo.commit(CommitKind.MANUAL, "set up memsync", paths=[".gitattributes", ".gitignore"])
        return repo

    @classmethod
    def clone(
        cls, source: Path, target: Path, *, branch: str = MAIN, committer: Identity | None = None
    ) -> MemoryRepo:
        """A clone of the repository at ``source`` in ``target``, on ``branch`` (the
        demo's members, who push back to ``source`` as a developer would)."""
        source, target = Path(source).resolve(), Path(target).resolve()
        GitRunner(source).run("clone", "--quiet", "--branch", branch, str(source), str(target))
        return cls(target, committer=committer)

    def push(
        self, ref: str, *, remote: str = "origin", env: Mapping[str, str] | None = None
    ) -> None:
        """Send ``HEAD`` to ``ref`` on ``remote``, through the remote's own hooks (``env``
        reaches them); a refusal raises :class:`GitError` with what the remote said."""
        self._git.run("push", "--quiet", remote, f"HEAD:{ref}", env=env)

    @property
    def _common_dir(self) -> Path:
        """The repository's .git directory (shared by its worktrees)."""
        if self._common is None:
            self._common = common_dir_of(self.git_dir)
        return self._common

    @property
    def lock(self) -> RepoLock:
        if self._lock is None:
            self._lock = RepoLock(self._common_dir / "memsync-write.lock")
        return self._lock

    def mark_server_owned(self) -> None:
        """Make every later write clear what a killed writer left (the server's
        repositories only: see ``memsync.store.recovery``)."""
        with self.lock.held():
            mark_server_owned(self._common_dir)

    def recover(self, *, clean: bool = False) -> list[str]:
        """Clear an interrupted merge, rebase, revert or cherry-pick and a stale
        ``index.lock`` in a server repository, under the lock (``clean``: stash any
        uncommitted change too); returns what was found."""
        if not is_server_owned(self._common_dir):
            return []
        with self.lock.held():
            return clear_interrupted(self, clean=clean)

    @property
    def git_dir(self) -> Path:
        """This checkout's own Git directory (a worktree's, not the one it shares)."""
        found = git_dir_of(self.path)
        return (
            found if found is not None else Path(self._git.run("rev-parse", "--absolute-git-dir"))
        )

    def set_merge_driver(self, command: str) -> None:
        """Point the ``MEMORY.md`` merge driver at ``command`` (a moved or upgraded
        installation); written only when it differs, so a deploy over unchanged
        repositories rewrites no config file."""
        key = f"merge.{MERGE_DRIVER_NAME}.driver"
        if self._git.run_status("config", "--get", key)[1].strip() != command:
            self._git.run("config", key, command)

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

    def create_branch(self, name: str, start: str = MAIN) -> str:
        self._git.run("branch", "--no-track", name, start)
        sha = self.rev_parse(name)
        assert sha is not None
        return sha

    def delete_branch(self, name: str) -> None:
        self._git.run("branch", "-D", name)

    def update_ref(self, ref: str, sha: str, *, old: str | None = None) -> None:
        args = ["update-ref", ref, sha] + ([old] if old is not None else [])
        self._git.run(*args)

    def delete_ref(self, ref: str) -> None:
        self._git.run("update-ref", "-d", ref)

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

    def tag_object(self, target: str, name: str, *, tagger: Identity, message: str) -> str:
        """Write an annotated tag object for commit ``target`` and return its id; no ref
        names it until the caller points one at it (:meth:`update_ref`)."""
        text = tag_text(
            target, name, who=tagger.name, email=tagger.email, message=message,
            at=int(time.time()),
        )  # fmt: skip
        return self._git.run_with_input(text.encode(), "mktag").decode().strip()

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
        request = "".join(f"{name}\n" for name in names).encode()
        out = self._git.run_with_input(request, "cat-file", "--batch")
        found, position = {}, 0
        for path in wanted:
            line_end = out.index(b"\n", position)
            header = out[position:line_end].split(b" ")
            position = line_end + 1
            if len(header) == 3 and header[1] == b"blob":
                size = int(header[2])
                found[path] = out[position : position + size]
                position += size + 1
        return found

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
        return parse_diff(output, base, head)

    def file_diff(self, path: str, old: str | None, new: str | None) -> FileDiff | None:
        """How ``path`` changes from commit ``old`` to commit ``new`` (None, or a commit
        that does not exist: the file is absent on that side); None when it does not."""
        before, after = (self.rev_parse(rev) if rev else None for rev in (old, new))
        output = self._git.run_bytes(
            "diff", *_DIFF_OPTIONS, before or EMPTY_TREE, after or EMPTY_TREE, "--", path
        )
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

    # --- writing -----------------------------------------------------------------------
    def commit(
        self,
        kind: str,
        summary: str,
        trailers: Iterable[tuple[str, str]] = (),
        *,
        paths: Sequence[str] | None = None,
        author: Identity | None = None,
        allow_empty: bool = False,
        body: str = "",
    ) -> str | None:
        """Stage ``paths`` (default: everything) and commit as ``kind: summary``, with an
        optional ``body`` paragraph and the trailers.

        Returns the new commit, or None when nothing changed.
        """
        CommitKind(kind)  # refuse unknown kinds early, with a ValueError naming it
        paragraphs = format_message(kind, summary, trailers, body)
        with self.lock.held():
            self.recover()
            self._write("add", "--all", "--", *(paths or ["."]))
            if paths is None:
                return self._commit_staged(paragraphs, author=author, allow_empty=allow_empty)
            # A few named files (an extraction): no pass over every tracked file.
            env = author.env("AUTHOR") if author else None
            return commit_index(self._git, paragraphs, env=env, allow_empty=allow_empty)

    def apply(
        self,
        changes: Mapping[str, bytes | None],
        kind: str,
        summary: str,
        trailers: Iterable[tuple[str, str]] = (),
        *,
        author: Identity | None = None,
        body: str = "",
    ) -> str | None:
        """Write (bytes) or delete (None) files and commit exactly those, atomically."""
        targets = {self._checked_path(path): data for path, data in changes.items()}
        # Never through a link the working tree may hold (issue 10): a link on the way
        # raises `ConfinementError` before anything is written.
        confined = ConfinedRoot(self.path)
        with self.lock.held():
            self.recover()
            try:
                # Every path checked first, so a refusal leaves the tree untouched.
                for path in targets:
                    if confined.kind(path) is EntryKind.LINK:
                        raise ConfinementError(path, f"`{path}` is a symbolic link", path)
                for path, data in targets.items():
                    if data is None:
                        confined.unlink(path, missing_ok=True)
                    else:
                        confined.write(path, data)
            except ConfinementError as error:
                raise StoreError(f"refusing to write {error.path!r}: {error.reason}") from None
            return self.commit(
                kind, summary, trailers, paths=list(targets), author=author, body=body
            )

    def _commit_staged(
        self, paragraphs: list[str], *, author: Identity | None, allow_empty: bool = False
    ) -> str | None:
        args = ["commit", "--quiet", "--no-verify", "--cleanup=strip"]
        if allow_empty:
            args.append("--allow-empty")
        for paragraph in paragraphs:
            args += ["-m", paragraph]
        env = author.env("AUTHOR") if author else None
        status, out, err = self._write(*args, env=env, check=False)
        if status != 0:
            if "nothing to commit" in out or "nothing added to commit" in out:
                return None
            if "no changes added to commit" in out:
                return None
            raise StoreError(f"commit failed: {(err or out).strip()}")
        return self.head()

    def _write(
        self, *args: str, env: Mapping[str, str] | None = None, check: bool = True
    ) -> tuple[int, str, str]:
        """A git command that takes ``index.lock``, retried a few times when a git process
        outside memsync (a developer's own ``git status``) holds that lock for a moment."""
        for attempt in range(_LOCK_RETRIES):
            status, out, err = self._git.run_status(*args, env=env)
            if status == 0 or "index.lock" not in err or attempt == _LOCK_RETRIES - 1:
                break
            time.sleep(0.05 * (attempt + 1))
        if check and status != 0:
            raise GitError(args, status, err or out)
        return status, out, err

    def _checked_path(self, path: str) -> str:
        pure = PurePosixPath(path)
        if pure.is_absolute() or ".." in pure.parts or "\\" in path or "\0" in path:
            raise StoreError(f"refusing path {path!r}: it must stay inside the repository")
        if pure.parts and pure.parts[0] == ".git":
            raise StoreError(f"refusing path {path!r}: .git is not memory")
        return pure.as_posix()

    # --- merging and reverting -----------------------------------------------------------
    def merge(
        self,
        branch: str,
        *,
        kind: str = CommitKind.MERGE,
        summary: str | None = None,
        trailers: Iterable[tuple[str, str]] = (),
        author: Identity | None = None,
        exclude: Iterable[str] = (),
        keep_ours_on_conflict: bool = False,
        body: str = "",
    ) -> MergeResult:
        """Merge ``branch`` into the checked-out branch with a merge commit.

        ``MEMORY.md`` goes through the index merge driver and never conflicts. A topic-file
        conflict comes back as data: the merge is aborted and nothing changes, unless
        ``keep_ours_on_conflict`` — then conflicted files keep this side, everything else
        merges, and the caller keeps the other side (the conflicts name its blobs).
        ``exclude`` keeps this side of the given paths (partial adoption of a proposal).
        """
        theirs = self.rev_parse(branch)
        if theirs is None:
            raise StoreError(f"no branch {branch!r} to merge")
        message = format_message(kind, summary or f"merge {branch}", trailers, body)
        with self.lock.held():
            self.recover(clean=True)
            self._require_clean()
            if self.is_ancestor(theirs, "HEAD"):
                return MergeResult("up-to-date", commit=self.head())
            status, out, err = self._write(
                "merge", "--no-ff", "--no-commit", "--no-edit", theirs, check=False
            )
            conflicts: tuple[ConflictedFile, ...] = ()
            if status != 0:
                conflicts = self._unmerged()
                if not conflicts:
                    self._abort("merge")
                    raise StoreError(f"merge of {branch} failed: {(err or out).strip()}")
                if not keep_ours_on_conflict:
                    self._abort("merge")
                    return MergeResult("conflict", conflicts=conflicts)
                for conflict in conflicts:
                    self._restore_ours(conflict.path)
            for path in exclude:
                self._restore_ours(self._checked_path(path))
            commit = self._commit_staged(message, author=author, allow_empty=True)
            return MergeResult("merged", commit=commit, conflicts=conflicts)

    def merge_preview(self, branch: str, into: str = "HEAD") -> list[str]:
        """Paths that would conflict if ``branch`` were merged into ``into`` now.

        Uses ``git merge-tree --write-tree``: no checkout, no index, no lock. The index
        merge driver never leaves ``MEMORY.md`` conflicted, so it never shows up here,
        and the preview does not start it: ``true`` stands in (the merged tree is not
        kept), sparing a Python start on every member merge (issue 14).
        """
        status, out, err = self._git.run_status(
            "-c", f"merge.{MERGE_DRIVER_NAME}.driver=true",
            "merge-tree", "--write-tree", "--name-only", "--no-messages", into, branch,
        )  # fmt: skip
        if status not in (0, 1):
            raise StoreError(f"cannot preview merging {branch}: {err.strip()}")
        return [line for line in out.splitlines()[1:] if line] if status == 1 else []

    def revert(
        self,
        rev: str,
        *,
        summary: str | None = None,
        trailers: Iterable[tuple[str, str]] = (),
        author: Identity | None = None,
    ) -> MergeResult:
        """Undo ``rev`` with a new commit, keeping every later edit; history is not rewritten.

        A merge commit is reverted against its first parent (main's side).
        """
        target = self.rev_parse(rev)
        if target is None:
            raise StoreError(f"no commit {rev!r} to revert")
        info = self.commit_info(target)
        message = format_message(
            CommitKind.REVERT,
            summary or f'revert "{info.summary}"',
            [REVERTS(target), *trailers],
        )
        with self.lock.held():
            self.recover(clean=True)
            self._require_clean()
            args = ["revert", "--no-commit"] + (["-m", "1"] if info.is_merge else []) + [target]
            status, out, err = self._write(*args, check=False)
            if status != 0:
                conflicts = self._unmerged()
                self._abort("revert")
                if conflicts:
                    return MergeResult("conflict", conflicts=conflicts)
                raise StoreError(f"revert of {rev} failed: {(err or out).strip()}")
            commit = self._commit_staged(message, author=author)
            if commit is None:
                self._abort("revert")
                return MergeResult("up-to-date", commit=self.head())
            return MergeResult("merged", commit=commit)

    def _unmerged(self) -> tuple[ConflictedFile, ...]:
        output = self._git.run_bytes("ls-files", "--unmerged", "-z")
        stages: dict[str, dict[int, str]] = {}
        for record in output.split(b"\0"):
            if not record:
                continue
            info, path = record.decode("utf-8", "replace").split("\t", 1)
            _, sha, stage = info.split()
            stages.setdefault(path, {})[int(stage)] = sha
        return tuple(
            ConflictedFile(path, found.get(1), found.get(2), found.get(3))
            for path, found in sorted(stages.items())
        )

    def _restore_ours(self, path: str) -> None:
        if self.read("HEAD", path) is not None:
            self._git.run("checkout", "HEAD", "--", path)
        else:
            self._git.run("rm", "--quiet", "--force", "--ignore-unmatch", "--", path)

    def _abort(self, operation: str) -> None:
        self._git.run_status(operation, "--abort")

    def _require_clean(self) -> None:
        if self._git.run("status", "--porcelain", "--untracked-files=no"):
            raise StoreError(
                f"{self.path} has uncommitted changes; commit them before merging or reverting"
            )

    # --- worktrees ---------------------------------------------------------------------
    def add_worktree(self, path: Path, branch: str, start: str = MAIN) -> MemoryRepo:
        """Check out a new ``branch`` from ``start`` at ``path`` (a dream's workspace)."""
        with self.lock.held():
            self.recover()
            self._git.run("worktree", "add", "--quiet", "-b", branch, str(path), start)
        return MemoryRepo(path)

    def remove_worktree(self, path: Path) -> None:
        with self.lock.held():
            status, _, _ = self._git.run_status("worktree", "remove", "--force", str(path))
            if status != 0 and Path(path).exists():
                shutil.rmtree(path)
            self._git.run_status("worktree", "prune")


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


def _ensure_line(path: Path, line: str) -> None:
    existing = path.read_text() if path.exists() else ""
    if line.strip() in (entry.strip() for entry in existing.splitlines()):
        return
    prefix = "" if not existing or existing.endswith("\n") else "\n"
    path.write_text(existing + prefix + line)


__all__ = [
    "EMPTY_TREE",
    "LOCK_FILE_NAME",
    "MAIN",
    "BlameLine",
    "ConflictedFile",
    "GitError",
    "Identity",
    "MemoryRepo",
    "MergeResult",
    "StoreError",
]
