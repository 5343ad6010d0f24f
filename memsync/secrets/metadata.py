"""Secrets in what a push says about its files: commit messages, people, file names.

A commit message shows on the dashboard's History page and an author's name in every
log, and a file name in every listing: a key pasted into any of them leaks as surely as
one in a file. They are scanned with the same rules as a blob's text; a finding names
the commit (or the path) and which field held the secret, never the secret.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from itertools import accumulate

from memsync.secrets.findings import Finding
from memsync.secrets.rules import RULES
from memsync.secrets.scan import Subject, candidate_lines, redact, scan_text

# The commit header fields a person writes; tree and parent ids are not text.
_PEOPLE = (b"author ", b"committer ", b"tagger ")


def commit_fields(raw: bytes) -> list[tuple[str, str]]:
    """(field, text) of a raw commit or tag object: each person line and the message."""
    header, _, message = raw.partition(b"\n\n")
    fields = [
        (line.split(b" ", 1)[0].decode("ascii"), line.split(b" ", 1)[1].decode("utf-8", "replace"))
        for line in header.split(b"\n")
        if line.startswith(_PEOPLE)
    ]
    fields.append(("message", message.decode("utf-8", "replace")))
    return fields


def check_commit(sha: str, raw: bytes) -> list[Finding]:
    """The secrets in commit (or tag) `sha`'s people and message, named `commit <sha>
    (field)`."""
    findings: list[Finding] = []
    for field, text in commit_fields(raw):
        findings += scan_text(f"commit {sha[:12]} ({field})", text)
    return findings


def check_path_text(path: str) -> list[Finding]:
    """The secrets in a file name itself (each path component read as a line). The
    finding shows the name with the secret redacted, never the name as pushed."""
    shown, found = redact(path.replace("/", "\n"), path)
    shown = shown.replace("\n", "/")
    return [
        Finding(shown, 0, f.rule_id, f"{f.description} in the file name", f.kind) for f in found
    ]


def check_path_texts(paths: Iterable[str]) -> list[Finding]:
    """:func:`check_path_text` of many names, for the price of a few.

    A push that adds one file brings a new tree for its directory, and every name in
    it: a thousand names scanned one by one cost the pre-receive hook over two seconds
    (issue 14), nearly all of it each rule's prefilter run a thousand times. Here the
    prefilter runs once, over all the names (a line per path component, as one name is
    scanned); a rule is only ever searched on a line holding its literals and shape, and
    a line is one component of one name, so the names it picks are the only ones that
    can hold a secret. Those are then scanned one by one, exactly as alone.
    """
    names = list(dict.fromkeys(paths))
    if not names:
        return []
    # Each name followed by its separator: name i starts at starts[i] in the text.
    starts = [0, *accumulate(len(name) + 1 for name in names)][:-1]
    subject = Subject("\n".join(name.replace("/", "\n") for name in names))
    picked = {
        bisect.bisect_right(starts, start) - 1
        for rule in RULES
        for start, _ in candidate_lines(rule, subject)
    }
    return [finding for index in sorted(picked) for finding in check_path_text(names[index])]
