"""Git over HTTP end to end: the real git CLI against gunicorn running memsync."""

from __future__ import annotations

import gzip
import subprocess
import time
import urllib.error
import urllib.request
from base64 import b64encode
from pathlib import Path

import pytest
from django.utils import timezone

from dashboard.models import AccessToken, Run, RunStatus
from tests.sync.conftest import GitUser, Team, quarantines, stored, topic, wait_for_merges

pytestmark = pytest.mark.slow


def _basic(user: str, token: str) -> str:
    return "Basic " + b64encode(f"{user}:{token}".encode()).decode()


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


# --- the happy path ------------------------------------------------------------------------


@pytest.mark.worker
def test_it_merges_a_members_push_into_main_and_a_second_clone_pulls_it(
    team: Team, people: dict[str, GitUser], tmp_path: Path, celery_worker
):
    bob, alice = people["bob"], people["alice"]
    alice_clone = tmp_path / "alice"
    alice.clone(team.slug, alice_clone)
    clone = bob.workspace(team.slug, tmp_path / "bob")
    pushed = bob.commit(
        clone,
        {
            "deploy_freeze.md": topic("deploy freeze", "No deploys on Fridays"),
            "MEMORY.md": "- [Deploy freeze](deploy_freeze.md) — no deploys on Fridays\n",
        },
        "remember the deploy freeze",
    )

    result = bob.push(clone)
    wait_for_merges(team)

    assert "members/bob stored; it is being merged into main" in result.err
    assert team.repo.is_ancestor(pushed, "main")
    merge = team.repo.commit_info("main")
    assert merge.kind == "merge"
    assert merge.author_name == "bob"
    assert merge.trailer("Memsync-Member") == "bob"
    assert merge.trailer("Co-authored-by") == "bob <bob@example.com>"
    run = Run.objects.get(project=team.project, kind="merge")
    assert run.status == RunStatus.MERGED
    assert run.summary == "merged members/bob into main"
    alice.git("pull", "-q", "origin", "main", cwd=alice_clone)
    assert "No deploys on Fridays" in (alice_clone / "deploy_freeze.md").read_text()
    assert "deploy_freeze.md" in (alice_clone / "MEMORY.md").read_text()
    # The merge asked the dream's gate check to look at the project, by task name.
    assert _eventually(lambda: "dashboard.tasks.dream.check_dream_gates" in celery_worker.log())


def _eventually(check, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return False


def test_it_records_when_a_token_was_last_used(team: Team, people: dict[str, GitUser], tmp_path):
    people["carol"].clone(team.slug, tmp_path / "carol")

    token = AccessToken.objects.get(user__username="carol")
    assert token.last_used_at is not None
    assert (timezone.now() - token.last_used_at).total_seconds() < 60


def test_it_streams_a_push_larger_than_gits_post_buffer_and_clones_it_back(
    team: Team, people: dict[str, GitUser], tmp_path: Path
):
    # Digits compress poorly and trip no secret rule: 20 files of ~200 kB make a pack
    # of well over git's 1 MiB http.postBuffer, which git sends chunked, without a length.
    import random

    rng = random.Random(7)
    files = {
        f"numbers_{n:02d}.md": "\n".join(
            " ".join(str(rng.randrange(10**9)) for _ in range(20)) for _ in range(1000)
        )
        + "\n"
        for n in range(20)
    }
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    pushed = bob.commit(clone, files, "a lot of numbers")

    result = bob.git("push", "origin", "members/bob", cwd=clone, check=False)

    assert result.code == 0, result.text
    assert stored(team, pushed)
    copy = tmp_path / "copy"
    people["alice"].git(
        "clone", "-q", "-b", "members/bob", people["alice"].url(team.slug), str(copy)
    )
    assert (copy / "numbers_19.md").read_text() == files["numbers_19.md"]


def test_it_inflates_a_gzip_compressed_fetch_request(team: Team, git_server):
    main = team.repo.rev_parse("main")
    request_body = f"0032want {main}\n".encode() + b"0000" + b"0009done\n"
    request = urllib.request.Request(
        f"{git_server.url}/git/{team.slug}.git/git-upload-pack",
        data=gzip.compress(request_body),
        headers={
            "Content-Type": "application/x-git-upload-pack-request",
            "Content-Encoding": "gzip",
            "Authorization": _basic("carol", team.tokens["carol"]),
        },
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        body = response.read()

    assert response.headers["Content-Type"] == "application/x-git-upload-pack-result"
    assert body.startswith(b"0008NAK\n")
    assert b"PACK" in body


def test_it_serves_only_the_smart_protocol(team: Team, git_server):
    auth = {"Authorization": _basic("alice", team.tokens["alice"])}
    base = f"{git_server.url}/git/{team.slug}.git"

    assert _get(f"{base}/HEAD", auth)[0] == 404
    assert _get(f"{base}/info/refs", auth)[0] == 404
    assert _get(f"{base}/objects/info/packs", auth)[0] == 404
    assert _get(f"{base}/git-upload-pack", auth)[0] == 405


# --- who may do what ---------------------------------------------------------------------


def test_it_asks_for_credentials_with_a_basic_challenge(team: Team, git_server):
    url = f"{git_server.url}/git/{team.slug}.git/info/refs?service=git-upload-pack"

    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(url, timeout=30)

    assert refused.value.code == 401
    assert refused.value.headers["WWW-Authenticate"] == 'Basic realm="memsync"'


def test_it_refuses_a_wrong_token(team: Team, git_server, tmp_path):
    stranger = GitUser(git_server, "bob", "msk_not-a-real-token", tmp_path / "home")

    result = stranger.clone(team.slug, tmp_path / "clone", check=False)

    assert result.code != 0
    assert "Authentication failed" in result.err
    assert not (tmp_path / "clone").exists()


def test_it_refuses_a_revoked_token(team: Team, people: dict[str, GitUser], tmp_path):
    AccessToken.objects.filter(user__username="bob").update(revoked_at=timezone.now())

    result = people["bob"].clone(team.slug, tmp_path / "clone", check=False)

    assert result.code != 0
    assert "Authentication failed" in result.err


def test_it_refuses_a_token_presented_under_someone_elses_name(team: Team, git_server, tmp_path):
    impostor = GitUser(git_server, "alice", team.tokens["mallory"], tmp_path / "home")

    result = impostor.clone(team.slug, tmp_path / "clone", check=False)

    assert "Authentication failed" in result.err


def test_it_answers_an_outsider_as_if_the_project_did_not_exist(
    team: Team, people: dict[str, GitUser], tmp_path
):
    outsider = people["mallory"].clone(team.slug, tmp_path / "a", check=False)
    missing = people["mallory"].clone("no-such-project", tmp_path / "b", check=False)

    assert outsider.code != 0 and missing.code != 0
    assert "remote: memsync: repository" in outsider.err and "not found" in outsider.err
    assert "fatal: repository" in outsider.err
    # Past git's "Cloning into <dir>" line, both answers read the same.
    answer = outsider.err.splitlines()[1:]
    assert [line.replace(team.slug, "X") for line in answer] == [
        line.replace("no-such-project", "X") for line in missing.err.splitlines()[1:]
    ]


def test_it_lets_a_viewer_clone_but_not_push(team: Team, people: dict[str, GitUser], tmp_path):
    carol = people["carol"]
    clone = carol.workspace(team.slug, tmp_path / "carol")
    pushed = carol.commit(clone, {"note.md": topic("note", "A viewer's note")}, "note")

    result = carol.push(clone, check=False)

    assert result.code != 0
    assert "remote: memsync: carol is a viewer of" in result.err
    assert "needs the member role to push" in result.err
    assert "returned error: 403" in result.err
    assert team.repo.rev_parse("members/carol") is None
    assert not stored(team, pushed)


@pytest.mark.parametrize(
    ("refspec", "message"),
    [
        (
            "HEAD:main",
            "refs/heads/main: main changes only when the server merges members' branches",
        ),
        (
            "HEAD:members/alice",
            "refs/heads/members/alice: it belongs to alice; you may not push to it",
        ),
        ("HEAD:dream/42", "refs/heads/dream/42: dream/* branches are proposals the server makes"),
        (
            "HEAD:extractions/bob",
            "refs/heads/extractions/bob: extractions/* hold what the server extracts from "
            "uploaded sessions",
        ),
        (
            "HEAD:refs/memsync/conflicts/1/main",
            "refs/memsync/conflicts/1/main: refs/memsync/* is kept by the server",
        ),
        ("HEAD:refs/tags/v1", "refs/tags/v1: only your member branch accepts pushes"),
    ],
)
def test_it_refuses_every_ref_but_the_pushers_own_branch(
    team: Team, people: dict[str, GitUser], tmp_path, refspec: str, message: str
):
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    main_before = team.repo.rev_parse("main")
    pushed = bob.commit(clone, {"sneaky.md": topic("sneaky", "Straight to main")}, "sneaky")

    result = bob.push(clone, refspec, check=False)

    assert result.code != 0
    assert f"remote: memsync:   {message}" in result.err
    assert "push to refs/heads/members/bob instead" in result.err
    assert "pre-receive hook declined" in result.err
    assert team.repo.rev_parse("main") == main_before
    assert not stored(team, pushed)
    assert quarantines(team) == []


def test_it_refuses_deleting_another_members_branch_but_not_ones_own(
    team: Team, people: dict[str, GitUser], tmp_path
):
    alice, bob = people["alice"], people["bob"]
    alice_clone = alice.workspace(team.slug, tmp_path / "alice")
    alice.commit(alice_clone, {"a.md": topic("a", "Alice's fact")}, "a")
    alice.push(alice_clone)
    bob_clone = bob.workspace(team.slug, tmp_path / "bob")
    bob.commit(bob_clone, {"b.md": topic("b", "Bob's fact")}, "b")
    bob.push(bob_clone)

    refused = bob.push(bob_clone, ":members/alice", check=False)
    deleted = bob.push(bob_clone, ":members/bob", check=False)

    assert "refs/heads/members/alice: it belongs to alice; you may not delete it" in refused.err
    assert team.repo.rev_parse("members/alice") is not None
    assert deleted.code == 0, deleted.text
    assert team.repo.rev_parse("members/bob") is None


# --- what a push may carry --------------------------------------------------------------------


def test_it_refuses_a_secret_naming_file_line_and_rule_but_never_the_secret(
    team: Team, people: dict[str, GitUser], tmp_path
):
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    key = "AKIA" + "Z7QRSTUVWX4ABCDE"
    secret_file = f"# Cloud access\n\nWe use the shared key\n{key} for staging.\n"
    pushed = bob.commit(clone, {"notes/cloud.md": secret_file}, "cloud notes")
    blob = bob.git("rev-parse", "HEAD:notes/cloud.md", cwd=clone).out.strip()

    result = bob.push(clone, check=False)

    assert result.code != 0
    assert "remote: memsync:   notes/cloud.md:4: secret (aws-access-token): AWS access key" in (
        result.err
    )
    assert "nothing of this push was stored" in result.err
    assert key not in result.err and key[4:] not in result.err
    # Git's quarantine was dropped: neither the commit nor the blob is in the repository.
    assert not stored(team, pushed)
    assert not stored(team, blob)
    assert quarantines(team) == []
    assert team.repo.rev_parse("members/bob") is None


def test_it_refuses_a_file_over_the_size_cap(team: Team, people: dict[str, GitUser], tmp_path):
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    pushed = bob.commit(clone, {"huge.md": "all work and no play\n" * 12_500}, "huge")

    result = bob.push(clone, check=False)

    assert "huge.md: too-large (max-blob-size): 262,500 bytes, over the 250,000-byte limit" in (
        result.err
    )
    assert not stored(team, pushed)


@pytest.mark.parametrize(
    ("make", "shown", "rule"),
    [
        (lambda d: (d / "leak.md").symlink_to("../../../etc/passwd"), "leak.md", "symlink"),
        (lambda d: (d / "a\\b.md").write_text("x\n"), "a\\b.md", "path-backslash"),
        (lambda d: _write(d / "\uff0e\uff0e" / "x.md"), "\uff0e\uff0e", "path-parent"),
        (lambda d: (d / "bad\x1b[31m.md").write_text("x\n"), "bad\\x1b[31m.md", "path-control"),
    ],
    ids=["symlink-out", "backslash", "fullwidth-dots", "escape-sequence"],
)
def test_it_refuses_hostile_paths(
    team: Team, people: dict[str, GitUser], tmp_path, make, shown: str, rule: str
):
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    make(clone)
    pushed = bob.commit(clone, {}, "hostile")

    result = bob.push(clone, check=False)

    assert result.code != 0
    assert f"remote: memsync:   {shown}" in result.err
    assert f"unsafe-path ({rule}" in result.err
    assert "\x1b" not in result.err
    assert not stored(team, pushed)


IDENTITY = ("-c", "user.name=x", "-c", "user.email=x@x")


def _write(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x\n")


def test_it_refuses_markdown_that_is_not_utf8(team: Team, people: dict[str, GitUser], tmp_path):
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    bob.commit(clone, {"latin.md": "caf\xe9\n".encode("latin-1")}, "latin-1")

    result = bob.push(clone, check=False)

    assert "latin.md:1: not-utf8 (utf-8): Markdown that is not valid UTF-8" in result.err


def test_it_accepts_format_problems_with_warnings(team: Team, people: dict[str, GitUser], tmp_path):
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    pushed = bob.commit(
        clone,
        {
            "half.md": "---\nname: half\ndescription: never closed\n",
            "odd.md": "---\nname: odd\ndescription: an odd type\ntype: gossip\n---\n\nhm\n",
        },
        "imperfect memories",
    )

    result = bob.push(clone, check=False)

    assert result.code == 0, result.text
    assert "remote: memsync: warning: half.md:1: frontmatter opened with '---'" in result.err
    assert "odd.md" in result.err and "[type-unknown]" in result.err
    assert "accepted with warnings" in result.err
    assert stored(team, pushed)


def test_it_puts_back_a_hook_that_was_tampered_with(
    team: Team, people: dict[str, GitUser], tmp_path
):
    (team.git_dir() / "hooks" / "pre-receive").write_text("#!/bin/sh\nexit 0\n")
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    bob.commit(clone, {"k.md": "token ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8\n"}, "k")

    result = bob.push(clone, check=False)

    assert "secret (github-pat)" in result.err
    assert "memsync.sync.prereceive" in (team.git_dir() / "hooks" / "pre-receive").read_text()


def test_it_never_lets_a_push_bypass_the_server_hooks(team: Team, tmp_path):
    # A push straight into the repository (not through the endpoint) has no pusher.
    clone = tmp_path / "local"
    subprocess.run(["git", "clone", "-q", str(team.project.repo_dir), str(clone)], check=True)
    (clone / "x.md").write_text("x\n")
    subprocess.run(["git", "-C", str(clone), "add", "x.md"], check=True)
    subprocess.run(
        [
            "git",
            "-C",
            str(clone),
            "-c",
            "user.name=x",
            "-c",
            "user.email=x@x",
            "commit",
            "-qm",
            "x",
        ],
        check=True,
    )

    done = subprocess.run(
        ["git", "-C", str(clone), "push", "origin", "HEAD:refs/heads/members/x"],
        capture_output=True,
        text=True,
    )

    assert done.returncode != 0
    assert "the push carries no user" in done.stderr
