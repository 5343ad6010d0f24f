"""Entry point of the ``memsync`` console script.

Exit codes: 0 success; 1 the command ran and found problems (``check``) or refused
(``dream`` that failed); 2 usage or I/O errors, with a message on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import Any

from memsync.client.errors import CommandError

COMMAND_MODULES = (
    "memsync.client.commands.local",
    "memsync.client.commands.dream",
    "memsync.client.commands.sync",
    "memsync.client.commands.unlink",
    "memsync.client.commands.hooks",
    "memsync.client.commands.extract",
    "memsync.client.commands.recall",
)

__all__ = ["COMMAND_MODULES", "CommandError", "build_parser", "main"]

Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memsync", description="Git-backed team memory for coding agents."
    )
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


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
    parser = build_parser()
    args = parser.parse_args(argv)
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
