"""The local extraction cursor: which messages of each session were already analysed.

Kept in ``.git/memsync-extract.json`` of the memory repository (never committed, never
synced: it describes this machine's sessions), written atomically, and guarded by an
``flock`` on ``.git/memsync-extract.lock`` so two sessions ending at once (two Stop
hooks) do not analyse the same messages twice or lose each other's cursor.

A session file counts as touched since the last extraction when its size or mtime
differs from what was recorded after it was last processed.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

STATE_FILE = "memsync-extract.json"
LOCK_FILE = "memsync-extract.lock"


@dataclass
class SessionCursor:
    cursor: int  # messages already analysed (the transcript reader's numbering)
    size: int  # the file's size and mtime when it was last processed
    mtime_ns: int
    processed_at: str


class ExtractionState:
    def __init__(self, path: Path, sessions: dict[str, SessionCursor] | None = None) -> None:
        self.path = path
        self.sessions = sessions or {}

    @classmethod
    def load(cls, git_dir: Path) -> ExtractionState:
        path = Path(git_dir) / STATE_FILE
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls(path)
        except (OSError, ValueError):
            # A damaged state file only costs a re-analysis; the commits are the record.
            return cls(path)
        sessions = {}
        for session, item in (raw.get("sessions") or {}).items():
            try:
                sessions[session] = SessionCursor(**item)
            except TypeError:
                continue
        return cls(path, sessions)

    def cursor(self, session_id: str) -> int:
        known = self.sessions.get(session_id)
        return known.cursor if known else 0

    def is_touched(self, transcript: Path) -> bool:
        known = self.sessions.get(transcript.stem)
        if known is None:
            return True
        status = transcript.stat()
        return (status.st_size, status.st_mtime_ns) != (known.size, known.mtime_ns)

    def record(self, session_id: str, cursor: int, transcript: Path) -> None:
        status = transcript.stat()
        self.sessions[session_id] = SessionCursor(
            cursor=cursor,
            size=status.st_size,
            mtime_ns=status.st_mtime_ns,
            processed_at=datetime.now(UTC).isoformat(timespec="seconds"),
        )

    def to_dict(self) -> dict[str, Any]:
        return {"sessions": {key: asdict(value) for key, value in sorted(self.sessions.items())}}

    def save(self) -> None:
        data = json.dumps(self.to_dict(), indent=1, sort_keys=True).encode("utf-8")
        # What tempfile.mkstemp does, without the import it costs every extraction.
        temporary = self.path.parent / f".memsync-extract.{os.urandom(6).hex()}"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        descriptor = os.open(temporary, flags, 0o600)
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(data)
            temporary.replace(self.path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise


def session_files(sessions_dir: Path) -> list[Path]:
    """The session transcripts directly in `sessions_dir`: ``<session>.jsonl``, not
    ``agent-*.jsonl`` (subagents never trigger extraction), oldest change first."""
    found = [
        path
        for path in Path(sessions_dir).glob("*.jsonl")
        if path.is_file() and not path.name.startswith("agent-")
    ]
    return sorted(found, key=lambda path: (path.stat().st_mtime_ns, path.name))


@contextmanager
def state_lock(git_dir: Path) -> Iterator[None]:
    """Hold the extraction lock of one repository (blocking: extractions are short)."""
    descriptor = os.open(Path(git_dir) / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)
