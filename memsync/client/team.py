"""A project's team memory on a developer machine: a clone of the server's repository in
``<memory dir>/team``, working on the member's own branch.

Git does the work, configured so plain ``git pull`` and ``git push`` in the clone do
the right thing too:

* the checked-out branch is ``members/<user>``, with upstream ``origin/main`` (pull
  merges the team's main) and ``remote.origin.push`` sending it to
  ``refs/heads/members/<user>`` (the only ref the server accepts from this user);
* ``MEMORY.md`` goes through memsync's merge driver, so the index merges by entry;
* credentials come from a helper that runs ``memsync credential`` — the token stays in
  the user's config file, never in a URL or in ``.git/config``;
* the link (server, project, user) and the times of the last pull and push are kept in
  the clone's own config, under ``memsync.*``.

Writers on one clone (two Claude Code sessions ending at once) are serialised by the
store's repository lock.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from memsync.store import CommitKind, GitError, MemoryRepo
from memsync.store.gitcmd import GitRunner
from memsync.store.history import format_message
from memsync.store.repo import MERGE_DRIVER_NAME, merge_driver_command

ORIGIN = "origin"
MAIN = "main"
MEMBERS = "members/"
FALLBACK_EMAIL_DOMAIN = "users.memsync.invalid"
# The server refuses packs over 100 MiB; below that, git sends a Content-Length instead
# of chunks, which every WSGI server can read.
POST_BUFFER = str(100 * 1024 * 1024)
# A hook must not hang a session on a dead network: give up on a stalled transfer.
_NETWORK_ENV = {"GIT_HTTP_LOW_SPEED_LIMIT": "1000", "GIT_HTTP_LOW_SPEED_TIME": "20"}
# A fetch or push is killed after this long (seconds); hooks pass much less
# (memsync.client.hookrun).
NETWORK_TIMEOUT = 120.0
_NETWORK_SIGNS = (
    "could not resolve host",
    "failed to connect",
    "connection refused",
    "connection timed out",
    "operation timed out",
    "timed out after",
    "network is unreachable",
    "couldn't connect",
    "connection reset",
    "empty reply from server",
    "ssl",
    "operation too slow",
)
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


class TeamError(Exception):
    """Something the user has to act on; the message says what."""


class NotLinked(TeamError):
    pass


class NetworkFailure(TeamError):
    """The server could not be reached; nothing changed."""


class PushRefused(TeamError):
    """The server's pre-receive checks refused the push; ``remote_lines`` say why."""

    def __init__(self, message: str, remote_lines: list[str]) -> None:
        super().__init__(message)
        self.remote_lines = remote_lines


class BranchMoved(TeamError):
    """The member branch on the server moved past this clone; the message says by what."""


class PullConflict(TeamError):
    """Topic files changed both here and in the team's ``main``."""

    def __init__(self, message: str, files: list[str], left_open: bool) -> None:
        super().__init__(message)
        self.files = files
        self.left_open = left_open


@dataclass(frozen=True)
class Link:
    server: str
    slug: str
    user: str

    @property
    def branch(self) -> str:
        return MEMBERS + self.user


@dataclass
class PushResult:
    commits: list[tuple[str, str]] = field(default_factory=list)  # (short sha, subject)
    files: list[tuple[str, str]] = field(default_factory=list)  # (git status letter, path)
    remote_lines: list[str] = field(default_factory=list)

    @property
    def pushed(self) -> bool:
        return bool(self.commits)


@dataclass
class PullResult:
    files: list[tuple[str, str]] = field(default_factory=list)
    committed_local: bool = False

    @property
    def changed(self) -> bool:
        return bool(self.files)


@dataclass
class CloneState:
    branch: str | None
    ahead: int  # commits here that the server's main lacks
    behind: int  # commits in the server's main not merged here
    unpushed: int  # commits neither the member branch on the server nor main has
    changes: list[str]  # `git status --porcelain` lines
    conflicts: list[str]  # files of a merge left open
    last_push: str | None
    last_pull: str | None
    last_push_error: str | None


def client_command() -> str:
    """How git should run this memsync installation (for the credential helper)."""
    script = Path(sys.executable).with_name("memsync")
    if script.exists():
        return shlex.quote(str(script))
    return f"{shlex.quote(sys.executable)} -m memsync.client.cli"


def credential_helper() -> str:
    return f"!{client_command()} credential"


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class TeamClone:
    """A linked team-memory clone. Open one with ``TeamClone(path)``."""

    def __init__(self, path: Path, *, network_timeout: float = NETWORK_TIMEOUT) -> None:
        self.path = Path(path)
        self.network_timeout = network_timeout
        if not (self.path / ".git").exists():
            raise NotLinked(f"{self.path} is not a team memory clone; run memsync link SLUG")
        self.git = GitRunner(self.path.resolve(), env=_NETWORK_ENV)
        server, slug, user = (self.config(f"memsync.{key}") for key in ("server", "slug", "user"))
        if not (server and slug and user):
            raise NotLinked(f"{self.path} is a Git repository but was not linked by memsync")
        self.link = Link(server, slug, user)
        self.repo = MemoryRepo(self.path)

    # --- creating ----------------------------------------------------------------------
    @classmethod
    def create(cls, target: Path, git_url: str, link: Link) -> TeamClone:
        """Clone ``git_url`` into ``target`` (missing or empty) on ``members/<user>``.

        The clone is made beside ``target`` and renamed into place, so a failed clone
        leaves nothing behind.
        """
        target = Path(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.memsync-", dir=target.parent))
        try:
            runner = GitRunner(staging, env=_NETWORK_ENV)
            helper_reset = (
                "-c",
                "credential.helper=",
                "-c",
                f"credential.helper={credential_helper()}",
            )
            status, out, err = runner.run_status(
                *helper_reset, "-c", "credential.useHttpPath=true",
                "clone", "--quiet", "--no-checkout", "--origin", ORIGIN, git_url, "clone",
            )  # fmt: skip
            if status != 0:
                raise _git_failure("clone", err or out)
            clone_dir = staging / "clone"
            configure(clone_dir, link)
            _check_out_member_branch(GitRunner(clone_dir), link)
            if target.exists():
                target.rmdir()  # empty, checked by the caller; rmdir refuses otherwise
            clone_dir.rename(target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        clone = cls(target)
        clone.stamp_mtimes()
        return clone

    # --- config ------------------------------------------------------------------------
    def config(self, key: str) -> str | None:
        status, out, _ = self.git.run_status("config", "--local", "--get", key)
        return out.strip() if status == 0 and out.strip() else None

    def record(self, key: str, value: str) -> None:
        self.git.run("config", "--local", f"memsync.{key}", value)

    # --- state -------------------------------------------------------------------------
    def remote_ref(self, branch: str) -> str | None:
        return self.repo.rev_parse(f"refs/remotes/{ORIGIN}/{branch}")

    def conflicted_files(self) -> list[str]:
        out = self.git.run("diff", "--name-only", "--diff-filter=U")
        return [line for line in out.splitlines() if line]

    def merging(self) -> bool:
        return self.repo.rev_parse("MERGE_HEAD") is not None

    def fetch(self) -> None:
        status, out, err = self.git.run_timed(
            "fetch", "--quiet", "--prune", ORIGIN, timeout=self.network_timeout
        )
        if status != 0:
            raise _git_failure("fetch", err or out)

    def state(self) -> CloneState:
        branch = self.repo.current_branch()
        main = self.remote_ref(MAIN)
        ahead = behind = 0
        if main is not None:
            ahead, behind = self.repo.ahead_behind("HEAD", main)
        return CloneState(
            branch=branch,
            ahead=ahead,
            behind=behind,
            unpushed=len(self._unpushed()),
            changes=[line for line in self.git.run("status", "--porcelain").splitlines() if line],
            conflicts=self.conflicted_files() if self.merging() else [],
            last_push=self.config("memsync.lastpush"),
            last_pull=self.config("memsync.lastpull"),
            last_push_error=self.config("memsync.lastpusherror"),
        )

    def _unpushed(self) -> list[tuple[str, str]]:
        """Commits here that neither the server's member branch nor its main has."""
        known = [ref for ref in (self.remote_ref(self.link.branch), self.remote_ref(MAIN)) if ref]
        out = self.git.run("log", "--format=%h%x09%s", "HEAD", "--not", *known)
        commits = []
        for line in out.splitlines():
            sha, _, subject = line.partition("\t")
            commits.append((sha, subject))
        return commits

    # --- pull and push -----------------------------------------------------------------
    def pull(self, *, leave_conflicts: bool) -> PullResult:
        """Fetch, commit local edits, and merge the member branch (if another machine of
        this user moved it) and then ``main`` into the checked-out member branch.

        A topic-file conflict raises :class:`PullConflict`; with ``leave_conflicts`` the
        merge stays open with conflict markers for the user to resolve, otherwise it is
        aborted and the clone is as it was (what a Claude Code hook wants).
        """
        with self.repo.lock.held():
            self._require_ready()
            self.fetch()
            result = PullResult()
            result.committed_local = self._commit_local("local changes before pull") is not None
            before = self.repo.head()
            for branch in (self.link.branch, MAIN):
                theirs = self.remote_ref(branch)
                if theirs is None or self.repo.is_ancestor(theirs, "HEAD"):
                    continue
                self._merge(branch, leave_conflicts=leave_conflicts)
            if before is not None and before != self.repo.head():
                result.files = self._changed_files(before, "HEAD")
            self.stamp_mtimes()
            self.record("lastpull", now_iso())
            return result

    def stamp_mtimes(self) -> int:
        """Set each team file's mtime to its age on the team's ``main`` (when its
        current content appeared there, ``MemoryRepo.ages``), so Claude Code's own age
        note ("This memory is N days old") tells the truth: it computes ages from
        mtimes, and a clone or pull makes every file brand new. One first-parent
        ``git log`` pass (cached between pulls), not one per file. Files whose content
        here differs from ``main`` (local edits, work not merged yet) keep their own
        mtime. Returns how many files were stamped."""
        main = self.remote_ref(MAIN)
        if main is None:
            return 0
        ages = self.repo.ages(main)
        differs = set(self.git.run("diff", "--name-only", "-z", main).split("\0"))
        stamped = 0
        for path, when in ages.items():
            if path in differs:
                continue
            target = self.path / path
            if target.is_symlink() or not target.is_file():
                continue
            seconds = when.timestamp()
            os.utime(target, (seconds, seconds))
            stamped += 1
        return stamped

    def _merge(self, branch: str, *, leave_conflicts: bool) -> None:
        message = format_message(
            CommitKind.SYNC,
            f"pull {branch} into {self.link.branch}",
            [("Memsync-Member", self.link.user)],
        )
        args = ["merge", "--no-edit"] + [
            part for paragraph in message for part in ("-m", paragraph)
        ]
        status, out, err = self.git.run_status(*args, f"{ORIGIN}/{branch}")
        if status == 0:
            return
        conflicts = self.conflicted_files()
        if not conflicts:
            self.git.run_status("merge", "--abort")
            raise TeamError(f"merging the team's {branch} failed: {(err or out).strip()}")
        if not leave_conflicts:
            self.git.run("merge", "--abort")
        where = "the team's main" if branch == MAIN else f"{branch} on the server"
        raise PullConflict(
            f"{len(conflicts)} file(s) changed both here and in {where}", conflicts, leave_conflicts
        )

    def push(self) -> PushResult:
        """Commit local edits (kind ``sync``) and push them to ``members/<user>``.

        When the server refuses, every commit it has not got is undone (their changes
        are back as uncommitted edits, ready to be fixed: a refused file may sit in a
        commit a hook's pull made earlier) and :class:`PushRefused` carries the
        server's ``remote:`` lines. Other failures keep the commits for the next push.
        """
        with self.repo.lock.held():
            self._require_ready()
            self._commit_local(None)
            result = PushResult(commits=self._unpushed())
            if not result.commits:
                return result
            result.files = self._unpushed_files()
            ref = f"refs/heads/{self.link.branch}"
            status, out, err = self.git.run_timed(
                "push", "--porcelain", ORIGIN, f"HEAD:{ref}", timeout=self.network_timeout
            )
            result.remote_lines = remote_lines(err)
            if status == 0:
                self.record("lastpush", now_iso())
                self.git.run_status("config", "--local", "--unset", "memsync.lastpusherror")
                return result
            # --porcelain puts the per-ref verdict on stdout, git's own errors on stderr.
            failure = _push_failure(f"{out}\n{err}", result.remote_lines, self.link)
            if isinstance(failure, BranchMoved):
                failure = BranchMoved(self._why_branch_moved())
            if isinstance(failure, PushRefused):
                self._reset_to_server()
                self.record("lastpusherror", f"{now_iso()} {failure}")
            raise failure

    def _why_branch_moved(self) -> str:
        """What the server's member branch holds that this clone lacks, and where it came
        from, read from the commits themselves (their kind and author)."""
        branch = self.link.branch
        status, out, err = self.git.run_timed(
            "fetch", "--quiet", ORIGIN, f"+refs/heads/{branch}:refs/remotes/{ORIGIN}/{branch}",
            timeout=self.network_timeout,
        )  # fmt: skip
        theirs = self.remote_ref(branch)
        if status != 0 or theirs is None:
            reason = _ANSI.sub("", err or out).strip() or "nothing fetched"
            return (
                f"{branch} on the server has commits this clone does not have, and fetching "
                f"them to say which failed ({reason}): run `memsync pull`, then push again"
            )
        kind_field = "%(trailers:key=Memsync-Kind,valueonly,separator=%x2C)"
        fields = f"--format=%h%x09%an%x09%cs%x09%s%x09{kind_field}"
        log = self.git.run("log", fields, "HEAD.." + theirs)
        commits = []  # (sha, author, day, subject, kind)
        for line in log.splitlines():
            sha, author, day, rest = [*line.split("\t", 3), "", "", ""][:4]
            subject, _, kind = rest.rpartition("\t")
            commits.append((sha, author, day, subject, kind.strip()))
        if not commits:
            return (
                f"{branch} on the server moved while pushing: run `memsync pull`, then push again"
            )
        kinds = {kind for *_, kind in commits}
        shown = "; ".join(f"{sha} {subject} ({author}, {day})"
                          for sha, author, day, subject, _ in commits[:3])  # fmt: skip
        more = f" and {len(commits) - 3} more" if len(commits) > 3 else ""
        if kinds == {CommitKind.EXTRACT.value}:
            source = (
                "the server's extraction of your uploaded sessions committed them there "
                "(a server older than this client does that)"
            )
        else:
            source = (
                f"they were pushed as {self.link.user} from another clone: another machine, "
                "or another memory directory linked to this project"
            )
        return (
            f"{branch} on the server has {len(commits)} commit(s) this clone does not have: "
            f"{shown}{more}; {source}. Run `memsync pull` to merge them, then push again"
        )

    def _reset_to_server(self) -> None:
        """Move the branch back to the newest commit the server has, keeping every file
        as it is: what was unpushed becomes uncommitted edits. The member branch on the
        server only takes fast-forwards, so never go behind it."""
        mine, main = self.remote_ref(self.link.branch), self.remote_ref(MAIN)
        mine_below = mine is not None and self.repo.is_ancestor(mine, "HEAD")
        main_below = main is not None and self.repo.is_ancestor(main, "HEAD")
        target: str | None
        if mine is not None and mine_below:
            target = (
                main
                if main is not None and main_below and self.repo.is_ancestor(mine, main)
                else mine
            )
        elif main_below:
            target = main
        else:
            fork = main or mine
            target = self.repo.merge_base("HEAD", fork) if fork else None
        if target is not None:
            self.git.run("reset", "--quiet", "--mixed", target)

    def _require_ready(self) -> None:
        if self.merging():
            files = ", ".join(self.conflicted_files()) or "no files left"
            raise TeamError(
                f"a merge is in progress in {self.path} (conflicts: {files}); finish it with "
                f"`git -C {shlex.quote(str(self.path))} commit` after fixing the files, or give "
                f"it up with `git -C {shlex.quote(str(self.path))} merge --abort`"
            )
        branch = self.repo.current_branch()
        if branch != self.link.branch:
            where = shlex.quote(str(self.path))
            raise TeamError(
                f"{self.path} has {branch or 'a detached HEAD'} checked out; memsync works on "
                f"{self.link.branch}: `git -C {where} checkout {self.link.branch}`"
            )

    def _commit_local(self, summary: str | None) -> str | None:
        names = self._changed_paths()
        if not names:
            return None
        return self.repo.commit(
            CommitKind.SYNC,
            summary or _summary(names),
            [("Memsync-Member", self.link.user)],
            body="\n".join(names[:50]),
        )

    def _changed_paths(self) -> list[str]:
        """Paths with uncommitted changes (new, edited, deleted, renamed), from Git."""
        fields = self.git.run("status", "--porcelain", "-z", "--untracked-files=all").split("\0")
        paths = []
        entries = iter(fields)
        for entry in entries:
            if len(entry) < 4:
                continue
            paths.append(entry[3:])
            if entry[0] in "RC":
                next(entries, None)  # the rename's source follows as its own field
        return paths

    def _unpushed_files(self) -> list[tuple[str, str]]:
        """Files the unpushed commits change (not counting what merges brought from
        the server), each with its latest status letter."""
        known = [ref for ref in (self.remote_ref(self.link.branch), self.remote_ref(MAIN)) if ref]
        out = self.git.run(
            "log", "--format=", "--name-status", "--no-renames", "HEAD", "--not", *known
        )
        latest: dict[str, str] = {}
        for line in out.splitlines():
            letter, _, path = line.partition("\t")
            if path and path not in latest:  # newest first
                latest[path] = letter[:1]
        return sorted((letter, path) for path, letter in latest.items())

    def _changed_files(self, base: str, head: str) -> list[tuple[str, str]]:
        out = self.git.run("diff", "--name-status", "--no-renames", base, head)
        files = []
        for line in out.splitlines():
            letter, _, path = line.partition("\t")
            if path:
                files.append((letter[:1], path))
        return files


def configure(clone_dir: Path, link: Link) -> None:
    """The clone's settings (idempotent): credentials, merge driver, refs, identity, link."""
    git = GitRunner(Path(clone_dir).resolve())
    git.run("config", "--local", "--unset-all", "credential.helper", ok=(5,))
    # An empty first value drops helpers configured globally (a keychain holding an
    # old token) for this repository; then ours.
    git.run("config", "--local", "--add", "credential.helper", "")
    git.run("config", "--local", "--add", "credential.helper", credential_helper())
    settings = {
        "credential.useHttpPath": "true",
        f"merge.{MERGE_DRIVER_NAME}.name": "memsync MEMORY.md entry merge",
        f"merge.{MERGE_DRIVER_NAME}.driver": merge_driver_command(),
        f"remote.{ORIGIN}.push": f"refs/heads/{link.branch}:refs/heads/{link.branch}",
        "http.postBuffer": POST_BUFFER,
        "memsync.server": link.server,
        "memsync.slug": link.slug,
        "memsync.user": link.user,
    }
    for key, value in settings.items():
        git.run("config", "--local", key, value)
    if git.run_status("config", "user.email")[0] != 0:
        git.run("config", "--local", "user.name", link.user)
        git.run("config", "--local", "user.email", f"{link.user}@{FALLBACK_EMAIL_DOMAIN}")
    status, _, _ = git.run_status("config", "--local", "memsync.linkedat")
    if status != 0:
        git.run("config", "--local", "memsync.linkedat", now_iso())


def _check_out_member_branch(git: GitRunner, link: Link) -> None:
    """Start ``members/<user>`` where the server has it when it holds work ``main`` has
    not merged yet (pushed from another machine), else at ``main``; track ``main``."""

    def exists(ref: str) -> bool:
        return git.run_status("rev-parse", "--verify", "-q", ref)[0] == 0

    main = f"refs/remotes/{ORIGIN}/{MAIN}"
    mine = f"refs/remotes/{ORIGIN}/{link.branch}"
    if not exists(main):
        raise TeamError("the server's repository has no main branch yet")
    start = main
    if exists(mine) and git.run_status("merge-base", "--is-ancestor", mine, main)[0] != 0:
        start = mine
    git.run("checkout", "--quiet", "-B", link.branch, start)
    git.run("config", "--local", f"branch.{link.branch}.remote", ORIGIN)
    git.run("config", "--local", f"branch.{link.branch}.merge", f"refs/heads/{MAIN}")
    if exists(f"refs/heads/{MAIN}") and link.branch != MAIN:
        # The clone's own main would only drift: the team's main is origin/main.
        git.run("branch", "--quiet", "-D", MAIN)


def remote_lines(stderr: str) -> list[str]:
    """What the server's hooks printed, as git relays it (``remote: …``)."""
    lines = []
    for raw in stderr.splitlines():
        line = _ANSI.sub("", raw).rstrip()
        if line.startswith("remote:"):
            lines.append(line.removeprefix("remote:").strip())
    return [line for line in lines if line]


def _push_failure(output: str, remote: list[str], link: Link) -> TeamError:
    lowered = output.lower()
    if "pre-receive hook declined" in lowered or "remote rejected" in lowered:
        return PushRefused(f"the server refused the push to {link.branch}", remote)
    if "non-fast-forward" in lowered or "fetch first" in lowered or "[rejected]" in lowered:
        return BranchMoved(f"{link.branch} on the server has commits this clone does not have")
    return _git_failure("push", output)


def _git_failure(operation: str, output: str) -> TeamError:
    text = _ANSI.sub("", output).strip()
    lowered = text.lower()
    if "authentication failed" in lowered or "returned error: 401" in lowered:
        return TeamError(
            f"{operation}: the server did not accept your token; run `memsync login` again"
        )
    if "returned error: 403" in lowered:
        return TeamError(f"{operation}: your role in this project does not allow it ({text})")
    if "returned error: 404" in lowered or "not found" in lowered:
        return TeamError(f"{operation}: the server has no such project for you ({text})")
    if any(sign in lowered for sign in _NETWORK_SIGNS):
        return NetworkFailure(f"{operation}: cannot reach the server ({text})")
    return TeamError(f"{operation} failed: {text}")


def _summary(paths: list[str]) -> str:
    if len(paths) <= 3:
        return ", ".join(paths)
    return f"{len(paths)} files ({', '.join(paths[:3])}, …)"


__all__ = [
    "BranchMoved",
    "CloneState",
    "GitError",
    "Link",
    "NetworkFailure",
    "NotLinked",
    "PullConflict",
    "PullResult",
    "PushRefused",
    "PushResult",
    "TeamClone",
    "TeamError",
    "client_command",
    "configure",
    "credential_helper",
    "remote_lines",
]
