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
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from memsync.dream.dedupe import facts
from memsync.memory import INDEX_FILENAME, MemoryDirectory, MemoryFile, is_topic_path
from memsync.recall.manifest import directory_documents
from memsync.recall.rank import RecallIndex
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
    return {
        entry.name: entry.read_bytes()
        for entry in sorted(root.iterdir())
        if not entry.is_symlink()
        and entry.is_file()
        and (is_topic_path(entry.name) or entry.name == INDEX_FILENAME)
    }


class _Tree:
    """One side of the comparison: memories, their recall index, their facts."""

    def __init__(
        self,
        blobs: Mapping[str, bytes],
        ages: Mapping[str, datetime],
        facts_by_content: dict[bytes, frozenset[str]],
    ) -> None:
        self.blobs = blobs
        directory = MemoryDirectory.from_files(None, blobs)
        self.memories = directory.files
        self.index = RecallIndex(directory_documents(directory, ages))
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


def run_canaries(
    before: Mapping[str, bytes],
    after: Mapping[str, bytes],
    ages: Mapping[str, datetime],
    now: datetime,
) -> CanaryResult:
    """Ask main's canaries of both trees (path → bytes of topic files and index)."""
    facts_by_content: dict[bytes, frozenset[str]] = {}
    main, dream = _Tree(before, ages, facts_by_content), _Tree(after, ages, facts_by_content)
    questions = canaries_of(main.memories)
    result = CanaryResult(len(questions), 0, 0)
    for canary in questions:
        found = canary.facts & main.answers(canary.question, now)
        if not found:
            continue
        still = dream.answers(canary.question, now)
        result.found += len(found)
        result.kept += len(found & still)
        result.lost += [(fact, canary.source) for fact in sorted(found - still)]
    return result
