"""Extraction in a large memory directory reads MEMORY.md and the files it touches, not
every memory (issue 14): the recall index kept on disk between calls says which memories
may be duplicates or the target of a "forget". Every file opened is counted."""

from __future__ import annotations

import builtins
import io
import os
from pathlib import Path

import pytest

from memsync.extract.deterministic import DeterministicEngine
from memsync.extract.run import SAVED, extract_session
from memsync.extract.transcript import read_transcript
from memsync.memory import MemoryDirectory
from memsync.recall.disk import DiskIndex
from tests.extract.sessions import SessionLog, memory_repo, topic

SIZE = 2_000


def large_repo(root: Path, extra: dict[str, bytes] | None = None):
    files = {
        f"memory_{i:04d}.md": topic(
            f"Memory {i}", f"Fact number {i} about service{i}", "project", f"Detail {i}.\n"
        )
        for i in range(SIZE)
    }
    repo = memory_repo(root, {**files, **(extra or {})})
    DiskIndex(repo.path).close()  # built once, as the prompt hook does before extraction
    return repo


@pytest.fixture
def opened(monkeypatch) -> list[str]:
    """The names of the Markdown files opened from now on, whichever way they are opened."""
    names: list[str] = []

    def counting(real):
        def wrapper(path, *args, **kwargs):
            name = os.fsdecode(path) if isinstance(path, str | bytes | os.PathLike) else ""
            if name.endswith(".md"):
                names.append(Path(name).name)
            return real(path, *args, **kwargs)

        return wrapper

    monkeypatch.setattr(os, "open", counting(os.open))
    monkeypatch.setattr(builtins, "open", counting(builtins.open))
    monkeypatch.setattr(io, "open", counting(io.open))
    return names


def extract(repo, log: SessionLog, tmp_path: Path):
    path = log.write(tmp_path / "sessions")
    return extract_session(repo, read_transcript(path, since=0), DeterministicEngine(), since=0)


def test_saving_a_memory_opens_only_memory_md_and_the_new_file(tmp_path, opened):
    repo = large_repo(tmp_path / "memory")
    opened.clear()
    log = SessionLog().turn("Remember that the mobile team owns the release calendar.")

    result = extract(repo, log, tmp_path / "run")

    assert result.status == SAVED and len(result.saved) == 1
    assert opened and set(opened) <= {"MEMORY.md", *result.saved}
    assert result.saved[0] in MemoryDirectory.read(repo.path).files


def test_a_memory_on_the_same_subject_is_found_and_updated_without_reading_the_others(
    tmp_path, opened
):
    calendar = topic(
        "Mobile team owns the release calendar",
        "The mobile team owns the release calendar",
        "project",
        "Ask them first.\n",
    )
    repo = large_repo(tmp_path / "memory", {"project_release_calendar.md": calendar})
    opened.clear()
    log = SessionLog().turn("Remember that the mobile team owns the release calendar now.")

    result = extract(repo, log, tmp_path / "run")

    assert result.saved == ["project_release_calendar.md"]
    assert set(opened) <= {"MEMORY.md", "project_release_calendar.md"}
    assert len(MemoryDirectory.read(repo.path).files) == SIZE + 1


def test_forgetting_opens_only_the_memories_holding_its_words(tmp_path, opened):
    pnpm = topic("Use pnpm", "Use pnpm instead of npm", "feedback", "The lockfile is pnpm's.\n")
    repo = large_repo(tmp_path / "memory", {"feedback_pnpm.md": pnpm})
    opened.clear()
    log = SessionLog().turn("Please forget the pnpm rule.")

    result = extract(repo, log, tmp_path / "run")

    assert result.forgotten == ["feedback_pnpm.md"]
    assert set(opened) <= {"MEMORY.md", "feedback_pnpm.md"}
    assert not (repo.path / "feedback_pnpm.md").exists()


class _CountedEntry:
    """A directory entry whose `stat` calls are counted."""

    def __init__(self, entry: os.DirEntry, counts: list[str]) -> None:
        self._entry, self._counts = entry, counts

    def __getattr__(self, name: str):
        return getattr(self._entry, name)

    def stat(self, *args, **kwargs):
        self._counts.append(self._entry.name)
        return self._entry.stat(*args, **kwargs)


@pytest.fixture
def stated(monkeypatch) -> list[str]:
    """The names of the Markdown files a stat is taken of from now on (through a
    directory listing or by path)."""
    names: list[str] = []

    class Listing:
        def __init__(self, *args) -> None:
            self._listing = real_scandir(*args)

        def __enter__(self):
            return (_CountedEntry(entry, names) for entry in self._listing.__enter__())

        def __exit__(self, *exc) -> None:
            self._listing.__exit__(*exc)

    def counting(real):
        def wrapper(path, *args, **kwargs):
            if os.fsdecode(path).endswith(".md"):
                names.append(Path(os.fsdecode(path)).name)
            return real(path, *args, **kwargs)

        return wrapper

    real_scandir = os.scandir
    monkeypatch.setattr(os, "scandir", Listing)
    monkeypatch.setattr(os, "lstat", counting(os.lstat))
    monkeypatch.setattr(os, "stat", counting(os.stat))
    return names


def test_an_extraction_takes_a_stat_only_of_the_files_written_since_the_last_one(tmp_path, stated):
    repo = large_repo(tmp_path / "memory")
    first = extract(
        repo,
        SessionLog().turn("Remember that the mobile team owns the calendar."),
        tmp_path / "one",
    )
    stated.clear()

    second = extract(
        repo, SessionLog().turn("Remember that staging resets every night."), tmp_path / "two"
    )

    assert first.status == second.status == SAVED
    # The memory the first extraction wrote is new to the index; the 2,000 others are not.
    assert first.saved[0] in stated
    assert not [name for name in stated if name.startswith("memory_")]
