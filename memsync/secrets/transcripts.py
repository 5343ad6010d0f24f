"""Redaction of Claude Code transcripts, read as JSON Lines (SPEC T5).

A transcript is one JSON object per line, and what a person typed or a tool printed
sits inside JSON strings, behind escapes: `\\"` before a quoted key, `\\n` between the
lines of a private key. Scanned as raw text, an escape hides a secret's edge (a quoted
AWS secret key passes) or stretches one (a PuTTY block runs to the end of the JSONL line
and takes the closing braces with it). So each line is parsed, every string in it
(keys too) is redacted as the text it decodes to, with the same rules a push is
screened with, and a line that changed is re-encoded: the stored file stays valid JSONL
whatever the secrets looked like. A line that is not JSON is redacted as text.
"""

from __future__ import annotations

import json
from typing import Any

from memsync.secrets.findings import Finding
from memsync.secrets.scan import redact


class _Redactor:
    """Redacts the strings of one parsed line, collecting what it replaced."""

    def __init__(self, path: str, line: int) -> None:
        self.path = path
        self.line = line
        self.findings: list[Finding] = []

    def text(self, value: str) -> str:
        clean, found = redact(value, self.path)
        # A finding names the transcript's line, not the line inside the decoded string.
        self.findings += [
            Finding(f.path, self.line, f.rule_id, f.description, f.kind) for f in found
        ]
        return clean

    def value(self, value: Any) -> Any:
        # Recursive, like json itself: a line nested deep enough to overflow the walk
        # fails to parse first, or raises RecursionError here; both fall back to text.
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(item) for item in value]
        if isinstance(value, dict):
            return {self.text(key): self.value(item) for key, item in value.items()}
        return value


def _redact_line(line: str, path: str, number: int) -> tuple[str, list[Finding]]:
    try:
        parsed = json.loads(line)
    except (ValueError, RecursionError):
        clean, found = redact(line, path)
        return clean, [Finding(f.path, number, f.rule_id, f.description, f.kind) for f in found]
    redactor = _Redactor(path, number)
    try:
        cleaned = redactor.value(parsed)
    except RecursionError:
        clean, found = redact(line, path)
        return clean, [Finding(f.path, number, f.rule_id, f.description, f.kind) for f in found]
    if not redactor.findings:
        return line, []  # untouched lines keep their bytes
    return json.dumps(cleaned, ensure_ascii=False, separators=(",", ":")), redactor.findings


def redact_transcript(text: str, path: str = "") -> tuple[str, list[Finding]]:
    """`text` (JSON Lines) with every secret inside its strings replaced by
    `[REDACTED:<rule-id>]`, one line out per line in, and what was replaced.

    A line that had nothing to redact is kept byte for byte; one that had is re-encoded
    compactly (`ensure_ascii` off, so the rest of its text reads as it did).
    """
    out: list[str] = []
    findings: list[Finding] = []
    # Split on "\n" only: a JSON string may hold U+2028 or a form feed unescaped, which
    # str.splitlines would take for line ends.
    for number, line in enumerate(text.split("\n"), start=1):
        body = line.removesuffix("\r")
        if not body.strip():
            out.append(line)
            continue
        clean, found = _redact_line(body, path, number)
        out.append(clean + line[len(body) :])
        findings += found
    return "\n".join(out), findings
