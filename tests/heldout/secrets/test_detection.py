"""memsync's secret detection measured on the held-out corpus (issue 10 item 5).

Never used to choose a rule or a threshold, only to check the ones chosen on
tests/secrets/corpus.py. The figures are printed (run with ``-s``). Every kind the
detector misses in some setting is listed below with the reason, so a new miss — or a
kind that starts to be caught — fails here and the lists are kept true.
"""

from __future__ import annotations

import pytest

from tests.heldout.secrets import lookalikes, secrets
from tests.heldout.secrets.measure import Results, measure, report

# Kinds caught in no setting at all.
KNOWN_MISSES: dict[str, str] = {
    "bearer-opaque": "a prefix-less token after `Authorization: Bearer` is not looked at",
    "curl-user-password": "`curl -u user:password` is not looked at",
    "discord-webhook": "Discord webhook URLs are not among the formats",
    "docker-login-password": "`docker login --password <pw>` is not looked at",
    "kube-client-key-data": "a base64-wrapped PEM key (kubeconfig client-key-data) is not decoded",
}

# Kinds caught in some settings: the number caught, and why the rest are missed.
PARTIAL: dict[str, tuple[int, str]] = {
    "api-key-assignment": (4, "`api_key` inside a JS object literal, and in prose"),
    "aws-secret-access-key": (9, "an `export NAME=value` line in a console block"),
    "basic-auth-header": (2, "`Basic <base64>` outside a curl -H or Authorization: line"),
    "cli-password-flag": (2, "in prose the value has no flag or secret-named key"),
    "db-password-env": (2, "DB_PASSWORD in YAML, in a transcript tool result, in prose"),
    "kube-token": (3, "an EKS `k8s-aws-v1.` token in prose"),
    "npmrc-legacy-uuid": (2, "`npm config set …:_authToken <uuid>` (a space, not `=`)"),
    "password-assignment": (4, "`password` in a JS object, in prose, in Chinese and German"),
    "secret-key-assignment": (4, "`secret_key=…` in a transcript tool result"),
    "sshpass": (1, "the password in prose, and sshpass in a transcript's tool call"),
}

# Look-alike kinds with a false positive, and which.
KNOWN_FALSE_POSITIVES: dict[str, tuple[int, str]] = {
    "encrypted-value": (2, "SOPS ENC[…] and Ansible !vault values of a secret-named key"),
    "placeholder": (2, "a run of x after ghp_, and postgres://USER:PASSWORD@HOST"),
    "reference": (1, "`password = getpass.getpass(…)` judged as a literal"),
}

DETECTION_FLOOR = 0.93  # measured 93.4% (604 of 647)
REDACTION_FLOOR = 0.91  # measured 92.1%
FALSE_POSITIVE_CEILING = 0.05  # measured 4.5% (5 of 112)


@pytest.fixture(scope="module")
def results() -> Results:
    measured = measure()
    print("\n" + report(measured))
    return measured


def test_the_corpus_is_as_large_as_the_issue_asks() -> None:
    samples = secrets()
    assert len(samples) >= 150
    assert len({s.kind for s in samples}) >= 40
    assert len(lookalikes()) >= 80


def test_detection_and_false_positives_stay_within_the_measured_bounds(results: Results) -> None:
    assert results.detection() >= DETECTION_FLOOR
    assert results.redaction() >= REDACTION_FLOOR
    assert results.false_positive_rate() <= FALSE_POSITIVE_CEILING


def test_every_kind_is_caught_everywhere_unless_listed(results: Results) -> None:
    surprises = []
    for kind, tally in results.secrets.items():
        if kind in KNOWN_MISSES:
            expected = 0
        elif kind in PARTIAL:
            expected = PARTIAL[kind][0]
        else:
            expected = tally.total
        if tally.hits != expected:
            surprises.append(f"{kind}: caught {tally.hits}/{tally.total}, listed {expected}")
    assert surprises == [], "update KNOWN_MISSES / PARTIAL (and say why):\n" + "\n".join(surprises)


def test_no_false_positive_but_the_listed_ones(results: Results) -> None:
    surprises = [
        f"{kind}: {tally.hits} flagged in {'; '.join(tally.missed_in)}"
        for kind, tally in results.lookalikes.items()
        if tally.hits != KNOWN_FALSE_POSITIVES.get(kind, (0, ""))[0]
    ]
    assert surprises == [], "update KNOWN_FALSE_POSITIVES:\n" + "\n".join(surprises)
