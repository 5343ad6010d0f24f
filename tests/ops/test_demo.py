"""The demo (SPEC O1): the seed builds the history the README promises, once; and
``scripts/demo`` serves the dashboard from a fresh data directory and leaves no process
behind on Ctrl-C, twice in a row."""

from __future__ import annotations

import http.cookiejar
import io
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import authenticate
from django.core.management import call_command

from dashboard.demo.seed import SEED_WORKER, UNFINISHED_MARKER
from dashboard.demo.story import PROJECT_SLUG
from dashboard.models import (
    ConflictItem,
    ConflictStatus,
    Membership,
    Project,
    Run,
    RunKind,
    RunStatus,
    SessionRecord,
)
from memsync.celery import app
from memsync.dream.proposals import list_proposals
from memsync.store import MAIN, MemoryRepo

ROOT = Path(__file__).resolve().parents[2]
DAY = 86_400


@pytest.fixture
def demo_data(transactional_db):
    """Room for the demo project (the data directory outlives each test's database), and
    afterwards no trace of it: the seed's merges ask for gate checks on the broker, and no
    later test's worker should answer them."""
    directory = Path(settings.PROJECTS_DIR) / PROJECT_SLUG
    shutil.rmtree(directory, ignore_errors=True)
    yield
    shutil.rmtree(directory, ignore_errors=True)
    app.control.purge()


def seed() -> str:
    out = io.StringIO()
    call_command("memsync_demo", stdout=out)
    return out.getvalue()


@pytest.mark.slow
def test_it_seeds_the_promised_history_once_and_keeps_it_on_a_second_run(demo_data):
    output = seed()

    project = Project.objects.get(slug=PROJECT_SLUG)
    repo = MemoryRepo(project.repo_dir)
    history = repo.log(MAIN)
    assert {"manual", "extract", "sync", "merge"} <= {commit.kind for commit in history}
    authors = {commit.author_name for commit in history if commit.kind in ("extract", "sync")}
    assert authors == {"Alice Martin", "Bob Chen"}
    now = datetime.now(UTC)
    assert (now - history[-1].date).days >= 118  # the history spans four months

    ages = sorted((now - changed).total_seconds() // DAY for changed in repo.ages(MAIN).values())
    assert ages[0] == 0
    assert any(7 <= age <= 60 for age in ages), ages
    assert ages[-1] > 90, ages

    [proposal] = [p for p in list_proposals(repo) if p.is_open]
    assert {"MEMORY.md", "payment-sandbox.md", "project_mobile_app.md"} <= set(proposal.files)
    assert b"last week" in (repo.read(MAIN, "payment-sandbox.md") or b"")
    assert b"the week of" in (repo.read(proposal.commit, "payment-sandbox.md") or b"")
    assert b"design-review.md" not in (repo.read(proposal.commit, "MEMORY.md") or b"")
    assert b"project_mobile_app.md" in (repo.read(proposal.commit, "MEMORY.md") or b"")
    dream = Run.objects.get(project=project, kind=RunKind.DREAM)
    assert (dream.status, dream.detail["proposal"]) == (RunStatus.PROPOSED, proposal.id)
    assert dream.requested_by.username == "alice"

    [conflict] = ConflictItem.objects.filter(project=project, status=ConflictStatus.OPEN)
    assert (conflict.member, conflict.path) == ("bob", "project_release_train.md")
    assert b"Wednesday" in (repo.read(conflict.member_commit, conflict.path) or b"")
    assert b"Tuesday and Thursday" in (repo.read(MAIN, conflict.path) or b"")
    # main kept its own version, so bob's conflicting commit does not date the memory.
    bobs = repo.commit_info(conflict.member_commit).date
    [last_on_main, *_] = repo.log(MAIN, paths=[conflict.path], first_parent=True)
    assert repo.ages(MAIN)[conflict.path] == last_on_main.date < bobs

    runs = Run.objects.filter(project=project)
    assert {run.kind for run in runs} == {RunKind.EXTRACT, RunKind.MERGE, RunKind.DREAM}
    assert all(run.is_finished and run.worker == SEED_WORKER for run in runs)
    assert RunStatus.CONFLICT in {run.status for run in runs.filter(kind=RunKind.MERGE)}
    assert {run.status for run in runs.filter(kind=RunKind.EXTRACT)} == {RunStatus.SUCCEEDED}
    oldest = runs.order_by("created_at").first()
    assert oldest is not None and (now - oldest.created_at).days >= 117

    sessions = SessionRecord.objects.filter(project=project)
    assert sessions.count() == 5
    assert all((project.base_dir / record.transcript).is_file() for record in sessions)

    roles = dict(Membership.objects.filter(project=project).values_list("user__username", "role"))
    assert roles == {"alice": "maintainer", "bob": "member", "carol": "viewer"}
    for username in ("alice", "bob"):
        password = re.search(rf"{username} / (\S+)", output)
        assert password and authenticate(username=username, password=password.group(1))

    head, run_count = repo.rev_parse(MAIN), runs.count()
    again = seed()

    assert "already there" in again
    assert repo.rev_parse(MAIN) == head
    assert Run.objects.filter(project=project).count() == run_count
    assert not (project.base_dir / UNFINISHED_MARKER).exists()


@pytest.mark.slow
def test_it_starts_over_when_an_earlier_seed_was_killed_half_way(demo_data):
    half = Project.objects.create(slug=PROJECT_SLUG, name="half-made")
    half.base_dir.mkdir(parents=True)
    (half.base_dir / UNFINISHED_MARKER).write_text("seeding\n")
    MemoryRepo.init(half.repo_dir)

    output = seed()

    assert "half-made" in output
    project = Project.objects.get(slug=PROJECT_SLUG)
    assert project.pk != half.pk
    assert not (project.base_dir / UNFINISHED_MARKER).exists()
    repo = MemoryRepo(project.repo_dir)
    assert len([p for p in list_proposals(repo) if p.is_open]) == 1


# --- scripts/demo itself ----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def processes_using(data_dir: Path) -> dict[int, str]:
    """pid → command line of every process started with this data directory, and the
    bundled redis-server (which rewrites its own environment, so is found by pid file)."""
    found = {}
    marker = f"MEMSYNC_DATA_DIR={data_dir}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or not alive(int(entry.name)):
            continue
        try:
            environ = (entry / "environ").read_bytes()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if marker in environ.split(b"\0"):
            found[int(entry.name)] = command
    pid_file = data_dir / "redis" / "redis.pid"
    if pid_file.exists() and alive(int(pid_file.read_text())):
        found[int(pid_file.read_text())] = "redis-server"
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"  # a zombie has exited; only its parent's bookkeeping is left


class Demo:
    def __init__(self, data_dir: Path, port: int, log: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
        env["MEMSYNC_DATA_DIR"] = str(data_dir)
        self.url = f"http://127.0.0.1:{port}/"
        self.log = log
        with log.open("wb") as out:
            # A session of its own, as a terminal gives a command its own process group.
            self.process = subprocess.Popen(
                [str(ROOT / "scripts" / "demo"), "--port", str(port)],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_until_ready(self, timeout: float = 400) -> None:
        deadline = time.monotonic() + timeout
        while "Press Ctrl-C to stop." not in self.output():
            assert self.process.poll() is None, self.output()[-4000:]
            assert time.monotonic() < deadline, self.output()[-4000:]
            time.sleep(0.5)

    def ctrl_c(self) -> int:
        os.killpg(self.process.pid, signal.SIGINT)  # what the terminal sends on Ctrl-C
        return self.process.wait(timeout=90)


def signed_in_page(base: str, username: str, password: str, path: str) -> tuple[int, str]:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    form = opener.open(base + "login/", timeout=30).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
    assert token, form[:2000]
    fields = {"username": username, "password": password, "csrfmiddlewaretoken": token.group(1)}
    request = urllib.request.Request(
        base + "login/", data=urllib.parse.urlencode(fields).encode(), headers={"Referer": base}
    )
    opener.open(request, timeout=30)
    with opener.open(base + path, timeout=30) as page:
        return page.status, page.read().decode()


@pytest.mark.slow
def test_the_demo_script_serves_the_dashboard_and_ctrl_c_stops_every_process(tmp_path):
    data_dir = tmp_path / "data"
    for run in (1, 2):
        demo = Demo(data_dir, free_port(), tmp_path / f"demo-{run}.log")
        try:
            demo.wait_until_ready()
            with urllib.request.urlopen(demo.url + "healthz", timeout=30) as health:
                assert health.status == 200
            status, page = signed_in_page(demo.url, "alice", "alice-demo", f"p/{PROJECT_SLUG}/")
            assert status == 200
            assert "project_release_train.md" in page
            running = processes_using(data_dir)
            commands = " | ".join(running.values())
            for part in ("dashboard.demo", "celery", " worker ", " beat ", "gunicorn", "redis"):
                assert part in commands, commands
            if run == 1:
                # DEBUG is off as in production: a styled 404, not Django's debug page.
                with pytest.raises(urllib.error.HTTPError) as missing:
                    signed_in_page(demo.url, "alice", "alice-demo", "p/no-such-project/")
                assert missing.value.code == 404
                assert "Nothing here" in missing.value.read().decode()
                second = Demo(data_dir, free_port(), tmp_path / "demo-second.log")
                assert second.process.wait(timeout=120) == 2, second.output()[-3000:]
                assert f"another demo already runs on {data_dir} (pid " in second.output()
                assert processes_using(data_dir).keys() == running.keys()
        finally:
            code = demo.ctrl_c()

        assert code == 0, demo.output()[-3000:]
        assert "demo: stopped" in demo.output()
        left = {pid: command for pid, command in running.items() if alive(pid)}
        assert left == {}
        assert processes_using(data_dir) == {}
    assert "already there; keeping it" in demo.output()
