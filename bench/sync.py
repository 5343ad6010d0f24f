"""Benchmark team sync over HTTP against plain git, measured in the same run.

    python bench/sync.py [--files 1000] [--rounds 10] [--members 20] [--pushes 5]

Sets up a throwaway memsync (its own data directory, SQLite, a bundled Redis), one
project of N memory files, gunicorn with memsync's production command line and one
Celery worker, then measures with the real git CLI:

  * ``git clone --bare`` through memsync's endpoint, through ``git http-backend`` run
    directly as CGI behind a minimal ``http.server`` handler (no Django, no auth), and
    from the repository's local path over the file transport (``file://``);
  * an incremental ``git pull`` of one new commit on main, through the same three;
  * the time from ``git push`` of one commit to ``members/<user>`` until that commit is
    merged into ``main`` by the worker (push, hooks, queue, merge), and the push alone;
  * a crowd: ``--members`` members (20) pushing ``--pushes`` commits each (5) at the same
    time, each a new topic file with its index entry: failed and lost pushes, push
    latency p50/p95/max, time from push to ``main`` p50/p95/max, and how long after the
    last push the last change reached ``main``. Every member clones first; the pushes
    start together once all clones are done (twenty clones of the project are not
    part of the pushes' cost). The server's CPU seconds per push (web workers, hooks
    and their git processes, the Celery worker's merges) are read from ``/proc`` for
    the whole crowd, beside the clients' own (the bench's ``git`` processes, on the
    same cores): on a shared machine a CPU figure is steadier than a latency.

memsync's requests carry the token in ``http.extraHeader`` (what a configured client
does); a client that waits for the 401 challenge pays one extra round trip per command.
Ratios, not milliseconds, are the result: the machine is shared and the disk noisy.
"""

from __future__ import annotations

import argparse
import base64
import os
import resource
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from memsync.processes import worker_command
from memsync.store import CommitKind, MemoryRepo

from stack import Stack, free_port, median_ms, percentile, throwaway_stack

SLUG = "bench"
USER = "bench"


def timed_git(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> float:
    started = time.perf_counter()
    git(*args, cwd=cwd, env=env)
    return time.perf_counter() - started


def git(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True
    ).stdout.strip()


class BackendHandler(BaseHTTPRequestHandler):
    """``git http-backend`` as CGI, the way a minimal web server runs it."""

    project_root = ""

    def do_GET(self) -> None:
        self.run_backend()

    def do_POST(self) -> None:
        self.run_backend()

    def run_backend(self) -> None:
        path, _, query = self.path.partition("?")
        env = {
            **os.environ,
            "GIT_PROJECT_ROOT": self.project_root,
            "GIT_HTTP_EXPORT_ALL": "1",
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "REQUEST_METHOD": self.command,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "REMOTE_ADDR": self.client_address[0],
        }
        length = self.headers.get("Content-Length")
        if length:
            env["CONTENT_LENGTH"] = length
        for header in ("Content-Encoding", "Git-Protocol"):
            if self.headers.get(header):
                env["HTTP_" + header.upper().replace("-", "_")] = self.headers[header]
        body = self.rfile.read(int(length)) if length else b""
        output = subprocess.run(
            ["git", "http-backend"], input=body, env=env, capture_output=True
        ).stdout
        head, _, rest = output.partition(b"\r\n\r\n")
        status = 200
        headers = []
        for line in head.decode("latin-1").splitlines():
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = int(value.split()[0])
            else:
                headers.append((name, value.strip()))
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(rest)))
        self.end_headers()
        self.wfile.write(rest)

    def log_message(self, format: str, *args: object) -> None:
        pass


def tree_cpu_seconds(roots: list[int]) -> float:
    """CPU seconds the processes ``roots`` and all their descendants have used, the
    finished ones included (a parent's counters take its reaped children's).

    A process that ends between two readings moves its time into its parent's counters,
    so the difference of two readings is what the tree used in between.
    """
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # it ended meanwhile
        # Fields after the command name: state, ppid, …; utime, stime, cutime, cstime
        # are the 12th to 15th of them.
        fields = stat[stat.rindex(")") + 2 :].split()
        parents[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = sum(int(value) for value in fields[11:15]) / tick
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    seen: set[int] = set()
    pending = [pid for pid in roots if pid in used]
    while pending:
        pid = pending.pop()
        if pid not in seen:
            seen.add(pid)
            pending += children.get(pid, [])
    return sum(used[pid] for pid in seen)


def clients_cpu_seconds() -> float:
    """CPU seconds of this process's finished children: the bench's own git commands."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def fill(repo: MemoryRepo, files: int) -> None:
    index = []
    for n in range(files):
        name = f"memory_{n:05d}.md"
        (repo.path / name).write_text(
            f"---\nname: memory {n}\ndescription: fact number {n}\ntype: project\n---\n\n"
            f"Fact {n}: the team agreed on item {n * 7919 % 10007}.\n\n"
            "**Why:** it came up.\n**How to apply:** remember it.\n"
        )
        index.append(f"- [Memory {n}]({name}) — fact number {n}")
    (repo.path / "MEMORY.md").write_text("\n".join(index[:150]) + "\n")
    repo.commit(CommitKind.MANUAL, f"{files} memories")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--members", type=int, default=20)
    parser.add_argument("--pushes", type=int, default=5)
    options = parser.parse_args()

    with throwaway_stack("memsync-bench-sync-") as stack:
        web_url = run_benchmark(stack, options.files, options.rounds)
        run_crowd(stack, web_url, options.members, options.pushes)


def run_benchmark(stack: Stack, files: int, rounds: int) -> str:
    """Clone, pull and push against plain git; the URL of the server it started."""
    base = stack.base
    started = time.perf_counter()
    stack.manage("memsync_project", "create", SLUG)
    stack.manage("memsync_member", "add", SLUG, USER, "--role", "member")
    token = stack.manage("memsync_token", "create", USER).strip().splitlines()[-1]
    project_dir = stack.project_dir(SLUG)
    server_repo = MemoryRepo(project_dir / "repo")
    fill(server_repo, files)

    web_url = stack.start_web()
    stack.start("worker", worker_command(("memsync",), "--concurrency=1"))
    cgi_port = free_port()
    BackendHandler.project_root = str(project_dir)
    cgi = ThreadingHTTPServer(("127.0.0.1", cgi_port), BackendHandler)
    threading.Thread(target=cgi.serve_forever, daemon=True).start()

    home = base / "home"
    home.mkdir()
    (home / ".gitconfig").write_text(f"[user]\n\tname = {USER}\n\temail = {USER}@example.com\n")
    client_env = {**os.environ, "HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1"}
    pair = base64.b64encode(f"{USER}:{token}".encode()).decode()
    auth = ["-c", f"http.extraHeader=Authorization: Basic {pair}"]
    sources = {
        "memsync": (auth, f"{web_url}/git/{SLUG}.git"),
        "cgi": ([], f"http://127.0.0.1:{cgi_port}/repo"),
        "file": ([], f"file://{project_dir / 'repo'}"),
    }
    print(
        f"set up {files} memory files in {time.perf_counter() - started:.1f}s; {rounds} rounds each"
    )

    clone_times: dict[str, list[float]] = {name: [] for name in sources}
    for round_ in range(rounds):
        for name, (extra, url) in sources.items():
            target = base / "bare" / f"{name}-{round_}"
            clone_times[name].append(
                timed_git(*extra, "clone", "-q", "--bare", url, str(target), env=client_env)
            )

    clones = {}
    for name, (extra, url) in sources.items():
        clones[name] = base / "work" / name
        git(*extra, "clone", "-q", url, str(clones[name]), env=client_env)
    pull_times: dict[str, list[float]] = {name: [] for name in sources}
    for round_ in range(rounds):
        (server_repo.path / f"new_{round_}.md").write_text(f"a new fact, round {round_}\n")
        server_repo.commit(CommitKind.MANUAL, f"round {round_}")
        for name, (extra, _) in sources.items():
            pull_times[name].append(
                timed_git(*extra, "pull", "-q", "--ff-only", cwd=clones[name], env=client_env)
            )

    member = clones["memsync"]
    git("checkout", "-q", "-b", f"members/{USER}", cwd=member)
    push_times, merged_times = [], []
    for round_ in range(rounds):
        (member / f"pushed_{round_}.md").write_text(f"a member's fact, round {round_}\n")
        git("add", "--all", cwd=member)
        git("commit", "-q", "-m", f"push round {round_}", cwd=member, env=client_env)
        sha = git("rev-parse", "HEAD", cwd=member)
        started = time.perf_counter()
        git(*auth, "push", "-q", "origin", f"members/{USER}", cwd=member, env=client_env)
        push_times.append(time.perf_counter() - started)
        deadline = started + 120
        while not server_repo.is_ancestor(sha, "main"):
            if time.perf_counter() > deadline:
                raise SystemExit(f"round {round_}: not merged in 120s; see {base / 'logs'}")
            time.sleep(0.01)
        merged_times.append(time.perf_counter() - started)

    print()
    print(f"{'':28} {'memsync':>10} {'cgi':>10} {'file':>10} {'/cgi':>7} {'/file':>7}")
    for label, samples in (("clone --bare", clone_times), ("pull one new commit", pull_times)):
        ms = {name: median_ms(values) for name, values in samples.items()}
        print(
            f"{label:28} {ms['memsync']:8.1f}ms {ms['cgi']:8.1f}ms {ms['file']:8.1f}ms "
            f"{ms['memsync'] / ms['cgi']:7.2f} {ms['memsync'] / ms['file']:7.2f}"
        )
    print()
    print(f"push to members/{USER} (hooks included): median {median_ms(push_times):.0f} ms")
    print(f"push until merged into main:          median {median_ms(merged_times):.0f} ms")
    return web_url


def run_crowd(stack: Stack, web_url: str, members: int, pushes: int) -> None:
    """``members`` people pushing ``pushes`` commits each, all at once, to the server
    (and worker) ``run_benchmark`` started."""
    base = stack.base
    names = [f"crowd{n:02d}" for n in range(1, members + 1)]
    tokens = {}
    for name in names:
        stack.manage("memsync_member", "add", SLUG, name, "--role", "member")
        tokens[name] = stack.manage("memsync_token", "create", name).strip().splitlines()[-1]
    server_repo = MemoryRepo(stack.project_dir(SLUG) / "repo")
    push_times: list[float] = []
    merged_times: list[float] = []
    failures: list[str] = []
    pushed: list[tuple[str, float]] = []
    push_ends: list[float] = []
    guard = threading.Lock()
    # Every member has cloned before anyone pushes; the bench's thread waits here too.
    all_cloned = threading.Barrier(members + 1)

    def member(name: str) -> None:
        home = base / "crowd" / name
        home.mkdir(parents=True)
        (home / ".gitconfig").write_text(f"[user]\n\tname = {name}\n\temail = {name}@x.invalid\n")
        client_env = {**os.environ, "HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1"}
        pair = base64.b64encode(f"{name}:{tokens[name]}".encode()).decode()
        auth = ["-c", f"http.extraHeader=Authorization: Basic {pair}"]
        clone = home / "clone"
        git(*auth, "clone", "-q", f"{web_url}/git/{SLUG}.git", str(clone), env=client_env)
        git("checkout", "-q", "-b", f"members/{name}", cwd=clone)
        all_cloned.wait()
        for n in range(pushes):
            topic = f"{name}_{n}.md"
            (clone / topic).write_text(
                f"---\nname: {name} {n}\ndescription: {name}'s fact {n}\ntype: project\n---\n\n"
                f"{name}'s fact {n}.\n\n**Why:** it came up.\n**How to apply:** remember it.\n"
            )
            with (clone / "MEMORY.md").open("a") as index:
                index.write(f"- [{name} {n}]({topic}) — {name}'s fact {n}\n")
            git("add", "--all", cwd=clone)
            git("commit", "-q", "-m", f"{name} {n}", cwd=clone, env=client_env)
            sha = git("rev-parse", "HEAD", cwd=clone)
            started = time.perf_counter()
            try:
                git(*auth, "push", "-q", "origin", f"members/{name}", cwd=clone, env=client_env)
            except subprocess.CalledProcessError as error:
                with guard:
                    failures.append(f"{name} push {n}: {error.stderr.strip()[-300:]}")
                continue
            ended = time.perf_counter()
            with guard:
                push_times.append(ended - started)
                push_ends.append(ended)
                pushed.append((sha, started))

    threads = [threading.Thread(target=member, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    all_cloned.wait()
    server = [process.pid for process in stack.processes]
    server_cpu, clients_cpu = tree_cpu_seconds(server), clients_cpu_seconds()
    started = time.perf_counter()
    last_in_main = started
    waiting: dict[str, float] = {}
    checked: tuple[str | None, int] = (None, 0)
    deadline = time.perf_counter() + 1800
    while any(thread.is_alive() for thread in threads) or waiting or len(pushed) > 0:
        if time.perf_counter() > deadline:
            break
        with guard:
            for sha, at in pushed:
                waiting[sha] = at
            pushed.clear()
        # Pushes are looked for in main only when main or the list moved: a git process
        # per waiting push every 50 ms would take the server's CPU it is measuring.
        main = server_repo.rev_parse("main")
        if (main, len(waiting)) == checked:
            time.sleep(0.05)
            continue
        checked = (main, len(waiting))
        for sha, at in list(waiting.items()):
            if server_repo.is_ancestor(sha, "main"):
                last_in_main = time.perf_counter()
                merged_times.append(last_in_main - at)
                del waiting[sha]
        checked = (checked[0], len(waiting))
        time.sleep(0.05)
    total = time.perf_counter() - started
    server_cpu = tree_cpu_seconds(server) - server_cpu
    clients_cpu = clients_cpu_seconds() - clients_cpu
    main_files = set(server_repo.files("main"))
    lost = [
        f"{name}_{n}.md"
        for name in names
        for n in range(pushes)
        if f"{name}_{n}.md" not in main_files
    ]
    print()
    print(f"{members} members x {pushes} concurrent pushes in {total:.0f}s: "
          f"{len(failures)} failed, {len(lost)} lost")  # fmt: skip
    for label, samples in (
        ("push (hooks included)", push_times),
        ("push until in main", merged_times),
    ):
        if samples:
            print(
                f"{label:24} p50 {percentile(samples, 0.5):6.2f}s  "
                f"p95 {percentile(samples, 0.95):6.2f}s  max {max(samples):6.2f}s"
            )
    if push_ends:
        # The aim (issue 14): every change on main within 30 s of the last push.
        print(f"last change reached main {last_in_main - max(push_ends):.2f}s after the last push")
    count = members * pushes
    print(f"CPU per push: server {server_cpu / count * 1000:.0f} ms (web, hooks, git, worker), "
          f"clients {clients_cpu / count * 1000:.0f} ms; {os.cpu_count()} cores")  # fmt: skip
    for failure in failures[:5]:
        print(f"  failed: {failure}")


if __name__ == "__main__":
    main()
