"""The warm hook server (issue 14): a push's hooks forked from a process that has the
secret rules and Celery imported, with the cold hook as the fallback. Pushes go into a
repository on disk with memsync's hooks, as ``git receive-pack`` runs them for the
server's Git endpoint (which passes ``REMOTE_USER`` and ``MEMSYNC_HOOK_SERVER``)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memsync.secrets.metadata import check_path_text, check_path_texts
from memsync.sync.hookclient import NOT_SERVED
from memsync.sync.hooks import install_hooks
from memsync.sync.hookserver import ADDRESS_VARIABLE, HookServer
from tests.secrets.corpus import corpus_look_alikes, corpus_secrets
from tests.sync.conftest import topic

SECRET = "token ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8\n"


def git(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", "-c", "user.name=bob", "-c", "user.email=bob@example.com", *args],
        cwd=cwd, env=env, capture_output=True, text=True,
    )  # fmt: skip


@pytest.fixture
def server_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "server"
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    git(repo, "commit", "-q", "--allow-empty", "-m", "start")
    install_hooks(repo / ".git")
    return repo


@pytest.fixture
def hook_server(tmp_path: Path):
    log = (tmp_path / "hook-server.log").open("wb")
    server = HookServer({"PATH": os.environ["PATH"]}, log=log)
    deadline = time.monotonic() + 60
    while (address := server.address()) is None:
        assert time.monotonic() < deadline, "the hook server did not start"
        time.sleep(0.05)
    yield address, tmp_path / "hook-server.log"
    server.stop()
    log.close()


def push(server_repo: Path, tmp_path: Path, files: dict[str, str], **env: str):
    clone = tmp_path / f"clone-{len(list(tmp_path.iterdir()))}"
    subprocess.run(["git", "clone", "-q", str(server_repo), str(clone)], check=True)
    for name, text in files.items():
        (clone / name).write_text(text)
    git(clone, "add", "--all")
    git(clone, "commit", "-q", "-m", "memory")
    tip = git(clone, "rev-parse", "HEAD").stdout.strip()
    pushed = git(
        clone, "push", "origin", "HEAD:refs/heads/members/bob",
        env={**os.environ, "REMOTE_USER": "bob", **env},
    )  # fmt: skip
    return pushed, tip


def stored(repo: Path, sha: str) -> bool:
    return git(repo, "cat-file", "-e", sha).returncode == 0


def test_a_push_is_inspected_by_the_warm_server_and_a_secret_refused(
    server_repo: Path, hook_server, tmp_path: Path
):
    address, log = hook_server
    served = {ADDRESS_VARIABLE: address}

    refused, secret_tip = push(server_repo, tmp_path, {"k.md": SECRET}, **served)
    accepted, clean_tip = push(server_repo, tmp_path, {"a.md": topic("a", "A note")}, **served)

    assert refused.returncode != 0
    assert "remote: memsync:   k.md:1: secret (github-pat)" in refused.stderr, refused.stderr
    assert "ghp_" not in refused.stderr and not stored(server_repo, secret_tip)
    assert accepted.returncode == 0, accepted.stderr
    assert git(server_repo, "rev-parse", "members/bob").stdout.strip() == clean_tip
    # Both verdicts came from the server's forked children, and the post-receive too.
    lines = log.read_text()
    assert "memsync.sync.prereceive exited 1" in lines
    assert "memsync.sync.prereceive exited 0" in lines
    assert "memsync.sync.postreceive exited 0" in lines


def test_the_server_hands_the_hook_a_pusher_and_directory_in_any_characters(
    hook_server, tmp_path: Path
):
    # The request carries names and values as raw bytes: a pusher named in non-ASCII,
    # a repository under a directory with spaces, newlines and `=`, and a variable
    # holding bytes that are not UTF-8 all reach the hook as a cold hook would see them.
    address, log = hook_server
    odd = tmp_path / "a dir\nwith=odd ø"
    subprocess.run(["git", "init", "-q", "-b", "main", str(odd)], check=True)
    git(odd, "commit", "-q", "--allow-empty", "-m", "start")
    install_hooks(odd / ".git")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(odd), str(clone)], check=True)
    (clone / "a.md").write_text(topic("a", "A note"))
    git(clone, "add", "--all")
    git(clone, "commit", "-q", "-m", "memory")
    env = {**os.environ, "REMOTE_USER": "bøb", ADDRESS_VARIABLE: address}
    environb = {os.fsencode(k): os.fsencode(v) for k, v in env.items()}
    environb[b"MEMSYNC_NOT_UTF8"] = b"\xff\xfe"

    pushed = subprocess.run(
        ["git", "push", "origin", "HEAD:refs/heads/members/bøb"],
        cwd=clone, env=environb, capture_output=True, text=True,
    )  # fmt: skip
    wrong = subprocess.run(
        ["git", "push", "origin", "HEAD:refs/heads/members/bob"],
        cwd=clone, env=environb, capture_output=True, text=True,
    )  # fmt: skip

    assert pushed.returncode == 0, pushed.stderr
    assert wrong.returncode != 0 and "push to refs/heads/members/bøb instead" in wrong.stderr
    assert "memsync.sync.prereceive exited 1" in log.read_text()


def test_a_hook_runs_cold_when_no_server_answers(server_repo: Path, tmp_path: Path):
    gone = str(tmp_path / "no-such-server.sock")

    refused, tip = push(server_repo, tmp_path, {"k.md": SECRET}, **{ADDRESS_VARIABLE: gone})

    assert refused.returncode != 0
    assert "remote: memsync:   k.md:1: secret (github-pat)" in refused.stderr, refused.stderr
    assert not stored(server_repo, tip)


def test_the_client_hands_over_nothing_without_a_server(tmp_path: Path):
    client = Path(sys.modules["memsync.sync.hookclient"].__file__ or "")
    env = {"PATH": os.environ["PATH"], ADDRESS_VARIABLE: str(tmp_path / "none.sock")}

    ran = subprocess.run(
        [sys.executable, "-I", "-S", str(client), "pre-receive"],
        input=b"unread\n", env=env, capture_output=True,
    )  # fmt: skip

    assert ran.returncode == NOT_SERVED and ran.stdout == b"" and ran.stderr == b""


def test_the_server_stops_when_the_process_that_started_it_is_gone(tmp_path: Path):
    starter = (
        "import os, sys, time\n"
        "from memsync.sync.hookserver import HookServer\n"
        "server = HookServer({'PATH': os.environ['PATH']})\n"
        "while (address := server.address()) is None: time.sleep(0.05)\n"
        "print(address, flush=True)\n"
        "os._exit(0)\n"
    )
    address = subprocess.run(
        [sys.executable, "-c", starter], capture_output=True, text=True, check=True, timeout=120
    ).stdout.strip()

    deadline = time.monotonic() + 30
    while Path(address).exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not Path(address).exists()


def test_file_names_scanned_together_find_what_each_name_alone_finds():
    names = [f"notes/memory_{n:05d}.md" for n in range(300)]
    for found in corpus_secrets():
        names.append(f"leak/{found.value.splitlines()[0]}.md")
        names.append(found.line.replace("/", "-")[:200])
    names += [alike.line.replace("/", "-")[:200] for alike in corpus_look_alikes()]

    together = check_path_texts(names)

    alone = [finding for name in dict.fromkeys(names) for finding in check_path_text(name)]
    assert together == alone
    assert len(together) >= len(corpus_secrets())
