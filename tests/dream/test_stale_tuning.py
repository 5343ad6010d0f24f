"""Stale marking on its tuning material (issue 15 item 4): superseded, contradicted and
code-value memories written for it (`tests.dream.tuning.stale_variants`), and
look-alikes that must never be flagged. Figures are printed (run with ``-s``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memsync.dream.deterministic import DeterministicEngine
from memsync.dream.engine import DreamContext, Scope
from tests.dream.corpus import RecordingProgress
from tests.dream.tuning import FILLERS
from tests.dream.tuning.stale_variants import (
    CODE_FILES,
    CODE_FRESH,
    CODE_STALE,
    CONTRADICTED,
    CONTRADICTED_ACROSS_TYPES,
    NEAR_MISSES,
    ONE_SERVICE,
    ONE_SERVICE_ADDITIONS,
    ONE_SERVICE_CHANGES,
    SUPERSEDED,
)

NOW = datetime(2026, 12, 2, tzinfo=UTC)


@dataclass
class StaleCorpus:
    root: Path
    code: Path | None = None
    changed: dict[str, datetime] = field(default_factory=dict)
    stale: set[str] = field(default_factory=set)
    number: int = 0

    def write(self, kind: str, text: str, age_days: int, *, team: bool = False) -> str:
        """One memory file with a neutral name (names never match), `age_days` old."""
        self.number += 1
        path = f"{'team/' if team else ''}{kind}_{self.number:03d}.md"
        description, own, body = text.partition("\n---\n")
        if not own:
            description, body = text.split(". ", 1)[0].rstrip("."), text
        file = self.root / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(
            f"---\nname: note {self.number}\ndescription: {description}\ntype: {kind}\n"
            f"---\n\n{body}\n",
            encoding="utf-8",
        )
        self.changed[path] = NOW - timedelta(days=age_days)
        return path

    def write_pairs(self, pairs: list[tuple[str, str, str]], *, team: bool = False) -> StaleCorpus:
        """Each (type, older, newer): the older (300 days old and more) labelled stale, the
        newer (40 days and more) in this directory or, with `team`, a teammate's."""
        for number, (kind, older, newer) in enumerate(pairs):
            self.stale.add(self.write(kind, older, 300 + number))
            self.write(kind, newer, 40 + number, team=team)
        return self

    def flagged(self) -> dict[str, str]:
        context = DreamContext(self.root, Scope.PERSONAL, NOW, self.changed, code_dir=self.code)
        result = DeterministicEngine().consolidate(context, RecordingProgress())
        return dict(line.split(": ", 1) for line in result.stale)


def superseded(root: Path) -> StaleCorpus:
    return StaleCorpus(root).write_pairs(SUPERSEDED)


def named_as_replaced(root: Path) -> StaleCorpus:
    """A newer memory that names the older by its file: flagged only where it says it
    replaces it."""
    corpus = StaleCorpus(root)
    old = corpus.write("project", "Deploys need a green canary for 30 minutes.", 300)
    corpus.write("project", f"This supersedes {old}: the canary window is gone.", 20)
    corpus.stale.add(old)
    kept = corpus.write("project", "Deploy approvals are in the #deploys channel.", 300)
    corpus.write("project", f"See also {kept} for where approvals are posted.", 20)
    linked = corpus.write("reference", "The on-call handbook is in Notion.", 300)
    corpus.write("reference", f"The [handbook note]({linked}) is outdated.", 20)
    corpus.stale.add(linked)
    return corpus


def one_service(root: Path) -> StaleCorpus:
    """A small directory about one service: the changes replace the background memories
    they name; the additions replace none."""
    corpus = StaleCorpus(root)
    written = [corpus.write(kind, text, 300 + number)
               for number, (kind, text) in enumerate(ONE_SERVICE)]  # fmt: skip
    for number, (replaced, kind, text) in enumerate(ONE_SERVICE_CHANGES):
        corpus.write(kind, text, 30 + number)
        corpus.stale.add(written[replaced])
    for number, (kind, text) in enumerate(ONE_SERVICE_ADDITIONS):
        corpus.write(kind, text, 10 + number)
    return corpus


def contradicted(root: Path) -> StaleCorpus:
    corpus = StaleCorpus(root).write_pairs(CONTRADICTED, team=True)
    for number, (kind, mine, their_kind, theirs) in enumerate(CONTRADICTED_ACROSS_TYPES):
        corpus.stale.add(corpus.write(kind, mine, 200 + number))
        corpus.write(their_kind, theirs, 20 + number, team=True)
    return corpus


def near_misses(root: Path, placing: str) -> StaleCorpus:
    """`placing`: "first-older", "second-older" (one directory), "teammate" (the second
    is a teammate's newer memory) or "teammate-first" (the first is)."""
    corpus = StaleCorpus(root)
    for number, (kind, first, second) in enumerate(NEAR_MISSES):
        older, newer = (second, first) if placing.endswith("first") else (first, second)
        if placing == "second-older":
            older, newer = second, first
        corpus.write(kind, older, 300 + number)
        corpus.write(kind, newer, 40 + number, team=placing.startswith("teammate"))
    return corpus


def fleet(root: Path) -> StaleCorpus:
    """The duplicate tuning corpus's distinct service facts: owners, on-call, deploy days
    of services sharing words. None replaces another."""
    corpus = StaleCorpus(root)
    for number, (kind, text) in enumerate(FILLERS):
        corpus.write(kind, text, 10 + number)
    return corpus


def code_values(root: Path, *, stale: bool) -> StaleCorpus:
    """The memories stating values of `CODE_FILES` wrongly (`stale`) or rightly: apart,
    since a right and a wrong one about one value would also be a superseded pair."""
    corpus = StaleCorpus(root / "memory", root / "code")
    for relative, text in CODE_FILES.items():
        (root / "code" / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / "code" / relative).write_text(text, encoding="utf-8")
    for number, text in enumerate([t for t, _ in CODE_STALE] if stale else CODE_FRESH):
        path = corpus.write("project", text, 100 + number)
        if stale:
            corpus.stale.add(path)
    return corpus


CORPORA = {
    "superseded": superseded,
    "contradicted": contradicted,
    "named as replaced": named_as_replaced,
    "one service": one_service,
    "near-misses first-older": lambda root: near_misses(root, "first-older"),
    "near-misses second-older": lambda root: near_misses(root, "second-older"),
    "near-misses teammate": lambda root: near_misses(root, "teammate"),
    "near-misses teammate-first": lambda root: near_misses(root, "teammate-first"),
    "fleet": fleet,
    "code values": lambda root: code_values(root, stale=True),
    "code values right": lambda root: code_values(root, stale=False),
}


def measure(
    corpora: dict[str, Callable[[Path], StaleCorpus]], root: Path, label: str = ""
) -> tuple[list[str], dict[str, tuple[int, int]]]:
    """Build and dream each corpus under `root`; print what was flagged of what is stale
    (prefixed by `label`) and every false flag. Returns (false flags, name → (flagged
    stale, stale))."""
    false_flags: list[str] = []
    found: dict[str, tuple[int, int]] = {}
    for name, build in corpora.items():
        corpus = build(root / name.replace(" ", "-"))
        flagged = corpus.flagged()
        false_flags += [f"{name}: {path}: {why}" for path, why in flagged.items()
                        if path not in corpus.stale]  # fmt: skip
        found[name] = (len(corpus.stale & set(flagged)), len(corpus.stale))
        missed = sorted(corpus.stale - set(flagged))
        if corpus.stale:
            print(f"{label}{name}: {found[name][0]} of {found[name][1]} flagged; missed {missed}")
    print("false flags: " + ("none" if not false_flags else "\n  " + "\n  ".join(false_flags)))
    return false_flags, found


def test_it_flags_what_a_newer_memory_or_the_code_replaces_and_nothing_else(
    tmp_path: Path,
) -> None:
    false_flags, found = measure(CORPORA, tmp_path)
    assert false_flags == []
    assert found["superseded"][0] >= 0.9 * found["superseded"][1]
    assert found["contradicted"][0] >= 0.75 * found["contradicted"][1]
    assert found["code values"][0] >= 0.8 * found["code values"][1]
