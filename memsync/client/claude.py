"""Where Claude Code keeps things on a developer machine, found the way Claude Code does.

The config directory is ``CLAUDE_CONFIG_DIR``, else ``~/.claude``.

A project's auto-memory directory (team memory is its ``team/`` subdirectory) is the
first of:

1. ``CLAUDE_COWORK_MEMORY_PATH_OVERRIDE`` — a full path, taken as given (no ``~``);
2. the ``autoMemoryDirectory`` setting, from the first settings source that sets it, in
   Claude Code's order (2.1.332, ``getAutoMemoryDirectorySetting``): managed policy
   (``managed-settings.json``, then its ``managed-settings.d/*.json`` drop-ins), the
   ``--settings`` file or JSON, the project's ``.claude/settings.local.json``, the
   project's shared ``.claude/settings.json``, the user's ``<config dir>/settings.json``.
   Claude Code reads the two project files only in a trusted folder or in ``-p`` mode;
   an interactive session cannot start before its trust dialog is accepted, so every
   session that runs honours them, and so do we.
   ``~/`` is expanded; a relative path, a filesystem root, or ``~`` alone are rejected
   as Claude Code rejects them, and then (as in Claude Code) the default applies;
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
# Claude Code's own team memory sync keeps this manifest in ``team/``.
CLAUDE_CODE_TEAM_MANIFEST = ".memory-sync"
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

    def policy_files(self) -> list[Path]:
        """The managed policy file and its drop-ins, in the order they apply."""
        if self.policy_file is None:
            return []
        drop_ins = self.policy_file.parent / "managed-settings.d"
        try:
            extra = sorted(p for p in drop_ins.iterdir() if p.suffix == ".json")
        except OSError:
            extra = []
        # Drop-ins override the base file and a later one an earlier one: the first
        # file in this list that sets a key wins.
        return [*reversed(extra), self.policy_file]

    def memory_location(self, cwd: Path, *, flag_settings: str | None = None) -> MemoryLocation:
        """Where Claude Code keeps auto memory for sessions started in ``cwd``;
        ``flag_settings`` is what ``claude --settings`` was given (a file or JSON)."""
        cwd = project_root(cwd)
        notes: list[str] = []
        override = self.environ.get("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE")
        if override:
            checked = _checked_memory_path(override, home=None)
            if checked is not None:
                return MemoryLocation(checked, "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE")
            notes.append("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE is not a usable absolute path")
        sources: list[tuple[str, str | None]] = []
        policy = self.policy_files()
        policy_value = next((v for v in (_setting(f, notes) for f in policy) if v), None)
        if policy:
            sources.append((f"managed settings ({policy[0]})", policy_value))
        if flag_settings:
            sources.append(("--settings", _flag_setting(flag_settings, notes)))
        for settings_file in (
            self.local_settings(cwd),
            self.project_settings(cwd),
            self.user_settings,
        ):
            sources.append((str(settings_file), _setting(settings_file, notes)))
        for where, value in sources:
            if value is None:
                continue
            checked = _checked_memory_path(value, home=self.home)
            if checked is not None:
                return MemoryLocation(checked, f"{SETTING} in {where}", tuple(notes))
            # Claude Code takes the first source that sets it; an unusable value
            # means the default directory, not the next source.
            notes.append(
                f"{SETTING} {value!r} in {where} is ignored, as Claude Code ignores "
                "it: it must be an absolute path or start with ~/"
            )
            break
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


def _flag_setting(value: str, notes: list[str]) -> str | None:
    """``--settings`` takes a file or inline JSON, as Claude Code's flag does."""
    if value.lstrip().startswith("{"):
        try:
            data: Any = json.loads(value)
        except json.JSONDecodeError as error:
            notes.append(f"--settings is not valid JSON and was skipped: {error}")
            return None
        found = data.get(SETTING) if isinstance(data, dict) else None
        return found if isinstance(found, str) and found else None
    return _setting(Path(value).expanduser(), notes)


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
