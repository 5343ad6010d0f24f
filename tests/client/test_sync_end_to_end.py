"""The ``memsync`` client end to end: real ``memsync`` and ``git`` processes on several
developers' machines (separate HOMEs) against gunicorn running memsync, with a real
Celery worker merging members' branches into ``main``."""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import time
from pathlib import Path

import pytest

from dashboard.models import SessionRecord
from memsync.store.gitcmd import GitRunner
from tests.client.conftest import Developer
from tests.secrets.fakes import fake_secrets
from tests.sync.conftest import Team, topic, wait_for_merges

pytestmark = pytest.mark.slow

TRANSCRIPTS = Path(__file__).resolve().parents[1] / "extract" / "samples"
SESSION = "1af7fc5e-8455-4414-9ccd-011d40f70b2a"  # 7 messages


def index(*entries: tuple[str, str]) -> str:
    return "".join(f"- [{title}]({name}) — {title.lower()}\n" for title, name in entries)


def dead_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


# --- login -------------------------------------------------------------------------------


def test_login_checks_the_token_and_stores_it_0600_without_printing_it(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    url = bob.server.url

    wrong = bob.memsync("login", url, "--user", "bob", MEMSYNC_TOKEN="not-a-token")
    right = bob.memsync("login", url, "--user", "bob", MEMSYNC_TOKEN=bob.token)

    config = bob.home / ".config" / "memsync" / "config.json"
    assert wrong.returncode == 2
    assert "refused this token for bob; nothing was stored" in wrong.stderr
    assert right.returncode == 0, right.stderr
    assert f"logged in to {url} as bob" in right.stdout
    assert bob.token not in right.stdout + right.stderr
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert stat.S_IMODE(config.parent.stat().st_mode) == 0o700
    assert json.loads(config.read_text())["servers"][url] == {"user": "bob", "token": bob.token}


def test_login_with_a_project_checks_membership_too(team: Team, developers: dict[str, Developer]):
    bob, mallory = developers["bob"], developers["mallory"]

    member = bob.memsync("login", bob.server.url, "--user", "bob", "--project", team.slug,
                         MEMSYNC_TOKEN=bob.token)  # fmt: skip
    outsider = mallory.memsync("login", bob.server.url, "--user", "mallory", "--project",
                               team.slug, MEMSYNC_TOKEN=mallory.token)  # fmt: skip

    assert member.returncode == 0 and f"{team.slug}: member" in member.stdout
    assert outsider.returncode == 2 and f"mallory has no project '{team.slug}'" in outsider.stderr
    assert not (mallory.home / ".config" / "memsync" / "config.json").exists()


def test_logging_in_again_replaces_the_token(team: Team, developers: dict[str, Developer]):
    from dashboard.models import AccessToken

    bob = developers["bob"]
    bob.login()
    second = AccessToken.issue(team.users["bob"], "laptop")[1]

    again = bob.memsync("login", bob.server.url, "--user", "bob", MEMSYNC_TOKEN=second)

    text = (bob.home / ".config" / "memsync" / "config.json").read_text()
    assert again.returncode == 0
    assert second in text and bob.token not in text


def test_login_says_when_the_server_is_unreachable_or_not_memsync(tmp_path: Path, git_server):
    bob = Developer("bob", tmp_path, git_server, "x")

    unreachable = bob.memsync("login", dead_url(), "--user", "bob", MEMSYNC_TOKEN="x")
    elsewhere = bob.memsync("login", f"{git_server.url}/not-memsync", "--user", "bob",
                            MEMSYNC_TOKEN="x")  # fmt: skip

    assert unreachable.returncode == 2 and "cannot reach" in unreachable.stderr
    assert elsewhere.returncode == 2 and "memsync server" in elsewhere.stderr
    assert not (bob.home / ".config" / "memsync").exists()


# --- link, push, merge, pull ----------------------------------------------------------------


@pytest.mark.worker
def test_a_push_is_merged_into_main_and_a_teammates_pull_brings_it(
    team: Team, developers: dict[str, Developer], celery_worker
):
    bob, alice = developers["bob"], developers["alice"]
    linked = bob.link(team.slug)
    alice.link(team.slug)
    bob.write({
        "deploy_freeze.md": topic("deploy freeze", "No deploys on Fridays"),
        "MEMORY.md": index(("Deploy freeze", "deploy_freeze.md")),
    })  # fmt: skip

    pushed = bob.memsync("push")
    wait_for_merges(team)
    pulled = alice.memsync("pull")

    assert f"into {bob.team_dir}" in linked.stdout
    assert pushed.returncode == 0, pushed.stderr
    assert "pushed 1 commit to members/bob" in pushed.stdout
    assert "A deploy_freeze.md" in pushed.stdout
    assert "remote: " in pushed.stdout  # the server's own word on the push
    assert team.repo.read("main", "deploy_freeze.md") is not None
    assert pulled.returncode == 0, pulled.stderr
    assert "deploy_freeze.md" in pulled.stdout
    assert "No deploys on Fridays" in (alice.team_dir / "deploy_freeze.md").read_text()
    assert "deploy_freeze.md" in (alice.team_dir / "MEMORY.md").read_text()
    sync = bob.git("log", "-1", "--format=%s", "members/bob").stdout.strip()
    assert sync.startswith("sync: ")


def test_the_linked_clone_keeps_the_token_out_of_git_and_works_with_plain_git(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    bob.link(team.slug)

    git_config = (bob.team_dir / ".git" / "config").read_text()
    branch = bob.git("symbolic-ref", "--short", "HEAD").stdout.strip()
    upstream = bob.git("rev-parse", "--abbrev-ref", "@{upstream}").stdout.strip()
    bob.write({"notes.md": topic("notes", "Plain git works in the linked clone")})
    bob.git("add", "notes.md")
    bob.git("commit", "-q", "-m", "notes by hand")
    plain_push = bob.git("push")

    assert bob.token not in git_config
    assert "memsync" in bob.git("config", "--get-all", "credential.helper").stdout
    assert "@" not in bob.git("remote", "get-url", "origin").stdout
    assert branch == "members/bob" and upstream == "origin/main"
    assert plain_push.returncode == 0, plain_push.stderr
    assert team.repo.read("members/bob", "notes.md") is not None
    assert team.repo.read("main", "notes.md") is None  # main moves only by the server's merge


@pytest.mark.worker
def test_index_entries_from_both_sides_survive_a_pull(
    team: Team, developers: dict[str, Developer], celery_worker
):
    bob, alice = developers["bob"], developers["alice"]
    bob.link(team.slug)
    alice.link(team.slug)
    alice.write({
        "oncall.md": topic("oncall", "Alice runs the pager on Mondays"),
        "MEMORY.md": index(("Oncall", "oncall.md")),
    })  # fmt: skip
    assert alice.memsync("push").returncode == 0
    wait_for_merges(team)
    bob.write({
        "staging.md": topic("staging", "Staging resets nightly"),
        "MEMORY.md": index(("Staging", "staging.md")),
    })  # fmt: skip

    pulled = bob.memsync("pull")

    merged_index = (bob.team_dir / "MEMORY.md").read_text()
    assert pulled.returncode == 0, pulled.stderr
    assert "(oncall.md)" in merged_index and "(staging.md)" in merged_index
    assert "<<<<<<<" not in merged_index
    assert bob.memsync("push").returncode == 0
    wait_for_merges(team)
    main_index = team.repo.read("main", "MEMORY.md") or b""
    assert b"(oncall.md)" in main_index and b"(staging.md)" in main_index


def test_a_pull_names_team_memories_this_checkout_says_are_stale(
    team: Team, developers: dict[str, Developer], celery_worker
):
    bob, alice = developers["bob"], developers["alice"]
    bob.link(team.slug)
    alice.link(team.slug)
    bob.write({
        "database.md": topic("database", "Local database: Postgres 15 via docker compose"),
        "deploy.md": topic("deploy", "Deploys run scripts/deploy.sh from the repo root"),
        "cache.md": topic("cache", "The cache is Redis 7"),
        "MEMORY.md": index(("Database", "database.md"), ("Deploy", "deploy.md"),
                           ("Cache", "cache.md")),
    })  # fmt: skip
    assert bob.memsync("push").returncode == 0
    wait_for_merges(team)
    (alice.project / "scripts").mkdir()
    (alice.project / "scripts" / "release.sh").write_text("#!/bin/sh\n")
    (alice.project / "docker-compose.yml").write_text(
        "services:\n  db:\n    image: postgres:16\n  cache:\n    image: redis:7.2\n"
    )

    pulled = alice.memsync("pull")
    quiet = alice.memsync("pull", "--quiet")

    assert pulled.returncode == 0, pulled.stderr
    assert f"2 team memories may be stale against {alice.project}:" in pulled.stdout
    assert (
        "database.md: says Postgres 15, but the code checkout's docker-compose.yml has "
        "postgres:16" in pulled.stdout
    )
    assert (
        "deploy.md: cites scripts/deploy.sh, which the code checkout no longer has" in pulled.stdout
    )
    assert "cache.md" not in pulled.stdout.split("may be stale")[1]
    assert quiet.returncode == 0 and quiet.stdout == ""


@pytest.mark.worker
def test_a_topic_conflict_stops_the_pull_naming_the_file(
    team: Team, developers: dict[str, Developer], celery_worker
):
    bob, alice = developers["bob"], developers["alice"]
    alice.link(team.slug)
    alice.write({"release.md": topic("release", "Releases go out on Tuesdays")})
    assert alice.memsync("push").returncode == 0
    wait_for_merges(team)
    bob.link(team.slug)
    alice.write({"release.md": topic("release", "Releases go out on Wednesdays now")})
    assert alice.memsync("push").returncode == 0
    wait_for_merges(team)
    mine = topic("release", "Releases go out on Thursdays")
    bob.write({"release.md": mine})

    hook = bob.memsync("pull", "--quiet")
    after_hook = (bob.team_dir / "release.md").read_text()
    interactive = bob.memsync("pull")

    assert hook.returncode == 0 and hook.stdout == ""
    assert "pull stopped" in hook.stderr and "release.md" in hook.stderr
    assert after_hook == mine  # the hook left memory as it was, no conflict markers
    assert interactive.returncode == 1
    assert f"{bob.team_dir / 'release.md'}" in interactive.stderr
    assert "merge --abort" in interactive.stderr and "memsync push" in interactive.stderr
    conflicted = (bob.team_dir / "release.md").read_text()
    assert "<<<<<<<" in conflicted and "Wednesdays" in conflicted and "Thursdays" in conflicted
    blocked = bob.memsync("push")
    assert blocked.returncode == 2 and "a merge is in progress" in blocked.stderr


def test_a_push_with_a_secret_shows_the_servers_refusal_and_keeps_the_edit(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    bob.link(team.slug)
    key = next(s.value for s in fake_secrets() if s.rule_id == "aws-access-token")
    bob.write({"cloud.md": f"# Cloud\n\nThe staging key is\n{key} for now.\n"})
    # A session-start hook's pull commits local edits before merging: the secret is in a
    # commit before the push even starts.
    assert bob.memsync("pull", "--quiet").returncode == 0

    refused = bob.memsync("push")
    status = json.loads(bob.memsync("status", "--json").stdout)

    assert refused.returncode == 1, refused.stderr
    assert "the server refused the push to members/bob" in refused.stderr
    assert "remote: memsync:   cloud.md:4: secret (aws-access-token)" in refused.stderr
    assert key not in refused.stderr + refused.stdout
    assert "Nothing was stored on the server" in refused.stderr
    assert team.repo.rev_parse("members/bob") is None
    assert "refused" in status["last_push_error"]
    assert status["unpushed"] == 0 and status["changes"] == ["?? cloud.md"]

    bob.write({"cloud.md": "# Cloud\n\nThe staging key is in the vault.\n"})
    fixed = bob.memsync("push")

    assert fixed.returncode == 0, fixed.stderr
    assert (
        team.repo.read("members/bob", "cloud.md")
        == b"# Cloud\n\nThe staging key is in the vault.\n"
    )
    history = GitRunner(team.repo.path).run("log", "-p", "members/bob")
    assert key not in history
    assert json.loads(bob.memsync("status", "--json").stdout)["last_push_error"] is None


def test_a_viewer_is_told_their_role_does_not_allow_pushing(
    team: Team, developers: dict[str, Developer]
):
    carol = developers["carol"]
    carol.link(team.slug)
    carol.write({"idea.md": topic("idea", "Carol has an idea")})

    result = carol.memsync("push")

    assert result.returncode == 2
    assert "your role in this project does not allow it" in result.stderr
    assert "viewer" in result.stderr


# --- status and sessions -----------------------------------------------------------------


def test_status_shows_local_work_and_the_servers_view(team: Team, developers: dict[str, Developer]):
    bob = developers["bob"]
    bob.link(team.slug)
    bob.write({"build.md": topic("build", "The build needs Node 20")})

    before = json.loads(bob.memsync("status", "--json").stdout)
    bob.memsync("push")
    after = json.loads(bob.memsync("status", "--json").stdout)
    text = bob.memsync("status").stdout

    assert before["changes"] == ["?? build.md"] and before["unpushed"] == 0
    assert before["server_status"]["project"] == team.slug
    assert after["changes"] == [] and after["unpushed"] == 0 and after["ahead"] == 1
    assert after["last_push"] is not None
    # No worker runs in this test: the server still has bob's branch waiting to merge.
    assert [p["member"] for p in after["server_status"]["pending_merges"]] == ["bob"]
    assert "yours with 1 commit(s)" in text


def test_push_reports_sessions_touched_since_the_last_push(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    bob.link(team.slug)
    bob.claude_project.mkdir(parents=True, exist_ok=True)
    transcript = bob.claude_project / f"{SESSION}.jsonl"
    shutil.copy(TRANSCRIPTS / f"{SESSION}.jsonl", transcript)
    (bob.claude_project / "agent-1234.jsonl").write_text("{}\n")  # a subagent: not a session

    first = bob.memsync("push")
    second = bob.memsync("push")
    os.utime(transcript)
    third = bob.memsync("push")

    record = SessionRecord.objects.get(project=team.project, session_id=SESSION)
    assert "reported 1 session to" in first.stdout, first.stderr
    assert "reported" not in second.stdout
    assert "reported 1 session to" in third.stdout
    assert record.user.username == "bob" and record.messages == 7
    assert SessionRecord.objects.filter(project=team.project).count() == 1


# --- hooks and failure modes ----------------------------------------------------------------


def test_hooks_never_fail_a_session_when_the_server_is_unreachable(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    bob.link(team.slug)
    bob.git("remote", "set-url", "origin", f"{dead_url()}/git/{team.slug}.git")
    bob.write({"offline.md": topic("offline", "Written on a plane")})

    push = bob.memsync("push", "--quiet")
    pull = bob.memsync("pull", "--quiet")
    loud = bob.memsync("push")

    for hook in (push, pull):
        assert hook.returncode == 0
        assert hook.stdout == ""
        assert "unreachable" in hook.stderr
    assert loud.returncode == 2 and "cannot reach the server" in loud.stderr
    # The edit is kept in a local commit, pushed when the server is back.
    state = json.loads(bob.memsync("status", "--json", "--no-fetch").stdout)
    assert state["unpushed"] == 1 and state["changes"] == []
    assert "offline.md" in bob.git("show", "--stat", "HEAD").stdout


def test_hooks_do_nothing_in_a_project_that_is_not_linked(tmp_path: Path, git_server):
    someone = Developer("dana", tmp_path, git_server, "x")

    for command in (("pull", "--quiet"), ("push", "--quiet")):
        result = someone.memsync(*command)
        assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    loud = someone.memsync("pull")
    assert loud.returncode == 2 and "memsync link" in loud.stderr


# --- link's choices ----------------------------------------------------------------------


def test_link_follows_the_auto_memory_directory_setting(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    (bob.home / ".claude").mkdir()
    (bob.home / ".claude" / "settings.json").write_text('{"autoMemoryDirectory": "~/mem"}')

    linked = bob.link(team.slug)

    assert (bob.home / "mem" / "team" / ".git").is_dir()
    assert "autoMemoryDirectory" in linked.stdout
    assert not bob.team_dir.exists()


def test_link_twice_is_harmless_and_a_foreign_team_directory_is_refused(
    team: Team, developers: dict[str, Developer]
):
    bob, alice = developers["bob"], developers["alice"]
    bob.link(team.slug)
    alice.team_dir.mkdir(parents=True)
    (alice.team_dir / "MEMORY.md").write_text("- [Mine](mine.md) — kept\n")

    again = bob.memsync("link", team.slug)
    alice.login()
    refused = alice.memsync("link", team.slug)
    unknown = bob.memsync("link", "no-such-project")

    assert again.returncode == 0 and "already linked" in again.stdout
    assert refused.returncode == 2 and "already has files" in refused.stderr
    assert (alice.team_dir / "MEMORY.md").read_text() == "- [Mine](mine.md) — kept\n"
    assert unknown.returncode == 2 and "bob has no project 'no-such-project'" in unknown.stderr


# --- the plain-git way (README) ----------------------------------------------------------


@pytest.mark.worker
def test_the_plain_git_way_from_the_readme_works(
    team: Team, developers: dict[str, Developer], celery_worker
):
    alice = developers["alice"]
    url = f"{alice.server.url}/git/{team.slug}.git"
    host = alice.server.url.removeprefix("http://")
    team_dir = alice.team_dir
    team_dir.parent.mkdir(parents=True)

    def git(*args: str, stdin: str | None = None, cwd: Path | None = None) -> str:
        done = subprocess.run(
            ["git", *args], cwd=cwd or team_dir, env=alice.env(), input=stdin,
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout + done.stderr

    git("config", "--global", "credential.helper", "store", cwd=alice.home)
    approval = f"protocol=http\nhost={host}\nusername=alice\npassword={alice.token}\n\n"
    git("credential", "approve", cwd=alice.home, stdin=approval)
    git("clone", "-q", url, str(team_dir), cwd=alice.home)
    git("config", "merge.memsync-index.driver", "memsync merge-index %O %A %B")
    git("checkout", "-q", "-b", "members/alice")
    git("config", "branch.members/alice.remote", "origin")
    git("config", "branch.members/alice.merge", "refs/heads/main")
    git("config", "remote.origin.push", "refs/heads/members/alice:refs/heads/members/alice")
    (team_dir / "runbook.md").write_text(topic("runbook", "The runbook lives in the wiki"))
    git("add", "runbook.md")
    git("commit", "-q", "-m", "runbook")
    pushed = git("push")
    wait_for_merges(team)
    git("pull", "--no-rebase", "--no-edit")

    assert "members/alice stored" in pushed
    assert team.repo.read("main", "runbook.md") is not None
    assert git("rev-parse", "HEAD") == git("rev-parse", "origin/main")  # main's merge, pulled
    assert (team_dir / "runbook.md").exists()


# --- server extraction and the member's branch ---------------------------------------------


@pytest.mark.worker
def test_a_members_push_after_a_server_extraction_is_accepted(
    team: Team, developers: dict[str, Developer], celery_worker
):
    from dashboard.models import Project, Run, RunKind
    from tests.extract.sessions import SessionLog

    Project.objects.filter(pk=team.project.pk).update(allow_transcripts=True)
    bob = developers["bob"]
    bob.link(team.slug)
    bob.claude_project.mkdir(parents=True, exist_ok=True)
    log = SessionLog().turn("Remember that the mobile team owns the release calendar.")
    log.write(bob.claude_project)

    reported = bob.memsync("push")  # the session and its transcript: the server extracts
    deadline = time.monotonic() + 120
    extractions = Run.objects.filter(project=team.project, kind=RunKind.EXTRACT)
    while time.monotonic() < deadline and not extractions.filter(finished_at__isnull=False):
        time.sleep(0.3)
    wait_for_merges(team)
    extracted = "mobile-team-owns-release.md"
    bob.write({"oncall.md": topic("oncall", "The pager rotates weekly")})
    pushed = bob.memsync("push")
    wait_for_merges(team)
    pulled = bob.memsync("pull")

    assert "reported 1 session" in reported.stdout, reported.stderr
    assert team.repo.read("main", extracted) is not None, extractions.first()
    assert pushed.returncode == 0, pushed.stderr
    assert "pushed 1 commit to members/bob" in pushed.stdout
    assert team.repo.read("main", "oncall.md") is not None
    assert pulled.returncode == 0 and (bob.team_dir / extracted).exists()
