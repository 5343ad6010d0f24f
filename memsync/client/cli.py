"""Entry point of the ``memsync`` console script.

Exit codes: 0 success; 1 the command ran and found problems (``check``) or refused
(``dream`` that failed); 2 usage or I/O errors, with a message on stderr.
"""

from __future__ import annotations

import sys

from memsync.client.errors import CommandError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence

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


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with `command`, one that knows only that command (every
    command when it is none of them, so a typo still lists them all)."""
    from memsync.client.parser import build_parser as build

    return build(COMMANDS, command)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line. Run as the ``memsync`` command (no `argv`), an extraction is
    handed to the repository's warm helper when one serves it
    (``memsync.client.helper_client``), before argparse and the command are imported;
    otherwise, and whenever the helper did not take the call, it runs here."""
    if argv is None:
        from memsync.client.helper_client import served

        status = served(sys.argv[1:])
        if status is not None:
            return status
    return run_command(list(sys.argv[1:] if argv is None else argv))


def run_command(arguments: list[str]) -> int:
    """Parse `arguments` and run the command in this process (the warm helper's child
    runs this too)."""
    # The first word names the command: the only top-level option is --version.
    command = arguments[0] if arguments and not arguments[0].startswith("-") else None
    args = build_parser(command).parse_args(arguments)
    handler: Callable[[argparse.Namespace], int] = args.handler
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
