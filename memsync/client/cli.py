"""Entry point of the ``memsync`` console script.

Exit codes: 0 success; 1 the command ran and found problems (``check``) or refused
(``dream`` that failed); 2 usage or I/O errors, with a message on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from memsync.client.errors import CommandError

_LOCAL = "memsync.client.commands.local"
_DREAM = "memsync.client.commands.dream"
_SYNC = "memsync.client.commands.sync"
# The module that registers each command, in the order ``--help`` lists them. A run of
# one command builds the parser from its module only: the prompt hook and each
# extraction start a process, and registering every command costs ~8 ms each time.
COMMANDS = {
    "init": _LOCAL,
    "check": _LOCAL,
    "ls": _LOCAL,
    "log": _LOCAL,
    "merge-index": _LOCAL,
    "dream": _DREAM,
    "proposals": _DREAM,
    "approve": _DREAM,
    "reject": _DREAM,
    "revert": _DREAM,
    "login": _SYNC,
    "link": _SYNC,
    "pull": _SYNC,
    "push": _SYNC,
    "status": _SYNC,
    "credential": _SYNC,
    "unlink": "memsync.client.commands.unlink",
    "hooks": "memsync.client.commands.hooks",
    "extract": "memsync.client.commands.extract",
    "recall": "memsync.client.commands.recall",
}
COMMAND_MODULES = tuple(dict.fromkeys(COMMANDS.values()))

__all__ = ["COMMANDS", "COMMAND_MODULES", "CommandError", "build_parser", "main"]

Handler = Callable[[argparse.Namespace], int]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with `command`, one that knows only that command (every
    command when it is none of them, so a typo still lists them all)."""
    parser = _Parser(prog="memsync", description="Git-backed team memory for coding agents.")
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )
    modules = (COMMANDS[command],) if command in COMMANDS else COMMAND_MODULES
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


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    # The first word names the command: the only top-level option is --version.
    command = arguments[0] if arguments and not arguments[0].startswith("-") else None
    args = build_parser(command).parse_args(arguments)
    handler: Handler = args.handler
    try:
        return handler(args)
    except CommandError as error:
        print(f"memsync: error: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("memsync: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
