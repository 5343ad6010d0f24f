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

from memsync.secrets.contextual import CONTEXT_RULES
from memsync.secrets.formats import FORMAT_RULES, given_password
from memsync.secrets.rule import Reach, Rule, Variant

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


def _denylist(detector: type[RegexBasedDetector]) -> list[re.Pattern[str]]:
    return list(detector().denylist)


# detect-secrets patterns that backtrack quadratically on a long line, replaced by linear
# ones that match the same secrets: (detector, index) → (pattern, why). A long line is
# scanned whole (a secret may sit anywhere on a 250 KB minified line), so a pattern that
# rescans the rest of the line from every candidate start would stall the push hook.
LINEAR_REPLACEMENTS: Mapping[tuple[str, int], tuple[re.Pattern[str], str]] = MappingProxyType(
    {
        ("JwtTokenDetector", 0): (
            # Starts only where a run of token characters starts: `eyJ` repeated 80,000
            # times is one candidate, not 80,000 that each read to the line's end. `=`
            # is padding, so it may end a segment but not start one: a token right
            # after `TOKEN=` is found, and `eyJ=eyJ=…` still reads each run once.
            re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]+=*\.[A-Za-z0-9_-]+=*\.?"),
            "retries from every `eyJ` inside a run: minutes on a 250 KB line",
        ),
        ("NpmDetector", 0): (
            # Anchored on the setting itself, not on every `//` before it; `npm config
            # set …/:_authToken <token>` (npm's documented form) has a space, not `=`.
            re.compile(r"/:_authToken(?:=|[ \t]{1,4})\s*(npm_\S+|[A-Fa-f0-9-]{36})"),
            "`//.+` reads to the end of the line from every `//`: minutes on a 250 KB line",
        ),
    }
)


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
    replaced = LINEAR_REPLACEMENTS.get((detector.__name__, index))
    return Rule(
        id=rule_id,
        description=description,
        pattern=replaced[0] if replaced else _denylist(detector)[index],
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
        ("/:_authToken",),
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
        # `postgres://USER:PASSWORD@HOST/DB` in a README shows where the password goes.
        valid=given_password,
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

# Documented formats and secret-named assignments come after the detectors: where two
# rules find the same secret, the first one names it.
RULES: tuple[Rule, ...] = DETECTED_RULES + OWN_RULES + FORMAT_RULES + CONTEXT_RULES
