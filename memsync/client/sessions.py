"""The Claude Code sessions a push reports to the server (SPEC T5, D1).

A session is a ``<uuid>.jsonl`` transcript directly in the working directory's project
folder (``agent-*.jsonl`` and subdirectories are not sessions); it is reported when its
file changed after the cutoff (the previous report). The message count is what
extraction counts (``memsync.extract.transcript``), so the server's session gate and
extraction cursor agree with it. Transcripts are sent only when the project accepts
them, and are cleaned here first: memsync's recalled memories and the text of private
memories are removed (``memsync.extract.privacy``), then secrets are redacted; neither
leaves the machine, whatever the server does with it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memsync.client.server import SessionReport
from memsync.extract.privacy import PrivateText, scrub_transcript
from memsync.extract.sessions import TranscriptDirectory
from memsync.extract.transcript import read_transcript
from memsync.secrets.transcripts import redact_transcript

# The server takes transcripts up to 16 MiB; a bigger one is reported without it.
MAX_TRANSCRIPT_BYTES = 16 * 1024 * 1024


def touched_sessions(
    transcripts_dir: Path,
    since: datetime | None,
    *,
    with_transcripts: bool = False,
    memory_dir: Path | None = None,
) -> list[SessionReport]:
    """Sessions whose transcript changed after ``since`` (all of them when None),
    newest first. Transcripts leave without the private memories of `memory_dir`."""
    reports = []
    private = PrivateText.from_directory(memory_dir) if memory_dir and with_transcripts else None
    for session_id in TranscriptDirectory(transcripts_dir).sessions_touched_since(since):
        path = transcripts_dir / f"{session_id}.jsonl"
        try:
            touched = datetime.fromtimestamp(path.stat().st_mtime, UTC)
            messages = len(read_transcript(path).messages)
            transcript = _transcript(path, private) if with_transcripts else None
        except OSError:
            continue  # removed while we read it
        reports.append(SessionReport(session_id, touched, messages, transcript))
    return reports


def _transcript(path: Path, private: PrivateText | None) -> str | None:
    if path.stat().st_size > MAX_TRANSCRIPT_BYTES:
        return None
    text = path.read_bytes().decode("utf-8", errors="replace")
    clean, _ = redact_transcript(scrub_transcript(text, private).text, path=path.name)
    return clean if len(clean.encode("utf-8")) <= MAX_TRANSCRIPT_BYTES else None
