"""``memsync unlink``: take a project's team memory off this machine.

It removes the team block from the private ``MEMORY.md`` (lines the agent wrote inside
it stay, as private lines) and the team clone in ``team/``. Work the server has not got
yet — commits not pushed, files changed since the last push — would be lost with the
clone, so unlink refuses then and says what to run, unless ``--force``.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil

from memsync.client.commands.sync import _location_arguments, _memory_location
from memsync.client.errors import CommandError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    unlink = subparsers.add_parser(
        "unlink", help="remove the team block from MEMORY.md and the team clone"
    )
    _location_arguments(unlink)
    unlink.add_argument(
        "--force", action="store_true", help="also when the clone has work not pushed yet"
    )
    unlink.set_defaults(handler=run_unlink)


def run_unlink(args: argparse.Namespace) -> int:
    from memsync.client.team import NotLinked, TeamClone
    from memsync.client.team_index import remove_team_block

    location = _memory_location(args)
    team_dir = location.team_dir
    clone = None
    with contextlib.suppress(NotLinked):  # nothing linked: only the block to remove
        clone = TeamClone(team_dir)
    if clone is not None and not args.force:
        state = clone.state()
        if state.unpushed or state.changes or state.conflicts:
            raise CommandError(
                f"{team_dir} has work the server does not have ({state.unpushed} commit(s) "
                f"not pushed, {len(state.changes)} changed file(s)); run `memsync push` "
                "first, or `memsync unlink --force` to drop it"
            )
    from memsync.memory import INDEX_FILENAME

    removed = remove_team_block(location.path)
    print(
        f"{location.path / INDEX_FILENAME}: "
        + ("team block removed" if removed else "had no team block")
    )
    if clone is not None:
        slug = clone.link.slug
        shutil.rmtree(team_dir)
        print(f"removed the clone of {slug} at {team_dir}")
    elif team_dir.exists():
        print(f"{team_dir} is not a memsync clone; left as it is")
    return 0
