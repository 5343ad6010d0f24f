"""Eval-gated proposals: does the agent still find what it found before the dream?
(issue 15 item 2)

Before a proposal is offered, every memory on ``main`` becomes a canary question: its
description (its name, or first line, when it has none) asked as a recall query, with
its facts (`memsync.dream.dedupe.facts`: numbers, versions, names, days, identifiers)
as the answers to look for. No model is needed. Each question runs through the
project's own recall (`memsync.recall.recall`, the ranking an agent gets without a
key) against ``main`` and against the dream's tree; a fact counts when a recalled
memory's text states it. Facts recall already missed on ``main`` are not counted:
the dream did not lose them.

The result travels in the dream commit's trailers, so a reviewer sees it from Git
alone: ``Memsync-Canaries: 212 of 214 facts still found`` and one
``Memsync-Canary-Lost: <fact> (<memory>)`` per lost fact. A proposal that loses
any is at risk.

Asking costs far more than the dream itself (two recall indexes, hundreds of queries),
and ``main`` seldom changes between two dreams: `CanaryCache` keeps main's side (its
questions and the facts recall found) and each dream tree's result between dreams,
keyed by the very bytes, ages and code they were computed from, so a hit gives the
answer a fresh run would.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import memsync.memory
from memsync.confined import ConfinedRoot
from memsync.dream.dedupe import facts
from memsync.dream.readings import code_digest
from memsync.memory import INDEX_FILENAME, MemoryDirectory, MemoryFile, is_topic_path
from memsync.recall.manifest import directory_documents
from memsync.recall.rank import Analyses, RecallIndex
from memsync.recall.recall import recall
from memsync.store import trailers

# Past this many memories, every n-th is asked (by path): the answer stays a sample of
# the whole directory, and a dream of 10,000 memories does not run 20,000 queries.
MAX_CANARIES = 400
# Lost facts named one by one in the trailers; the rest are counted.
MAX_LISTED = 20
_RESULT = re.compile(r"^\s*(\d+) of (\d+) facts still found")


@dataclass(frozen=True)
class Canary:
    source: str  # the memory the question comes from
    question: str
    facts: frozenset[str]


@dataclass
class CanaryResult:
    asked: int  # questions
    found: int  # facts recall found on main
    kept: int  # of those, facts still found on the dream's tree
    lost: list[tuple[str, str]] = field(default_factory=list)  # (fact, source memory)

    @property
    def at_risk(self) -> bool:
        return self.kept < self.found

    def sentence(self) -> str:
        text = f"{self.kept} of {self.found} facts still found"
        if not self.lost:
            return text + "."
        shown = ", ".join(f"{fact} ({source})" for fact, source in self.lost[:MAX_LISTED])
        more = len(self.lost) - MAX_LISTED
        return (
            f"{text}; these {len(self.lost)} are no longer found: {shown}"
            + (f" and {more} more" if more > 0 else "")
            + "."
        )

    def trailers(self) -> list[tuple[str, str]]:
        listed = [
            trailers.CANARY_LOST(f"{fact} ({source})") for fact, source in self.lost[:MAX_LISTED]
        ]
        return [trailers.CANARIES(f"{self.kept} of {self.found} facts still found"), *listed]

    def to_dict(self) -> dict[str, object]:
        return {
            "asked": self.asked,
            "found": self.found,
            "kept": self.kept,
            "lost": [{"fact": fact, "memory": source} for fact, source in self.lost],
            "at_risk": self.at_risk,
            "summary": self.sentence(),
        }

    @classmethod
    def parse(cls, result: str | None, lost: list[str]) -> CanaryResult | None:
        match = _RESULT.match(result or "")
        if match is None:
            return None
        pairs = []
        for line in lost:
            fact, _, source = line.rpartition(" (")
            pairs.append((fact, source.rstrip(")")) if fact else (line, ""))
        return cls(0, int(match.group(2)), int(match.group(1)), pairs)


def canaries_of(memories: Mapping[str, MemoryFile]) -> list[Canary]:
    """One question per memory (a sample past `MAX_CANARIES`), with its facts."""
    paths = sorted(memories)
    step = max(1, -(-len(paths) // MAX_CANARIES))
    found = []
    for path in paths[::step]:
        memory = memories[path]
        question = memory.description or memory.name or _first_line(memory.body)
        answers = frozenset(f for f in facts(f"{memory.description or ''}\n{memory.body}")
                            if not f.startswith("<"))  # fmt: skip
        if question and answers:
            found.append(Canary(path, question, answers))
    return found


def _first_line(body: str) -> str:
    return next((line.strip() for line in body.splitlines() if line.strip()), "")


def read_tree(root: Path) -> dict[str, bytes]:
    """The topic files and index of a memory directory on disk (a dream's worktree);
    symbolic links are not followed (issue 10)."""
    confined = ConfinedRoot(root)
    # The listing says what each entry is without a stat per file, and the root is
    # opened once for all the reads: a dream reads its tree twice.
    with confined.held(), os.scandir(root) as entries:
        names = sorted(
            entry.name
            for entry in entries
            if entry.is_file(follow_symlinks=False)
            and (is_topic_path(entry.name) or entry.name == INDEX_FILENAME)
        )
        return {name: confined.read_bytes(name) for name in names}


class _Tree:
    """One side of the comparison: memories, their recall index, their facts."""

    def __init__(
        self,
        blobs: Mapping[str, bytes],
        ages: Mapping[str, datetime],
        facts_by_content: dict[bytes, frozenset[str]],
        analyses: Analyses,
    ) -> None:
        self.blobs = blobs
        directory = MemoryDirectory.from_files(None, blobs)
        self.memories = directory.files
        self.index = RecallIndex(directory_documents(directory, ages), analyses=analyses)
        # Shared by both trees: a file the dream left as it was has the same facts.
        self._facts = facts_by_content

    def facts_of(self, path: str) -> frozenset[str]:
        data = self.blobs.get(path, b"")
        if data not in self._facts:
            self._facts[data] = facts(data.decode("utf-8", "replace"))
        return self._facts[data]

    def answers(self, question: str, now: datetime) -> frozenset[str]:
        result = recall(self.index, question, read=self.blobs.get, now=now)
        found: set[str] = set()
        for memory in result.memories:
            found |= self.facts_of(memory.path)
        return frozenset(found)


@dataclass(frozen=True)
class _Asked:
    """A canary of main's and the facts recall found for it on main (never empty)."""

    source: str
    question: str
    found: frozenset[str]


@dataclass(frozen=True)
class _MainSide:
    asked: int  # questions, found or not
    canaries: list[_Asked]


def run_canaries(
    before: Mapping[str, bytes],
    after: Mapping[str, bytes],
    ages: Mapping[str, datetime],
    now: datetime,
    cache: CanaryCache | None = None,
) -> CanaryResult:
    """Ask main's canaries of both trees (path → bytes of topic files and index).

    `now` only dates the recalled memories' headers; which memories recall returns,
    and so every count here, depends on the trees, their ages and the code alone:
    what `cache` keys by."""
    facts_by_content: dict[bytes, frozenset[str]] = {}
    analyses = Analyses()
    main_key = _digest(before, ages)
    main_side = cache.main_side(main_key) if cache else None
    if main_side is None:
        main_side = _ask_main(_Tree(before, ages, facts_by_content, analyses), now)
        if cache:
            cache.keep_main_side(main_key, main_side)
    dream_key = _digest(after, ages)
    if cache and (known := cache.result(main_key, dream_key)) is not None:
        return known
    dream = _Tree(after, ages, facts_by_content, analyses)
    result = CanaryResult(main_side.asked, 0, 0)
    for canary in main_side.canaries:
        still = dream.answers(canary.question, now)
        result.found += len(canary.found)
        result.kept += len(canary.found & still)
        result.lost += [(fact, canary.source) for fact in sorted(canary.found - still)]
    if cache:
        cache.keep_result(main_key, dream_key, result)
    return result


def _ask_main(main: _Tree, now: datetime) -> _MainSide:
    questions = canaries_of(main.memories)
    asked = []
    for canary in questions:
        found = canary.facts & main.answers(canary.question, now)
        if found:
            asked.append(_Asked(canary.source, canary.question, found))
    return _MainSide(len(questions), asked)


# -- kept between dreams ----------------------------------------------------------------

# Past this many mains, the oldest cache files go: main moves on, and only the latest
# few can come round again (a dream retried, or run again before anyone pushed).
_CACHED_MAINS = 4


# memsync's own directory, whose modules `_code_version` reads.
_PACKAGE = Path(memsync.memory.__file__).resolve().parents[1]


@functools.cache
def _code_version() -> str:
    """A digest of the code the answers come from (the memory parser, recall, and the
    facts: `memsync.dream.profiles` and the word lists and glossary it reads): a memsync
    upgrade that changes any of it makes every cached answer a miss."""
    return code_digest(_PACKAGE, ("dream", "memory", "recall"), "canaries")


def _digest(blobs: Mapping[str, bytes], ages: Mapping[str, datetime]) -> str:
    """What one side's answers depend on: every file's bytes and last change."""
    digest = hashlib.sha256(_code_version().encode())
    for path in sorted(blobs):
        age = ages.get(path)
        digest.update(f"\0{path}\0{age.isoformat() if age else ''}\0".encode())
        digest.update(hashlib.sha256(blobs[path]).digest())
    return digest.hexdigest()


class CanaryCache:
    """Canary answers kept in `folder` (inside ``.git/``), one JSON file per main:
    main's questions with the facts found on it, and the result of each dream tree
    asked. An unreadable or damaged file is a miss, never an error."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def main_side(self, main_key: str) -> _MainSide | None:
        data = self._load(main_key)
        try:
            canaries = [
                _Asked(str(source), str(question), frozenset(map(str, found)))
                for source, question, found in data["canaries"]
            ]
            return _MainSide(int(data["asked"]), canaries)
        except (KeyError, TypeError, ValueError):
            return None

    def keep_main_side(self, main_key: str, side: _MainSide) -> None:
        canaries = [[c.source, c.question, sorted(c.found)] for c in side.canaries]
        self._save(main_key, {"asked": side.asked, "canaries": canaries, "dreams": {}})

    def result(self, main_key: str, dream_key: str) -> CanaryResult | None:
        try:
            known = self._load(main_key)["dreams"][dream_key]
            lost = [(str(fact), str(source)) for fact, source in known["lost"]]
            return CanaryResult(int(known["asked"]), int(known["found"]), int(known["kept"]), lost)
        except (KeyError, TypeError, ValueError):
            return None

    def keep_result(self, main_key: str, dream_key: str, result: CanaryResult) -> None:
        data = self._load(main_key)
        if not isinstance(data.get("dreams"), dict):
            return  # main's side was not kept (a damaged file): nothing to add to
        data["dreams"][dream_key] = {
            "asked": result.asked,
            "found": result.found,
            "kept": result.kept,
            "lost": [list(pair) for pair in result.lost],
        }
        self._save(main_key, data)

    def _path(self, main_key: str) -> Path:
        return self.folder / f"{main_key}.json"

    def _load(self, main_key: str) -> dict[str, Any]:
        try:
            data = json.loads(self._path(main_key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _save(self, main_key: str, data: dict[str, Any]) -> None:
        # A cache: when it cannot be written the dream goes on without it.
        with contextlib.suppress(OSError):
            self.folder.mkdir(parents=True, exist_ok=True)
            path = self._path(main_key)
            partial = path.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
            partial.replace(path)
            self._forget_old(keep=path)

    def _forget_old(self, keep: Path) -> None:
        files = sorted(
            (p for p in self.folder.glob("*.json") if p != keep),
            key=lambda p: p.stat().st_mtime_ns,
            reverse=True,
        )
        for old in files[_CACHED_MAINS - 1 :]:
            old.unlink(missing_ok=True)
