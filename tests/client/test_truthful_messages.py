"""What `memsync push` and `memsync status` say is what happened (issue 13, item 9): the
real command on a developer's machine against gunicorn running memsync."""

from __future__ import annotations

import json

import pytest

from dashboard import sync
from tests.client.conftest import Developer
from tests.secrets.fakes import fake_secrets
from tests.sync.conftest import Team, topic

pytestmark = pytest.mark.slow


def _merge(team: Team, member: str) -> None:
    """What the worker does after a push, run here so the test waits for nothing."""
    merge, conflicts = sync.merge_member_branch(team.project, member)
    assert merge.merged and not conflicts


def _status(dev: Developer) -> dict:
    done = dev.memsync("status", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _push_a_secret(bob: Developer) -> str:
    key = next(s.value for s in fake_secrets() if s.rule_id == "aws-access-token")
    bob.write({"cloud.md": f"# Cloud\n\nThe staging key is\n{key} for now.\n"})
    refused = bob.memsync("push")
    assert refused.returncode == 1, refused.stderr
    return refused.stderr


def test_status_after_your_own_push_was_merged_has_nothing_to_pull(
    team: Team, developers: dict[str, Developer]
):
    bob, alice = developers["bob"], developers["alice"]
    bob.link(team.slug)
    alice.link(team.slug)
    bob.write({"deploys.md": topic("deploys", "Deploys freeze on Fridays")})
    assert bob.memsync("push").returncode == 0
    _merge(team, "bob")

    own = _status(bob)
    text = bob.memsync("status").stdout
    alice.write({"oncall.md": topic("oncall", "The pager rotates on Mondays")})
    assert alice.memsync("push").returncode == 0
    _merge(team, "alice")
    teammates = _status(bob)

    assert own["behind"] == 0
    assert "0 in main not pulled" in text
    assert teammates["behind"] == 1  # alice's commit; the merge commits bring nothing more


def test_a_refusal_does_not_ask_to_rewrite_a_commit_push_already_undid(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    bob.link(team.slug)

    refused = _push_a_secret(bob)

    assert "cloud.md:4: secret (aws-access-token)" in refused
    assert "rewrite the commit" not in refused
    assert "remove it from the file" in refused
    assert "Your changes are uncommitted again" in refused
    assert bob.git("status", "--porcelain").stdout == "?? cloud.md\n"  # undone indeed


def test_status_forgets_a_refusal_once_the_refused_file_is_gone(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    bob.link(team.slug)
    _push_a_secret(bob)
    assert "last push refused" in bob.memsync("status").stdout

    (bob.team_dir / "cloud.md").unlink()
    nothing = bob.memsync("push")

    assert nothing.returncode == 0, nothing.stderr
    assert "nothing to push" in nothing.stdout
    assert _status(bob)["last_push_error"] is None
    assert "refused" not in bob.memsync("status").stdout


def test_push_counts_only_the_commits_the_server_did_not_have(
    team: Team, developers: dict[str, Developer]
):
    bob = developers["bob"]
    bob.link(team.slug)
    bob.write({"deploys.md": topic("deploys", "Deploys freeze on Fridays")})
    assert bob.memsync("push").returncode == 0
    # A push the server stored but whose answer never came back (a timeout): this
    # clone's view of the server's branch is from before it.
    bob.git("update-ref", "-d", "refs/remotes/origin/members/bob")

    again = bob.memsync("push")
    bob.git("update-ref", "-d", "refs/remotes/origin/members/bob")
    bob.write({"oncall.md": topic("oncall", "The pager rotates on Mondays")})
    one_more = bob.memsync("push")

    assert again.returncode == 0, again.stderr
    assert "pushed" not in again.stdout
    assert "members/bob on the server already had these commits" in again.stdout
    assert one_more.returncode == 0, one_more.stderr
    assert "pushed 1 commit to members/bob" in one_more.stdout
    assert "A oncall.md" in one_more.stdout
    assert "deploys.md" not in one_more.stdout
