"""Documented credential formats detect-secrets has no rule for (SPEC T4).

Each rule is a vendor's published prefix and alphabet (or, where a credential has no
prefix, the setting name the vendor's own documentation assigns it to), with the
length of a real credential. The token rules stand alone: a key glued inside a longer
run of its alphabet is not a key of that format. Every rule names literals a line must
hold, so the scan reads a pattern only on lines that can match it (`Rule`).
"""

from __future__ import annotations

import base64
import binascii
import re

from memsync.secrets.judgement import (
    PLACEHOLDER_WORDS,
    character_classes,
    is_placeholder,
    shannon_entropy,
)
from memsync.secrets.rule import Reach, Rule, Variant

# A token's edges: not inside a longer run of token characters.
_BEFORE = r"(?<![A-Za-z0-9_-])"
_AFTER = r"(?![A-Za-z0-9_-])"


def _token(
    rule_id: str,
    description: str,
    body: str,
    literals: tuple[str, ...],
    *,
    flags: int = 0,
    variants: tuple[Variant, ...] = (),
) -> Rule:
    return Rule(
        id=rule_id,
        description=description,
        pattern=re.compile(_BEFORE + body + _AFTER, flags),
        literals=literals,
        source="memsync",
        variants=variants,
    )


def _setting(
    rule_id: str, description: str, pattern: str, literals: tuple[str, ...], **extra: object
) -> Rule:
    """A credential without a prefix, found where a setting of its vendor's name holds it;
    group 1 is the credential."""
    return Rule(
        id=rule_id,
        description=description,
        pattern=re.compile(pattern, re.IGNORECASE),
        literals=literals,
        source="memsync",
        secret_group=1,
        **extra,  # type: ignore[arg-type]
    )


def _basic_credentials(encoded: str) -> bool:
    # An HTTP Basic header's value is base64 of `user:password` (RFC 7617); anything
    # else after `Basic` (a word of prose, a variable) is not a credential.
    try:
        decoded = base64.b64decode(encoded + "=" * (-len(encoded) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    text = decoded.decode("utf-8", "replace")
    _, colon, password = text.partition(":")
    return bool(colon and password) and text.isprintable()


def _base64_private_key(encoded: str) -> bool:
    # `LS0tLS1CRUdJTi` is base64 of `-----BEGIN`; only a private key's label counts (a
    # kubeconfig's certificate-authority-data is a certificate, and public).
    head = encoded[:64]
    try:
        decoded = base64.b64decode(head[: len(head) - len(head) % 4])
    except (binascii.Error, ValueError):
        return False
    return b"PRIVATE KEY-----" in decoded


def given_password(password: str) -> bool:
    # A password written on a command line or in a URL, unless it stands for one
    # (`$PASSWORD`, `<password>`, `PASSWORD`, `****`). Not `is_placeholder`: a URL's
    # password is not judged as a setting's value (`name.Part9` is a password here).
    if password.startswith(("$", "{", "<", "%")) or "*" * 3 in password:
        return False
    return password.strip("<>[](){}_-").lower() not in PLACEHOLDER_WORDS


MIN_BEARER_ENTROPY = 3.5


def _opaque_token(token: str) -> bool:
    # After `Bearer` stands a token or a word of prose; a token is long, mixes
    # character classes and is as random as a key (the bar of `contextual`'s keys).
    return (
        character_classes(token) >= 2
        and shannon_entropy(token) >= MIN_BEARER_ENTROPY
        and not is_placeholder(token)
    )


def _mixed(value: str) -> bool:
    # A 40-character run of letters only or digits only is a word or a number, and a
    # lower-case hex run is a git SHA: a secret key mixes cases and digits.
    return (
        any(c.islower() for c in value)
        and any(c.isupper() for c in value)
        and any(c.isdigit() for c in value)
    )


_SEP = r"[\"'`]?\s{0,3}(?:=|:|=>|:=)?\s{0,3}[\"'`]?"

FORMAT_RULES: tuple[Rule, ...] = (
    # AWS secret access keys are 40 base64 characters (AWS IAM User Guide, "Managing
    # access keys"); detect-secrets finds one only quoted right after "aws". Unquoted,
    # in prose or in an env line, a mixed-case run of 40 next to "aws" or "secret access
    # key" is one.
    Rule(
        id="aws-secret-access-key",
        description="AWS secret access key",
        pattern=re.compile(
            # `=` may stand before the key (`AWS_SECRET_ACCESS_KEY=/Fc…`: a key may start
            # with `/` or `+`); base64 padding only ever ends a run.
            r"(?:aws|secret[ _-]?access[ _-]?key).{0,60}?"
            r"(?<![A-Za-z0-9/+])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
            re.IGNORECASE,
        ),
        literals=("aws", "secret"),
        source="memsync",
        shape="a" * 40,
        secret_group=1,
        valid=_mixed,
    ),
    # PKCS#8 `ENCRYPTED PRIVATE KEY` (RFC 5958), and any other `… PRIVATE KEY` label
    # detect-secrets does not list; the whole block is the secret.
    Rule(
        id="private-key",
        description="private key",
        pattern=re.compile(r"BEGIN (?:[A-Z0-9]+ ){1,3}PRIVATE KEY"),
        literals=("PRIVATE KEY",),
        source="memsync",
        reach=Reach.KEY_BLOCK,
    ),
    # PuTTY key files of every version (detect-secrets knows version 2 only); the block
    # runs through its Private-MAC line.
    Rule(
        id="private-key",
        description="private key",
        pattern=re.compile(r"PuTTY-User-Key-File-[0-9]+"),
        literals=("PuTTY-User-Key-File-",),
        source="memsync",
        reach=Reach.KEY_BLOCK,
    ),
    # age (age-encryption.org/v1): Bech32 with the `AGE-SECRET-KEY-1` prefix.
    _token(
        "age-secret-key",
        "age secret key",
        r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
        ("AGE-SECRET-KEY-1",),
    ),
    # Azure shared access signatures: the `sig` query parameter is the base64 HMAC,
    # URL-encoded (learn.microsoft.com, "Create a service SAS").
    _setting(
        "azure-sas-signature",
        "Azure shared access signature",
        r"[?&;]sig=((?:[A-Za-z0-9+/]|%2[BF]|%3D){40,}(?:=|%3D){0,2})",
        ("sig=",),
    ),
    # Microsoft Entra ID (Azure AD) client secrets: 40 characters, the fourth a digit
    # and then `Q~` (the format of secrets issued since 2021).
    Rule(
        id="azure-ad-client-secret",
        description="Azure AD client secret",
        pattern=re.compile(
            r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])"
        ),
        literals=("Q~",),
        source="memsync",
    ),
    # npm access tokens: `npm_` and 36 base62 characters (docs.npmjs.com, "About access
    # tokens"), wherever they stand, not only in an .npmrc line.
    _token("npm-access-token", "npm access token", r"npm_[A-Za-z0-9]{36}", ("npm_",)),
    # Mailgun: private API keys `key-` + 32 hex, and the newer 32-8-8 hex keys.
    _token("mailgun-api-key", "Mailgun API key", r"key-[0-9a-f]{32}", ("key-",)),
    _setting(
        "mailgun-api-key",
        "Mailgun API key",
        r"mailgun.{0,40}?(?<![0-9a-f])([0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})(?![0-9a-f])",
        ("mailgun",),
    ),
    # OpenAI project, service-account and admin keys; the body length varies, so
    # detect-secrets' fixed-length pattern misses most of them.
    _token(
        "openai-api-key",
        "OpenAI API key",
        r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}",
        ("sk-proj-", "sk-svcacct-", "sk-admin-"),
    ),
    # A URL with a password and no user name (`redis://:password@host`, the form
    # redis-py and Sidekiq document): detect-secrets' URL rule needs a user.
    Rule(
        id="url-password",
        description="password in a URL",
        pattern=re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,20}://[^\s:/@]{0,64}:([^\s/@]{3,200})@"),
        literals=("://",),
        source="memsync",
        secret_group=1,
        valid=given_password,
    ),
    _setting(
        "sshpass-password",
        "password given to sshpass",
        r"sshpass\s{1,4}(?:-[a-oq-zA-Z]\s{0,4}\S*\s{1,4}){0,3}-p\s{0,4}[\"']?([^\s\"']{3,200})",
        ("sshpass",),
        valid=lambda pw: not pw.startswith(("$", "{", "<", "%")),
    ),
    # Heroku platform API tokens (`HRKU-` since 2024), and the older UUID API keys
    # where a Heroku setting holds one.
    _token("heroku-api-key", "Heroku API key", r"HRKU-[A-Za-z0-9_-]{60}", ("HRKU-",)),
    _setting(
        "heroku-api-key",
        "Heroku API key",
        r"heroku[a-z_ .-]{0,20}(?:key|token|auth)" + _SEP + r"([0-9a-f]{8}-[0-9a-f]{4}-"
        r"[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![0-9a-f])",
        ("heroku",),
    ),
    # Datadog API keys (32 hex) and application keys (40 hex) carry no prefix; Datadog's
    # agent reads them from DD_API_KEY / DD_APP_KEY.
    _setting(
        "datadog-api-key",
        "Datadog API or application key",
        r"(?:dd|datadog)[_ .-]?(?:api|app|application)[_ .-]?key"
        + _SEP
        + r"(?<![0-9a-f])([0-9a-f]{40}|[0-9a-f]{32})(?![0-9a-z])",
        ("dd", "datadog"),
        shape="a" * 32,
    ),
    # HashiCorp Vault tokens: `hvs.` service, `hvb.` batch, `hvr.` recovery.
    _token(
        "vault-token",
        "HashiCorp Vault token",
        r"hv[sbr]\.[A-Za-z0-9_-]{24,}",
        ("hvs.", "hvb.", "hvr."),
    ),
    # Hugging Face user access tokens and org API tokens.
    _token(
        "huggingface-token",
        "Hugging Face access token",
        r"(?:hf|api_org)_[A-Za-z0-9]{34,40}",
        ("hf_", "api_org_"),
    ),
    # DigitalOcean personal access, OAuth and refresh tokens.
    _token(
        "digitalocean-token",
        "DigitalOcean token",
        r"do[opr]_v1_[a-f0-9]{64}",
        ("_v1_",),
    ),
    # Shopify admin API, custom app, private app tokens and shared secrets.
    _token(
        "shopify-token",
        "Shopify access token",
        r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}",
        ("shpat_", "shpca_", "shppa_", "shpss_"),
    ),
    # HTTP Basic credentials (RFC 7617): the scheme `Basic` and base64 of
    # `user:password`, in a header or quoted anywhere else (prose, a YAML value); the
    # decoding check leaves `basic auth` and other prose alone.
    _setting(
        "http-basic-auth",
        "HTTP Basic credentials",
        r"(?<![A-Za-z0-9_-])basic\s{1,3}([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])",
        ("basic",),
        valid=_basic_credentials,
    ),
    # curl's `-u`/`--user user:password` (curl(1)): the part after the first colon.
    _setting(
        "curl-user-password",
        "password given to curl",
        r"curl\b[^\n]{0,300}?\s(?:-u|--user)\s{0,3}[\"']?[^\s:\"']{1,64}:([^\s\"']{3,200})",
        ("curl",),
        valid=given_password,
    ),
    # An opaque OAuth 2.0 bearer token (RFC 6750: `Bearer` and a b64token) that no
    # vendor's format names; JWTs are the JWT rule's.
    _setting(
        "bearer-token",
        "bearer token",
        r"(?<![A-Za-z0-9_-])bearer\s{1,3}([A-Za-z0-9._~+/-]{20,}=*)(?![A-Za-z0-9._~+/=-])",
        ("bearer",),
        valid=_opaque_token,
    ),
    # Databricks personal access tokens.
    _token(
        "databricks-token", "Databricks access token", r"dapi[a-f0-9]{32}(?:-[0-9])?", ("dapi",)
    ),
    # Postman API keys.
    _token(
        "postman-api-key",
        "Postman API key",
        r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}",
        ("PMAK-",),
    ),
    # Twilio auth tokens (32 hex, no prefix) where a Twilio setting holds one; account
    # SIDs and API key SIDs are detect-secrets' rules.
    _setting(
        "twilio-auth-token",
        "Twilio auth token",
        r"twilio[a-z_ .-]{0,20}(?:token|secret)" + _SEP + r"([0-9a-f]{32})(?![0-9a-z])",
        ("twilio",),
    ),
    # …and right after an account SID and a colon: Twilio's API takes the pair as Basic
    # credentials, `curl -u ACxxx:token` in its own docs.
    Rule(
        id="twilio-auth-token",
        description="Twilio auth token",
        pattern=re.compile(r"(?<![A-Za-z0-9])AC[0-9a-f]{32}:([0-9a-f]{32})(?![0-9a-z])"),
        literals=("AC",),
        source="memsync",
        shape="a" * 34,
        secret_group=1,
    ),
    # Discord webhook URLs: anyone holding one may post as the webhook
    # (discord.com/developers/docs/resources/webhook, "Execute Webhook").
    _token(
        "discord-webhook",
        "Discord webhook URL",
        r"https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/"
        r"[A-Za-z0-9_-]{60,80}",
        ("/api/webhooks/",),
    ),
    # A private key written as base64 of its PEM text: kubeconfig `client-key-data`,
    # Kubernetes Secret `tls.key`, Helm values. `LS0tLS1CRUdJTi` is `-----BEGIN`.
    Rule(
        id="private-key",
        description="private key",
        pattern=re.compile(r"(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]{40,}={0,2}"),
        literals=("LS0tLS1CRUdJTi",),
        source="memsync",
        valid=_base64_private_key,
    ),
    # Amazon EKS tokens (aws-iam-authenticator, `aws eks get-token`): `k8s-aws-v1.` and
    # a base64url presigned STS URL, good for 15 minutes.
    _token("eks-token", "Amazon EKS token", r"k8s-aws-v1\.[A-Za-z0-9_-]{100,}", ("k8s-aws-v1.",)),
    # More prefixed tokens from vendors' documentation.
    _token(
        "google-oauth-client-secret",
        "Google OAuth client secret",
        r"GOCSPX-[A-Za-z0-9_-]{28}",
        ("GOCSPX-",),
    ),
    _token(
        "slack-app-token",
        "Slack app-level token",
        r"xapp-[0-9]-[A-Z0-9]+-[0-9]+-[a-f0-9]{32,}",
        ("xapp-",),
    ),
    _token(
        "sentry-token", "Sentry auth token", r"sntry[su]_[A-Za-z0-9_=+/.-]{40,}", ("sntry", "sntru")
    ),
    _token("linear-api-key", "Linear API key", r"lin_api_[A-Za-z0-9]{40}", ("lin_api_",)),
    _token(
        "doppler-token",
        "Doppler token",
        r"dp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,}",
        ("dp.",),
    ),
    _token(
        "grafana-token", "Grafana token", r"(?:glsa|glc)_[A-Za-z0-9_=+/-]{32,}", ("glsa_", "glc_")
    ),
    _token("pulumi-access-token", "Pulumi access token", r"pul-[a-f0-9]{40}", ("pul-",)),
    _token(
        "terraform-cloud-token",
        "Terraform Cloud token",
        r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}",
        (".atlasv1.",),
    ),
    _token(
        "atlassian-api-token", "Atlassian API token", r"ATATT3[A-Za-z0-9_=-]{150,}", ("ATATT3",)
    ),
    _token(
        "new-relic-key",
        "New Relic key",
        r"NR(?:AK|II|JS)-[A-Za-z0-9]{27}",
        ("NRAK-", "NRII-", "NRJS-"),
    ),
    _token("supabase-token", "Supabase access token", r"sbp_[a-f0-9]{40}", ("sbp_",)),
    _token(
        "docker-hub-token",
        "Docker Hub access token",
        r"dckr_pat_[A-Za-z0-9_-]{27,}",
        ("dckr_pat_",),
    ),
    _token("figma-token", "Figma access token", r"figd_[A-Za-z0-9_-]{40,}", ("figd_",)),
    _token(
        "notion-token",
        "Notion integration token",
        r"(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{46})",
        ("secret_", "ntn_"),
    ),
    _token(
        "tailscale-key",
        "Tailscale key",
        r"tskey-[a-z]+-[A-Za-z0-9]{8,}-[A-Za-z0-9]{16,}",
        ("tskey-",),
    ),
    _token("replicate-token", "Replicate API token", r"r8_[A-Za-z0-9]{37}", ("r8_",)),
    _token("groq-api-key", "Groq API key", r"gsk_[A-Za-z0-9]{52}", ("gsk_",)),
    _token(
        "langsmith-api-key",
        "LangSmith API key",
        r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}",
        ("lsv2_",),
    ),
    _token(
        "pinecone-api-key", "Pinecone API key", r"pcsk_[A-Za-z0-9]{5,}_[A-Za-z0-9]{40,}", ("pcsk_",)
    ),
    _token(
        "planetscale-token",
        "PlanetScale token",
        r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,64}",
        ("pscale_",),
    ),
    _token("rubygems-api-key", "RubyGems API key", r"rubygems_[a-f0-9]{48}", ("rubygems_",)),
    _token("alibaba-access-key", "Alibaba Cloud access key id", r"LTAI[A-Za-z0-9]{20}", ("LTAI",)),
    _token(
        "brevo-api-key", "Brevo API key", r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}", ("xkeysib-",)
    ),
    _token(
        "contentful-token",
        "Contentful personal access token",
        r"CFPAT-[A-Za-z0-9_-]{43}",
        ("CFPAT-",),
    ),
    _token("square-access-token", "Square access token", r"EAAA[A-Za-z0-9_-]{60}", ("EAAA",)),
    _token(
        "stripe-webhook-secret",
        "Stripe webhook signing secret",
        r"whsec_[A-Za-z0-9]{32,}",
        ("whsec_",),
    ),
    _token("easypost-api-key", "EasyPost API key", r"EZ[AT]K[A-Za-z0-9]{54}", ("EZAK", "EZTK")),
    _token(
        "dynatrace-token",
        "Dynatrace API token",
        r"dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}",
        ("dt0c01.",),
    ),
    _token("flyio-token", "Fly.io access token", r"fo1_[A-Za-z0-9_-]{43}", ("fo1_",)),
    _token(
        "1password-service-token",
        "1Password service account token",
        r"ops_eyJ[A-Za-z0-9_=+/-]{100,}",
        ("ops_eyJ",),
    ),
)
