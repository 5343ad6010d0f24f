"""memsync's hooks in a Claude Code ``settings.json``: added beside whatever is there,
removed without touching anything else.

Claude Code's format::

    {"hooks": {"SessionStart": [{"matcher": "", "hooks": [{"type": "command",
                                   "command": "memsync pull --hook", "timeout": 15}]}]}}

An event maps to a list of matcher groups, each with a list of hook commands. Ours is
one group per event with the empty matcher (every session start, every stop). A hook is
ours when its command runs ``memsync`` (by name or by path) with exactly one of our
argument lists (or one an older memsync installed), so installing twice finds the first
and adds nothing, installing over an older version replaces its hooks, and
uninstalling removes ours even after a user pointed them at ``/opt/bin/memsync``.

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

# Claude Code waits for a hook up to its ``timeout`` (seconds) and kills it after; a
# SessionEnd hook without one is cancelled after about 1.5 s. Every hook of ours names
# its own, set well above what the command needs: the pull at SessionStart gives up
# on the network after PULL_DEADLINE (memsync.client.hookrun), the push at Stop and
# SessionEnd only starts a background push and returns, the recall hook ranks locally.
PULL = "memsync pull --hook"
PUSH = "memsync push --hook"
RECALL = "memsync recall --hook"
TIMEOUTS = {PULL: 15, PUSH: 10, RECALL: 10}
RECALL_MODEL_TIMEOUT = 30  # with --model the hook also waits for a side query
SYNC_HOOKS = {"SessionStart": PULL, "SessionEnd": PUSH, "Stop": PUSH}
RECALL_HOOKS = {"UserPromptSubmit": RECALL}
ALL_HOOKS = {**SYNC_HOOKS, **RECALL_HOOKS}
# What earlier memsync versions installed: still ours, replaced on the next install.
LEGACY = ("memsync pull --quiet", "memsync push --quiet")


def hook_commands(
    program: str = "memsync", *, recall: bool = False, recall_model: str | None = None
) -> dict[str, dict[str, Any]]:
    """Event → the hook object to install, running ``program`` (``memsync`` from PATH,
    or a script's path), each with its explicit ``timeout``."""
    wanted = {**SYNC_HOOKS, **(RECALL_HOOKS if recall or recall_model else {})}
    prefix = shlex.quote(program)
    hooks: dict[str, dict[str, Any]] = {}
    for event, command in wanted.items():
        line = prefix + command.removeprefix("memsync")
        timeout = TIMEOUTS[command]
        if command == RECALL and recall_model:
            line += " --model " + shlex.quote(recall_model)
            timeout = RECALL_MODEL_TIMEOUT
        hooks[event] = {"type": "command", "command": line, "timeout": timeout}
    return hooks


class SettingsError(Exception):
    """The settings file cannot be changed safely; it was left as it was."""


def _argv(command: str) -> list[str] | None:
    try:
        return shlex.split(command)
    except ValueError:
        return None


_OURS = [argv[1:] for argv in (_argv(c) for c in {*ALL_HOOKS.values(), *LEGACY}) if argv]
_RECALL_ARGS = (_argv(RECALL) or [])[1:]


def is_ours(hook: Any) -> bool:
    if not isinstance(hook, dict) or hook.get("type") != "command":
        return False
    command = hook.get("command")
    argv = _argv(command) if isinstance(command, str) else None
    if not argv or PurePath(argv[0]).name != "memsync":
        return False
    if argv[1:] in _OURS:
        return True
    # The recall hook may carry its opt-in model: ``recall --hook --model NAME``.
    return argv[1:3] == _RECALL_ARGS and len(argv) == 5 and argv[3] == "--model"


def _same(hook: Any, wanted: Mapping[str, Any]) -> bool:
    """Whether ``hook`` is ours and already what we would install (whatever path to
    memsync it uses)."""
    if not is_ours(hook) or hook.get("timeout") != wanted.get("timeout"):
        return False
    return (_argv(hook["command"]) or [])[1:] == (_argv(wanted["command"]) or [])[1:]


def _all_hooks(groups: list[Any]) -> list[Any]:
    return [
        hook
        for group in groups
        if isinstance(group, dict) and isinstance(group.get("hooks"), list)
        for hook in group["hooks"]
    ]


def add_hooks(settings: dict[str, Any], wanted: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Install ``wanted[event]`` (a hook object) for each event; an older hook of ours
    on that event (another command, no timeout) is replaced by it. The events changed."""
    hooks = _hooks_object(settings, create=True)
    assert hooks is not None
    added = []
    for event, hook in wanted.items():
        groups = _groups(hooks, event, create=True)
        if any(_same(found, hook) for found in _all_hooks(groups)):
            continue
        kept = _without_ours(groups)
        kept.append({"matcher": "", "hooks": [dict(hook)]})
        hooks[event] = kept
        added.append(event)
    return added


def _without_ours(groups: list[Any]) -> list[Any]:
    kept_groups = []
    for group in groups:
        if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
            kept_groups.append(group)
            continue
        kept = [hook for hook in group["hooks"] if not is_ours(hook)]
        if len(kept) == len(group["hooks"]):
            kept_groups.append(group)
        elif kept:
            kept_groups.append({**group, "hooks": kept})
    return kept_groups


def remove_hooks(settings: dict[str, Any]) -> list[str]:
    """Remove every memsync hook; a group or event left empty by that goes too. The
    events something was removed from."""
    hooks = _hooks_object(settings, create=False)
    if hooks is None:
        return []
    removed = []
    for event in list(hooks):
        groups = _groups(hooks, event, create=False)
        kept_groups = _without_ours(groups)
        if kept_groups == groups:
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


def install(path: Path, wanted: Mapping[str, Mapping[str, Any]]) -> list[str]:
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
