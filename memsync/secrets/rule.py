"""What a secret rule is: a pattern, its prefilter, and how far its secret reaches."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum


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
    # A check the secret must pass to count (the detector's own, where it has one).
    valid: Callable[[str], bool] | None = None
    # Where the secret is in a match, when no group says it (the value of a secret-named
    # assignment, judged by `contextual.assigned_secret`): None when it holds none.
    locate: Callable[[re.Match[str]], tuple[int, int] | None] | None = None

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
