"""``MemoryRepo``: one memory directory as a Git repository, with memsync's verbs.

Every write (stage-and-commit, merge, revert) runs under one ``flock`` per repository
and through the ``git`` binary, so concurrent writers serialise instead of losing
commits (see docs/git-notes.md#concurrency). Reads run without the lock: they are
`RepoReader`'s, in memsync/store/reading.py. Nothing here reads settings.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from memsync.confined import ConfinedRoot, ConfinementError, EntryKind
from memsync.memory.index import INDEX_FILENAME

from .commit_tree import commit_index
from .gitcmd import GitError, GitRunner
from .history import (
    CommitKind,
    format_message,
)
from .lock import RepoLock
from .reading import EMPTY_TREE, BlameLine, RepoReader, StoreError
from .recovery import clear_interrupted, is_server_owned, mark_server_owned
from .refs import MAIN, head_ref
from .tags import tag_text
from .trailers import REVERTS

LOCK_FILE_NAME = ".consolidate-lock"
MERGE_DRIVER_NAME = "memsync-index"
MERGE_DRIVER_DESCRIPTION = f"memsync {INDEX_FILENAME} entry merge"
GITATTRIBUTES = f"{INDEX_FILENAME} merge={MERGE_DRIVER_NAME}\n"
GITIGNORE = f"{LOCK_FILE_NAME}\n"
DEFAULT_IDENTITY = ("memsync", "memsync@localhost")
_LOCK_RETRIES = 5


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


def merge_driver_command() -> str:
    """How git should call the index merge driver from this installation.

    Its own entry point (``memsync/memory/merge_driver.py``), not the developer CLI.
    """
    return f"'{sys.executable}' -m memsync.memory.merge_driver %O %A %B"


class MemoryRepo(RepoReader):
    """A memory directory under Git. Open an existing one, or :meth:`init` a directory.

    Its reads are `RepoReader`'s (memsync/store/reading.py); here are the writes."""

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

    def set_merge_driver(self, command: str) -> None:
        """Point the ``MEMORY.md`` merge driver at ``command`` (a moved or upgraded
        installation); written only when it differs, so a deploy over unchanged
        repositories rewrites no config file."""
        key = f"merge.{MERGE_DRIVER_NAME}.driver"
        if self._git.run_status("config", "--get", key)[1].strip() != command:
            self._git.run("config", key, command)

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

    def tag_object(self, target: str, name: str, *, tagger: Identity, message: str) -> str:
        """Write an annotated tag object for commit ``target`` and return its id; no ref
        names it until the caller points one at it (:meth:`update_ref`)."""
        text = tag_text(
            target, name, who=tagger.name, email=tagger.email, message=message,
            at=int(time.time()),
        )  # fmt: skip
        return self._git.run_with_input(text.encode(), "mktag").decode().strip()

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
            if paths is None:
                self._write("add", "--all", "--", ".")
                return self._commit_staged(paragraphs, author=author, allow_empty=allow_empty)
            # A few named files (an extraction): no pass over every tracked file.
            self._stage(paths)
            env = author.env("AUTHOR") if author else None
            return commit_index(
                self._git,
                paragraphs,
                env=env,
                allow_empty=allow_empty,
                dirs=(self.git_dir, self._common_dir),
            )

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

    def _stage(self, paths: Sequence[str]) -> None:
        """Stage `paths` as ``git add --all`` would. Top-level files are handed to
        ``update-index``, which stages just them, where ``git add`` also lists the whole
        directory for untracked files: half the CPU at 10,000 memories (issue 14). A
        deeper path may lie in a folder kept out of this repository (a team clone),
        which only ``git add`` refuses."""
        if all("/" not in path for path in paths):
            self._write("update-index", "--add", "--remove", "--", *paths)
        else:
            self._write("add", "--all", "--", *paths)

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
                import shutil

                shutil.rmtree(path)
            self._git.run_status("worktree", "prune")


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
