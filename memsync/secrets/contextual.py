"""Secrets without a format, found by the name they are assigned to (SPEC T4).

A password or an API key of an in-house service has no prefix; what gives it away is
the setting that holds it: `password = "…"`, `api_key: …`, `DB_PASSWORD=…`,
`"client_secret": "…"`. detect-secrets' KeywordDetector flags every such value, so
memory prose ("password: in 1Password") would be refused; here the value is judged
(`judgement`): a reference, a placeholder or words are left alone, and a key or token
must look random (its Shannon entropy), while a password needs only to mix character
classes, as password policies ask. Thresholds come from tests/secrets/corpus.py, not
from the held-out corpus.
"""

from __future__ import annotations

import re

from memsync.secrets.judgement import (
    REDACTION_MARKER,
    character_classes,
    is_code,
    is_placeholder,
    is_wordlike,
    shannon_entropy,
)
from memsync.secrets.rule import Rule

# SSHPASS (`sshpass -e`) and PGPASSWORD (libpq) are documented names with no separator.
_PASSWORD_WORDS = r"(?:ssh|pg)?pass(?:word|wd|phrase)?|pwd"
# A space may part the words too: "API key: …" in a note.
_KEY_WORDS = (
    r"secret|token|api[ _.-]?key|apikey|(?:access|secret|private|auth|signing|encryption"
    r"|master|client|app|license|service)[ _.-]?key|client[ _.-]?secret|credentials?"
)
# Settings whose names hold a secret word but name something else about it.
_NOT_THE_SECRET = (
    r"(?!(?:[_.-]?(?:name|names|id|ids|path|file|dir|ref|arn|version|type|length|len|"
    r"expiry|expires|expires_at|ttl|url|uri|hint|policy|manager|store|count|prompt|field|"
    r"header|env|var|_key_id|key_id|rotation|set|less))\b)"
)
# `NAME` and the operator: `=`, `:`, `:=`, `=>`, with optional quotes around the name
# (JSON, YAML) and a few spaces. The name may carry a prefix (`DB_`, `stripe.`).
_ASSIGNMENT = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Za-z0-9]{1,30}[_.-]){0,4}"
    rf"(?:(?P<pw>{_PASSWORD_WORDS})|(?P<key>{_KEY_WORDS})){_NOT_THE_SECRET}"
    r"[A-Za-z0-9_]{0,12}[\"']?[ \t]{0,4}(?::=|=>|=|:)[ \t]{0,4}"
    # A closing quote may be missing: text cut short (a truncated description) still
    # holds the secret.
    r"(?:\"(?P<dq>[^\"\s]{6,200})\"?|'(?P<sq>[^'\s]{6,200})'?|`(?P<bq>[^`\s]{6,200})`?"
    r"|(?P<bare>[^\s\"'`,;)\]}]{6,200}))",
    re.IGNORECASE,
)

MIN_PASSWORD_CLASSES = 2
MIN_KEY_LENGTH = 16
MIN_KEY_ENTROPY = 3.2


# A secret-named environment variable's fallback in code:
# `os.environ.get("DB_PASSWORD", "…")`, `os.getenv("API_KEY", "…")`,
# `ENV.fetch("SECRET_TOKEN", "…")`, Laravel's `env('DB_PASSWORD', '…')` — the literal is
# the secret whenever the variable is unset.
_FALLBACK = re.compile(
    r"(?:getenv|environ\.get|env\.get|ENV\.fetch|env)\(\s{0,3}[\"'](?:[A-Za-z0-9]{1,30}[_.-]){0,4}"
    rf"(?:(?P<pw>{_PASSWORD_WORDS})|(?P<key>{_KEY_WORDS})){_NOT_THE_SECRET}"
    r"[A-Za-z0-9_]{0,12}[\"']\s{0,3},\s{0,3}"
    r"(?:\"(?P<dq>[^\"\s]{6,200})\"|'(?P<sq>[^'\s]{6,200})')",
    re.IGNORECASE,
)
# A secret passed as a command-line option's separate argument: `docker login
# --password …`, `vault login --token …` (the `--name=value` form is an assignment).
_OPTION = re.compile(
    r"(?<![A-Za-z0-9-])--(?:(?P<pw>password|passwd|pass)|(?P<key>token|api-key|secret))"
    r"[ \t]{1,3}(?:\"(?P<dq>[^\"\s]{6,200})\"|'(?P<sq>[^'\s]{6,200})'"
    r"|(?P<bare>[^\s\"'`;|&)]{6,200}))",
    re.IGNORECASE,
)


def _value(match: re.Match[str]) -> tuple[int, str] | None:
    groups = match.groupdict()
    for group in ("dq", "sq", "bq", "bare"):
        if groups.get(group) is not None:
            return match.start(group), match.group(group)
    return None


def assigned_secret(match: re.Match[str]) -> tuple[int, int] | None:
    """The span of the secret an assignment match holds, or None when its value is not
    one."""
    found = _value(match)
    if found is None:
        return None
    start, value = found
    if match.groupdict().get("bare") is not None:
        value = value.rstrip(".")  # the end of a sentence
        if is_code(value):
            return None
    if value.startswith(REDACTION_MARKER):
        return None
    # A URL or a path is where a secret is, not the secret (a password inside a URL
    # is the URL rules' to find, and they name it precisely).
    if is_placeholder(value) or "://" in value or value.startswith(("/", "~/", "./")):
        return None
    if match.group("pw") is not None:
        if character_classes(value) < MIN_PASSWORD_CLASSES or is_wordlike(value.lower()):
            return None
    elif (
        len(value) < MIN_KEY_LENGTH
        or shannon_entropy(value) < MIN_KEY_ENTROPY
        or character_classes(value) < 2
        or is_wordlike(value)
    ):
        return None
    return start, start + len(value)


ASSIGNMENT_RULE = Rule(
    id="secret-assignment",
    description="secret assigned to a secret-named setting",
    pattern=_ASSIGNMENT,
    literals=("pass", "pwd", "secret", "token", "key", "credential"),
    source="memsync",
    locate=assigned_secret,
)

FALLBACK_RULE = Rule(
    id="secret-assignment",
    description="secret assigned to a secret-named setting",
    pattern=_FALLBACK,
    # Not "env" alone: it is on every other line of a deploy note.
    literals=("getenv", "environ.get", "env.get", "env.fetch", "env("),
    source="memsync",
    locate=assigned_secret,
)

OPTION_RULE = Rule(
    id="secret-option",
    description="secret given to a secret-named command-line option",
    pattern=_OPTION,
    literals=("--pass", "--token", "--api-key", "--secret"),
    source="memsync",
    locate=assigned_secret,
)

CONTEXT_RULES: tuple[Rule, ...] = (ASSIGNMENT_RULE, FALLBACK_RULE, OPTION_RULE)
