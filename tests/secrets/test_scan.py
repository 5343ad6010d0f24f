"""Finding secrets in memory text, the messages a pusher reads, and transcript redaction."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsync.secrets import Finding, FindingKind, redact, scan_text, shannon_entropy
from tests.secrets.fakes import (
    FakeSecret,
    fake_secrets,
    line_of,
    memory_note,
    sample_memory_files,
    sample_transcript,
)

FAKES = fake_secrets()


@pytest.mark.parametrize("fake", FAKES, ids=[f.rule_id for f in FAKES])
def test_it_finds_each_class_of_secret_with_its_rule_and_line(fake: FakeSecret) -> None:
    text = memory_note(fake.value)
    findings = scan_text("notes/deploy.md", text)
    first_line = line_of(text, fake.value.splitlines()[0])
    assert [(f.rule_id, f.line, f.kind) for f in findings] == [
        (fake.rule_id, first_line, FindingKind.SECRET)
    ]


@pytest.mark.parametrize("fake", FAKES, ids=[f.rule_id for f in FAKES])
def test_the_message_names_file_line_and_rule_but_never_the_secret(fake: FakeSecret) -> None:
    text = memory_note(fake.value, before=f"Credential for the {fake.kind}:")
    [finding] = scan_text("notes/deploy.md", text)
    message = finding.message()
    assert message.startswith(f"notes/deploy.md:{finding.line}: secret ({fake.rule_id}): ")
    assert "remove it and rewrite the commit" in message
    secret_lines = [line for line in fake.value.splitlines() if len(line) >= 8]
    for line in secret_lines:
        # No recognisable piece of the secret either: no 8-character window of it.
        assert not any(line[i : i + 8] in message for i in range(len(line) - 7)), message
    assert fake.value not in repr(finding)


def test_the_aws_message_reads_as_the_spec_shows_it() -> None:
    aws = next(f for f in FAKES if f.rule_id == "aws-access-token")
    text = f"# AWS\n\nstaging:\n  aws_access_key_id = {aws.value}\n"
    [finding] = scan_text("notes/aws.md", text)
    assert finding.message() == (
        "notes/aws.md:4: secret (aws-access-token): AWS access key"
        " — remove it and rewrite the commit"
    )


def test_it_reports_every_secret_of_a_file_in_order_of_lines() -> None:
    lines = ["# Everything the deploy needs", ""]
    for fake in FAKES:
        lines += [f"## {fake.kind}", "", f"value: {fake.value}", ""]
    text = "\n".join(lines)
    findings = scan_text("notes/everything.md", text)
    assert [f.rule_id for f in findings] == [fake.rule_id for fake in FAKES]
    assert [f.line for f in findings] == [line_of(text, f.value.splitlines()[0]) for f in FAKES]


@pytest.mark.parametrize("sample", sample_memory_files(), ids=lambda p: p.name.split("__")[-1])
def test_real_claude_code_memory_files_have_no_findings(sample: Path) -> None:
    assert scan_text(sample.name, sample.read_text(encoding="utf-8")) == []


def test_a_real_claude_code_transcript_has_nothing_to_redact() -> None:
    text = sample_transcript().read_text(encoding="utf-8")
    assert redact(text, path="transcripts/session.jsonl") == (text, [])


ORDINARY_MEMORY = """\
---
name: auth-and-tokens
description: How the team handles tokens, the password policy and the auth service
type: project
originSessionId: 1af7fc5e-8455-4414-9ccd-011d40f70b2a
---

The password policy requires 14 characters and rotation every 90 days; the token
cache lives in Redis with a 15 minute TTL. API keys are kept in 1Password, never here.

**Why:** commit 4e1c2b9a7d3f5e8c0b6a9d2f1e4c7b8a5d3e9f0c broke the token refresh when the
auth middleware was reordered (session 3f2b8c1e-9d4a-4f6b-8e2c-1a7d5b9c0e3f).
**How to apply:** check `auth/refresh.py` before touching the middleware order.

- API key: stored in 1Password under "Staging deploy"
- token: `GITHUB_TOKEN` from the Actions environment
- api_version = 2024-06-01
- secret_name: prod-db-credentials-v2
- key insight: caching at the edge cut p99 from 840ms to 120ms
- test fixture: `c29tZSByYW5kb20gYnl0ZXMgZm9yIHRoZSB0ZXN0IGZpeHR1cmUgb25seQ==` (base64 text)
- sha256 of the release: 9b74c9897bac770ffc029102a200c5de5b1b9f3b7d0e4f5a6c7d8e9f0a1b2c3d
- `curl -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/items`
- `curl -u admin:changeme http://localhost:8080` only works against the local stub
- Use `export API_KEY=$(op read op://vault/item/field)` before running the smoke test
- Print the pwd, then cd into the memory directory.
- 访问令牌（token）保存在钥匙串中，不写入记忆。
"""


def test_ordinary_memory_prose_about_tokens_and_passwords_has_no_findings() -> None:
    assert scan_text("auth-and-tokens.md", ORDINARY_MEMORY) == []


def test_a_key_assigned_in_prose_is_found_by_the_generic_rule() -> None:
    text = ORDINARY_MEMORY + 'api_key = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"\n'
    findings = scan_text("auth-and-tokens.md", text)
    assert [(f.rule_id, f.line) for f in findings] == [
        ("generic-api-key", line_of(text, "api_key = "))
    ]


def test_a_low_entropy_look_alike_is_not_a_secret() -> None:
    looks_like_aws = "AK" + "IA" + "A" * 16
    assert shannon_entropy(looks_like_aws) < 1.0
    assert scan_text("notes/x.md", f"id: {looks_like_aws}\n") == []


def test_the_aws_documentation_example_key_is_allowed_by_its_rule() -> None:
    example = "AK" + "IA" + "IOSFODNN7" + "EXAMPLE"
    assert scan_text("notes/aws.md", f"aws_access_key_id = {example}\n") == []


def test_a_rule_runs_only_when_one_of_its_keywords_is_in_the_file() -> None:
    # facebook-access-token's pattern has no "facebook" in it: the keyword gates the file.
    token = "1234567890" + "12345" + "|" + "Zq9xW3vB7nM1kL5jH2gF4dS6aP8oI0uY"
    assert scan_text("notes/app.md", f"app token {token}\n") == []
    findings = scan_text("notes/app.md", f"Facebook app\n\napp token {token}\n")
    assert [(f.rule_id, f.line) for f in findings] == [("facebook-access-token", 3)]


def test_a_rule_allowlist_path_lets_the_documented_file_through() -> None:
    token = next(f.value for f in FAKES if f.rule_id == "github-pat")
    text = f"Example: {token}\n"
    assert scan_text("vendored/@octokit/auth-token/README.md", text) == []
    assert [f.rule_id for f in scan_text("notes/README.md", text)] == ["github-pat"]


def test_the_global_path_allowlist_skips_lock_files_but_never_a_memory_file() -> None:
    token = next(f.value for f in FAKES if f.rule_id == "github-pat")
    text = f"token {token}\n"
    assert scan_text("web/package-lock.json", text) == []
    assert scan_text("node_modules/pkg/index.js", text) == []
    # Upstream's `gitleaks\.toml` is unanchored; a memory named like it is still read.
    assert [f.rule_id for f in scan_text("notes/gitleaks.toml.md", text)] == ["github-pat"]
    assert [f.rule_id for f in scan_text("node_modules/notes.md", text)] == ["github-pat"]


def test_a_path_restricted_rule_only_looks_at_its_own_files() -> None:
    text = 'administrator_login_password = "Qm7xK2pL9v"\n'
    assert [f.rule_id for f in scan_text("infra/main.tf", text)] == ["hashicorp-tf-password"]
    assert scan_text("notes/infra.md", text) == []


def test_a_secret_inside_another_findings_secret_is_reported_once() -> None:
    aws = next(f.value for f in FAKES if f.rule_id == "aws-access-token")
    # generic-api-key matches `aws_secret_key = …` too; one leak, one finding.
    findings = scan_text("notes/aws.md", f"aws_secret_key = '{aws}'\n")
    assert [f.rule_id for f in findings] == ["aws-access-token"]


def test_a_secret_right_after_a_json_escape_is_found() -> None:
    aws = next(f.value for f in FAKES if f.rule_id == "aws-access-token")
    line = json.dumps({"content": f"export list:\n{aws}\nend"})
    assert "\\n" + aws in line
    assert [(f.rule_id, f.line) for f in scan_text("s.jsonl", line)] == [("aws-access-token", 1)]


def test_redaction_replaces_each_secret_and_keeps_every_other_character() -> None:
    parts = ["# Handover notes\n\n"]
    expected = ["# Handover notes\n\n"]
    for fake in FAKES:
        parts.append(f"- {fake.kind}: {fake.value}\n")
        expected.append(f"- {fake.kind}: [REDACTED:{fake.rule_id}]\n")
    parts.append("\n访问令牌不写入记忆。 The end.\n")
    expected.append("\n访问令牌不写入记忆。 The end.\n")
    redacted, findings = redact("".join(parts))
    assert redacted == "".join(expected)
    assert [f.rule_id for f in findings] == [fake.rule_id for fake in FAKES]


def test_redaction_leaves_text_without_secrets_untouched() -> None:
    assert redact(ORDINARY_MEMORY) == (ORDINARY_MEMORY, [])


def test_a_redacted_transcript_is_still_one_json_object_per_line() -> None:
    original = sample_transcript().read_text(encoding="utf-8").splitlines()
    fakes = {f.rule_id: f.value for f in FAKES}
    record = {
        "type": "user",
        "message": {
            "role": "user",
            "content": (
                f"{fakes['anthropic-api-key']}\n"
                f'the jwt was "{fakes["jwt"]}\\" and the key\n'
                f"{fakes['private-key']}\n"
                f"slack: {fakes['slack-webhook-url']}"
            ),
        },
    }
    lines = [*original[:3], json.dumps(record), *original[3:]]
    redacted, findings = redact("\n".join(lines) + "\n", path="transcripts/s.jsonl")
    out = redacted.splitlines()
    assert len(out) == len(lines)
    assert out[:3] == original[:3] and out[4:] == original[3:]
    content = json.loads(out[3])["message"]["content"]
    assert content.startswith('[REDACTED:anthropic-api-key]\nthe jwt was "[REDACTED:jwt]')
    assert "[REDACTED:private-key]\nslack: [REDACTED:slack-webhook-url]" in content
    for value in fakes.values():
        assert value.splitlines()[0] not in redacted
    assert {f.rule_id for f in findings} == {
        "anthropic-api-key",
        "jwt",
        "private-key",
        "slack-webhook-url",
    }
    assert all(f.line == 4 for f in findings)


def test_findings_of_a_transcript_name_its_path() -> None:
    aws = next(f.value for f in FAKES if f.rule_id == "aws-access-token")
    _, [finding] = redact(f"key {aws}\n", path="transcripts/s.jsonl")
    assert finding == Finding(
        "transcripts/s.jsonl", 1, "aws-access-token", "AWS access key", FindingKind.SECRET
    )
