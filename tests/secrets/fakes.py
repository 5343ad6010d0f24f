"""Real-looking fake secrets, assembled at run time.

No secret-shaped literal sits in this repository (scanners, ours included, would flag
it): every value is built from its prefix split in pieces plus seeded random characters,
so it has the shape, length and entropy of a real one and is valid for nothing.
"""

from __future__ import annotations

import base64
import json
import random
import string
from dataclasses import dataclass
from pathlib import Path

ALNUM = string.ascii_letters + string.digits
LOWER_ALNUM = string.ascii_lowercase + string.digits
URLSAFE = ALNUM + "_-"
SAMPLES = Path(__file__).parent / "samples"


@dataclass(frozen=True)
class FakeSecret:
    kind: str  # what a person would call it
    rule_id: str  # the rule that must find it
    value: str  # the secret itself: what redaction removes
    # How it sits on a line of a file; `{}` is the secret (npm tokens are found where an
    # .npmrc line assigns them, as detect-secrets looks for them).
    setting: str = "{}"

    @property
    def line(self) -> str:
        return self.setting.format(self.value)


def _random(rnd: random.Random, alphabet: str, length: int) -> str:
    return "".join(rnd.choice(alphabet) for _ in range(length))


def _b64url(data: dict[str, object]) -> str:
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def fake_secrets(seed: int = 20260105) -> list[FakeSecret]:
    """One fake per class SPEC T4 names, each tagged with the rule that must find it."""
    rnd = random.Random(seed)
    pem_body = "\n".join(_random(rnd, ALNUM + "+/", 64) for _ in range(6))
    begin, end, label = "-----" + "BEGIN", "-----" + "END", " RSA PRIVATE" + " KEY-----"
    header = _b64url({"alg": "HS256", "typ": "JWT"})
    payload = _b64url({"sub": _random(rnd, LOWER_ALNUM, 12), "iat": 1767225600, "adm": True})
    return [
        FakeSecret("AWS access key", "aws-access-token",
                   "AK" + "IA" + _random(rnd, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)),
        FakeSecret("Google Cloud API key", "gcp-api-key",
                   "AI" + "za" + _random(rnd, URLSAFE, 35)),
        FakeSecret("Azure storage account key", "azure-storage-account-key",
                   "Account" + "Key=" + _random(rnd, ALNUM + "+/", 86) + "==",
                   "DefaultEndpointsProtocol=https;AccountName=memsyncstaging;{};"
                   "EndpointSuffix=core.windows.net"),
        FakeSecret("OpenAI API key", "openai-api-key",
                   "sk-" + "proj-" + _random(rnd, URLSAFE, 54) + _random(rnd, ALNUM, 20)
                   + "T3Blbk" + "FJ" + _random(rnd, ALNUM, 20) + _random(rnd, URLSAFE, 54)),
        FakeSecret("Anthropic API key", "anthropic-api-key",
                   "sk-" + "ant-" + "api03-" + _random(rnd, URLSAFE, 93) + "AA"),
        FakeSecret("GitHub personal access token", "github-pat",
                   "gh" + "p_" + _random(rnd, ALNUM, 36)),
        FakeSecret("GitHub OAuth token", "github-oauth", "gh" + "o_" + _random(rnd, ALNUM, 36)),
        FakeSecret("GitHub fine-grained token", "github-fine-grained-pat",
                   "github" + "_pat_" + _random(rnd, ALNUM, 22) + "_" + _random(rnd, ALNUM, 59)),
        FakeSecret("GitLab personal access token", "gitlab-pat",
                   "gl" + "pat-" + _random(rnd, ALNUM, 20)),
        FakeSecret("Slack bot token", "slack-bot-token",
                   "xo" + "xb-" + _random(rnd, string.digits, 11) + "-"
                   + _random(rnd, string.digits, 12) + "-" + _random(rnd, ALNUM, 24)),
        FakeSecret("Slack webhook", "slack-webhook-url",
                   "https://hooks." + "slack.com/services/T" + _random(rnd, ALNUM, 8).upper()
                   + "/B" + _random(rnd, ALNUM, 8).upper() + "/" + _random(rnd, ALNUM, 24)),
        FakeSecret("Stripe secret key", "stripe-access-token",
                   "sk" + "_live_" + _random(rnd, ALNUM, 99)),
        FakeSecret("npm token", "npm-access-token", "np" + "m_" + _random(rnd, ALNUM, 36),
                   "//registry.npmjs.org/:_auth" + "Token={}"),
        FakeSecret("PyPI upload token", "pypi-upload-token",
                   "pypi-" + "AgEIcHlwaS5vcmc" + _random(rnd, URLSAFE, 70)),
        FakeSecret("PEM private key", "private-key",
                   f"{begin}{label}\n{pem_body}\n{end}{label}"),
        FakeSecret("JSON Web Token", "jwt",
                   f"{header}.{payload}.{_random(rnd, URLSAFE, 43)}"),
    ]  # fmt: skip


def memory_note(secret: str, *, before: str = "The staging deploy reads it from here:") -> str:
    """A topic file in Claude Code's format with `secret` on a line of its own."""
    return (
        "---\n"
        "name: staging-deploy\n"
        "description: How the staging deploy authenticates, and who rotates what\n"
        "type: reference\n"
        "---\n"
        "\n"
        f"{before}\n"
        "\n"
        f"    {secret}\n"
        "\n"
        "**Why:** the deploy broke twice when the credential expired.\n"
        "**How to apply:** rotate it before the quarterly password policy review.\n"
    )


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def sample(name: str) -> bytes:
    return (SAMPLES / name).read_bytes()


def sample_memory_files() -> list[Path]:
    return sorted(SAMPLES.glob("*.md"))


def sample_transcript() -> Path:
    return next(SAMPLES.glob("*.jsonl"))
