"""``memsync hooks install|uninstall``: memsync's hooks in Claude Code's settings.

``--user`` (the default) edits ``<Claude config dir>/settings.json``, for every project;
``--project`` edits ``<cwd>/.claude/settings.json``, shared with everyone who clones
the project. Installed, each with an explicit ``timeout``: SessionStart →
``memsync pull --hook``; SessionEnd and Stop → ``memsync push --hook`` (which pushes
in the background and returns at once); with ``--recall`` also UserPromptSubmit →
``memsync recall --hook`` (local ranking; ``--recall-model NAME`` lets a model choose,
at the cost of a side query on every prompt). Installing again replaces hooks an
older memsync installed. When the ``memsync`` on PATH is not this installation (or
there is none), user hooks run this installation's script by its path instead. Uninstall
removes all of memsync's hooks, however they name it, and nothing else.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from memsync.client.errors import CommandError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    hooks = subparsers.add_parser("hooks", help="install or remove memsync's Claude Code hooks")
    actions = hooks.add_subparsers(dest="hooks_action", required=True, metavar="ACTION")
    install = actions.add_parser("install", help="add the hooks (idempotent)")
    _scope_arguments(install)
    install.add_argument(
        "--recall",
        action="store_true",
        help="also recall team memories for each prompt (UserPromptSubmit)",
    )
    install.add_argument(
        "--recall-model",
        metavar="MODEL",
        help="with --recall: let MODEL choose among the ranked memories (needs an API key)",
    )
    install.set_defaults(handler=run_install)
    uninstall = actions.add_parser("uninstall", help="remove memsync's hooks, keep all others")
    _scope_arguments(uninstall)
    uninstall.set_defaults(handler=run_uninstall)


def _scope_arguments(parser: argparse.ArgumentParser) -> None:
    scope = parser.add_mutually_exclusive_group()
    scope.add_argument(
        "--user", dest="scope", action="store_const", const="user",
        help="<Claude config dir>/settings.json, all projects (default)",
    )  # fmt: skip
    scope.add_argument(
        "--project", dest="scope", action="store_const", const="project",
        help="<cwd>/.claude/settings.json, this project, shared through its repository",
    )  # fmt: skip
    parser.set_defaults(scope="user")
    parser.add_argument("--cwd", type=Path, help="the project directory (with --project)")


def _settings_path(args: argparse.Namespace) -> Path:
    from memsync.client.claude import ClaudeCode

    if args.scope == "project":
        return ClaudeCode.project_settings(args.cwd or Path.cwd())
    home = Path(os.environ.get("HOME") or Path.home())
    return ClaudeCode(os.environ, home).user_settings


def _program(args: argparse.Namespace) -> str:
    """How the hooks should call memsync. Claude Code runs hooks through the user's
    shell, whose PATH may not reach this installation (a virtualenv): then the user
    hooks name this installation's script by path. Project settings are shared through
    the repository, where a path of this machine means nothing: always ``memsync``."""
    script = Path(sys.executable).with_name("memsync")
    if args.scope == "project" or not script.exists():
        return "memsync"
    found = shutil.which("memsync", path=os.environ.get("PATH"))
    if found is not None and Path(found).resolve() == script.resolve():
        return "memsync"
    return str(script)


def run_install(args: argparse.Namespace) -> int:
    from memsync.client import hooks

    path = _settings_path(args)
    program = _program(args)
    try:
        added = hooks.install(
            path, hooks.hook_commands(program, recall=args.recall, recall_model=args.recall_model)
        )
    except hooks.SettingsError as error:
        raise CommandError(str(error)) from error
    if added:
        print(f"installed memsync hooks for {', '.join(added)} in {path}")
    else:
        print(f"memsync hooks already in {path}; nothing changed")
    if program == "memsync" and shutil.which("memsync", path=os.environ.get("PATH")) is None:
        print(
            "note: `memsync` is not on your PATH; Claude Code runs hooks through your shell, "
            "so install memsync where that PATH reaches it",
            file=sys.stderr,
        )
    return 0


def run_uninstall(args: argparse.Namespace) -> int:
    from memsync.client import hooks

    path = _settings_path(args)
    try:
        removed = hooks.uninstall(path)
    except hooks.SettingsError as error:
        raise CommandError(str(error)) from error
    if removed:
        print(f"removed memsync hooks for {', '.join(removed)} from {path}")
    else:
        print(f"no memsync hooks in {path}; nothing changed")
    return 0
