"""Finding secrets in memory text, the messages a pusher reads, and transcript redaction."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memsync.secrets import Finding, FindingKind, redact, scan_text
from tests.secrets.fakes import (
    FakeSecret,
    fake_secrets,
    line_of,
    memory_note,
    sample_memory_files,
    sample_transcript,
)

FAKES = fake_secrets()
BY_RULE = {fake.rule_id: fake for fake in FAKES}


def test_the_fakes_cover_every_class_of_secret_spec_t4_names() -> None:
    assert set(BY_RULE) == {
        "aws-access-token", "gcp-api-key", "azure-storage-account-key",
        "openai-api-key", "anthropic-api-key",
        "github-pat", "github-oauth", "github-fine-grained-pat", "gitlab-pat",
        "slack-bot-token", "slack-webhook-url", "stripe-access-token",
        "npm-access-token", "pypi-upload-token", "private-key", "jwt",
    }  # fmt: skip


@pytest.mark.parametrize("fake", FAKES, ids=[f.rule_id for f in FAKES])
def test_it_finds_each_class_of_secret_with_its_rule_and_line(fake: FakeSecret) -> None:
    text = memory_note(fake.line)
    findings = scan_text("notes/deploy.md", text)
    first_line = line_of(text, fake.value.splitlines()[0])
    assert first_line == 9
    assert [(f.rule_id, f.line, f.kind) for f in findings] == [
        (fake.rule_id, first_line, FindingKind.SECRET)
    ]


@pytest.mark.parametrize("fake", FAKES, ids=[f.rule_id for f in FAKES])
def test_the_message_names_file_line_and_rule_but_never_the_secret(fake: FakeSecret) -> None:
    text = memory_note(fake.line, before=f"Credential for the {fake.kind}:")
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
    text = f"# AWS\n\nstaging:\n  aws_access_key_id = {BY_RULE['aws-access-token'].value}\n"
    [finding] = scan_text("notes/aws.md", text)
    assert finding.message() == (
        "notes/aws.md:4: secret (aws-access-token): AWS access key"
        " — remove it and rewrite the commit"
    )


def test_it_reports_every_secret_of_a_file_in_order_of_lines() -> None:
    lines = ["# Everything the deploy needs", ""]
    for fake in FAKES:
        lines += [f"## {fake.kind}", "", f"value: {fake.line}", ""]
    text = "\n".join(lines)
    findings = scan_text("notes/everything.md", text)
    assert [f.rule_id for f in findings] == [fake.rule_id for fake in FAKES]
    assert [f.line for f in findings] == [line_of(text, f.value.splitlines()[0]) for f in FAKES]


@pytest.mark.parametrize(
    ("secret", "rule_id", "description"),
    [
        ("gh" + "s_" + "Zq9xW3vB7nM1kL5jH2gF4dS6aP8oI0uY1234", "github-app-token",
         "GitHub App installation token"),
        ("gl" + "dt-" + "Zq9xW3vB7nM1kL5jH2gF", "gitlab-deploy-token", "GitLab deploy token"),
        ("rk" + "_live_" + "Zq9xW3vB7nM1kL5jH2gF4dS6", "stripe-restricted-key",
         "Stripe restricted key"),
        ("XO" + "XP-" + "1234567890-1234567890-zq9xw3vb7nm1", "slack-user-token",
         "Slack user token"),
        ("sk-" + "ant-" + "admin01-" + "Zq9xW3vB7nM1kL5jH2gF4dS6aP8oI0uY" * 3,
         "anthropic-admin-api-key", "Anthropic admin API key"),
        ("SG." + "Zq9xW3vB7nM1kL5jH2gF4d" + "." + "Zq9xW3vB7nM1kL5jH2gF4dS6aP8oI0uY1234567890a",
         "sendgrid-api-key", "SendGrid API key"),
    ],
)  # fmt: skip
def test_a_finding_names_the_kind_of_token_its_prefix_shows(
    secret: str, rule_id: str, description: str
) -> None:
    [finding] = scan_text("notes/tokens.md", f"# Tokens\n\n{secret}\n")
    assert (finding.rule_id, finding.description, finding.line) == (rule_id, description, 3)


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
- password: "see the team vault"
- api_key = "$STAGING_API_KEY" is read from the environment, never written here
- api_version = 2024-06-01
- secret_name: prod-db-credentials-v2
- key insight: caching at the edge cut p99 from 840ms to 120ms
- test fixture: `c29tZSByYW5kb20gYnl0ZXMgZm9yIHRoZSB0ZXN0IGZpeHR1cmUgb25seQ==` (base64 text)
- sha256 of the release: 9b74c9897bac770ffc029102a200c5de5b1b9f3b7d0e4f5a6c7d8e9f0a1b2c3d
- UUIDs: 0f8e2a9c-4b1d-4e6f-9a3b-7c5d1e2f3a4b, 0F8E2A9C-4B1D-4E6F-9A3B-7C5D1E2F3A4B
- release 1.2.3.4 ships to 8.8.8.8 and 203.0.113.7 at 2026-01-05T10:15:00Z
- `curl -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/items`
- `curl -u admin:changeme http://localhost:8080` only works against the local stub
- `DATABASE_URL=postgres://localhost:5432/memsync` (the password comes from PGPASSWORD)
- Use `export API_KEY=$(op read op://vault/item/field)` before running the smoke test
- Keys look like `sk-ant-api03-...`, `ghp_...`, `AIza...` and `xoxb-...`; never paste one.
- Print the pwd, then cd into the memory directory.
- 访问令牌（token）保存在钥匙串中，不写入记忆。
"""


def test_ordinary_memory_prose_about_tokens_and_passwords_has_no_findings() -> None:
    assert scan_text("auth-and-tokens.md", ORDINARY_MEMORY) == []


def test_a_random_value_assigned_to_a_secret_named_setting_is_a_secret() -> None:
    # It was prose in ORDINARY_MEMORY once ("the old test fixture, long revoked"); a key
    # does not stop being one because a note says it was revoked.
    text = 'api_key = "9f8e7d6c5b4a39281706f5e4d3c2b1a0" was the old test fixture\n'
    assert [f.rule_id for f in scan_text("notes/fixture.md", text)] == ["secret-assignment"]
    assert redact(text)[0] == 'api_key = "[REDACTED:secret-assignment]" was the old test fixture\n'


def test_a_secret_found_by_two_rules_is_reported_once() -> None:
    aws = BY_RULE["aws-access-token"].value
    # The key is also the password of the URL: one leak, one finding, the precise rule.
    text = f"mirror: https://deploy:{aws}@artifacts.example.com/\n"
    assert [f.rule_id for f in scan_text("notes/aws.md", text)] == ["aws-access-token"]
    assert redact(text)[0] == (
        "mirror: https://deploy:[REDACTED:aws-access-token]@artifacts.example.com/\n"
    )


def test_a_password_in_a_url_is_found() -> None:
    text = "The mirror is https://deploy:Zq9xW3vB7nM1kL5j@artifacts.example.com/simple\n"
    findings = scan_text("notes/mirror.md", text)
    assert [(f.rule_id, f.line) for f in findings] == [("url-password", 1)]
    assert "Zq9xW3vB7nM1kL5j" not in redact(text)[0]


def test_a_secret_right_after_a_json_escape_is_found() -> None:
    gcp = BY_RULE["gcp-api-key"].value
    line = json.dumps({"content": f"export list:\n{gcp}\nend"})
    assert "\\n" + gcp in line
    assert [(f.rule_id, f.line) for f in scan_text("s.jsonl", line)] == [("gcp-api-key", 1)]


def test_a_key_padded_with_a_long_run_of_spaces_is_scanned_quickly() -> None:
    # detect-secrets' assignment patterns try every split of the spaces three ways:
    # minutes for 2,000 spaces unless the scan caps the run.
    text = "token" + " " * 200_000 + "= " + "Zq9xW3vB7nM1kL5jH2gF" * 3 + "\n"
    started = time.perf_counter()
    assert scan_text("notes/padded.md", text) == []
    assert time.perf_counter() - started < 20


def test_redaction_replaces_each_secret_and_keeps_every_other_character() -> None:
    parts = ["# Handover notes\n\n"]
    expected = ["# Handover notes\n\n"]
    for fake in FAKES:
        parts.append(f"- {fake.kind}: {fake.line}\n")
        redacted = fake.setting.format(f"[REDACTED:{fake.rule_id}]")
        expected.append(f"- {fake.kind}: {redacted}\n")
    parts.append("\n访问令牌不写入记忆。 The end.\n")
    expected.append("\n访问令牌不写入记忆。 The end.\n")
    redacted, findings = redact("".join(parts))
    assert redacted == "".join(expected)
    assert [f.rule_id for f in findings] == [fake.rule_id for fake in FAKES]


def test_redaction_leaves_text_without_secrets_untouched() -> None:
    assert redact(ORDINARY_MEMORY) == (ORDINARY_MEMORY, [])


def test_a_private_key_without_its_end_line_is_redacted_through_its_body() -> None:
    pem = BY_RULE["private-key"].value
    truncated = "\n".join(pem.splitlines()[:-1])
    text = f"pasted:\n{truncated}\n\nThat was the staging key.\n"
    redacted, [finding] = redact(text)
    assert redacted == "pasted:\n[REDACTED:private-key]\n\nThat was the staging key.\n"
    assert finding.line == 2


def test_a_redacted_transcript_is_still_one_json_object_per_line() -> None:
    original = sample_transcript().read_text(encoding="utf-8").splitlines()
    values = {f.rule_id: f.value for f in FAKES}
    record = {
        "type": "user",
        "message": {
            "role": "user",
            "content": (
                f"{values['anthropic-api-key']}\n"
                f'the jwt was "{values["jwt"]}\\" and the key\n'
                f"{values['private-key']}\n"
                f"slack: {values['slack-webhook-url']}"
            ),
        },
    }
    lines = [*original[:3], json.dumps(record), *original[3:]]
    redacted, findings = redact("\n".join(lines) + "\n", path="transcripts/s.jsonl")
    out = redacted.splitlines()
    assert len(out) == len(lines)
    assert out[:3] == original[:3] and out[4:] == original[3:]
    content = json.loads(out[3])["message"]["content"]
    assert content == (
        '[REDACTED:anthropic-api-key]\nthe jwt was "[REDACTED:jwt]\\" and the key\n'
        "[REDACTED:private-key]\nslack: [REDACTED:slack-webhook-url]"
    )
    assert [f.rule_id for f in findings] == [
        "anthropic-api-key",
        "jwt",
        "private-key",
        "slack-webhook-url",
    ]
    assert all(f.line == 4 for f in findings)


PROSE_PIECES = ["the token ", "key: ", 'say "hi" ', "path\\to\\file ", "tab\there ", "\\n"]
PROSE = st.sampled_from([*PROSE_PIECES, "\n", "访问 ", "= ", ":", "'", "`", "//", "@", "-----"])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(PROSE, st.sampled_from(FAKES)), min_size=1, max_size=12))
def test_any_transcript_record_stays_valid_json_with_no_secret_left(
    pieces: list[str | FakeSecret],
) -> None:
    # Each secret on a line of its own, as in a file: a key glued to the next word is not
    # a key of its format, and detect-secrets reads one npm setting per line.
    content = "".join(f"\n{p.line}\n" if isinstance(p, FakeSecret) else p for p in pieces)
    lines = [json.dumps({"type": "user", "message": {"content": content}}), '{"type": "x"}']
    redacted, _ = redact("\n".join(lines) + "\n")
    out = redacted.splitlines()
    assert len(out) == 2
    assert json.loads(out[1]) == {"type": "x"}
    kept = json.loads(out[0])["message"]["content"]
    for piece in pieces:
        if isinstance(piece, FakeSecret):
            for part in piece.value.splitlines():
                assert part not in kept


def test_findings_of_a_transcript_name_its_path() -> None:
    _, [finding] = redact(f"key {BY_RULE['aws-access-token'].value}\n", path="transcripts/s.jsonl")
    assert finding == Finding(
        "transcripts/s.jsonl", 1, "aws-access-token", "AWS access key", FindingKind.SECRET
    )
