"""The generated secret corpus pushed with the real `git`: every kind refused at the line
it sits on, nothing stored; look-alikes accepted; secrets in commit messages, people and
file names refused too."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from tests.secrets.corpus import CorpusSecret, corpus_look_alikes, corpus_secrets, note
from tests.sync.conftest import GitUser, Team, stored

BY_KIND: dict[str, list[CorpusSecret]] = defaultdict(list)
for _secret in corpus_secrets():
    BY_KIND[_secret.kind].append(_secret)


def _file_of(secrets: list[CorpusSecret]) -> tuple[str, list[int]]:
    """A note holding each secret on lines of its own, and the line each starts on."""
    text = note("See below.")
    starts = []
    for secret in secrets:
        text += "\n"
        starts.append(text.count("\n") + 1)
        text += secret.line + "\n"
    return text, starts


def test_each_kind_of_secret_is_refused_at_push_where_it_sits(
    people: dict[str, GitUser], team: Team, tmp_path: Path
):
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    base = bob.git("rev-parse", "HEAD", cwd=clone).out.strip()
    missed: dict[str, list[int]] = {}
    for kind, secrets in BY_KIND.items():
        text, starts = _file_of(secrets)
        sha = bob.commit(clone, {f"{kind}.md": text}, f"notes on {kind}")
        pushed = bob.push(clone, check=False)
        reported = {int(n) for n in re.findall(rf"memsync:   {kind}\.md:(\d+): secret", pushed.err)}
        if pushed.code == 0 or not set(starts) <= reported or stored(team, sha):
            missed[kind] = sorted(set(starts) - reported)
        for secret in secrets:
            assert all(part not in pushed.err for part in secret.parts()), kind
        bob.git("reset", "-q", "--hard", base, cwd=clone)
    assert missed == {}
    assert team.repo.rev_parse("members/bob") is None


def test_a_note_of_look_alikes_is_accepted(people: dict[str, GitUser], team: Team, tmp_path: Path):
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    text = note("Examples, ids and placeholders:\n\n" + "\n".join(
        f"- {look.line}" for look in corpus_look_alikes()
    ))  # fmt: skip

    sha = bob.commit(clone, {"reference_look_alikes.md": text}, "look-alikes")
    pushed = bob.push(clone, check=False)

    assert pushed.code == 0, pushed.err
    assert stored(team, sha)


def test_a_secret_in_a_commit_message_author_or_file_name_is_refused(
    people: dict[str, GitUser], team: Team, tmp_path: Path
):
    bob = people["bob"]
    clone = bob.workspace(team.slug, tmp_path / "bob")
    base = bob.git("rev-parse", "HEAD", cwd=clone).out.strip()
    token = BY_KIND["github-pat"][0].value
    key = BY_KIND["aws-access-key-id"][0].value
    hf = BY_KIND["huggingface-token"][0].value

    message_sha = bob.commit(clone, {"a.md": note("a")}, f"rotate deploy token\n\nnew: {token}")
    in_message = bob.push(clone, check=False)
    bob.git("reset", "-q", "--hard", base, cwd=clone)
    (clone / "b.md").write_text(note("b"))
    bob.git("add", "b.md", cwd=clone)
    bob.git("-c", f"user.name=bob {key}", "commit", "-q", "-m", "b", cwd=clone)
    in_author = bob.push(clone, check=False)
    bob.git("reset", "-q", "--hard", base, cwd=clone)
    name_sha = bob.commit(clone, {f"notes/{hf}.md": note("c")}, "c")
    in_name = bob.push(clone, check=False)

    assert in_message.code != 0 and not stored(team, message_sha)
    assert f"commit {message_sha[:12]} (message):3: secret (github-pat)" in in_message.err
    assert in_author.code != 0
    assert "(author):1: secret (aws-access-token)" in in_author.err
    assert "(committer):1: secret (aws-access-token)" in in_author.err  # -c sets both
    assert in_name.code != 0 and not stored(team, name_sha)
    assert "secret (huggingface-token): Hugging Face access token in the file name" in in_name.err
    assert "notes/[REDACTED:huggingface-token].md: secret" in in_name.err
    for pushed, secret in ((in_message, token), (in_author, key), (in_name, hf)):
        assert secret not in pushed.err
    assert team.repo.rev_parse("members/bob") is None
