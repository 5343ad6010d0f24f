"""The one way memsync runs the ``git`` binary: :class:`GitRunner`.

Every call fixes the locale (output is parsed), never prompts, and turns failures into
:class:`GitError` carrying git's own message. It is a bare ``subprocess``: GitPython's
command wrapper added nothing memsync used, and its import alone cost more than a push
hook's whole inspection (see docs/git-notes.md#speed); its object-level index was never
an option (docs/git-notes.md#concurrency: it moves HEAD without compare-and-swap).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

_BASE_ENV = {
    "LC_ALL": "C",
    "LANG": "C",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
}
# Options that keep one memsync call one process and its output stable.
_BASE_OPTIONS = ("-c", "core.quotePath=false", "-c", "maintenance.auto=false", "-c", "gc.auto=0")


class GitError(Exception):
    """A git command failed; ``stderr`` holds git's own explanation."""

    def __init__(self, args: Sequence[str], status: int, stderr: str) -> None:
        self.args_ = list(args)
        self.status = status
        self.stderr = stderr.strip()
        super().__init__(f"git {' '.join(args[:2])} failed ({status}): {self.stderr}")

    @property
    def is_lock_error(self) -> bool:
        return "index.lock" in self.stderr or ".lock': File exists" in self.stderr


class GitRunner:
    """Runs git in one working directory with a fixed environment."""

    def __init__(
        self, cwd: Path, env: Mapping[str, str] | None = None, *, git_dir: Path | None = None
    ) -> None:
        self.cwd = cwd
        self._env = {**_BASE_ENV, **(env or {})}
        # A push hook names its repository's directory; everything else finds it from cwd.
        self._where = (f"--git-dir={git_dir}",) if git_dir is not None else ()

    def _environment(self, extra: Mapping[str, str | None] | None = None) -> dict[str, str]:
        """The process's environment with memsync's fixed part and ``extra`` over it; a
        variable ``extra`` maps to None is removed."""
        merged: dict[str, str | None] = {**os.environ, **self._env, **(extra or {})}
        return {key: value for key, value in merged.items() if value is not None}

    def _command(self, args: Sequence[str]) -> list[str]:
        return ["git", *self._where, *_BASE_OPTIONS, *args]

    def run(
        self, *args: str, env: Mapping[str, str | None] | None = None, ok: Sequence[int] = ()
    ) -> str:
        """Run git and return stdout as text (trailing newline stripped)."""
        _, stdout, _ = self._execute(args, env=env, ok=ok, binary=False)
        return stdout.decode("utf-8", errors="replace")

    def run_status(
        self, *args: str, env: Mapping[str, str | None] | None = None
    ) -> tuple[int, str, str]:
        """Run git and return (status, stdout, stderr) without raising on failure."""
        status, stdout, stderr = self._execute(args, env=env, ok=None, binary=False)
        return status, stdout.decode("utf-8", errors="replace"), stderr

    def run_bytes(self, *args: str, env: Mapping[str, str | None] | None = None) -> bytes:
        """Run git and return stdout exactly as git wrote it."""
        return self._execute(args, env=env, ok=(), binary=True)[1]

    def run_bytes_status(self, *args: str) -> tuple[int, bytes]:
        """Run git without raising; (status, stdout exactly as git wrote it)."""
        status, stdout, _ = self._execute(args, env=None, ok=None, binary=True)
        return status, stdout

    def _execute(
        self,
        args: Sequence[str],
        *,
        env: Mapping[str, str | None] | None,
        ok: Sequence[int] | None,
        binary: bool,
    ) -> tuple[int, bytes, str]:
        try:
            process = subprocess.run(
                self._command(args),
                cwd=self.cwd,
                env=self._environment(env),
                stdin=subprocess.DEVNULL,
                capture_output=True,
            )
        except FileNotFoundError as error:
            if Path(self.cwd).is_dir():
                raise GitError(args, 127, f"git is not installed: {error}") from error
            # What `git -C <missing>` says, so a caller that checks the status can.
            message = f"fatal: cannot change to '{self.cwd}': No such file or directory"
            process = subprocess.CompletedProcess(args, 128, b"", message.encode())
        status, stdout_bytes = process.returncode, process.stdout
        if not binary:
            stdout_bytes = stdout_bytes.removesuffix(b"\n")
        stderr_text = process.stderr.decode("utf-8", errors="replace").removesuffix("\n")
        if status != 0 and ok is not None and status not in ok:
            raise GitError(args, status, stderr_text or stdout_bytes.decode(errors="replace"))
        return status, stdout_bytes, stderr_text

    def run_timed(self, *args: str, timeout: float) -> tuple[int, str, str]:
        """Like :meth:`run_status`, for a command that talks to a server: git is killed
        after ``timeout`` seconds (status 124, stderr ``timed out after N s``). curl has
        no total limit git exposes, and a server that accepts a connection and never
        answers would otherwise hold the caller until the low-speed limit trips."""
        try:
            # A session of its own: on timeout the whole group goes, with the
            # git-remote-http helper that would otherwise keep the pipes open.
            process = subprocess.Popen(
                self._command(args),
                cwd=self.cwd,
                env=self._environment(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except FileNotFoundError as error:
            raise GitError(args, 127, f"git is not installed: {error}") from error
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return 124, "", f"git {args[0]}: timed out after {timeout:g} s"
        return (
            process.returncode,
            stdout.decode("utf-8", errors="replace").rstrip("\n"),
            stderr.decode("utf-8", errors="replace"),
        )

    def run_with_input(self, data: bytes, *args: str) -> bytes:
        """Run git with ``data`` on stdin; return stdout as bytes."""
        process = subprocess.run(
            self._command(args),
            cwd=self.cwd,
            env=self._environment(),
            input=data,
            capture_output=True,
        )
        if process.returncode != 0:
            raise GitError(args, process.returncode, process.stderr.decode(errors="replace"))
        return process.stdout

    def start(self, *args: str) -> subprocess.Popen[bytes]:
        """Start git with stdin and stdout as pipes, for a conversation such as
        ``cat-file --batch``; the caller closes both and waits for it."""
        return subprocess.Popen(
            self._command(args),
            cwd=self.cwd,
            env=self._environment(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    @contextmanager
    def stream(self, *args: str) -> Iterator[subprocess.Popen[bytes]]:
        """Start git with stdout as a pipe, for outputs too large to hold at once.

        The caller may stop reading early; the process is terminated on exit.
        """
        process = subprocess.Popen(
            self._command(args),
            cwd=self.cwd,
            env=self._environment(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            yield process
        finally:
            if process.poll() is None:
                process.kill()
            process.communicate()
