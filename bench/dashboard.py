"""Benchmark the dashboard's pages against the git command behind each, in the same run.

    python bench/dashboard.py [--files 10000] [--rounds 10]

Builds a project whose repository holds N memories in N commits (``git fast-import``),
starts gunicorn with memsync's production command line and settings (``DEBUG=0``, so
templates are compiled once per process; SQLite, a bundled Redis, two workers; set
``DEBUG=1`` in the environment to measure the development settings instead), logs in as
a maintainer, and for each page prints the first request (cold: the web worker has not
seen this ``main`` yet), then p50 and p95 over ``--rounds`` requests, each against the
median of the git command that yields the page's data, run on the same repository in
the same run. The members and activity pages read the database alone: their command is
the cheapest git call of the project pages, a yardstick rather than their source.

Then ``main`` moves twice and the first requests after each move are timed: once by a
commit in the server's checkout (as a dashboard edit makes one; the web processes bring
their cached facts up to it themselves), once by a member's branch merged by a Celery
worker, which then brings the facts up to the new ``main`` before anyone asks
(``dashboard.tasks.facts``). The team and dreams pages are timed there too: while no ref
moves they do not ask git for the refs again (``dashboard.ref_memo``), so the table shows
that case, and the requests after a move show the one where they do. Ends with the peak
RSS of the web workers. Ratios, not milliseconds, are the result: the machine is shared
and the disk noisy.
"""

from __future__ import annotations

import argparse
import functools
import http.cookiejar
import os
import re
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memsync.processes import worker_command

from stack import Stack, build_history, median_ms, percentile, throwaway_stack

SLUG = "bench"
# What the deploy files set (deploy/env.example), on 127.0.0.1 over plain HTTP.
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-secret-key-" + "x" * 40,
    "ALLOWED_HOSTS": "127.0.0.1",
    "MEMSYNC_PLAIN_HTTP": "1",
}
AFTER_MOVE_PAGES = ("project list", "index", "team", "dreams")
# Requests timed after each move: two web workers, each meets the move in one of them.
AFTER_MOVE_REQUESTS = 4
USER = "bench"
PASSWORD = "bench-password-not-secret"


@dataclass(frozen=True)
class Page:
    name: str
    path: str
    git: tuple[str, ...]  # the git command behind it, run in the repository


def pages(repo: Path, files: int) -> list[Page]:
    head = git(repo, "rev-parse", "main")
    quiet = f"memory_{files // 2:05d}.md"  # written once, long ago
    index = "MEMORY.md"  # rewritten every 100 commits
    base = f"/p/{SLUG}"
    return [
        Page("project list", "/", ("cat-file", "-p", f"main:{index}")),
        Page("index", f"{base}/", ("cat-file", "-p", f"main:{index}")),
        Page("memory", f"{base}/memory/{quiet}", ("log", "-1", "--format=%H", "main", "--", quiet)),
        Page("blame, quiet file", f"{base}/blame/{quiet}", ("blame", "-p", "main", "--", quiet)),
        Page("blame, MEMORY.md", f"{base}/blame/{index}", ("blame", "-p", "main", "--", index)),
        Page("history", f"{base}/history/", ("log", "-50", "--numstat", "main")),
        # The page shows the commit and its whole patch, file by file with counts.
        Page("commit", f"{base}/commits/{head}/", ("show", "--patch", "--numstat", head)),
        Page("team", f"{base}/team/", ("for-each-ref", "refs/heads/")),
        Page("dreams", f"{base}/dreams/", ("for-each-ref", "refs/heads/dream/")),
        Page("activity", f"{base}/activity/", ("for-each-ref", "refs/heads/")),
        Page("members", f"{base}/members/", ("for-each-ref", "refs/heads/members/")),
    ]


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.strip()


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


class Browser:
    """A logged-in session, as a person's browser holds one."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def log_in(self, username: str, password: str) -> None:
        form = self.get("/login/").decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
        if token is None:
            raise SystemExit("the login page has no CSRF token")
        body = urllib.parse.urlencode(
            {"username": username, "password": password, "csrfmiddlewaretoken": token[1]}
        ).encode()
        request = urllib.request.Request(
            f"{self.base_url}/login/", data=body, headers={"Referer": f"{self.base_url}/login/"}
        )
        with self.opener.open(request, timeout=300) as response:
            if "/login/" in response.url:
                raise SystemExit("logging in failed")

    def get(self, path: str) -> bytes:
        with self.opener.open(f"{self.base_url}{path}", timeout=300) as response:
            if response.status != 200:
                raise SystemExit(f"{path} answered {response.status}")
            return bytes(response.read())


def web_worker_peak_rss_mib(stack: Stack) -> list[float]:
    """VmHWM of each gunicorn worker (the children of the web process)."""
    web = stack.processes[0]
    children = Path(f"/proc/{web.pid}/task/{web.pid}/children").read_text().split()
    peaks = []
    for pid in children:
        status = Path(f"/proc/{pid}/status").read_text()
        found = re.search(r"VmHWM:\s+(\d+) kB", status)
        if found:
            peaks.append(int(found[1]) / 1024)
    return peaks


def set_up(stack: Stack, files: int) -> Path:
    stack.manage("memsync_project", "create", SLUG)
    stack.manage("memsync_member", "add", SLUG, USER, "--role", "maintainer")
    stack.manage(
        "shell", "-c",
        "from django.contrib.auth import get_user_model\n"
        f"user = get_user_model().objects.get(username={USER!r})\n"
        f"user.set_password({PASSWORD!r})\nuser.save()",
    )  # fmt: skip
    repo = stack.project_dir(SLUG) / "repo"
    build_history(repo, files)
    # What memsync's upkeep keeps (commit-graph with changed-path filters): a served
    # project has it within the upkeep interval.
    git(repo, "commit-graph", "write", "--reachable", "--changed-paths", "--split")
    return repo


def measure(browser: Browser, repo: Path, page: Page, rounds: int) -> str:
    """One table row: the page cold, then warm against its git command. The page and
    the command take turns, round by round, so both meet the same load on a shared
    machine (timed one block after the other, a ratio swung 2-5x between runs)."""
    cold = timed(lambda: browser.get(page.path))
    size = len(browser.get(page.path))
    served, commands = [], []
    for _ in range(rounds):
        served.append(timed(lambda: browser.get(page.path)))
        commands.append(timed(lambda: git(repo, *page.git)))
    baseline = median_ms(commands)
    p50, p95 = percentile(served, 0.5) * 1000, percentile(served, 0.95) * 1000
    return (
        f"{page.name:20} {cold * 1000:7.0f}ms {p50:7.0f}ms {p95:7.0f}ms {baseline:7.1f}ms"
        f" {p50 / baseline:8.1f} {p95 / baseline:8.1f}  {size // 1024}"
    )


def commit_on(repo: Path, ref: str, name: str) -> str:
    """A commit adding memory ``name`` on top of ``main``, written to ``ref`` through a
    throwaway index, so the server's checkout is not touched."""
    text = f"---\nname: {name}\ndescription: moved main\ntype: project\n---\n\nmoved\n"
    blob = subprocess.run(
        ["git", "hash-object", "-w", "--stdin"], cwd=repo, input=text, check=True,
        capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    index = {**os.environ, "GIT_INDEX_FILE": str(repo / ".git" / "bench-index")}
    for args in (
        ["read-tree", "main"],
        ["update-index", "--add", "--cacheinfo", f"100644,{blob},{name}"],
    ):
        subprocess.run(["git", *args], cwd=repo, env=index, check=True)
    tree = subprocess.run(
        ["git", "write-tree"], cwd=repo, env=index, check=True, capture_output=True, text=True
    ).stdout.strip()
    commit = git(repo, "commit-tree", tree, "-p", "main", "-m", f"extract: {name}")
    git(repo, "update-ref", ref, commit)
    return commit


def move_main_in_checkout(repo: Path) -> None:
    """``main`` moves under the web processes, as a dashboard edit moves it."""
    commit_on(repo, "refs/heads/main", "moved_by_edit.md")
    git(repo, "reset", "-q", "--hard")  # the checkout follows main, as after memsync's commit


def move_main_through_worker(stack: Stack, repo: Path) -> None:
    """A member's branch merged by the Celery worker, which then warms the facts; back
    once the facts file holds the new ``main``."""
    commit_on(repo, f"refs/heads/members/{USER}", "moved_by_merge.md")
    before = git(repo, "rev-parse", "main")
    stack.manage(
        "shell", "-c",
        "from dashboard.models import Project\nfrom dashboard.queue import queue_merge\n"
        f"queue_merge(Project.objects.get(slug={SLUG!r}).pk, {USER!r})",
    )  # fmt: skip
    facts = repo / ".git" / "memsync" / "facts.json"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        head = git(repo, "rev-parse", "main")
        if head != before and facts.exists() and head.encode() in facts.read_bytes()[:160]:
            return
        time.sleep(0.2)
    raise SystemExit("the worker did not merge and warm within 300 s")


def after_move(browser: Browser, pages_by_name: dict[str, Page], how: str) -> None:
    for name in AFTER_MOVE_PAGES:
        fetch = functools.partial(browser.get, pages_by_name[name].path)
        took = [timed(fetch) for _ in range(AFTER_MOVE_REQUESTS)]
        print(
            f"{name:20} after main moved ({how}): first {took[0] * 1000:.0f}ms, slowest"
            f" of the first {AFTER_MOVE_REQUESTS} {max(took) * 1000:.0f}ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=10)
    options = parser.parse_args()

    with throwaway_stack("memsync-bench-dashboard-") as stack:
        stack.env.update({name: os.environ.get(name, value) for name, value in PRODUCTION.items()})
        started = time.perf_counter()
        repo = set_up(stack, options.files)
        browser = Browser(stack.start_web(workers=2))
        browser.log_in(USER, PASSWORD)
        took = time.perf_counter() - started
        settings = "DEBUG=1 (development)" if stack.env["DEBUG"] == "1" else "DEBUG=0 (production)"
        print(f"built {options.files} memories / {options.files} commits and started the web")
        print(f"server in {took:.0f}s; {settings}; {options.rounds} rounds each")
        print()
        print(f"{'page':20} {'cold':>8} {'p50':>8} {'p95':>8} {'git p50':>8}"
              f" {'p50/git':>8} {'p95/git':>8}  KB")  # fmt: skip
        every = pages(repo, options.files)
        for page in every:
            print(measure(browser, repo, page, options.rounds))
        print()
        by_name = {page.name: page for page in every}
        move_main_in_checkout(repo)
        after_move(browser, by_name, "edit in the checkout, no worker")
        stack.start("worker", worker_command(("memsync",), "--concurrency=1"))
        move_main_through_worker(stack, repo)
        after_move(browser, by_name, "member merged and facts warmed by the worker")
        peaks = web_worker_peak_rss_mib(stack)
        print()
        print("web workers' peak RSS: " + ", ".join(f"{peak:.0f} MiB" for peak in peaks))


if __name__ == "__main__":
    main()
