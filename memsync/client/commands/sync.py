"""Commands that connect a developer machine to a memsync server: login, link, pull,
push, status, and the git credential helper.

``pull --hook`` and ``push --hook`` are what Claude Code's hooks run (``--quiet``,
what older versions installed, still works): they print nothing on stdout (a
SessionStart hook's stdout would become part of the session's context), a project that
is not linked is silently skipped, and every failure — network, refusal, conflict — is
one line on stderr with exit status 0, because a hook must never block or fail a
session (exit 2 from a Stop hook would even keep the session running). ``push --hook``
pushes in the background and returns at once; ``pull --hook`` gives the network a few
seconds at most (``memsync.client.hookrun``).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memsync.client.errors import CommandError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    login = subparsers.add_parser("login", help="store an access token for a memsync server")
    login.add_argument("url", help="the server's address, e.g. https://memsync.example.com")
    login.add_argument("--user", required=True, help="your username on that server")
    login.add_argument("--project", help="also check that you can read this project")
    login.set_defaults(handler=run_login)

    link = subparsers.add_parser(
        "link", help="clone a project's team memory into this project's Claude Code memory"
    )
    link.add_argument("slug", help="the project on the server")
    link.add_argument("--server", help="which logged-in server (default: the last login)")
    _location_arguments(link)
    link.set_defaults(handler=run_link)

    pull = subparsers.add_parser("pull", help="merge the team's main into your team memory")
    _location_arguments(pull)
    _quiet_argument(pull)
    _hook_argument(pull, "SessionStart: quiet, and the network gets a few seconds at most")
    pull.set_defaults(handler=run_pull)

    push = subparsers.add_parser(
        "push", help="commit and push your team memory changes, report touched sessions"
    )
    _location_arguments(push)
    _quiet_argument(push)
    _hook_argument(push, "Stop/SessionEnd: push in the background, return at once")
    # What --hook starts; not for people.
    push.add_argument("--background", action="store_true", help=argparse.SUPPRESS)
    push.add_argument("--no-sessions", action="store_true", help=argparse.SUPPRESS)
    push.set_defaults(handler=run_push)

    status = subparsers.add_parser("status", help="where your team memory stands")
    _location_arguments(status)
    status.add_argument("--no-fetch", action="store_true", help="do not ask the server")
    status.add_argument("--json", action="store_true", help="print one JSON object")
    status.set_defaults(handler=run_status)

    credential = subparsers.add_parser(
        "credential", help="git credential helper (git runs it: get, store, erase)"
    )
    credential.add_argument("operation", choices=("get", "store", "erase"))
    credential.set_defaults(handler=run_credential)


def _location_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cwd", type=Path, help="the project directory (default: the current directory)"
    )
    parser.add_argument(
        "--memory-dir", type=Path, help="the Claude Code memory directory (default: found)"
    )
    parser.add_argument(
        "--settings",
        dest="claude_settings",
        help="what you pass to `claude --settings` (a file or JSON), if it sets "
        "autoMemoryDirectory",
    )


def _quiet_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="for Claude Code hooks: no output, problems on stderr, always exit 0",
    )


def _hook_argument(parser: argparse.ArgumentParser, text: str) -> None:
    parser.add_argument("--hook", action="store_true", help=f"for Claude Code's {text}")


# --- shared ------------------------------------------------------------------------------
def _home() -> Path:
    return Path(os.environ.get("HOME") or Path.home())


def _claude() -> Any:
    from memsync.client.claude import ClaudeCode

    return ClaudeCode(os.environ, _home())


def _config() -> Any:
    from memsync.client.config import ClientConfig, ConfigError, config_path

    try:
        return ClientConfig.load(config_path(os.environ, _home()))
    except ConfigError as error:
        raise CommandError(str(error)) from error


def _cwd(args: argparse.Namespace) -> Path:
    cwd = args.cwd or Path.cwd()
    if not cwd.is_dir():
        raise CommandError(f"{cwd} is not a directory")
    return cwd


def _memory_location(args: argparse.Namespace) -> Any:
    from memsync.client.claude import MemoryLocation

    if args.memory_dir is not None:
        return MemoryLocation(args.memory_dir.absolute(), "--memory-dir")
    flag = getattr(args, "claude_settings", None)
    return _claude().memory_location(_cwd(args), flag_settings=flag)


def _open_clone(args: argparse.Namespace) -> Any:
    from memsync.client.hookrun import PULL_DEADLINE, PUSH_DEADLINE
    from memsync.client.team import NETWORK_TIMEOUT, TeamClone

    deadline = NETWORK_TIMEOUT
    if getattr(args, "background", False):
        deadline = PUSH_DEADLINE
    elif getattr(args, "hook", False):
        deadline = PULL_DEADLINE
    return TeamClone(_memory_location(args).team_dir, network_timeout=deadline)


def _server_for(link: Any, *, hook: bool = False) -> Any:
    from memsync.client.server import HOOK_TIMEOUT, HOOK_TOTAL, TeamServer

    credential = _config().credential(link.server)
    if credential is None:
        raise CommandError(f"not logged in to {link.server}: memsync login {link.server} --user …")
    if hook:
        return TeamServer(credential, timeout=HOOK_TIMEOUT, total=HOOK_TOTAL)
    return TeamServer(credential)


def _quietly(args: argparse.Namespace, action: str, run: Any) -> int:
    """Run a pull or push. Loud, failures are ``CommandError``s; quiet (a hook), every
    failure becomes one stderr line and exit status 0."""
    from memsync.client.server import ServerError, Unreachable
    from memsync.client.team import NetworkFailure, NotLinked, TeamError

    if not _is_quiet(args):
        try:
            return int(run())
        except (TeamError, ServerError) as error:
            raise CommandError(str(error)) from error
    try:
        run()
    except NotLinked:
        return 0  # user-wide hooks run in every project; most are not linked
    except (NetworkFailure, Unreachable) as error:
        print(f"memsync: {action} skipped, the server is unreachable: {error}", file=sys.stderr)
    except Exception as error:  # a hook never fails the session, whatever went wrong
        print(f"memsync: {action} failed: {error}", file=sys.stderr)
    return 0


def _is_quiet(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "quiet", False) or getattr(args, "hook", False))


def _say(args: argparse.Namespace, text: str) -> None:
    if not _is_quiet(args):
        print(text)


# --- login -------------------------------------------------------------------------------
def run_login(args: argparse.Namespace) -> int:
    import getpass

    from memsync.client.config import Credential, normalize_server
    from memsync.client.server import ApiRefusal, ServerError, TeamServer

    try:
        server = normalize_server(args.url)
    except ValueError as error:
        raise CommandError(str(error)) from error
    token = os.environ.get("MEMSYNC_TOKEN", "").strip()
    if not token:
        token = getpass.getpass(f"access token for {args.user} at {server}: ").strip()
    if not token:
        raise CommandError("no token given (type it at the prompt or set MEMSYNC_TOKEN)")
    credential = Credential(server, args.user, token)
    try:
        identity = TeamServer(credential).whoami()
    except ApiRefusal as refusal:
        if refusal.status == 401:
            raise CommandError(
                f"{server} refused this token for {args.user}; nothing was stored"
            ) from None
        if not refusal.is_memsync:
            raise CommandError(
                f"{server} does not answer like a memsync server ({refusal}); nothing was stored"
            ) from None
        raise CommandError(f"{server}: {refusal.message}; nothing was stored") from None
    except ServerError as error:
        raise CommandError(f"{error}; nothing was stored") from None
    if identity.get("username") != args.user:
        raise CommandError(
            f"this token belongs to {identity.get('username')!r}, not {args.user!r}; "
            "nothing was stored"
        )
    roles = {p["slug"]: p["role"] for p in identity.get("projects", [])}
    if args.project and args.project not in roles:
        raise CommandError(f"{args.user} has no project {args.project!r} on {server}")
    config = _config()
    config.remember(credential)
    config.save()
    print(f"logged in to {server} as {args.user}; token stored in {config.path} (mode 0600)")
    for slug, role in sorted(roles.items()):
        if not args.project or slug == args.project:
            print(f"  {slug}: {role}")
    return 0


# --- link --------------------------------------------------------------------------------
def run_link(args: argparse.Namespace) -> int:
    from memsync.client.config import normalize_server
    from memsync.client.server import ApiRefusal, ServerError, TeamServer
    from memsync.client.team import Link, NotLinked, TeamClone, TeamError, configure

    config = _config()
    try:
        wanted = normalize_server(args.server) if args.server else None
    except ValueError as error:
        raise CommandError(str(error)) from error
    credential = config.credential(wanted)
    if credential is None:
        where = wanted or "a memsync server"
        raise CommandError(f"not logged in to {where}: run memsync login URL --user NAME first")
    server = TeamServer(credential)
    try:
        status = server.status(args.slug)
    except ApiRefusal as refusal:
        if refusal.status == 404:
            raise CommandError(
                f"{credential.user} has no project {args.slug!r} on {credential.server}"
            ) from None
        raise CommandError(f"{credential.server}: {refusal.message}") from None
    except ServerError as error:
        raise CommandError(str(error)) from None
    location = _memory_location(args)
    for note in location.notes:
        print(f"note: {note}", file=sys.stderr)
    team_dir = location.team_dir
    _refuse_claude_code_team_sync(team_dir)
    link = Link(credential.server, args.slug, credential.user)
    if (team_dir / ".git").exists():
        try:
            existing = TeamClone(team_dir)
        except NotLinked:
            raise CommandError(
                f"{team_dir} is a Git repository memsync did not link; move it away first"
            ) from None
        if existing.link != link:
            linked = existing.link
            raise CommandError(
                f"{team_dir} is already linked to {linked.slug} at {linked.server} as "
                f"{linked.user}; move it away to link {args.slug} here"
            )
        configure(team_dir, link)
        print(f"{team_dir} is already linked to {args.slug}; settings refreshed")
        _refresh_team_block(args, existing)
        return 0
    if team_dir.exists() and (not team_dir.is_dir() or any(team_dir.iterdir())):
        raise CommandError(
            f"{team_dir} already has files that are not a memsync clone. Move them away "
            f"(mv {shlex.quote(str(team_dir))} {shlex.quote(str(team_dir))}.before-memsync), "
            "run link again, then copy back what the team should have and run memsync push"
        )
    try:
        clone = TeamClone.create(team_dir, server.git_url(args.slug), link)
    except TeamError as error:
        raise CommandError(str(error)) from error
    files = len(clone.repo.files())
    print(f"linked {args.slug} ({status.get('name') or args.slug}) into {team_dir}")
    print(f"  memory directory: {location.path} ({location.source})")
    print(
        f"  on branch {link.branch}, tracking the team's main; {files} files; "
        f"your role: {status.get('role', '?')}"
    )
    _refresh_team_block(args, clone)
    return 0


def _refuse_claude_code_team_sync(team_dir: Path) -> None:
    """Claude Code has a team memory sync of its own that writes into the same
    ``team/`` folder (its manifest is ``team/.memory-sync``); two syncs in one folder
    would overwrite each other's files."""
    from memsync.client.claude import CLAUDE_CODE_TEAM_MANIFEST

    if (team_dir / CLAUDE_CODE_TEAM_MANIFEST).exists():
        raise CommandError(
            f"{team_dir} is synced by Claude Code's own team memory (it holds "
            f"{CLAUDE_CODE_TEAM_MANIFEST}); memsync will not link over it. Turn Claude Code's "
            "team memory off for this project (CLAUDE_MEMORY_STORES), move the folder away, "
            "then run memsync link again"
        )


def _refresh_team_block(args: argparse.Namespace, clone: Any) -> None:
    """Team memories into the private MEMORY.md, the one file Claude Code loads."""
    from memsync.client.team_index import refresh_team_block

    try:
        update = refresh_team_block(clone.path.parent, clone.path)
    except OSError as error:
        # The team memory itself is fine; only the index could not be written.
        print(f"memsync: team block not written: {error}", file=sys.stderr)
        return
    more = f", {update.hidden} more left to recall" if update.hidden else ""
    _say(args, f"  {update.index}: {update.shown} team memories in context{more}")
    for line in update.moved_out:
        _say(args, f"  kept your line from the team block, now above it: {line}")


# --- pull --------------------------------------------------------------------------------
_STALE_SHOWN = 3  # stale team memories named after a pull; the rest are counted


def run_pull(args: argparse.Namespace) -> int:
    if args.hook and args.cwd is None:
        from memsync.client.hookrun import event_cwd, read_event

        args.cwd = event_cwd(read_event(), None)
    return _quietly(args, "pull", lambda: _pull(args))


def _pull(args: argparse.Namespace) -> int:
    from memsync.client.team import PullConflict

    clone = _open_clone(args)
    try:
        result = clone.pull(leave_conflicts=not _is_quiet(args))
    except PullConflict as conflict:
        return _report_conflict(args, clone, conflict)
    if result.committed_local:
        _say(args, "committed your local changes first (kind sync)")
    _refresh_team_block(args, clone)
    if not result.changed:
        _say(args, f"{clone.link.slug}: already up to date with the team's main")
    else:
        _say(args, f"{clone.link.slug}: {len(result.files)} file(s) changed by the pull:")
        for letter, path in result.files:
            _say(args, f"  {letter} {path}")
    _report_stale(args, clone)
    return 0


def _report_stale(args: argparse.Namespace, clone: Any) -> None:
    """After a pull, the team's memories meet this checkout's code as it is now: name the
    ones that cite what it lacks or declare what it has otherwise (issue 15 item 4)."""
    code = _cwd(args)
    if _is_quiet(args) or not (code / ".git").exists():
        return  # a hook says nothing; a directory that is no checkout proves nothing
    from memsync.client.commands.local import stale_memories

    # Symbols are left to `memsync check --code`: finding them reads every source file.
    found = stale_memories(clone.path, code, read_code=False)
    if not found:
        return
    memories = "memory" if len(found) == 1 else "memories"
    _say(args, f"{len(found)} team {memories} may be stale against {code}:")
    for item in found[:_STALE_SHOWN]:
        _say(args, f"  {item.path}: {item.reason}")
    if len(found) > _STALE_SHOWN:
        more = len(found) - _STALE_SHOWN
        _say(args, f"  and {more} more: memsync check {clone.path} --code {code}")


def _report_conflict(args: argparse.Namespace, clone: Any, conflict: Any) -> int:
    team = shlex.quote(str(clone.path))
    if not conflict.left_open:
        print(
            f"memsync: pull stopped, {conflict}: {', '.join(conflict.files)}. Nothing changed; "
            "run `memsync pull` in a terminal to resolve it",
            file=sys.stderr,
        )
        return 0 if _is_quiet(args) else 1
    print(f"memsync: pull stopped: {conflict} — both versions are in these files:", file=sys.stderr)
    for path in conflict.files:
        print(f"  {clone.path / path}", file=sys.stderr)
    print(
        "To resolve: edit each file to what it should say, removing the <<<<<<< ======= "
        ">>>>>>> markers, then\n"
        f"  git -C {team} add {' '.join(shlex.quote(p) for p in conflict.files)}\n"
        f"  git -C {team} commit --no-edit\n"
        "  memsync push\n"
        f"Or give this pull up (your files go back as they were): git -C {team} merge --abort",
        file=sys.stderr,
    )
    return 1


# --- push --------------------------------------------------------------------------------
def run_push(args: argparse.Namespace) -> int:
    if args.hook:
        return _push_hook(args)
    if args.background:
        return _push_background(args)
    return _quietly(args, "push", lambda: _push(args))


def _push_hook(args: argparse.Namespace) -> int:
    """Claude Code's Stop and SessionEnd hook: start a background push when there is
    anything to push (or, at SessionEnd, a session to report) and return. Never fails."""
    from memsync.client import hookrun

    try:
        event = hookrun.read_event()
        cwd = hookrun.event_cwd(event, args.cwd)
        memory_dir = args.memory_dir or _claude().memory_location(cwd).path
        team_dir = memory_dir / "team"
        if not (team_dir / ".git").exists():
            return 0  # user-wide hooks run in every project; most are not linked
        # After each turn only memory changes are worth a push; the session is reported
        # when it ends (or with the next push, if it never says it ended).
        sessions = event.get("hook_event_name") != "Stop"
        if sessions or hookrun.has_work(team_dir):
            hookrun.start_background_push(cwd, memory_dir.absolute(), sessions=sessions)
    except Exception as error:  # a hook never fails the session, whatever went wrong
        print(f"memsync: push not started: {error}", file=sys.stderr)
    return 0


def _push_background(args: argparse.Namespace) -> int:
    """What ``push --hook`` starts: one push at a time per clone, its output in the log."""
    from memsync.client import hookrun

    team_dir = _memory_location(args).team_dir

    def push() -> int:
        hookrun.log("push started")
        try:
            status = _quietly(args, "push", lambda: _push(args))
        except CommandError as error:
            status = error.exit_code
            hookrun.log(f"push failed: {error}")
        except Exception as error:  # the log is the only place anyone will see it
            status = 2
            hookrun.log(f"push failed: {type(error).__name__}: {error}")
        hookrun.log(f"push finished (status {status})")
        return status

    return hookrun.run_one_at_a_time(team_dir, push)


def _push(args: argparse.Namespace) -> int:
    from memsync.client.team import NotLinked, PushRefused

    try:
        clone = _open_clone(args)
    except NotLinked:
        if args.background:
            return 0
        raise
    try:
        result = clone.push()
    except PushRefused as refusal:
        print(f"memsync: {refusal}:", file=sys.stderr)
        for line in refusal.remote_lines:
            print(f"  remote: {_after_undo(line)}", file=sys.stderr)
        print(
            f"Nothing was stored on the server. Your changes are uncommitted again in "
            f"{clone.path}: fix what the server named, then run memsync push again.",
            file=sys.stderr,
        )
        return 1
    if result.pushed:
        count = len(result.commits)
        _say(args, f"pushed {count} commit{'s' if count > 1 else ''} to {clone.link.branch}:")
        for sha, subject in result.commits:
            _say(args, f"  {sha} {subject}")
        for letter, path in result.files:
            _say(args, f"  {letter} {path}")
        for line in result.remote_lines:
            _say(args, f"  remote: {line}")
    elif result.already_on_server:
        _say(args, f"{clone.link.slug}: nothing new to push: {clone.link.branch} on the server "
                   "already had these commits")  # fmt: skip
    else:
        _say(args, f"{clone.link.slug}: nothing to push")
    if not args.no_sessions:
        _report_sessions(args, clone, _server_for(clone.link, hook=args.background))
    return 0


def _after_undo(remote_line: str) -> str:
    """The server's advice is for plain-git pushers ("rewrite the commit"); memsync push
    has already undone the commit, so only the file needs fixing."""
    from memsync.secrets.findings import SECRET_ADVICE

    return remote_line.replace(SECRET_ADVICE, "remove it from the file")


def _report_sessions(args: argparse.Namespace, clone: Any, server: Any) -> None:
    from memsync.client.server import ServerError
    from memsync.client.sessions import touched_sessions

    started = datetime.now(UTC)
    cutoff_text = clone.config("memsync.sessionsreported") or clone.config("memsync.linkedat")
    cutoff = datetime.fromisoformat(cutoff_text) if cutoff_text else None
    transcripts = _claude().transcripts_dir(_cwd(args))
    reports = touched_sessions(transcripts, cutoff)
    if not reports:
        return
    try:
        if server.status(clone.link.slug).get("allow_transcripts"):
            memory_dir = clone.path.parent  # the private memories live beside team/
            reports = touched_sessions(
                transcripts, cutoff, with_transcripts=True, memory_dir=memory_dir
            )
    except ServerError as error:
        print(f"memsync: sessions not reported: {error}", file=sys.stderr)
        return
    failed = 0
    for report in reports:
        try:
            server.report_session(clone.link.slug, report)
        except ServerError as error:
            failed += 1
            print(f"memsync: session {report.session_id} not reported: {error}", file=sys.stderr)
    if not failed:
        # Full precision: a session touched in the same second as the report is not
        # reported again for nothing.
        clone.record("sessionsreported", started.isoformat())
    sent = len(reports) - failed
    _say(args, f"reported {sent} session{'s' if sent != 1 else ''} to {clone.link.server}")


# --- status ------------------------------------------------------------------------------
def run_status(args: argparse.Namespace) -> int:
    import json

    from memsync.client.server import ServerError
    from memsync.client.team import NotLinked, TeamError

    try:
        clone = _open_clone(args)
    except NotLinked as error:
        raise CommandError(str(error)) from error
    offline = None
    server_status = None
    if not args.no_fetch:
        try:
            clone.fetch()
            server_status = _server_for(clone.link).status(clone.link.slug)
        except (TeamError, ServerError) as error:
            offline = str(error)
    state = clone.state()
    link = clone.link
    if args.json:
        print(json.dumps({
            "team_dir": str(clone.path), "server": link.server, "project": link.slug,
            "user": link.user, "branch": state.branch, "ahead": state.ahead,
            "behind": state.behind, "unpushed": state.unpushed, "changes": state.changes,
            "conflicts": state.conflicts, "last_pull": state.last_pull,
            "last_push": state.last_push, "last_push_error": state.last_push_error,
            "offline": offline, "server_status": server_status,
        }, indent=2))  # fmt: skip
        return 0
    print(f"{link.slug} at {link.server} as {link.user}: {clone.path}")
    print(f"  branch {state.branch}, tracking the team's main")
    print(
        f"  {state.ahead} commit(s) not in the team's main yet ({state.unpushed} not pushed), "
        f"{state.behind} in main not pulled"
    )
    if state.changes:
        print(f"  {len(state.changes)} uncommitted change(s) (memsync push commits them):")
        for line in state.changes:
            print(f"    {line}")
    if state.conflicts:
        print(f"  a pull is waiting for you to resolve: {', '.join(state.conflicts)}")
    print(f"  last pull: {state.last_pull or 'never'}; last push: {state.last_push or 'never'}")
    if state.last_push_error:
        print(f"  last push refused: {state.last_push_error}")
    if offline:
        print(f"  server not reached ({offline}); showing what was known at the last fetch")
    elif server_status is not None:
        _print_server_status(server_status, link.user)
    return 0


def _print_server_status(status: dict[str, Any], user: str) -> None:
    main = status.get("main") or {}
    print(f"  server: main at {str(main.get('commit', ''))[:10]} {main.get('subject', '')}")
    pending = status.get("pending_merges") or []
    mine = [p for p in pending if p.get("member") == user]
    print(
        f"  waiting to merge: {len(pending)} member branch(es)"
        + (f", yours with {mine[0].get('ahead')} commit(s)" if mine else "")
    )
    conflicts = status.get("conflicts") or []
    yours = [c.get("path") for c in conflicts if c.get("member") == user]
    print(
        f"  open conflicts: {len(conflicts)}"
        + (f" (yours: {', '.join(map(str, yours))})" if yours else "")
        + f"; open dream proposals: {len(status.get('proposals') or [])}"
    )


# --- credential helper -------------------------------------------------------------------
def run_credential(args: argparse.Namespace) -> int:
    """git's credential helper protocol: ``key=value`` lines in; for ``get``, the stored
    username and token out. ``store`` and ``erase`` do nothing: the token lives in
    memsync's config, and only ``memsync login`` replaces it."""
    request = {}
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            break
        key, _, value = line.partition("=")
        request[key] = value
    if args.operation != "get":
        return 0
    credential = _config().credential_for_url(
        request.get("protocol", ""), request.get("host", ""), request.get("path")
    )
    if credential is not None:
        sys.stdout.write(f"username={credential.user}\npassword={credential.token}\n")
    return 0
