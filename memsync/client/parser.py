"""The ``memsync`` command line, built with argparse: loaded only when a command runs in
this process (``memsync.client.cli``; a call the warm helper serves never imports it).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Mapping
from typing import Any


def build_parser(
    commands: Mapping[str, str], command: str | None = None
) -> argparse.ArgumentParser:
    """The whole parser of `commands` (name → the module that registers it); with
    `command`, one that knows only that command (every command when it is none of
    them, so a typo still lists them all)."""
    parser = _Parser(prog="memsync", description="Git-backed team memory for coding agents.")
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )
    if command is not None and command in commands:
        modules: tuple[str, ...] = (commands[command],)
    else:
        modules = tuple(dict.fromkeys(commands.values()))
    for module_name in modules:
        importlib.import_module(module_name).register(subparsers)
    return parser


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's own, with the terminal's width found as `shutil.get_terminal_size`
    finds it, without importing shutil (and bz2, lzma): argparse builds a formatter
    for every option declared, so each command paid for it even when no help was
    printed (issue 14: an extraction is a process per turn)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24) -> None:
        super().__init__(prog, indent_increment, max_help_position, width=_columns() - 2)


def _columns() -> int:
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)


class _VersionAction(argparse.Action):
    """``--version``, looked up only when asked: reading the installed distributions'
    metadata costs every command (the prompt hook, an extraction) tens of milliseconds."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        kwargs.setdefault("help", "show program's version number and exit")
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        print(f"memsync {_installed_version()}")
        parser.exit()


def _installed_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    # A source checkout run without installing has no distribution metadata.
    try:
        return version("memsync")
    except PackageNotFoundError:
        return "(not installed)"
