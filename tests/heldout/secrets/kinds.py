"""The secret kinds of the held-out corpus, each from its provider's documented format.

`make` returns the pasted value as (before, secret, after): the secret is the part that
must not survive (a token whole, a URL's password, a key block's body), the rest is what
surrounds it when people copy it (a URL's scheme and host, a PEM's armour lines).
"""

from __future__ import annotations

import json
import random
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from tests.heldout.secrets import shapes as s
from tests.heldout.secrets.settings import Where
from tests.heldout.secrets.shapes import glue


class Pasted(NamedTuple):
    before: str
    secret: str
    after: str


Maker = Callable[[random.Random], Pasted]

TOKEN = ("note", "shell", "json", "yaml", "env", "zh", "de", "code", "jsonl")
BLOCK = ("note", "yaml", "json", "env", "de", "code", "jsonl")
URL = ("note", "shell", "env", "yaml", "json", "zh", "de", "code", "jsonl")
ASSIGNMENT = ("yaml", "json", "env", "code", "jsonl")


@dataclass(frozen=True)
class Kind:
    name: str
    where: Where
    make: Maker
    settings: tuple[str, ...]


def whole(make: Callable[[random.Random], str]) -> Maker:
    return lambda rng: Pasted("", make(rng), "")


def prefixed(prefix: str, alphabet: str, length: int | tuple[int, int]) -> Maker:
    def make(rng: random.Random) -> Pasted:
        n = length if isinstance(length, int) else rng.randint(*length)
        return Pasted("", prefix + s.draw(rng, alphabet, n), "")

    return make


def _aws_key_id(rng: random.Random) -> str:
    return rng.choice([glue("AK", "IA"), glue("AS", "IA")]) + s.draw(rng, s.BASE32, 16)


def _github_fine_grained(rng: random.Random) -> str:
    return glue("github", "_pat_") + s.draw(rng, s.ALNUM, 22) + "_" + s.draw(rng, s.ALNUM, 59)


def _github_app(rng: random.Random) -> str:
    return rng.choice([glue("gh", "s_"), glue("gh", "u_")]) + s.draw(rng, s.ALNUM, 36)


def _gitlab_other(rng: random.Random) -> str:
    return rng.choice([glue("gl", "rt-"), glue("gl", "dt-")]) + s.draw(rng, s.URLSAFE, 20)


def _slack_bot(rng: random.Random) -> str:
    ids = f"{s.draw(rng, s.DIGITS, 11)}-{s.draw(rng, s.DIGITS, 13)}"
    return glue("xo", "xb-") + ids + "-" + s.draw(rng, s.ALNUM, 24)


def _slack_user(rng: random.Random) -> str:
    ids = "-".join(s.draw(rng, s.DIGITS, n) for n in (11, 11, 13))
    return glue("xo", "xp-") + ids + "-" + s.draw(rng, s.HEX, 32)


def _slack_app_level(rng: random.Random) -> str:
    middle = f"1-A{s.draw(rng, s.UPPER + s.DIGITS, 10)}-{s.draw(rng, s.DIGITS, 13)}"
    return glue("xa", "pp-") + middle + "-" + s.draw(rng, s.HEX, 64)


def _slack_webhook(rng: random.Random) -> Pasted:
    team = "T" + s.draw(rng, s.UPPER + s.DIGITS, 10)
    hook = "B" + s.draw(rng, s.UPPER + s.DIGITS, 10)
    base = glue("https://hooks.", "slack.com/services/")
    return Pasted(f"{base}{team}/{hook}/", s.draw(rng, s.ALNUM, 24), "")


def _discord_webhook(rng: random.Random) -> Pasted:
    base = glue("https://discord.com/api/", "webhooks/")
    return Pasted(f"{base}{s.draw(rng, s.DIGITS, 19)}/", s.draw(rng, s.URLSAFE, 68), "")


def _stripe(prefix: str) -> Maker:
    return whole(lambda rng: prefix + s.draw(rng, s.ALNUM, rng.choice([24, 99])))


def _openai_legacy(rng: random.Random) -> str:
    return glue("s", "k-") + s.draw(rng, s.ALNUM, 20) + "T3BlbkFJ" + s.draw(rng, s.ALNUM, 20)


def _openai_scoped(scope: str) -> Maker:
    def make(rng: random.Random) -> Pasted:
        left = s.draw(rng, s.URLSAFE, rng.randint(58, 74))
        right = s.draw(rng, s.URLSAFE, rng.randint(58, 74))
        return Pasted("", glue("s", "k-", scope) + left + "T3BlbkFJ" + right, "")

    return make


def _anthropic(kind: str) -> Maker:
    return whole(lambda rng: glue("sk-", "ant-", kind) + s.draw(rng, s.URLSAFE, 93) + "AA")


def _gcp_service_account(rng: random.Random) -> Pasted:
    project = f"shop-{s.draw(rng, s.LOWER, 6)}-{rng.randint(100000, 999999)}"
    body = "\n".join(s.pem_body(rng, "PRIVATE KEY"))
    fields = {
        "type": "service_account",
        "project_id": project,
        "private_key_id": s.draw(rng, s.HEX, 40),
        "private_key": "\ue001",
        "client_email": f"deployer@{project}.iam.gserviceaccount.com",
        "client_id": s.draw(rng, s.DIGITS, 21),
        "token_uri": "https://oauth2.googleapis.com/token",
    }
    text = json.dumps(fields, indent=2, ensure_ascii=False)
    head, tail = text.split("\ue001")
    armour = glue("-----BEGIN PRIVATE", " KEY-----\\n")
    body_escaped = body.replace("\n", "\\n")
    return Pasted(head + armour, body_escaped, "\\n-----END PRIVATE KEY-----\\n" + tail)


def _azure_connection_string(rng: random.Random) -> Pasted:
    account = "st" + s.draw(rng, s.LOWER + s.DIGITS, 12)
    head = f"DefaultEndpointsProtocol=https;AccountName={account};AccountKey="
    return Pasted(head, s.b64(s.noise(rng, 64)), ";EndpointSuffix=core.windows.net")


def _azure_sas(rng: random.Random) -> Pasted:
    account = "st" + s.draw(rng, s.LOWER + s.DIGITS, 10)
    query = (
        "sv=2022-11-02&ss=bfqt&srt=sco&sp=rwdlacupiytfx&se=2026-12-31T18:00:00Z"
        "&st=2026-11-01T10:00:00Z&spr=https&sig="
    )
    signature = urllib.parse.quote(s.b64(s.noise(rng, 32)), safe="")
    return Pasted(f"https://{account}.blob.core.windows.net/exports?{query}", signature, "")


def _azure_client_secret(rng: random.Random) -> str:
    # Entra ID secrets since 2021: three characters, a digit, "Q~", then 34 more.
    head = s.draw(rng, s.ALNUM, 3) + s.draw(rng, s.DIGITS, 1) + "Q~"
    return head + s.draw(rng, s.ALNUM + "_~.-", 34)


def _pypi(rng: random.Random) -> str:
    return glue("pypi-", "AgEIcHlwaS5vcmc") + s.draw(rng, s.URLSAFE, rng.randint(120, 180))


def _heroku(rng: random.Random) -> str:
    return (
        glue("HR", "KU-") + "AA" + s.draw(rng, s.URLSAFE, 58)
        if rng.random() < 0.5
        else s.uuid4(rng)
    )


def _vault(rng: random.Random) -> str:
    prefix = rng.choice([glue("hv", "s."), glue("hv", "b.")])
    return prefix + s.draw(rng, s.ALNUM + "_-", rng.choice([24, 91, 138]))


def _shopify(rng: random.Random) -> str:
    return glue("shp", rng.choice(["at", "ss", "ca", "pa"]), "_") + s.draw(rng, s.HEX, 32)


def _twilio_auth_token(rng: random.Random) -> Pasted:
    sid = glue("A", "C") + s.draw(rng, s.HEX, 32)
    return Pasted(f"{sid}:", s.draw(rng, s.HEX, 32), "")


def _sendgrid(rng: random.Random) -> str:
    return glue("S", "G.") + s.draw(rng, s.URLSAFE, 22) + "." + s.draw(rng, s.URLSAFE, 43)


def _postman(rng: random.Random) -> str:
    return glue("PM", "AK-") + s.draw(rng, s.HEX, 24) + "-" + s.draw(rng, s.HEX, 34)


def _databricks(rng: random.Random) -> str:
    return glue("da", "pi") + s.draw(rng, s.HEX, 32) + rng.choice(["", "-2", "-3"])


def _terraform(rng: random.Random) -> str:
    return s.draw(rng, s.ALNUM, 14) + glue(".atlas", "v1.") + s.draw(rng, s.ALNUM, 67)


def _discord_bot(rng: random.Random) -> str:
    user = str(rng.randint(10**17, 10**19 - 1))
    first = s.b64(user.encode()).rstrip("=")
    return f"{first}.{s.draw(rng, s.URLSAFE, 6)}.{s.draw(rng, s.URLSAFE, 38)}"


def _telegram(rng: random.Random) -> str:
    return f"{rng.randint(10**8, 10**10 - 1)}:AA" + s.draw(rng, s.URLSAFE, 33)


def _pem(label: str) -> Maker:
    def make(rng: random.Random) -> Pasted:
        body = "\n".join(s.pem_body(rng, label))
        return Pasted(f"-----BEGIN {label}-----\n", body, f"\n-----END {label}-----")

    return make


def _openssh(rng: random.Random) -> Pasted:
    label = glue("OPENSSH ", "PRIVATE KEY")
    body = "\n".join(s.openssh_body(rng))
    return Pasted(f"-----BEGIN {label}-----\n", body, f"\n-----END {label}-----")


def _pgp(rng: random.Random) -> Pasted:
    label = glue("PGP PRIVATE ", "KEY BLOCK")
    body = "\n".join(s.pgp_body(rng))
    tail = f"\n{s.pgp_checksum(rng)}\n-----END {label}-----"
    return Pasted(f"-----BEGIN {label}-----\nComment: deploy@acme\n\n", body, tail)


def _putty(rng: random.Random) -> Pasted:
    public = s.wrap(s.b64(b"\x00\x00\x00\x0bssh-ed25519" + s.noise(rng, 36)), 64)
    head = (
        glue("PuTTY-User-Key", "-File-3: ssh-ed25519\nEncryption: none\nComment: deploy@acme\n")
        + f"Public-Lines: {len(public)}\n"
        + "\n".join(public)
        + "\nPrivate-Lines: 1\n"
    )
    private = s.b64(s.noise(rng, 36))
    return Pasted(head, private, f"\nPrivate-MAC: {s.draw(rng, s.HEX, 64)}")


def _age(rng: random.Random) -> str:
    return glue("AGE-SECRET", "-KEY-1") + s.draw(rng, s.BECH32.upper(), 58)


def _kube_client_key(rng: random.Random) -> str:
    label = "RSA PRIVATE KEY"
    pem = (
        f"-----BEGIN {label}-----\n"
        + "\n".join(s.pem_body(rng, label))
        + f"\n-----END {label}-----\n"
    )
    return s.b64(pem.encode())


def _kube_token(rng: random.Random) -> str:
    if rng.random() < 0.5:  # a kubeadm bootstrap token: [a-z0-9]{6}.[a-z0-9]{16}
        return s.draw(rng, s.LOWER + s.DIGITS, 6) + "." + s.draw(rng, s.LOWER + s.DIGITS, 16)
    return glue("k8s-aws", "-v1.") + s.b64url(s.noise(rng, rng.randint(300, 420)))


def _url(scheme: str, user: str, host: str, path: str) -> Maker:
    def make(rng: random.Random) -> Pasted:
        return Pasted(f"{scheme}://{user}:", s.url_password(rng), f"@{host}{path}")

    return make


def _https_basic_header(rng: random.Random) -> Pasted:
    user = rng.choice(["ci-bot", "admin", "deploy", "jenkins"])
    return Pasted("Basic ", s.b64(f"{user}:{s.password(rng)}".encode()), "")


def _curl_user(rng: random.Random) -> Pasted:
    return Pasted(f"{rng.choice(['admin', 'svc-reports', 'elastic'])}:", s.url_password(rng), "")


def _opaque_bearer(rng: random.Random) -> Pasted:
    return Pasted("Bearer ", s.draw(rng, s.ALNUM + "-._~", rng.randint(32, 64)), "")


def _value(make: Callable[[random.Random], str]) -> Maker:
    return whole(make)


def _where(label: str, var: str, service: str, command: str = "", multiline: bool = False) -> Where:
    return Where(label, var, service, command, multiline)


def _kind(name: str, where: Where, make: Maker, settings: tuple[str, ...] = TOKEN) -> Kind:
    return Kind(name, where, make, settings)


CURL = "curl -sS -H 'Authorization: Bearer {}' https://api.acme.example/v1/me"
HEADER = "curl -sS -H 'Authorization: {}' https://api.acme.example/v1/me"
KINDS: tuple[Kind, ...] = (
    _kind(
        "aws-access-key-id",
        _where("AWS access key id", "AWS_ACCESS_KEY_ID", "aws"),
        whole(_aws_key_id),
        (*TOKEN, "ini"),
    ),
    _kind(
        "aws-secret-access-key",
        _where("AWS secret access key", "AWS_SECRET_ACCESS_KEY", "aws"),
        whole(lambda rng: s.draw(rng, s.BASE64, 40)),
        (*TOKEN, "ini"),
    ),
    _kind(
        "github-classic-pat",
        _where(
            "GitHub token",
            "GITHUB_TOKEN",
            "github",
            "git clone https://x-access-token:{}@github.com/acme/shop.git",
        ),
        prefixed(glue("gh", "p_"), s.ALNUM, 36),
    ),
    _kind(
        "github-oauth",
        _where("GitHub OAuth token", "GH_TOKEN", "github"),
        prefixed(glue("gh", "o_"), s.ALNUM, 36),
    ),
    _kind(
        "github-app-token",
        _where("GitHub App token", "GITHUB_APP_TOKEN", "github-app"),
        whole(_github_app),
    ),
    _kind(
        "github-fine-grained",
        _where(
            "fine-grained GitHub token", "GH_PAT", "github", "gh auth login --with-token <<< {}"
        ),
        whole(_github_fine_grained),
    ),
    _kind(
        "gitlab-pat",
        _where(
            "GitLab token",
            "GITLAB_TOKEN",
            "gitlab",
            "curl --header 'PRIVATE-TOKEN: {}' https://gitlab.com/api/v4/projects",
        ),
        prefixed(glue("gl", "pat-"), s.URLSAFE, 20),
    ),
    _kind(
        "gitlab-runner-deploy",
        _where(
            "GitLab runner token",
            "CI_RUNNER_TOKEN",
            "gitlab",
            "gitlab-runner register --url https://gitlab.com --token {}",
        ),
        whole(_gitlab_other),
    ),
    _kind("slack-bot", _where("Slack bot token", "SLACK_BOT_TOKEN", "slack"), whole(_slack_bot)),
    _kind(
        "slack-user", _where("Slack user token", "SLACK_USER_TOKEN", "slack"), whole(_slack_user)
    ),
    _kind(
        "slack-app-level",
        _where("Slack app token", "SLACK_APP_TOKEN", "slack"),
        whole(_slack_app_level),
    ),
    _kind(
        "slack-webhook",
        _where(
            "Slack webhook",
            "SLACK_WEBHOOK_URL",
            "alerts",
            'curl -X POST -d \'payload={"text":"deployed"}\' {}',
        ),
        _slack_webhook,
    ),
    _kind(
        "discord-webhook", _where("Discord webhook", "DISCORD_WEBHOOK", "alerts"), _discord_webhook
    ),
    _kind(
        "stripe-live-secret",
        _where(
            "Stripe secret key",
            "STRIPE_SECRET_KEY",
            "billing",
            "curl https://api.stripe.com/v1/charges -u {}:",
        ),
        _stripe(glue("sk", "_live_")),
    ),
    _kind(
        "stripe-restricted",
        _where("Stripe restricted key", "STRIPE_API_KEY", "billing"),
        _stripe(glue("rk", "_live_")),
    ),
    _kind(
        "stripe-webhook-secret",
        _where("Stripe signing secret", "STRIPE_WEBHOOK_SECRET", "billing"),
        prefixed(glue("wh", "sec_"), s.ALNUM, 32),
    ),
    _kind("openai-legacy", _where("OpenAI key", "OPENAI_API_KEY", "openai"), whole(_openai_legacy)),
    _kind(
        "openai-project",
        _where("OpenAI project key", "OPENAI_API_KEY", "openai", CURL),
        _openai_scoped("proj-"),
    ),
    _kind(
        "openai-service-account",
        _where("OpenAI service account key", "OPENAI_API_KEY", "openai"),
        _openai_scoped("svcacct-"),
    ),
    _kind(
        "anthropic-api",
        _where(
            "Anthropic API key",
            "ANTHROPIC_API_KEY",
            "anthropic",
            "curl https://api.anthropic.com/v1/messages -H 'x-api-key: {}'",
        ),
        _anthropic("api03-"),
    ),
    _kind(
        "anthropic-admin",
        _where("Anthropic admin key", "ANTHROPIC_ADMIN_KEY", "anthropic"),
        _anthropic("admin01-"),
    ),
    _kind(
        "google-api-key",
        _where(
            "Google Maps API key",
            "GOOGLE_API_KEY",
            "maps",
            "curl 'https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key={}'",
        ),
        prefixed(glue("AI", "za"), s.URLSAFE, 35),
    ),
    _kind(
        "gcp-service-account",
        _where("service account key", "GOOGLE_CREDENTIALS", "gcp", multiline=True),
        _gcp_service_account,
        ("note", "de", "jsonl", "zh"),
    ),
    _kind(
        "azure-storage-connection",
        _where("storage connection string", "AZURE_STORAGE_CONNECTION_STRING", "azure"),
        _azure_connection_string,
    ),
    _kind(
        "azure-sas",
        _where("SAS URL", "EXPORT_SAS_URL", "azure", "azcopy copy ./dump.sql '{}'"),
        _azure_sas,
    ),
    _kind(
        "azure-client-secret",
        _where("Azure client secret", "AZURE_CLIENT_SECRET", "azure"),
        whole(_azure_client_secret),
    ),
    _kind(
        "npm-token",
        _where("npm token", "NPM_TOKEN", "npm"),
        prefixed(glue("np", "m_"), s.ALNUM, 36),
        (*TOKEN, "npmrc"),
    ),
    _kind(
        "npmrc-legacy-uuid",
        _where(
            "npm auth token",
            "NPM_TOKEN",
            "npm",
            "npm config set //registry.npmjs.org/:_authToken {}",
        ),
        whole(s.uuid4),
        ("npmrc", "shell", "jsonl", "env"),
    ),
    _kind(
        "pypi-token",
        _where("PyPI token", "TWINE_PASSWORD", "pypi", "twine upload -u __token__ -p {} dist/*"),
        whole(_pypi),
        (*TOKEN, "pypirc"),
    ),
    _kind(
        "dockerhub-pat",
        _where(
            "Docker Hub token",
            "DOCKERHUB_TOKEN",
            "docker",
            "echo {} | docker login -u acmebot --password-stdin",
        ),
        prefixed(glue("dck", "r_pat_"), s.URLSAFE, 27),
    ),
    _kind(
        "heroku-api-key",
        _where("Heroku API key", "HEROKU_API_KEY", "heroku"),
        whole(_heroku),
        ("env", "shell", "yaml", "json", "jsonl", "code"),
    ),
    _kind(
        "datadog-api-key",
        _where(
            "Datadog API key",
            "DD_API_KEY",
            "datadog",
            "docker run -d -e DD_API_KEY={} gcr.io/datadoghq/agent:7",
        ),
        whole(lambda rng: s.draw(rng, s.HEX, 32)),
        ("env", "shell", "yaml", "json", "jsonl"),
    ),
    _kind(
        "datadog-app-key",
        _where("Datadog application key", "DD_APP_KEY", "datadog"),
        whole(lambda rng: s.draw(rng, s.HEX, 40)),
        ("env", "shell", "yaml", "json", "jsonl"),
    ),
    _kind("vault-token", _where("Vault token", "VAULT_TOKEN", "vault"), whole(_vault)),
    _kind(
        "huggingface",
        _where("Hugging Face token", "HF_TOKEN", "huggingface", "huggingface-cli login --token {}"),
        prefixed(glue("h", "f_"), s.LETTERS, 34),
    ),
    _kind(
        "digitalocean",
        _where("DigitalOcean token", "DIGITALOCEAN_TOKEN", "do", "doctl auth init -t {}"),
        whole(lambda rng: glue("do", rng.choice("por"), "_v1_") + s.draw(rng, s.HEX, 64)),
    ),
    _kind(
        "shopify", _where("Shopify access token", "SHOPIFY_ACCESS_TOKEN", "shop"), whole(_shopify)
    ),
    _kind(
        "twilio-auth-token",
        _where(
            "Twilio credentials",
            "TWILIO_CREDENTIALS",
            "sms",
            "curl -X POST https://api.twilio.com/2010-04-01/Accounts.json -u {}",
        ),
        _twilio_auth_token,
    ),
    _kind(
        "twilio-api-key",
        _where("Twilio API key", "TWILIO_API_KEY", "sms"),
        prefixed(glue("S", "K"), s.HEX, 32),
    ),
    _kind("sendgrid", _where("SendGrid key", "SENDGRID_API_KEY", "mail"), whole(_sendgrid)),
    _kind(
        "mailgun",
        _where(
            "Mailgun key",
            "MAILGUN_API_KEY",
            "mail",
            "curl -s --user 'api:{}' https://api.mailgun.net/v3/mg.acme.example/messages",
        ),
        prefixed(glue("ke", "y-"), s.HEX, 32),
    ),
    _kind("postman", _where("Postman API key", "POSTMAN_API_KEY", "postman"), whole(_postman)),
    _kind(
        "databricks",
        _where("Databricks token", "DATABRICKS_TOKEN", "databricks"),
        whole(_databricks),
    ),
    _kind(
        "terraform-cloud",
        _where("Terraform Cloud token", "TFE_TOKEN", "terraform"),
        whole(_terraform),
    ),
    _kind(
        "discord-bot", _where("Discord bot token", "DISCORD_TOKEN", "discord"), whole(_discord_bot)
    ),
    _kind(
        "telegram-bot",
        _where(
            "Telegram bot token",
            "TELEGRAM_BOT_TOKEN",
            "telegram",
            "curl https://api.telegram.org/bot{}/getMe",
        ),
        whole(_telegram),
    ),
    _kind(
        "grafana-service-account",
        _where("Grafana token", "GRAFANA_TOKEN", "grafana"),
        whole(
            lambda rng: glue("gl", "sa_") + s.draw(rng, s.ALNUM, 32) + "_" + s.draw(rng, s.HEX, 8)
        ),
    ),
    _kind(
        "newrelic-user-key",
        _where("New Relic key", "NEW_RELIC_API_KEY", "newrelic"),
        prefixed(glue("NR", "AK-"), s.UPPER + s.DIGITS, 27),
    ),
    _kind(
        "linear",
        _where("Linear API key", "LINEAR_API_KEY", "linear"),
        prefixed(glue("lin", "_api_"), s.ALNUM, 40),
    ),
    _kind(
        "tailscale",
        _where("Tailscale auth key", "TS_AUTHKEY", "tailscale", "tailscale up --authkey={}"),
        whole(
            lambda rng: (
                glue("tskey", "-auth-") + s.draw(rng, s.ALNUM, 17) + "-" + s.draw(rng, s.ALNUM, 33)
            )
        ),
    ),
    _kind(
        "supabase",
        _where("Supabase access token", "SUPABASE_ACCESS_TOKEN", "supabase"),
        prefixed(glue("sb", "p_"), s.HEX, 40),
    ),
    _kind(
        "doppler",
        _where("Doppler token", "DOPPLER_TOKEN", "doppler"),
        prefixed(glue("dp", ".pt."), s.ALNUM, 43),
    ),
    _kind(
        "jwt",
        _where("access token", "ACCESS_TOKEN", "auth", CURL),
        whole(s.jwt),
        (*TOKEN, "long-line"),
    ),
    _kind(
        "jwt-long",
        _where("ID token", "ID_TOKEN", "auth", CURL),
        whole(lambda rng: s.jwt(rng, claims=rng.randint(60, 160))),
        ("note", "json", "jsonl", "long-line", "long-line", "long-line"),
    ),
    _kind(
        "pem-rsa",
        _where("RSA key", "PRIVATE_KEY", "ssh", multiline=True),
        _pem("RSA PRIVATE KEY"),
        BLOCK,
    ),
    _kind(
        "pem-ec", _where("EC key", "TLS_KEY", "tls", multiline=True), _pem("EC PRIVATE KEY"), BLOCK
    ),
    _kind(
        "pem-pkcs8",
        _where("TLS private key", "TLS_KEY", "tls", multiline=True),
        _pem("PRIVATE KEY"),
        BLOCK,
    ),
    _kind(
        "pem-encrypted",
        _where("encrypted key", "SIGNING_KEY", "signing", multiline=True),
        _pem("ENCRYPTED PRIVATE KEY"),
        BLOCK,
    ),
    _kind(
        "pem-openssh", _where("SSH key", "SSH_PRIVATE_KEY", "ssh", multiline=True), _openssh, BLOCK
    ),
    _kind(
        "pgp-private-key",
        _where("PGP key", "GPG_PRIVATE_KEY", "release", multiline=True),
        _pgp,
        BLOCK,
    ),
    _kind(
        "putty-private-key",
        _where("PuTTY key", "PPK", "ssh", multiline=True),
        _putty,
        ("note", "de", "jsonl", "code"),
    ),
    _kind("age-secret-key", _where("age key", "SOPS_AGE_KEY", "sops"), whole(_age)),
    _kind(
        "kube-client-key-data",
        _where("client key", "client-key-data", "k8s"),
        whole(_kube_client_key),
        ("kubeconfig", "jsonl", "note"),
    ),
    _kind(
        "kube-token",
        _where("cluster token", "token", "k8s", "kubectl --token={} get pods -n staging"),
        whole(_kube_token),
        ("kubeconfig", "shell", "jsonl", "note"),
    ),
    _kind(
        "postgres-url",
        _where("database URL", "DATABASE_URL", "db", "psql '{}'"),
        _url("postgres", "app", "db.internal:5432", "/shop"),
        URL,
    ),
    _kind(
        "postgresql-url",
        _where("database URL", "DATABASE_URL", "db"),
        _url("postgresql", "reporting", "10.0.3.12:5432", "/analytics?sslmode=require"),
        URL,
    ),
    _kind(
        "mysql-url",
        _where("MySQL URL", "MYSQL_URL", "db"),
        _url("mysql", "root", "mysql.staging:3306", "/orders"),
        URL,
    ),
    _kind(
        "redis-url",
        _where("Redis URL", "REDIS_URL", "cache", "redis-cli -u '{}' ping"),
        _url("redis", "", "cache.internal:6379", "/0"),
        URL,
    ),
    _kind(
        "rediss-url",
        _where("Redis URL", "REDIS_URL", "cache"),
        _url("rediss", "default", "redis-12345.c1.eu-west-1.ec2.cloud.redislabs.com:12345", ""),
        URL,
    ),
    _kind(
        "mongodb-srv-url",
        _where("MongoDB URI", "MONGODB_URI", "mongo", "mongosh '{}'"),
        _url(
            "mongodb+srv", "appuser", "cluster0.ab1cd.mongodb.net", "/?retryWrites=true&w=majority"
        ),
        URL,
    ),
    _kind(
        "amqp-url",
        _where("broker URL", "CELERY_BROKER_URL", "queue"),
        _url("amqp", "shop", "rabbit.internal:5672", "/shop"),
        URL,
    ),
    _kind(
        "https-url-password",
        _where("repository URL", "REPO_URL", "git", "git clone {}"),
        _url("https", "deploy", "git.acme.example", "/shop/backend.git"),
        URL,
    ),
    _kind(
        "basic-auth-header",
        _where(
            "Authorization header",
            "AUTH_HEADER",
            "api",
            "curl -H 'Authorization: {}' https://jenkins.acme.example/api/json",
        ),
        _https_basic_header,
        ("shell", "note", "jsonl", "de", "yaml"),
    ),
    _kind(
        "curl-user-password",
        _where(
            "login", "ES_CREDENTIALS", "search", "curl -u {} https://es.internal:9200/_cat/indices"
        ),
        _curl_user,
        ("shell", "note", "jsonl", "zh"),
    ),
    _kind(
        "bearer-opaque",
        _where("API token", "API_TOKEN", "api", HEADER),
        _opaque_bearer,
        ("shell", "note", "jsonl", "de"),
    ),
    _kind(
        "password-assignment",
        _where("password", "password", "db"),
        _value(s.password),
        (*ASSIGNMENT, "note", "zh", "de"),
    ),
    _kind(
        "api-key-assignment",
        _where("API key", "api_key", "vendor"),
        _value(lambda rng: s.draw(rng, s.ALNUM, rng.choice([24, 32, 40]))),
        (*ASSIGNMENT, "note"),
    ),
    _kind(
        "secret-key-assignment",
        _where("secret key", "secret_key", "django"),
        _value(lambda rng: s.draw(rng, s.ALNUM + "!@#%^&*(-_=+)", 50)),
        ASSIGNMENT,
    ),
    _kind(
        "db-password-env",
        _where("DB password", "DB_PASSWORD", "db"),
        _value(s.password),
        ("env", "shell", "yaml", "jsonl", "note"),
    ),
    _kind(
        "sshpass",
        _where(
            "SSH password",
            "SSHPASS",
            "ssh",
            "sshpass -p '{}' ssh deploy@10.0.4.17 'sudo systemctl restart shop'",
        ),
        _value(s.password),
        ("shell", "jsonl", "note"),
    ),
    _kind(
        "cli-password-flag",
        _where(
            "password",
            "MYSQL_PWD",
            "db",
            "mysqldump --user=root --password={} --all-databases > dump.sql",
        ),
        _value(s.password),
        ("shell", "jsonl", "note"),
    ),
    _kind(
        "docker-login-password",
        _where(
            "registry password",
            "REGISTRY_PASSWORD",
            "registry",
            "docker login registry.acme.example -u ci --password {}",
        ),
        _value(s.password),
        ("shell", "jsonl", "note"),
    ),
)
