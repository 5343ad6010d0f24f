"""Benchmark the dashboard's pages against the git command behind each, in the same run.

    python bench/dashboard.py [--files 10000] [--rounds 10]

Builds a project whose repository holds N memories in N commits (``git fast-import``),
starts gunicorn with memsync's production command line (SQLite, a bundled Redis, two
workers), logs in as a maintainer, and for each page prints the first request (cold:
the web worker has not seen this ``main`` yet), then p50 and p95 over ``--rounds``
requests, each against the median of the git command that yields the page's data, run
on the same repository in the same run. Ends with the peak RSS of the web workers.
Ratios, not milliseconds, are the result: the machine is shared and the disk noisy.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import re
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from stack import Stack, build_history, median_ms, percentile, throwaway_stack

SLUG = "bench"
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
        Page("commit", f"{base}/commits/{head}/", ("show", "--numstat", head)),
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=10)
    options = parser.parse_args()

    with throwaway_stack("memsync-bench-dashboard-") as stack:
        started = time.perf_counter()
        repo = set_up(stack, options.files)
        browser = Browser(stack.start_web(workers=2))
        browser.log_in(USER, PASSWORD)
        took = time.perf_counter() - started
        print(f"built {options.files} memories / {options.files} commits and started the web")
        print(f"server in {took:.0f}s; {options.rounds} rounds each")
        print()
        print(f"{'page':20} {'cold':>8} {'p50':>8} {'p95':>8} {'git p50':>8}"
              f" {'p50/git':>8} {'p95/git':>8}  KB")  # fmt: skip
        for page in pages(repo, options.files):
            print(measure(browser, repo, page, options.rounds))
        peaks = web_worker_peak_rss_mib(stack)
        print()
        print("web workers' peak RSS: " + ", ".join(f"{peak:.0f} MiB" for peak in peaks))


if __name__ == "__main__":
    main()
