"""Finding secrets in text, and redacting them (SPEC T4, T5).

The scan follows gitleaks' detector: a rule runs only when one of its keywords occurs
in the lower-cased text (a substring test, far cheaper than any regex, and most rules
fail it on ordinary prose); each match yields its secret (the rule's secret group, else
the first non-empty group, else the whole match); the global allowlist, the rule's
allowlists and its entropy threshold then discard look-alikes. Overlapping findings
are reported once: a secret inside another finding's secret (a generic `key = …` match
around an AWS key, a JWT inside a PEM block) is the same leak.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from memsync.secrets.findings import Finding, FindingKind
from memsync.secrets.rules import Rule, RuleSet, load_rules
from memsync.secrets.search import Hit, Subject

# Secrets in JSON strings (transcripts, pasted tool output) follow escapes such as
# `\n`; read literally, `\nAKIA…` has no word boundary before the key. The scan sees
# each `\n`, `\r`, `\t` escape as a space and the control character it stands for:
# the same length, so every offset still points into the original text.
_ESCAPE = re.compile(r"\\([\\nrt])")
_ESCAPED = {"\\": "\\\\", "n": " \n", "r": " \r", "t": " \t"}


@dataclass(frozen=True)
class SecretSpan:
    """Where one secret sits in the scanned text (offsets into it)."""

    rule: Rule
    start: int
    end: int


def shannon_entropy(value: str) -> float:
    """Bits per character of `value`, as gitleaks computes it for its thresholds."""
    if not value:
        return 0.0
    length = len(value)
    return -sum(n / length * math.log2(n / length) for n in Counter(value).values())


def _scan_view(text: str) -> str:
    if "\\" not in text:
        return text
    return _ESCAPE.sub(lambda m: _ESCAPED[m.group(1)], text)


def _line_around(text: str, start: int, end: int) -> str:
    first = text.rfind("\n", 0, start) + 1
    last = text.find("\n", end)
    return text[first : last if last >= 0 else len(text)]


def _secret_bounds(rule: Rule, hit: Hit) -> tuple[int, int]:
    found = hit.match
    if rule.secret_group:
        return found.span(rule.secret_group)
    for group in range(1, found.re.groups + 1):
        if found.end(group) > found.start(group) >= 0:
            return found.span(group)
    # No capture: the whole match, without the line break a terminator may have taken.
    end = hit.end
    while end > hit.start and found.string[end - 1] in "\r\n":
        end -= 1
    return hit.start, end


def _rule_spans(rules: RuleSet, rule: Rule, subject: Subject, path: str) -> Iterator[SecretSpan]:
    view = subject.text
    for hit in rule.finditer(subject):
        secret_start, secret_end = _secret_bounds(rule, hit)
        secret = view[secret_start:secret_end]
        if not secret:
            continue
        if rule.entropy and shannon_entropy(secret) <= rule.entropy:
            continue
        match = view[hit.start : hit.end]
        line = _line_around(view, hit.start, hit.end)
        # The global allowlist's paths were applied to the file as a whole already.
        if rules.allowlist.allows(secret=secret, match=match, line=line, path=None):
            continue
        if any(a.allows(secret=secret, match=match, line=line, path=path) for a in rule.allowlists):
            continue
        yield SecretSpan(rule, secret_start, secret_end)


def secret_spans(text: str, path: str = "", rules: RuleSet | None = None) -> list[SecretSpan]:
    """Every secret in `text`, ordered by position, overlaps reported once."""
    rules = rules or load_rules()
    # gitleaks skips whole files by path (lock files, vendored code, images), some by an
    # unanchored name: `gitleaks\.toml` would pass `notes/gitleaks.toml.md` unread. A
    # Markdown file is a memory, the very thing this scan guards: it is always read.
    if path and not path.lower().endswith(".md") and rules.allowlist.allows_path(path):
        return []
    subject = Subject(_scan_view(text))
    present = rules.keywords_in(subject.lowered)
    spans: list[SecretSpan] = []
    order = {rule.id: n for n, rule in enumerate(rules.rules)}
    for rule in rules.rules:
        if rule.path is not None and not (path and rule.path.search(path)):
            continue
        if rule.regex is None:
            # A path-only rule: the file's name is the finding (a PKCS#12 bundle).
            spans.append(SecretSpan(rule, 0, 0))
            continue
        if rule.keywords and present.isdisjoint(rule.keywords):
            continue
        spans.extend(_rule_spans(rules, rule, subject, path))
    spans.sort(key=lambda s: (s.start, -s.end, s.rule.generic, order[s.rule.id]))
    kept: list[SecretSpan] = []
    covered = -1
    for span in spans:
        if kept and span.end <= covered and span.start < span.end:
            continue
        kept.append(span)
        covered = max(covered, span.end)
    return kept


class _Lines:
    """Offset → 1-based line number, built only when there is something to report."""

    def __init__(self, text: str) -> None:
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def at(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)


def _findings(path: str, text: str, spans: list[SecretSpan]) -> list[Finding]:
    lines = _Lines(text) if spans else None
    findings = []
    for span in spans:
        line = 0 if span.rule.regex is None or lines is None else lines.at(span.start)
        findings.append(
            Finding(path, line, span.rule.id, span.rule.description, FindingKind.SECRET)
        )
    return findings


def scan_text(path: str, text: str) -> list[Finding]:
    """The secrets in `text` (the content of `path`), one finding each, by line."""
    return _findings(path, text, secret_spans(text, path))


def _backslashes_before(text: str, offset: int) -> int:
    count = 0
    while offset - count > 0 and text[offset - count - 1] == "\\":
        count += 1
    return count


def _whole_escapes(text: str, start: int, end: int) -> tuple[int, int]:
    # A secret that begins or ends inside a backslash escape (`\"`, `\n`) takes the
    # whole escape with it; removing half of one would end a JSON string early.
    if _backslashes_before(text, start) % 2:
        start -= 1
    if _backslashes_before(text, end) % 2 and end < len(text) and end > start:
        end += 1
    return start, end


def redact(text: str, path: str = "") -> tuple[str, list[Finding]]:
    """`text` with every secret replaced by `[REDACTED:<rule-id>]`, and what was replaced.

    Everything outside the secrets is kept character for character, so a redacted
    JSONL transcript is still one JSON object per line.
    """
    spans = [s for s in secret_spans(text, path) if s.end > s.start]
    pieces: list[str] = []
    written = 0
    for span in spans:
        start, end = _whole_escapes(text, span.start, span.end)
        start = max(start, written)
        if end <= start:
            continue
        pieces.append(text[written:start])
        pieces.append(f"[REDACTED:{span.rule.id}]")
        written = end
    pieces.append(text[written:])
    return "".join(pieces), _findings(path, text, spans)
