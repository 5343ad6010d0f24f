"""Transcript uploads too large to redact inside the request (SPEC T5).

The sessions API keeps such an upload, as it came, in the project's inbox — a folder
beside the transcripts, never inside the repository or anything the dashboard serves —
and the worker redacts it (`memsync.secrets.redact_transcript`, the rules a push is
screened with) and publishes the result where extraction reads transcripts. Only the
redacted file is ever published; the raw one is removed once it is.

Each upload has its own inbox file, so a second upload of a session while the first
waits cannot be half-read or deleted by the first one's worker; a held upload older
than the published transcript is dropped instead of replacing newer text.

An upload whose redaction was never queued (the broker was down) or never finished (its
worker died) waits in the inbox as raw text; the periodic sweep finds it with
`TranscriptInbox.waiting` and queues it again, or drops it when no session claims it.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from pathlib import Path

from memsync.secrets import Finding
from memsync.secrets.transcripts import redact_transcript


@dataclass(frozen=True)
class Published:
    """A transcript the worker redacted and published."""

    path: Path
    findings: list[Finding]


PARTIAL_SUFFIX = ".partial"


def write_atomically(target: Path, text: str) -> None:
    """Write beside `target` and rename over it: a reader never sees half a file.

    The partial file's name is unique, so two writers of one target (a sweep's retry
    beside the first attempt) never write into the same file."""
    partial = target.with_name(f".{target.name}.{uuid.uuid4().hex}{PARTIAL_SUFFIX}")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        partial.replace(target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def session_of(name: str) -> str:
    """The session id a held upload's name carries (``<session>.<nonce>.jsonl``)."""
    return name.removesuffix(".jsonl").rsplit(".", 1)[0]


class TranscriptInbox:
    """Raw uploads waiting in `inbox_dir` for redaction into `transcripts_dir`."""

    def __init__(self, inbox_dir: Path, transcripts_dir: Path) -> None:
        self.inbox_dir = inbox_dir
        self.transcripts_dir = transcripts_dir

    def hold(self, session_id: str, text: str) -> str:
        """Keep an upload of `session_id` for the worker; the name to publish it by."""
        self.inbox_dir.mkdir(parents=True, exist_ok=True)
        name = f"{session_id}.{uuid.uuid4().hex}.jsonl"
        write_atomically(self.inbox_dir / name, text)
        return name

    def publish(self, name: str) -> Published | None:
        """Redact the held upload `name` and publish it as its session's transcript.

        None when there is nothing to publish: the upload is gone (published by an
        earlier run of this task) or older than the transcript already published.
        """
        held = self.inbox_dir / name
        target = self.transcripts_dir / f"{session_of(name)}.jsonl"
        try:
            raw = held.read_text(encoding="utf-8")
            held_at = held.stat().st_mtime_ns
        except FileNotFoundError:
            return None
        if target.exists() and target.stat().st_mtime_ns > held_at:
            held.unlink(missing_ok=True)
            return None
        clean, findings = redact_transcript(raw, path=target.name)
        self.transcripts_dir.mkdir(parents=True, exist_ok=True)
        write_atomically(target, clean)
        held.unlink(missing_ok=True)
        return Published(target, findings)

    def waiting(self, older_than: float) -> list[str]:
        """Held uploads last written before `older_than` (a POSIX time), oldest first.

        Partial files a killed writer left before that time are removed on the way:
        nothing will ever rename them into place."""
        try:
            entries = list(os.scandir(self.inbox_dir))
        except FileNotFoundError:
            return []
        held = []
        for entry in entries:
            try:
                written = entry.stat(follow_symlinks=False).st_mtime
            except FileNotFoundError:
                continue  # published or dropped meanwhile
            if written >= older_than or not entry.is_file(follow_symlinks=False):
                continue
            if entry.name.endswith(PARTIAL_SUFFIX):
                Path(entry.path).unlink(missing_ok=True)
            elif entry.name.endswith(".jsonl"):
                held.append((written, entry.name))
        return [name for _, name in sorted(held)]

    def drop(self, name: str) -> None:
        """Remove a held upload nobody will publish (its session no longer exists)."""
        (self.inbox_dir / name).unlink(missing_ok=True)
