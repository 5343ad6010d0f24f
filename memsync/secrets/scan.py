"""Finding secrets in text, and redacting them (SPEC T4, T5).

Each rule's pattern is searched line by line, as detect-secrets scans a file, but only
on the lines that hold one of the rule's literals and its shape (`Rule`): a substring
search is far cheaper than any regex, and most rules find neither in ordinary memory
text. Each match yields its secret (the rule's secret group), stretched to the whole
key where the pattern stops short (`Reach`). Overlapping findings are reported once: a
secret inside another finding's secret is the same leak.

Some detect-secrets patterns backtrack on crafted lines: the assignment-shaped ones
(IBM, SoftLayer, Cloudant) try every split of a run of spaces between three space
quantifiers. A pushed blob must not stall the pre-receive hook, so the scan sees a run
of more than `MAX_SPACES` spaces as that many spaces and then tabs. The two patterns
that rescan the rest of a line from every candidate start (npm, JWT) are replaced by
linear ones (`rules.LINEAR_REPLACEMENTS`), so every line is searched whole, however
long: a secret has no position on a minified line where it goes unseen.

A match that is a vendor's documented example key, or a key whose body is masked
(`ghp_xxxx…`), is not a finding (`judgement`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from memsync.secrets.findings import Finding, FindingKind
from memsync.secrets.judgement import REDACTION_MARKER, is_documented_example, is_masked
from memsync.secrets.rule import Reach, Rule
from memsync.secrets.rules import RULES

# Secrets in JSON strings (transcripts, pasted tool output) follow escapes such as
# `\n`; read literally, `\nAIza…` has no boundary before the key and a key block is one
# line. The scan sees each `\n`, `\r`, `\t` escape as a space and the control character
# it stands for: the same length, so every offset still points into the original text.
_ESCAPE = re.compile(r"\\([\\nrt])")
_ESCAPED = {"\\": "\\\\", "n": " \n", "r": " \r", "t": " \t"}

MAX_SPACES = 16
_SPACE_RUN = re.compile(f" {{{MAX_SPACES + 1},}}")

# A line's shape (see `Rule.shape`): one byte per character of the ASCII text.
_SHAPE = bytes(
    ord("a") if chr(c).isascii() and (chr(c).isalnum() or chr(c) in "_-+/")
    else c if chr(c) in ".:\n"
    else ord(" ")
    for c in range(256)
)  # fmt: skip

_TOKEN_RUN = re.compile(r"[A-Za-z0-9_-]+")
# Header, payload and signature: three segments, however many dots follow.
_JWT_RUN = re.compile(r"[A-Za-z0-9_=+/-]+\.[A-Za-z0-9_=+/-]+(?:\.[A-Za-z0-9_=+/-]*)?")
_DASHES_BEFORE = re.compile(r"-+ ?\Z")
_DASHES_AFTER = re.compile(r" ?-*")
# Base64 lines after a BEGIN marker whose END marker is missing (a truncated paste).
_KEY_BODY = re.compile(r"(?:\n[A-Za-z0-9+/=]{8,}[ \t\r]*)*")
# How far a key block's END marker may be from its BEGIN: a PGP key block is the
# largest, a few kilobytes.
_KEY_BLOCK_CHARS = 20_000


@dataclass(frozen=True)
class SecretSpan:
    """Where one secret sits in the scanned text (offsets into it), and its rule."""

    rule_id: str
    description: str
    start: int
    end: int


def shape_of(text: str) -> bytes:
    """The shape of `text` (see `Rule.shape`), one byte per character."""
    return text.encode("ascii", "replace").translate(_SHAPE)


def scan_view(text: str) -> str:
    """`text` as the rules see it: JSON escapes read, long space runs cut (same length)."""
    if "\\" in text:
        text = _ESCAPE.sub(lambda m: _ESCAPED[m.group(1)], text)
    if " " * (MAX_SPACES + 1) in text:
        text = _SPACE_RUN.sub(lambda m: " " * MAX_SPACES + "\t" * (len(m[0]) - MAX_SPACES), text)
    return text


class Subject:
    """A text being scanned, with what several rules need from it computed once.

    The prefilter looks at bytes with one byte per character, so that offsets are the
    text's: the ASCII text with any other character as `?`, its lower-cased form, and
    its shape. Secrets are ASCII; a keyword spelt with the Unicode look-alikes that
    Python's case-insensitive matching also accepts (the Kelvin sign for K) is not
    looked for.
    """

    def __init__(self, text: str) -> None:
        self.view = scan_view(text)
        self._spaces: dict[str, bytes] = {"text": self.view.encode("ascii", "replace")}
        self._lines: dict[tuple[str, str], list[tuple[int, int]]] = {}

    def space(self, name: str) -> bytes:
        """The text as "text", "folded" (lower-cased) or "shape" bytes."""
        space = self._spaces.get(name)
        if space is None:
            text = self._spaces["text"]
            space = text.lower() if name == "folded" else text.translate(_SHAPE)
            self._spaces[name] = space
        return space

    def lines_with(self, needle: str, space: str) -> list[tuple[int, int]]:
        """(start, end) of every line holding `needle` in the named space, in order."""
        key = (needle, space)
        lines = self._lines.get(key)
        if lines is not None:
            return lines
        haystack = self.space(space)
        wanted = needle.encode("ascii")
        lines = self._lines[key] = []
        at = haystack.find(wanted)
        while at >= 0:
            end = haystack.find(b"\n", at)
            end = len(haystack) if end < 0 else end
            lines.append((haystack.rfind(b"\n", 0, at) + 1, end))
            at = haystack.find(wanted, end)
        return lines


def candidate_lines(rule: Rule, subject: Subject) -> list[tuple[int, int]]:
    """(start, end) of the lines the rule's pattern is searched on, in order."""
    space = "folded" if rule.folded else "text"
    if not rule.shape:
        lines = set().union(*(subject.lines_with(literal, space) for literal in rule.literals))
        return sorted(lines)
    shaped = subject.lines_with(rule.shape, "shape")
    if not rule.literals:
        return shaped
    haystack = subject.space(space)
    needles = [literal.encode("ascii") for literal in rule.literals]
    return [(a, e) for a, e in shaped if any(haystack.find(n, a, e) >= 0 for n in needles)]


def _matches(rule: Rule, subject: Subject) -> Iterator[tuple[int, re.Match[str]]]:
    """Every match of the rule's pattern, with the offset of the line it was found in."""
    for start, end in candidate_lines(rule, subject):
        # A slice: `^` and lookbehinds see the line's start as detect-secrets, which
        # scans line by line, does.
        for found in rule.pattern.finditer(subject.view[start:end]):
            yield start, found


def _line_end(view: str, offset: int) -> int:
    end = view.find("\n", offset)
    return len(view) if end < 0 else end


def _key_block(view: str, start: int, end: int) -> tuple[int, int]:
    line_start = view.rfind("\n", 0, start) + 1
    dashes = _DASHES_BEFORE.search(view, line_start, start)
    first = dashes.start() if dashes else start
    marker = view[start:end]
    if marker.startswith("BEGIN"):
        close = "END" + marker[len("BEGIN") :]
        stop = view.find(close, end, end + _KEY_BLOCK_CHARS)
        if stop >= 0:
            after = stop + len(close)
            trailer = _DASHES_AFTER.match(view, after)
            return first, trailer.end() if trailer else after
    else:
        stop = view.find("Private-MAC:", end, end + _KEY_BLOCK_CHARS)
        if stop >= 0:
            return first, _line_end(view, stop)
    body = _KEY_BODY.match(view, _line_end(view, end))
    return first, body.end() if body else _line_end(view, end)


def _reach(reach: Reach, view: str, start: int, end: int) -> tuple[int, int]:
    if reach is Reach.TOKEN:
        run = _TOKEN_RUN.search(view, start)
        if run is None or run.start() >= end:
            return start, end
        return run.start(), run.end()
    if reach is Reach.JWT:
        run = _JWT_RUN.match(view, start)
        return start, max(end, run.end()) if run else end
    if reach is Reach.KEY_BLOCK:
        return _key_block(view, start, end)
    return start, end


def _rule_spans(rule: Rule, subject: Subject) -> Iterator[SecretSpan]:
    view = subject.view
    for offset, found in _matches(rule, subject):
        located = rule.locate(found) if rule.locate else found.span(rule.secret_group)
        if located is None:
            continue
        start, end = located
        if start >= end:
            continue
        if rule.valid is not None and not rule.valid(found.string[start:end]):
            continue
        start, end = _reach(rule.reach, view, offset + start, offset + end)
        secret = view[start:end]
        if is_documented_example(secret) or is_masked(secret) or REDACTION_MARKER in secret:
            continue
        rule_id, description = rule.named(view[start:end])
        yield SecretSpan(rule_id, description, start, end)


def secret_spans(text: str, rules: Sequence[Rule] = RULES) -> list[SecretSpan]:
    """Every secret in `text`, ordered by position, overlaps reported once."""
    subject = Subject(text)
    spans: list[tuple[int, int, int, SecretSpan]] = []
    for order, rule in enumerate(rules):
        spans.extend((s.start, -s.end, order, s) for s in _rule_spans(rule, subject))
    spans.sort()
    kept: list[SecretSpan] = []
    covered = -1
    for _, _, _, span in spans:
        if span.end <= covered:
            continue
        kept.append(span)
        covered = span.end
    return kept


class _Lines:
    """Offset → 1-based line number, built only when there is something to report."""

    def __init__(self, text: str) -> None:
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def at(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)


def _findings(path: str, text: str, spans: list[SecretSpan]) -> list[Finding]:
    if not spans:
        return []
    lines = _Lines(text)
    return [
        Finding(path, lines.at(s.start), s.rule_id, s.description, FindingKind.SECRET)
        for s in spans
    ]


def scan_text(path: str, text: str) -> list[Finding]:
    """The secrets in `text` (the content of `path`), one finding each, by line."""
    return _findings(path, text, secret_spans(text))


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
    spans = secret_spans(text)
    pieces: list[str] = []
    written = 0
    for span in spans:
        start, end = _whole_escapes(text, span.start, span.end)
        start = max(start, written)
        if end <= start:
            continue
        pieces.append(text[written:start])
        pieces.append(f"[REDACTED:{span.rule_id}]")
        written = end
    pieces.append(text[written:])
    return "".join(pieces), _findings(path, text, spans)
