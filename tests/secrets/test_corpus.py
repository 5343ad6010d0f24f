"""The generated corpus (tests/secrets/corpus.py): every kind found, no look-alike flagged,
in a pushed note and in a transcript, whatever JSON escaping hides."""

from __future__ import annotations

import base64
import json
from collections import Counter

import pytest

from memsync.secrets import check_blob, redact_transcript, scan_text
from memsync.secrets.scan import secret_spans
from tests.secrets.corpus import (
    CorpusSecret,
    LookAlike,
    corpus_look_alikes,
    corpus_secrets,
    detection_rates,
    note,
)

SECRETS = corpus_secrets()
LOOK_ALIKES = corpus_look_alikes()


def test_the_corpus_has_at_least_100_secrets_of_40_kinds_and_50_look_alikes() -> None:
    kinds = Counter(secret.kind for secret in SECRETS)
    assert len(SECRETS) >= 100 and len(kinds) >= 40 and min(kinds.values()) >= 2
    assert len(LOOK_ALIKES) >= 50
    # Random bodies: no two secrets of a kind are the same.
    assert len({secret.value for secret in SECRETS}) == len(SECRETS)
    assert corpus_secrets() == SECRETS  # a fixed seed: the same corpus every run


def test_the_detection_and_false_positive_rates_per_kind(capsys: pytest.CaptureFixture[str]):
    found, flagged = detection_rates(SECRETS, LOOK_ALIKES)
    with capsys.disabled():
        print(
            f"\ncorpus: {len(SECRETS)} secrets, {len(found)} kinds, {len(LOOK_ALIKES)} look-alikes"
        )
        for kind, (hit, total) in found.items():
            print(f"  secret {kind}: detected {hit}/{total}")
        for kind, (hit, total) in flagged.items():
            print(f"  look-alike {kind}: flagged {hit}/{total}")
    assert {k: v for k, v in found.items() if v[0] != v[1]} == {}
    assert {k: v for k, v in flagged.items() if v[0]} == {}


def _kind_id(item: CorpusSecret | LookAlike) -> str:
    return item.kind


@pytest.mark.parametrize("secret", SECRETS, ids=_kind_id)
def test_each_secret_is_refused_in_a_note_and_its_message_never_holds_it(
    secret: CorpusSecret,
) -> None:
    findings = check_blob("notes/deploy.md", note(secret.line).encode())
    assert findings, secret.line
    for finding in findings:
        assert all(part not in finding.message() for part in secret.parts())


@pytest.mark.parametrize("look", LOOK_ALIKES, ids=_kind_id)
def test_a_look_alike_is_not_a_finding(look: LookAlike) -> None:
    assert scan_text("notes/deploy.md", note(look.line)) == [], look.line


@pytest.mark.parametrize("secret", SECRETS, ids=_kind_id)
def test_each_secret_is_redacted_from_a_transcript_that_stays_valid_json(
    secret: CorpusSecret,
) -> None:
    # As Claude Code writes it: inside a JSON string, quotes escaped, lines as `\n`.
    records = [
        {"type": "user", "message": {"role": "user", "content": f"here:\n{secret.line}\nthanks"}},
        {
            "type": "assistant",
            "message": {"content": [{"type": "text", "text": f'Saved "{secret.line}" to .env'}]},
        },
        {"type": "user", "toolUseResult": {"stdout": f'{{"cfg": "{secret.line}"}}\n'}},
    ]
    text = "".join(json.dumps(record) + "\n" for record in records)
    redacted, findings = redact_transcript(text, path="s.jsonl")
    assert findings and {f.line for f in findings} <= {1, 2, 3}
    lines = redacted.splitlines()
    assert len(lines) == 3 and all(json.loads(line) for line in lines)
    for part in secret.parts():
        assert part not in redacted and json.dumps(part)[1:-1] not in redacted
    assert "[REDACTED:" in json.loads(lines[0])["message"]["content"]


def test_an_escaped_quote_no_longer_hides_an_aws_secret_key() -> None:
    secret = next(s for s in SECRETS if s.kind == "aws-secret-quoted")
    line = json.dumps({"message": {"content": secret.line}})
    assert '\\"' in line  # the raw line shows the quotes escaped
    redacted, [finding] = redact_transcript(line + "\n")
    assert finding.rule_id == "aws-secret-access-key"
    assert secret.value not in redacted and json.loads(redacted)


def test_a_putty_key_no_longer_swallows_the_rest_of_the_line() -> None:
    secret = next(s for s in SECRETS if s.kind == "putty-private-key")
    record = {"message": {"content": f"key:\n{secret.line}\n"}, "after": "kept"}
    redacted, _ = redact_transcript(json.dumps(record) + "\n")
    parsed = json.loads(redacted)
    assert parsed["after"] == "kept"
    assert parsed["message"]["content"] == "key:\n[REDACTED:private-key]\n"


def test_a_line_without_secrets_keeps_its_bytes_and_a_broken_line_is_redacted_as_text() -> None:
    aws = next(s for s in SECRETS if s.kind == "aws-access-key-id").value
    clean = '{"a": "b",   "c": [1, 2.50, "\\u00e9"]}'
    broken = '{"not json": ' + aws
    redacted, findings = redact_transcript(f"{clean}\n{broken}\n\n")
    assert redacted == f"{clean}\n" + '{"not json": [REDACTED:aws-access-token]\n\n'
    assert [f.line for f in findings] == [2]


def test_a_long_jwt_anywhere_on_a_long_line_is_found() -> None:
    # The scan read long lines in 4 KB windows overlapping by 1 KB and missed a JWT
    # longer than the overlap wherever a window's edge cut its header; 93 offsets here.
    def b64url(data: object) -> str:
        raw = json.dumps(data, separators=(",", ":")).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    jwt = ".".join(
        [b64url({"alg": "HS256", "typ": "JWT"}), b64url({"sub": "x", "roles": ["r" * 1500]}),
         "c2lnbmF0dXJl" * 4]
    )  # fmt: skip
    assert len(jwt) > 2000
    misses = []
    for offset in range(0, 9000, 97):
        line = "x" * offset + " " + jwt + " y" * 2000
        spans = [s for s in secret_spans(line) if s.rule_id == "jwt"]
        if [(s.start, s.end) for s in spans] != [(offset + 1, offset + 1 + len(jwt))]:
            misses.append(offset)
    assert misses == []


def test_secrets_in_the_text_between_nul_bytes_of_a_binary_blob_are_found() -> None:
    for secret in SECRETS[::10]:
        data = b"\x89PNG\0\0" + secret.line.encode() + b"\0\x01\x02"
        assert check_blob("assets/x.bin", data), secret.kind
