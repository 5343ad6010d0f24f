"""What looks like a secret but is not one: documented example keys and placeholders.

Vendors publish example credentials for their documentation (AWS's
`AKIAIOSFODNN7EXAMPLE`); a note quoting one leaks nothing, and refusing it teaches
members to ignore the scanner. A value assigned to a secret-named setting is judged
here too: a variable reference, a template slot or a word of prose is where a secret
would go, not a secret.
"""

from __future__ import annotations

import math
import re
from collections import Counter

# Published example credentials, exactly as the vendors print them.
DOCUMENTED_EXAMPLES: frozenset[str] = frozenset(
    {
        # AWS IAM User Guide, "Managing access keys for IAM users".
        "AKIAIOSFODNN7EXAMPLE",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "AKIAI44QH8DHBEXAMPLE",
        "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
        # AWS STS documentation's temporary credentials.
        "ASIAIOSFODNN7EXAMPLE",
        # Stripe's API reference.
        "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
        # GitHub's documentation of token formats.
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    }
)

# A documented example spelt with the word EXAMPLE in it (AWS's convention, followed by
# many vendors' docs) is an example wherever it appears.
_EXAMPLE_WORD = re.compile(r"EXAMPLE|[Ee]xample(?:[A-Z0-9_]|$)")

# A value that points at a secret instead of being one.
_REFERENCE = re.compile(
    r"""^(?:
        \$[({]? | %[({] | %\w+% | \{\{ | <[^>]*> | \[\[ |  # ${VAR} $(cmd) %(name)s %VAR% {{ x }}
        ENC\[ |                                          # a SOPS-encrypted value
        (?:os\.)?(?:environ|getenv|process\.env|env|ENV|secrets|vault|config|settings)\b
    )""",
    re.VERBOSE,
)
# Code, not a value: a function call (`getpass.getpass(`, `read_secret(`) computes the
# secret at run time, and a type (`password: Optional[str] = None`) only declares one.
_CALL = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*[(\[]")
# A YAML tag alone (`!vault |`, `!Ref DbPassword`, Home Assistant's `!secret wifi`): the
# value is encrypted or looked up elsewhere.
_YAML_TAG = re.compile(r"^!!?[A-Za-z]+$")
_IDENTIFIER_PATH = re.compile(r"^[A-Za-z_][A-Za-z_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?:\(\))?$")
_UPPER_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")
_MASKED = re.compile(r"^(.)\1{3,}$|\*{3}|x{6,}|X{6,}|\.{3}|…")
_MASKED_RUN = re.compile(r"x{8,}|X{8,}|\*{4,}")
_WORDS = re.compile(r"^[a-z]+(?:[-_. ][a-z]+)*[-_.]?v?[0-9]{0,2}$")

PLACEHOLDER_WORDS = frozenset(
    {
        "changeme",
        "change_me",
        "password",
        "passw0rd",
        "secret",
        "token",
        "example",
        "dummy",
        "redacted",
        "placeholder",
        "notasecret",
        "null",
        "none",
        "nil",
        "undefined",
        "true",
        "false",
        "test",
        "testing",
        "todo",
        "tbd",
        "required",
        "optional",
        "empty",
        "hidden",
        "unset",
    }
)


# What redaction leaves in a secret's place: already clean, however it is worded around.
REDACTION_MARKER = "[REDACTED:"


def is_documented_example(secret: str) -> bool:
    """Whether `secret` is (or, for a key block, holds only) a published example."""
    return secret in DOCUMENTED_EXAMPLES or bool(_EXAMPLE_WORD.search(secret))


def shannon_entropy(value: str) -> float:
    """Bits per character of `value`'s own character distribution."""
    if not value:
        return 0.0
    counts = Counter(value)
    total = len(value)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def character_classes(value: str) -> int:
    """How many of lower case, upper case, digits and symbols `value` mixes."""
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )


def is_placeholder(value: str) -> bool:
    """Whether a value assigned to a secret-named setting stands in for a secret."""
    stripped = value.strip("\"'`;,")
    folded = stripped.lower().strip("<>[](){}_-")
    if not stripped or folded in PLACEHOLDER_WORDS:
        return True
    if folded.startswith(("your", "my-", "my_", "insert", "replace", "enter", "put-")):
        return True
    if _REFERENCE.match(stripped) or _IDENTIFIER_PATH.match(stripped):
        return True
    if _YAML_TAG.match(stripped):
        return True
    if _UPPER_NAME.match(stripped) and "_" in stripped:
        return True  # another setting's name: `token: GITHUB_TOKEN`
    if _MASKED.search(stripped):
        return True
    return is_documented_example(stripped)


def is_code(value: str) -> bool:
    """Whether an unquoted value is an expression (a call, a type), not a literal; a
    quoted `"Summer[2024]"` is a value whatever it holds."""
    return bool(_CALL.match(value))


def is_masked(secret: str) -> bool:
    """Whether a key-shaped match is written with its body masked (`ghp_xxxx…xxxx`): a
    random body never holds six of one letter in a row (about 1 in 10^9 per place)."""
    return bool(_MASKED_RUN.search(secret))


def is_wordlike(value: str) -> bool:
    """Lower-case words joined by separators (`prod-db-credentials-v2`): a name."""
    return bool(_WORDS.match(value))
