"""``python -m dashboard.demo`` (what ``scripts/demo`` runs once ``.venv`` is ready).

Migrates the database, starts the bundled Redis unless ``REDIS_URL`` is set, seeds the
demo project (``manage.py memsync_demo``), then runs a Celery worker, beat and the web
server — the command lines of ``memsync.processes``, as in production (gunicorn serves
the dashboard's static files through WhiteNoise) — until Ctrl-C, which stops every one
of them (and the Redis it started).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import secrets
import signal
import socket
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import FrameType
from typing import IO

from dashboard.demo.supervisor import Child, Supervisor

STARTUP_SECONDS = 120.0
# The seed tells its story with the engines that need no API key (the demo must not make
# paid model calls on its own); the worker and the web server get the environment as is.
_NOT_FOR_THE_SEED = ("ANTHROPIC_API_KEY", "MEMSYNC_DREAM_ENGINE")


class Stop(Exception):
    """Ctrl-C or SIGTERM: stop everything."""


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="scripts/demo",
        description="Run memsync on this machine with a demo project: SQLite, a bundled Redis, "
        "a Celery worker, beat and the web server. Ctrl-C stops everything.",
    )
    parser.add_argument("--port", type=int, default=8000, help="web server port (default 8000)")
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to serve on (0.0.0.0: every address; add yours to ALLOWED_HOSTS)",
    )
    seeding = parser.add_mutually_exclusive_group()
    seeding.add_argument("--no-seed", action="store_true", help="start without the demo project")
    seeding.add_argument(
        "--reset", action="store_true", help="remove the demo project and seed it again"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    _run_as_in_production(args.host)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memsync.settings")
    import django

    django.setup()
    from django.conf import settings

    from memsync import bundled_redis
    from memsync.processes import DEFAULT_QUEUES, beat_command, web_command, worker_command

    data: Path = settings.DATA_DIR
    running = _claim(data)
    if running is not None:
        print(
            f"demo: another demo already runs on {data} (pid {running}); stop it with Ctrl-C "
            "there, or give this one its own folder with MEMSYNC_DATA_DIR=…",
            flush=True,
        )
        return 2
    if not _port_free(args.host, args.port):
        print(f"demo: {args.host}:{args.port} is in use; choose another with --port", flush=True)
        return 2
    base: Path = settings.BASE_DIR
    logs = data / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    python = sys.executable
    manage = [python, str(base / "manage.py")]
    bin_dir = Path(python).parent
    supervisor = Supervisor({**os.environ, "PATH": _path_with(bin_dir)}, base)
    started_redis: Path | None = None

    def stop(signum: int, frame: FrameType | None) -> None:
        raise Stop()

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    try:
        print(f"demo: data in {data}, logs in {logs}", flush=True)
        _run(supervisor, "migrate", [*manage, "migrate", "--noinput"], logs)
        redis_dir = settings.BUNDLED_REDIS_DIR
        if redis_dir is not None:
            if not bundled_redis.is_running(redis_dir):
                started_redis = redis_dir
            bundled_redis.ensure_running(redis_dir)
            print(f"demo: bundled Redis on {bundled_redis.url(redis_dir)}", flush=True)
        else:
            print("demo: using REDIS_URL", flush=True)
        if not args.no_seed:
            seed = [*manage, "memsync_demo", *(["--reset"] if args.reset else [])]
            seed_env = dict.fromkeys(_NOT_FOR_THE_SEED, "")
            _run(supervisor, "seed", seed, logs, env=seed_env, show_output=True)
        name = f"demo@{socket.gethostname()}"
        supervisor.start(
            "worker",
            [*worker_command(DEFAULT_QUEUES, "-n", name, "--concurrency", "2")],
            log_path=logs / "worker.log",
        )
        supervisor.start(
            "beat",
            beat_command(str(data / "celerybeat-schedule")),
            log_path=logs / "beat.log",
        )
        supervisor.start(
            "web",
            [sys.executable, "-m", *web_command(f"{args.host}:{args.port}", workers=2)],
            log_path=logs / "web.log",
        )
        # Served on every address, it still answers on this machine's own.
        local = "127.0.0.1" if args.host == "0.0.0.0" else args.host  # noqa: S104
        url = f"http://{local}:{args.port}/"
        _wait_until_healthy(supervisor, url + "healthz")
        _welcome(url, logs)
        while True:
            child = supervisor.exited()
            if child is not None:
                _report_exit(child)
                return 1
            time.sleep(0.5)
    except Stop:
        print("\ndemo: stopping…", flush=True)
        return 0
    except _StartFailed as failure:
        print(f"demo: {failure}", flush=True)
        return 1
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        supervisor.stop_all()
        if started_redis is not None:
            bundled_redis.stop(started_redis)
        print("demo: stopped", flush=True)


class _StartFailed(Exception):
    pass


def _run(
    supervisor: Supervisor,
    name: str,
    command: list[str],
    logs: Path,
    *,
    env: dict[str, str] | None = None,
    show_output: bool = False,
) -> None:
    """A step that must finish before the next: run it as a child (so Ctrl-C stops it
    the same way) and wait."""
    log = logs / f"{name}.log"
    child = supervisor.start(name, command, log_path=None if show_output else log, env=env)
    code = child.process.wait()
    supervisor.children.remove(child)
    if code != 0:
        tail = child.log_tail()
        raise _StartFailed(f"{name} failed (exit {code})" + (f":\n{tail}" if tail else ""))


def _wait_until_healthy(supervisor: Supervisor, url: str) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    last = ""
    while time.monotonic() < deadline:
        child = supervisor.exited()
        if child is not None:
            raise _StartFailed(f"{child.name} exited while starting:\n{child.log_tail()}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 (our own URL)
                if response.status == 200:
                    return
        except urllib.error.HTTPError as error:
            last = f"{error.code} {error.read().decode(errors='replace')[:200]}"
        except OSError as error:
            last = str(error)
        time.sleep(0.5)
    raise _StartFailed(f"{url} did not answer 200 within {STARTUP_SECONDS:.0f}s ({last})")


def _welcome(url: str, logs: Path) -> None:
    from django.db import connection

    from dashboard.demo.story import PEOPLE, PROJECT_SLUG
    from dashboard.models import Project

    seeded = Project.objects.filter(slug=PROJECT_SLUG).exists()
    connection.close()
    lines = ["", f"memsync is running at {url}"]
    if seeded:
        lines.append(f"  the demo project:  {url}p/{PROJECT_SLUG}/")
        lines += [
            f"  sign in as {p.username:<6} password {p.password:<11} ({p.role})" for p in PEOPLE
        ]
    else:
        lines.append(
            "  no demo project: add one with `manage.py memsync_project create SLUG` and "
            "`manage.py memsync_member add SLUG USER --role maintainer --password …`"
        )
    lines += [f"  logs: {logs}", "Press Ctrl-C to stop.", ""]
    print("\n".join(lines), flush=True)


def _report_exit(child: Child) -> None:
    code = child.process.returncode
    print(f"demo: {child.name} exited (code {code}); stopping the rest", flush=True)
    tail = child.log_tail()
    if tail:
        print(tail, flush=True)


def _run_as_in_production(host: str) -> None:
    """DEBUG off, as in production (styled error pages, no tracebacks), over plain HTTP.

    Every process the demo starts inherits this environment. The secret key is made once
    per data folder and kept there, so sessions survive a restart. Anything already set in
    the environment wins.
    """
    data = Path(os.environ.get("MEMSYNC_DATA_DIR") or Path(__file__).resolve().parents[2] / "var")
    data.mkdir(parents=True, exist_ok=True)
    key_file = data / "secret-key"
    if not key_file.exists():
        descriptor = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(secrets.token_urlsafe(50))
    hosts = ["localhost", "127.0.0.1", "[::1]"]
    if host not in ("0.0.0.0", *hosts):  # noqa: S104
        hosts.append(host)
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("MEMSYNC_PLAIN_HTTP", "1")
    os.environ.setdefault("SECRET_KEY", key_file.read_text().strip())
    os.environ.setdefault("ALLOWED_HOSTS", ",".join(hosts))


# Held for the demo's whole life: a second demo on the same folder would start a second
# worker and beat under the same names, sharing one database and one Redis.
_claimed: IO[str] | None = None


def _claim(data: Path) -> int | None:
    """Claim ``data`` for this demo; the pid of the demo holding it, if another does."""
    global _claimed
    data.mkdir(parents=True, exist_ok=True)
    handle = (data / "demo.pid").open("a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip()
        handle.close()
        return int(holder) if holder.isdigit() else -1
    handle.truncate(0)
    handle.write(str(os.getpid()))
    handle.flush()
    _claimed = handle  # the lock lasts as long as the process; the kernel drops it on exit
    return None


def _port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def _path_with(bin_dir: Path) -> str:
    """``celery`` is found in the virtualenv even when it is not activated."""
    return os.pathsep.join([str(bin_dir), os.environ.get("PATH", "")])


if __name__ == "__main__":
    sys.exit(main())
