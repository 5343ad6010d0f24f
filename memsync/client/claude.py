"""Where Claude Code keeps things on a developer machine, found the way Claude Code does.

The config directory is ``CLAUDE_CONFIG_DIR``, else ``~/.claude``.

A project's auto-memory directory (team memory is its ``team/`` subdirectory) is the
first of:

1. ``CLAUDE_COWORK_MEMORY_PATH_OVERRIDE`` — a full path, taken as given (no ``~``);
2. the ``autoMemoryDirectory`` setting, from the first settings file that sets it, in
   Claude Code's order: the managed policy file, then the project's
   ``.claude/settings.local.json``, then the user's ``<config dir>/settings.json``.
   The project's shared ``.claude/settings.json`` is read but never obeyed: Claude Code
   ignores the setting there on purpose (a cloned repository must not be able to
   point memory writes at ``~/.ssh``), so we report it instead of following it.
   ``~/`` is expanded; a relative path, a filesystem root, or ``~`` alone are rejected
   as Claude Code rejects them, and the next source is tried;
3. ``<base>/projects/<sanitized canonical git root>/memory/``, where ``<base>`` is
   ``CLAUDE_CODE_REMOTE_MEMORY_DIR`` or the config directory, and the canonical git root
   is the repository containing the working directory — a linked worktree counts as
   its main checkout — or the working directory itself outside Git (SPEC D1).

Session transcripts are named after the working directory itself, not its git root:
``<config dir>/projects/<sanitized cwd>/<uuid>.jsonl``.

Names over 200 characters end in a hash that differs between Claude Code builds (see
``memsync.memory.paths``): when the exact directory is missing, a single existing
directory with the same 200-character prefix is taken instead.

Nothing here reads the process environment: the caller passes it in.
"""

from __future__ import annotations

import json
import os
import sys
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memsync.memory.paths import MAX_SANITIZED_LENGTH, sanitize_path

MEMORY_DIRNAME = "memory"
TEAM_DIRNAME = "team"
SETTING = "autoMemoryDirectory"
POLICY_SETTINGS = {
    "darwin": Path("/Library/Application Support/ClaudeCode/managed-settings.json"),
    "linux": Path("/etc/claude-code/managed-settings.json"),
}


@dataclass(frozen=True)
class MemoryLocation:
    """A project's memory directory and how it was found, for messages to the user."""

    path: Path
    source: str
    notes: tuple[str, ...] = field(default=())

    @property
    def team_dir(self) -> Path:
        return self.path / TEAM_DIRNAME


class ClaudeCode:
    """Claude Code's files for one user: ``environ`` and ``home`` are that user's."""

    def __init__(
        self, environ: Mapping[str, str], home: Path, *, policy_file: Path | None = None
    ) -> None:
        self.environ = environ
        self.home = Path(home)
        self.policy_file = (
            policy_file if policy_file is not None else POLICY_SETTINGS.get(sys.platform)
        )

    @property
    def config_dir(self) -> Path:
        configured = self.environ.get("CLAUDE_CONFIG_DIR")
        return Path(_nfc(configured)) if configured else self.home / ".claude"

    @property
    def user_settings(self) -> Path:
        return self.config_dir / "settings.json"

    @staticmethod
    def project_settings(cwd: Path) -> Path:
        return Path(cwd) / ".claude" / "settings.json"

    @staticmethod
    def local_settings(cwd: Path) -> Path:
        return Path(cwd) / ".claude" / "settings.local.json"

    def memory_location(self, cwd: Path) -> MemoryLocation:
        """Where Claude Code keeps auto memory for sessions started in ``cwd``."""
        cwd = project_root(cwd)
        notes: list[str] = []
        override = self.environ.get("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE")
        if override:
            checked = _checked_memory_path(override, home=None)
            if checked is not None:
                return MemoryLocation(checked, "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE")
            notes.append("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE is not a usable absolute path")
        trusted = [self.policy_file, self.local_settings(cwd), self.user_settings]
        for settings_file in trusted:
            if settings_file is None:
                continue
            value = _setting(settings_file, notes)
            if value is None:
                continue
            checked = _checked_memory_path(value, home=self.home)
            if checked is not None:
                return MemoryLocation(checked, f"{SETTING} in {settings_file}", tuple(notes))
            notes.append(
                f"{SETTING} {value!r} in {settings_file} is ignored, as Claude Code ignores "
                "it: it must be an absolute path or start with ~/"
            )
        shared = self.project_settings(cwd)
        if _setting(shared, notes) is not None:
            notes.append(
                f"{shared} sets {SETTING}, which Claude Code ignores in a project's shared "
                "settings; put it in .claude/settings.local.json or your user settings"
            )
        base_env = self.environ.get("CLAUDE_CODE_REMOTE_MEMORY_DIR")
        base = Path(base_env) if base_env else self.config_dir
        root = canonical_git_root(cwd) or cwd
        project = project_dir(base / "projects", root)
        return MemoryLocation(project / MEMORY_DIRNAME, f"the default for {root}", tuple(notes))

    def transcripts_dir(self, cwd: Path) -> Path:
        """The directory of ``<uuid>.jsonl`` session transcripts for ``cwd``."""
        return project_dir(self.config_dir / "projects", project_root(cwd))


def project_root(cwd: Path) -> Path:
    """The working directory as Claude Code names it: absolute, symlinks resolved."""
    return Path(_nfc(str(Path(cwd).resolve())))


def project_dir(projects: Path, path: Path) -> Path:
    """``projects/<sanitized path>``, or the one existing directory it may be under
    another Claude Code build's hash (names over 200 characters)."""
    name = sanitize_path(str(path))
    exact = projects / name
    if len(name) <= MAX_SANITIZED_LENGTH or exact.exists():
        return exact
    prefix = name[:MAX_SANITIZED_LENGTH] + "-"
    try:
        candidates = [p for p in projects.iterdir() if p.name.startswith(prefix) and p.is_dir()]
    except OSError:
        return exact
    return candidates[0] if len(candidates) == 1 else exact


def canonical_git_root(start: Path) -> Path | None:
    """The top of the Git checkout containing ``start``; for a linked worktree, its main
    checkout (so all worktrees of a repository share one memory), as Claude Code's
    ``findCanonicalGitRoot`` decides it. None outside Git."""
    root = _git_root(Path(start))
    if root is None:
        return None
    dot_git = root / ".git"
    try:
        if dot_git.is_dir():
            return root
        content = dot_git.read_text().strip()
        if not content.startswith("gitdir:"):
            return root
        worktree_git = (root / content.removeprefix("gitdir:").strip()).resolve()
        common = (worktree_git / (worktree_git / "commondir").read_text().strip()).resolve()
        # Only a worktree that its repository lists, and that points back at this
        # checkout, is folded into the main checkout: a forged .git file is not.
        if worktree_git.parent != common / "worktrees":
            return root
        backlink = Path((worktree_git / "gitdir").read_text().strip()).resolve()
        if backlink != (root / ".git").resolve():
            return root
    except (OSError, UnicodeDecodeError):
        return root
    return Path(_nfc(str(common.parent if common.name == ".git" else common)))


def _git_root(start: Path) -> Path | None:
    current = start.resolve()
    while True:
        if (current / ".git").exists():
            return current
        if current.parent == current:
            return None
        current = current.parent


def _setting(path: Path, notes: list[str]) -> str | None:
    """``autoMemoryDirectory`` from one settings file; a broken file is skipped, as
    Claude Code skips it, with a note."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        notes.append(f"{path} was skipped: {error}")
        return None
    value = data.get(SETTING) if isinstance(data, dict) else None
    return value if isinstance(value, str) and value else None


def _checked_memory_path(raw: str, *, home: Path | None) -> Path | None:
    """Claude Code's ``validateMemoryPath``: ``~/`` expanded only when ``home`` is
    given; relative paths, roots, UNC paths and NUL refused; ``~/`` alone (all of
    ``$HOME``) refused."""
    candidate = raw
    if home is not None and candidate.startswith(("~/", "~\\")):
        rest = os.path.normpath(candidate[2:] or ".")
        if rest in (".", ".."):
            return None
        candidate = str(home / rest)
    normalized = os.path.normpath(candidate).rstrip("/\\")
    if (
        not Path(normalized).is_absolute()
        or len(normalized) < 3
        or normalized.startswith(("\\\\", "//"))
        or "\0" in normalized
    ):
        return None
    return Path(_nfc(normalized))


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)
