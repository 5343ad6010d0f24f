"""The secret rules: gitleaks' maintained rule set, read from the vendored TOML.

`gitleaks.toml` beside this module is the upstream file as published (MIT licensed, the
commit is named at its top). gitleaks is written in Go, so its patterns are Go RE2; this
module translates the few constructs Python's `re` spells differently, compiles every
pattern once, and keeps what the scanner needs: each rule's keywords (the cheap
prefilter), secret group, entropy threshold, path restriction and allowlists, plus the
global allowlist. Rules memsync deliberately does not run are listed in `DROPPED_RULES`
with the reason; a rule that fails to translate is dropped with the compiler's reason,
so an upstream update can never silently lose one.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from memsync.secrets.search import Branch, Hit, Subject, branches_of, class_end, finditer

RULES_FILE = "gitleaks.toml"

# Rules memsync does not run, and why. Everything else in the vendored file is used.
DROPPED_RULES: Mapping[str, str] = MappingProxyType(
    {
        "database-password": (
            "has neither keywords nor an entropy threshold upstream, and its `pwd` "
            "alternative accepts any word after a comma, so ordinary prose such as "
            "'print the pwd, then cd' is refused; password assignments with a "
            "high-entropy value are still found by generic-api-key"
        ),
    }
)

# The messages a pusher reads name the secret in a few words; upstream descriptions are
# whole sentences. These are the classes SPEC T4 names; other rules use the noun phrase
# taken from their upstream description.
SHORT_DESCRIPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "aws-access-token": "AWS access key",
        "gcp-api-key": "Google Cloud API key",
        "azure-ad-client-secret": "Azure AD client secret",
        "openai-api-key": "OpenAI API key",
        "anthropic-api-key": "Anthropic API key",
        "anthropic-admin-api-key": "Anthropic admin API key",
        "github-pat": "GitHub personal access token",
        "github-fine-grained-pat": "GitHub fine-grained personal access token",
        "github-oauth": "GitHub OAuth token",
        "github-app-token": "GitHub App token",
        "github-refresh-token": "GitHub refresh token",
        "gitlab-pat": "GitLab personal access token",
        "gitlab-pat-routable": "GitLab personal access token",
        "slack-bot-token": "Slack bot token",
        "slack-legacy-bot-token": "Slack bot token",
        "slack-user-token": "Slack user token",
        "slack-app-token": "Slack app token",
        "slack-webhook-url": "Slack webhook URL",
        "stripe-access-token": "Stripe secret key",
        "npm-access-token": "npm access token",
        "pypi-upload-token": "PyPI upload token",
        "private-key": "private key",
        "jwt": "JSON Web Token",
        "generic-api-key": "secret value assigned to a key, token or password",
    }
)

_DESCRIPTION_NOUN = re.compile(
    r"^(?:Identified|Detected|Found|Discovered|Uncovered)\s+(?:an?\s+)?"
    r"(?:potential\s+|possible\s+)?(?P<what>[^,]+?)\.?(?:,|$)"
)
# `(?flags)` switching flags for the rest of the enclosing group.
_INLINE_FLAGS = re.compile(r"\(\?([a-zA-Z-]+)\)")
_PYTHON_FLAGS = set("imsx-")


class RuleError(ValueError):
    """A pattern that cannot be expressed in Python's `re`."""


@dataclass(frozen=True)
class Allowlist:
    """gitleaks allowlist: a finding it matches is not a secret.

    `condition` is "OR" (any one check allows) or "AND" (every check present must
    allow); `regex_target` says what the regexes see: the secret, the whole match or
    the whole line(s). Stopwords are compared with the lower-cased secret.
    """

    description: str = ""
    condition: str = "OR"
    regex_target: str = "secret"
    regexes: tuple[re.Pattern[str], ...] = ()
    stopwords: tuple[str, ...] = ()
    paths: tuple[re.Pattern[str], ...] = ()

    def allows(self, *, secret: str, match: str, line: str, path: str | None) -> bool:
        """Whether the finding is allowed; `path=None` leaves the paths out of it."""
        target = {"secret": secret, "match": match, "line": line}[self.regex_target]
        checks: list[bool] = []
        if self.paths and path is not None:
            checks.append(any(p.search(path) for p in self.paths))
        if self.regexes:
            checks.append(any(r.search(target) for r in self.regexes))
        if self.stopwords:
            lowered = secret.lower()
            checks.append(any(word in lowered for word in self.stopwords))
        if not checks:
            return False
        return all(checks) if self.condition == "AND" else any(checks)

    def allows_path(self, path: str) -> bool:
        return any(p.search(path) for p in self.paths)


@dataclass(frozen=True)
class Rule:
    id: str
    description: str
    regex: re.Pattern[str] | None
    path: re.Pattern[str] | None
    # 0: the first non-empty capture group, or the whole match when there is none.
    secret_group: int
    # Shannon entropy the secret must exceed; 0 means no threshold.
    entropy: float
    # Lower-case; the rule runs only on text containing one of them. Empty: always.
    keywords: tuple[str, ...]
    allowlists: tuple[Allowlist, ...]
    # How `regex` is searched (memsync/secrets/search.py); empty for a path-only rule.
    branches: tuple[Branch, ...] = ()

    @property
    def generic(self) -> bool:
        return self.id.startswith("generic")

    def finditer(self, text: str | Subject) -> Iterator[Hit]:
        """The matches `regex.finditer(text)` would give, found in linear time."""
        return finditer(self.branches, text if isinstance(text, Subject) else Subject(text))


@dataclass(frozen=True)
class RuleSet:
    rules: tuple[Rule, ...]
    allowlist: Allowlist
    dropped: Mapping[str, str]
    # The upstream commit named in the vendored file's header.
    commit: str
    # Runs of the characters keywords are made of, the keywords made only of them, and
    # the others (with a space in them); see `keywords_in`.
    keyword_runs: re.Pattern[str] = re.compile("(?!)")
    run_keywords: frozenset[str] = frozenset()
    other_keywords: frozenset[str] = frozenset()

    def keywords_in(self, lowered: str) -> set[str]:
        """The rules' keywords that occur in `lowered` (lower-cased text).

        A keyword made of run characters occurs in the text exactly when it occurs in
        one of the text's maximal runs, and the distinct runs of a text are far shorter
        than the text: one pass to collect them, then each keyword is looked up there.
        """
        runs = "\n".join(set(self.keyword_runs.findall(lowered)))
        present = {keyword for keyword in self.run_keywords if keyword in runs}
        return present | {keyword for keyword in self.other_keywords if keyword in lowered}

    def rule(self, rule_id: str) -> Rule:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise KeyError(rule_id)


def translate_go_regex(pattern: str) -> str:
    """Go RE2 syntax → Python `re` syntax, for the constructs gitleaks rules use.

    * `\\z` (end of text) is Python's `\\Z`.
    * `(?i)` after the start of a pattern sets a flag until the end of the enclosing
      group in Go, across `|`; Python only accepts flags at the very start, so the rest
      of the group becomes a scoped `(?i:…)`, closed and reopened around each `|`.
    Anything Python cannot express (the ungreedy flag `U`) raises `RuleError`.
    """
    out: list[str] = []
    # One frame per open group: the scoped-flag groups opened inside it, innermost last.
    frames: list[list[str]] = [[]]
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            escaped = pattern[i : i + 2]
            out.append("\\Z" if escaped == "\\z" else escaped)
            i += 2
            continue
        if c == "[":
            try:
                end = class_end(pattern, i)
            except ValueError as error:
                raise RuleError(str(error)) from error
            out.append(pattern[i:end])
            i = end
            continue
        if c == "(":
            flags = _INLINE_FLAGS.match(pattern, i)
            if flags is not None:
                letters = flags.group(1)
                if not set(letters) <= _PYTHON_FLAGS:
                    raise RuleError(f"flag group {flags.group(0)} has no Python equivalent")
                if not out:
                    out.append(flags.group(0))
                else:
                    out.append(f"(?{letters}:")
                    frames[-1].append(letters)
                i = flags.end()
                continue
            frames.append([])
            out.append("(")
            i += 1
            continue
        if c == "|":
            scoped = frames[-1]
            out.append(")" * len(scoped) + "|" + "".join(f"(?{f}:" for f in scoped))
            i += 1
            continue
        if c == ")":
            if len(frames) == 1:
                raise RuleError("unbalanced parenthesis")
            out.append(")" * len(frames.pop()) + ")")
            i += 1
            continue
        out.append(c)
        i += 1
    if len(frames) != 1:
        raise RuleError("unterminated group")
    out.append(")" * len(frames[0]))
    return "".join(out)


def compile_go_regex(pattern: str) -> re.Pattern[str]:
    # ASCII: Go's \w, \d, \s, \b and case folding are ASCII-only; Python's default
    # Unicode classes would let a Chinese sentence run into `[\w.-]{0,50}`.
    try:
        return re.compile(translate_go_regex(pattern), re.ASCII)
    except re.error as error:
        raise RuleError(str(error)) from error


def short_description(rule_id: str, upstream: str) -> str:
    if rule_id in SHORT_DESCRIPTIONS:
        return SHORT_DESCRIPTIONS[rule_id]
    noun = _DESCRIPTION_NOUN.match(upstream)
    if noun is not None:
        return noun.group("what").strip()
    if upstream and len(upstream) <= 60:
        return upstream.rstrip(".")
    return rule_id.replace("-", " ")


def _allowlist(table: Mapping[str, Any]) -> Allowlist:
    condition = str(table.get("condition", "OR")).upper()
    target = str(table.get("regexTarget", "secret"))
    if condition not in {"OR", "AND"} or target not in {"secret", "match", "line"}:
        raise RuleError(f"allowlist with condition {condition!r} and target {target!r}")
    return Allowlist(
        description=str(table.get("description", "")),
        condition=condition,
        regex_target=target,
        regexes=tuple(compile_go_regex(p) for p in table.get("regexes", ())),
        stopwords=tuple(str(w).lower() for w in table.get("stopwords", ())),
        paths=tuple(compile_go_regex(p) for p in table.get("paths", ())),
    )


def _rule(table: Mapping[str, Any]) -> Rule:
    rule_id = str(table["id"])
    regex = compile_go_regex(table["regex"]) if "regex" in table else None
    path = compile_go_regex(table["path"]) if "path" in table else None
    if regex is None and path is None:
        raise RuleError("neither regex nor path")
    secret_group = int(table.get("secretGroup", 0))
    if regex is not None and secret_group > regex.groups:
        raise RuleError(f"secretGroup {secret_group} but only {regex.groups} groups")
    return Rule(
        id=rule_id,
        description=short_description(rule_id, str(table.get("description", ""))),
        regex=regex,
        path=path,
        secret_group=secret_group,
        entropy=float(table.get("entropy", 0.0)),
        keywords=tuple(str(k).lower() for k in table.get("keywords", ())),
        allowlists=tuple(_allowlist(a) for a in table.get("allowlists", ())),
        branches=branches_of(regex, secret_group) if regex is not None else (),
    )


def _upstream_commit(text: str) -> str:
    found = re.search(r"upstream commit ([0-9a-f]{40})", text)
    return found.group(1) if found else "unknown"


def parse_rules(text: str, dropped: Mapping[str, str] = DROPPED_RULES) -> RuleSet:
    """Build a rule set from gitleaks TOML text, dropping `dropped` and untranslatable rules."""
    config = tomllib.loads(text)
    rules: list[Rule] = []
    skipped: dict[str, str] = {}
    for table in config.get("rules", ()):
        rule_id = str(table["id"])
        if rule_id in dropped:
            skipped[rule_id] = dropped[rule_id]
            continue
        try:
            rules.append(_rule(table))
        except RuleError as error:
            skipped[rule_id] = f"does not translate to Python re: {error}"
    keywords = {keyword for rule in rules for keyword in rule.keywords}
    characters = sorted({c for keyword in keywords for c in keyword if not c.isspace()})
    keyword_runs = re.compile("[" + "".join(map(re.escape, characters)) + "]+")
    run_keywords = frozenset(k for k in keywords if keyword_runs.fullmatch(k))
    return RuleSet(
        rules=tuple(rules),
        allowlist=_allowlist(config.get("allowlist", {})),
        dropped=MappingProxyType(skipped),
        commit=_upstream_commit(text),
        keyword_runs=keyword_runs,
        run_keywords=run_keywords,
        other_keywords=frozenset(keywords - run_keywords),
    )


@functools.cache
def load_rules() -> RuleSet:
    """The vendored rule set, parsed and compiled once per process."""
    text = importlib.resources.files("memsync.secrets").joinpath(RULES_FILE).read_text("utf-8")
    return parse_rules(text)
