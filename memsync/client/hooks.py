"""memsync's hooks in a Claude Code ``settings.json``: added beside whatever is there,
removed without touching anything else.

Claude Code's format::

    {"hooks": {"SessionStart": [{"matcher": "", "hooks": [{"type": "command",
                                                          "command": "memsync pull --quiet"}]}]}}

An event maps to a list of matcher groups, each with a list of hook commands. Ours is
one group per event with the empty matcher (every session start, every stop). A hook is
ours when its command runs ``memsync`` (by name or by path) with exactly one of our
argument lists, so installing twice finds the first and adds nothing, and uninstalling
removes ours even after a user pointed them at ``/opt/bin/memsync``.

The file is only ever replaced whole (written beside, then renamed; a symlinked
settings file has its target replaced), and only when something changed. A file that is
not valid JSON, or whose ``hooks`` are not laid out as above, is refused untouched.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import tempfile
from collections.abc import Mapping
from pathlib import Path, PurePath
from typing import Any

PULL = "memsync pull --quiet"
PUSH = "memsync push --quiet"
RECALL = "memsync recall --hook"
SYNC_HOOKS = {"SessionStart": PULL, "SessionEnd": PUSH, "Stop": PUSH}
RECALL_HOOKS = {"UserPromptSubmit": RECALL}
ALL_HOOKS = {**SYNC_HOOKS, **RECALL_HOOKS}


def hook_commands(program: str = "memsync", *, recall: bool = False) -> dict[str, str]:
    """Event → command, running ``program`` (``memsync`` from PATH, or a script's path)."""
    wanted = {**SYNC_HOOKS, **(RECALL_HOOKS if recall else {})}
    prefix = shlex.quote(program)
    return {event: prefix + command.removeprefix("memsync") for event, command in wanted.items()}


class SettingsError(Exception):
    """The settings file cannot be changed safely; it was left as it was."""


def _argv(command: str) -> list[str] | None:
    try:
        return shlex.split(command)
    except ValueError:
        return None


_OURS = [argv for argv in (_argv(command) for command in set(ALL_HOOKS.values())) if argv]


def is_ours(hook: Any) -> bool:
    if not isinstance(hook, dict) or hook.get("type") != "command":
        return False
    command = hook.get("command")
    argv = _argv(command) if isinstance(command, str) else None
    if not argv or PurePath(argv[0]).name != "memsync":
        return False
    return any(argv[1:] == ours[1:] for ours in _OURS)


def _runs(hook: Any, command: str) -> bool:
    """Whether ``hook`` is ours and runs ``command`` (whatever path to memsync it uses)."""
    if not is_ours(hook):
        return False
    return (_argv(hook["command"]) or [])[1:] == (_argv(command) or [])[1:]


def _all_hooks(groups: list[Any]) -> list[Any]:
    return [
        hook
        for group in groups
        if isinstance(group, dict) and isinstance(group.get("hooks"), list)
        for hook in group["hooks"]
    ]


def add_hooks(settings: dict[str, Any], wanted: Mapping[str, str]) -> list[str]:
    """Add a hook running ``wanted[event]`` for each event that has none of ours yet;
    the events it was added to."""
    hooks = _hooks_object(settings, create=True)
    assert hooks is not None
    added = []
    for event, command in wanted.items():
        groups = _groups(hooks, event, create=True)
        if any(_runs(hook, command) for hook in _all_hooks(groups)):
            continue
        groups.append({"matcher": "", "hooks": [{"type": "command", "command": command}]})
        added.append(event)
    return added


def remove_hooks(settings: dict[str, Any]) -> list[str]:
    """Remove every memsync hook; a group or event left empty by that goes too. The
    events something was removed from."""
    hooks = _hooks_object(settings, create=False)
    if hooks is None:
        return []
    removed = []
    for event in list(hooks):
        groups = _groups(hooks, event, create=False)
        kept_groups = []
        touched = False
        for group in groups:
            if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                kept_groups.append(group)
                continue
            kept = [hook for hook in group["hooks"] if not is_ours(hook)]
            if len(kept) == len(group["hooks"]):
                kept_groups.append(group)
                continue
            touched = True
            if kept:
                kept_groups.append({**group, "hooks": kept})
        if not touched:
            continue
        removed.append(event)
        if kept_groups:
            hooks[event] = kept_groups
        else:
            del hooks[event]
    if removed and not hooks:
        del settings["hooks"]
    return removed


def _hooks_object(settings: dict[str, Any], *, create: bool) -> dict[str, Any] | None:
    hooks = settings.get("hooks")
    if hooks is None:
        if not create:
            return None
        hooks = settings["hooks"] = {}
    if not isinstance(hooks, dict):
        raise SettingsError(f'"hooks" is a {type(hooks).__name__}, not an object')
    return hooks


def _groups(hooks: dict[str, Any], event: str, *, create: bool) -> list[Any]:
    groups = hooks.get(event)
    if groups is None and create:
        groups = hooks[event] = []
    if not isinstance(groups, list):
        raise SettingsError(f'"hooks.{event}" is a {type(groups).__name__}, not a list')
    return groups


def read_settings(path: Path) -> dict[str, Any]:
    """The settings object in ``path`` ({} when the file does not exist yet)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise SettingsError(f"cannot read {path}: {error}") from error
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SettingsError(
            f"{path} is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg}); "
            "fix it first, memsync left it untouched"
        ) from error
    if not isinstance(data, dict):
        raise SettingsError(f"{path} holds a JSON {type(data).__name__}, not an object")
    return data


def write_settings(path: Path, settings: dict[str, Any]) -> None:
    """Replace ``path`` with ``settings`` atomically, keeping the file's mode."""
    target = path.resolve() if path.is_symlink() else path
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = target.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    fd, partial = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".memsync", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(settings, handle, indent=2, ensure_ascii=False)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        Path(partial).chmod(mode)
        Path(partial).replace(target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            Path(partial).unlink()
        raise


def install(path: Path, wanted: Mapping[str, str]) -> list[str]:
    """Add memsync's hooks for ``wanted`` events to the settings file at ``path``."""
    settings = read_settings(path)
    added = add_hooks(settings, wanted)
    if added:
        write_settings(path, settings)
    return added


def uninstall(path: Path) -> list[str]:
    """Remove every memsync hook from the settings file at ``path``."""
    if not path.exists():
        return []
    settings = read_settings(path)
    removed = remove_hooks(settings)
    if removed:
        write_settings(path, settings)
    return removed
