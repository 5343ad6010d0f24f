"""The secret rules: detect-secrets' regex detectors, plus two documented key formats.

The rule set is Yelp's detect-secrets (a dependency, installed from PyPI): every pattern
of its `RegexBasedDetector` plugins is used as the package ships it — the compiled
regex object itself, never a copy of its text — except the detectors in
`EXCLUDED_DETECTORS`, each with the reason. detect-secrets has no rule for two key
classes SPEC T4 names, Anthropic and Google Cloud API keys; `OWN_RULES` adds them from
the vendors' published key formats.

What memsync adds to each pattern is what a scan of memory text needs: a readable,
stable rule id and a short description for the message a pusher reads; the literals
and shape every match holds (the cheap prefilter); which capture group holds the
secret; and how far the secret reaches, so that redaction removes all of it and nothing
else (detect-secrets stops a private key at its `BEGIN` line, a JWT before its
signature, and an OpenAI or Stripe key after a fixed number of characters).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from detect_secrets.plugins.artifactory import ArtifactoryDetector
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.cloudant import CloudantDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.ibm_cloud_iam import IbmCloudIamDetector
from detect_secrets.plugins.ibm_cos_hmac import IbmCosHmacDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.private_key import PrivateKeyDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.softlayer import SoftlayerDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector

# detect-secrets plugins memsync does not run, by class name, and why.
EXCLUDED_DETECTORS: Mapping[str, str] = MappingProxyType(
    {
        "KeywordDetector": (
            "flags any value assigned to a word such as password, secret or token, so "
            "ordinary memory prose ('password: in 1Password', 'token = see the vault') is "
            "refused; SPEC T4 asks for rules with distinctive prefixes"
        ),
        "Base64HighEntropyString": (
            "flags any random-looking quoted string: base64 test data, hashes and ids that "
            "memory notes quote all the time"
        ),
        "HexHighEntropyString": (
            "flags any random-looking quoted hex string: git SHAs, checksums and UUIDs that "
            "memory notes quote all the time"
        ),
        "IPPublicDetector": (
            "a public IP address is not a credential, and its pattern also matches dotted "
            "version numbers such as 1.2.3.4"
        ),
    }
)


class Reach(Enum):
    """How far a secret extends beyond what its pattern matched."""

    # Exactly the secret group (or the whole match).
    MATCH = "match"
    # The run of token characters (letters, digits, `_`, `-`) that starts inside the
    # match: a delimiter the pattern matched is left out, the rest of a longer key is not.
    TOKEN = "token"
    # Header, payload and signature of a JSON Web Token.
    JWT = "jwt"
    # A whole private key: its BEGIN marker through its END marker (PuTTY: through the
    # Private-MAC line), or through the base64 lines that follow when the end is missing.
    KEY_BLOCK = "key-block"


@dataclass(frozen=True)
class Variant:
    """A more precise id and description for secrets starting with `prefix`."""

    prefix: str
    id: str
    description: str


@dataclass(frozen=True)
class Rule:
    """One pattern, with what memsync needs to scan for it cheaply and report it.

    `literals` and `shape` are the prefilter: the pattern is searched only on lines
    holding one of the literals (lower-case, looked up in lower-cased text, when the
    pattern ignores case) and the shape. A line's shape is its ASCII text with every
    letter, digit, `_`, `-`, `+` and `/` read as `a`, `.` and `:` kept, and any other
    character read as a space: `a` * 44 says a match holds 44 such characters in a row.
    Lines are found by their literals, or by their shape when the rule has one: it is
    given to rules whose literals are common words (key, token) or that have none.
    Both are read off the pattern; tests/secrets/test_rules.py checks on generated
    matches that every match holds them.
    """

    id: str
    description: str
    pattern: re.Pattern[str]
    literals: tuple[str, ...]
    # "detect-secrets <plugin class>" or "memsync" (OWN_RULES).
    source: str
    shape: str = ""
    # The capture group holding the secret; 0 is the whole match.
    secret_group: int = 0
    reach: Reach = Reach.MATCH
    variants: tuple[Variant, ...] = ()
    # A check a match must pass to count (the detector's own, where it has one).
    valid: Callable[[str], bool] | None = None

    @property
    def folded(self) -> bool:
        """Whether the literals are looked up in lower-cased text."""
        return bool(self.pattern.flags & re.IGNORECASE)

    def named(self, secret: str) -> tuple[str, str]:
        """The rule id and description for `secret`, a variant's when one applies."""
        start = secret.lower() if self.folded else secret
        for variant in self.variants:
            if start.startswith(variant.prefix):
                return variant.id, variant.description
        return self.id, self.description


def _denylist(detector: type[RegexBasedDetector]) -> list[re.Pattern[str]]:
    return list(detector().denylist)


def _detected(
    detector: type[RegexBasedDetector],
    index: int,
    rule_id: str,
    description: str,
    literals: tuple[str, ...],
    *,
    shape: str = "",
    secret_group: int = 0,
    reach: Reach = Reach.MATCH,
    variants: tuple[Variant, ...] = (),
    valid: Callable[[str], bool] | None = None,
) -> Rule:
    return Rule(
        id=rule_id,
        description=description,
        pattern=_denylist(detector)[index],
        literals=literals,
        source=f"detect-secrets {detector.__name__}",
        shape=shape,
        secret_group=secret_group,
        reach=reach,
        variants=variants,
        valid=valid,
    )


# Keywords of the assignment-shaped detectors (IBM, SoftLayer): every match names a
# key, pwd, password, pass or token.
_CREDENTIAL_WORDS = ("key", "pwd", "pass", "token")


def _run(length: int) -> str:
    """`length` letters, digits, `_`, `-`, `+` or `/` in a row, in a `Rule.shape`."""
    return "a" * length


DETECTED_RULES: tuple[Rule, ...] = (
    # Rule ids the sync tests, clients and stored transcripts already know are kept.
    _detected(
        AWSKeyDetector,
        0,
        "aws-access-token",
        "AWS access key",
        ("A3T", "ABIA", "ACCA", "AKIA", "ASIA"),
    ),
    _detected(
        AWSKeyDetector,
        1,
        "aws-secret-access-key",
        "AWS secret access key",
        ("aws",),
        secret_group=1,
    ),
    _detected(
        AzureStorageKeyDetector,
        0,
        "azure-storage-account-key",
        "Azure storage account key",
        ("AccountKey=",),
    ),
    _detected(
        IbmCloudIamDetector,
        0,
        "ibm-cloud-iam-key",
        "IBM Cloud IAM key",
        _CREDENTIAL_WORDS,
        shape=_run(44),
        secret_group=1,
    ),
    _detected(
        IbmCosHmacDetector,
        0,
        "ibm-cos-hmac-secret",
        "IBM Cloud Object Storage HMAC secret",
        ("secret",),
        shape=_run(48),
        secret_group=1,
    ),
    _detected(
        CloudantDetector,
        0,
        "cloudant-credentials",
        "Cloudant credentials",
        ("cl",),
        shape=_run(64),
        secret_group=1,
    ),
    *(
        _detected(
            CloudantDetector,
            n,
            "cloudant-credentials",
            "Cloudant credentials",
            ("cl",) if n == 1 else ("cloudant.com",),
            secret_group=1,
        )
        for n in (1, 2, 3)
    ),
    _detected(
        SoftlayerDetector,
        0,
        "softlayer-api-key",
        "SoftLayer API key",
        ("softlayer", "sl"),
        shape=_run(64),
        secret_group=1,
    ),
    _detected(
        SoftlayerDetector,
        1,
        "softlayer-api-key",
        "SoftLayer API key",
        ("softlayer",),
        shape=_run(64),
        secret_group=1,
    ),
    _detected(
        OpenAIDetector,
        0,
        "openai-api-key",
        "OpenAI API key",
        ("T3BlbkFJ",),
        reach=Reach.TOKEN,
    ),
    _detected(
        GitHubTokenDetector,
        0,
        "github-token",
        "GitHub token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        variants=(
            Variant("ghp_", "github-pat", "GitHub personal access token"),
            Variant("gho_", "github-oauth", "GitHub OAuth token"),
            Variant("ghu_", "github-user-token", "GitHub user-to-server token"),
            Variant("ghs_", "github-app-token", "GitHub App installation token"),
            Variant("ghr_", "github-refresh-token", "GitHub refresh token"),
        ),
    ),
    _detected(
        GitLabTokenDetector,
        0,
        "gitlab-token",
        "GitLab token",
        ("glpat-", "gldt-", "glft-", "glsoat-", "glrt-"),
        variants=(
            Variant("glpat-", "gitlab-pat", "GitLab personal access token"),
            Variant("gldt-", "gitlab-deploy-token", "GitLab deploy token"),
            Variant("glft-", "gitlab-feed-token", "GitLab feed token"),
            Variant("glsoat-", "gitlab-oauth-token", "GitLab OAuth access token"),
            Variant("glrt-", "gitlab-runner-token", "GitLab runner token"),
        ),
    ),
    _detected(
        GitLabTokenDetector,
        1,
        "gitlab-runner-registration-token",
        "GitLab runner registration token",
        ("GR1348941",),
    ),
    _detected(GitLabTokenDetector, 2, "gitlab-ci-build-token", "GitLab CI/CD token", ("glcbt-",)),
    _detected(
        GitLabTokenDetector,
        3,
        "gitlab-incoming-mail-token",
        "GitLab incoming mail token",
        ("glimt-",),
    ),
    _detected(GitLabTokenDetector, 4, "gitlab-trigger-token", "GitLab trigger token", ("glptt-",)),
    _detected(GitLabTokenDetector, 5, "gitlab-agent-token", "GitLab agent token", ("glagent-",)),
    _detected(
        GitLabTokenDetector,
        6,
        "gitlab-oauth-app-secret",
        "GitLab OAuth application secret",
        ("gloas-",),
    ),
    _detected(
        SlackDetector,
        0,
        "slack-token",
        "Slack token",
        ("xox",),
        variants=(
            Variant("xoxb-", "slack-bot-token", "Slack bot token"),
            Variant("xoxp-", "slack-user-token", "Slack user token"),
            Variant("xoxa-", "slack-app-token", "Slack app token"),
            Variant("xoxr-", "slack-refresh-token", "Slack refresh token"),
        ),
    ),
    _detected(SlackDetector, 1, "slack-webhook-url", "Slack webhook URL", ("hooks.slack.com",)),
    _detected(
        StripeDetector,
        0,
        "stripe-key",
        "Stripe key",
        ("k_live_",),
        reach=Reach.TOKEN,
        variants=(
            Variant("sk_live_", "stripe-access-token", "Stripe secret key"),
            Variant("rk_live_", "stripe-restricted-key", "Stripe restricted key"),
        ),
    ),
    _detected(
        NpmDetector,
        0,
        "npm-access-token",
        "npm access token",
        ("/:_authToken=",),
        secret_group=1,
        reach=Reach.TOKEN,
    ),
    _detected(PypiTokenDetector, 0, "pypi-upload-token", "PyPI upload token", ("pypi-",)),
    _detected(PypiTokenDetector, 1, "pypi-upload-token", "TestPyPI upload token", ("pypi-",)),
    _detected(
        ArtifactoryDetector,
        0,
        "artifactory-api-token",
        "Artifactory API token",
        ("AKC",),
        reach=Reach.TOKEN,
    ),
    _detected(
        ArtifactoryDetector,
        1,
        "artifactory-password",
        "Artifactory encrypted password",
        ("AP",),
        reach=Reach.TOKEN,
    ),
    _detected(
        DiscordBotTokenDetector,
        0,
        "discord-bot-token",
        "Discord bot token",
        (),
        shape=_run(24) + "." + _run(6) + "." + _run(27),
    ),
    _detected(MailchimpDetector, 0, "mailchimp-api-key", "Mailchimp API key", ("-us",)),
    _detected(SendGridDetector, 0, "sendgrid-api-key", "SendGrid API key", ("SG.",)),
    _detected(SquareOAuthDetector, 0, "square-oauth-secret", "Square OAuth secret", ("sq0csp-",)),
    _detected(
        TelegramBotTokenDetector,
        0,
        "telegram-bot-token",
        "Telegram bot token",
        (),
        shape=_run(8) + ":" + _run(35),
    ),
    _detected(TwilioKeyDetector, 0, "twilio-account-sid", "Twilio account SID", ("AC",)),
    _detected(TwilioKeyDetector, 1, "twilio-api-key", "Twilio API key", ("SK",)),
    _detected(
        BasicAuthDetector,
        0,
        "url-password",
        "password in a URL",
        ("://",),
        secret_group=1,
    ),
    *(
        _detected(
            PrivateKeyDetector,
            n,
            "private-key",
            "private key",
            ("BEGIN",) if n < 7 else ("PuTTY-User-Key-File-",),
            reach=Reach.KEY_BLOCK,
        )
        for n in range(8)
    ),
    _detected(
        JwtTokenDetector,
        0,
        "jwt",
        "JSON Web Token",
        ("eyJ",),
        reach=Reach.JWT,
        valid=JwtTokenDetector.is_formally_valid,
    ),
)

# Key formats detect-secrets has no rule for. Each is the vendor's documented prefix and
# alphabet, with the length of a real key; none is a guess at what a secret looks like.
OWN_RULES: tuple[Rule, ...] = (
    # Anthropic: the Claude Console shows a new API key once, and the key begins with
    # `sk-ant-` (platform.claude.com/docs/en/get-api-key, whose example is an elided
    # `sk-ant-api03-` key); Admin API keys begin with `sk-ant-admin`
    # (docs.anthropic.com/en/api/administration-api). The body is base64url; asking for 32
    # of its characters leaves elided examples in notes alone.
    Rule(
        id="anthropic-api-key",
        description="Anthropic API key",
        pattern=re.compile(r"sk-ant-[A-Za-z0-9_-]{32,}"),
        literals=("sk-ant-",),
        source="memsync",
        variants=(Variant("sk-ant-admin", "anthropic-admin-api-key", "Anthropic admin API key"),),
    ),
    # Google Cloud: an API key string is `AIza` followed by 35 base64url characters, 39 in
    # all, as the example key in cloud.google.com/docs/authentication/api-keys shows; it
    # stands alone, not inside a longer run of such characters.
    Rule(
        id="gcp-api-key",
        description="Google Cloud API key",
        pattern=re.compile(r"(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])"),
        literals=("AIza",),
        source="memsync",
    ),
    # GitHub fine-grained personal access tokens begin with `github_pat_` (GitHub's
    # "About authentication to GitHub" lists the prefixes); detect-secrets' GitHub detector
    # knows only the `ghp_`-style prefixes. The body is letters, digits and underscores.
    Rule(
        id="github-fine-grained-pat",
        description="GitHub fine-grained personal access token",
        pattern=re.compile(r"github_pat_[A-Za-z0-9_]{36,}"),
        literals=("github_pat_",),
        source="memsync",
    ),
)

RULES: tuple[Rule, ...] = DETECTED_RULES + OWN_RULES
