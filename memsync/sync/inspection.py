"""The pre-receive verdict on a push (SPEC T1, T4): refs first, then every blob it adds.

A push is refused, as a whole, when it updates a ref other than the pusher's own
member branch, or when anything it adds is a secret, is over the size cap, has an
unsafe path, or is Markdown that is not UTF-8, or when a pushed tip holds a symlink or
a submodule anywhere in its tree (issue 10: links are refused outright). Problems of the memory
format (SPEC F6: broken frontmatter, a missing field, …) are reported as warnings and
accepted: team memory keeps bad input as it is and the dashboard shows it.

The secret rules and the memory format are imported on first use: a push refused for
its refs, or one that only deletes a branch, does not pay for compiling them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from memsync.store.objects import (
    GITLINK_MODE,
    SYMLINK_MODE,
    TREE_MODE,
    ObjectReader,
    PushedObject,
    PushedTree,
    new_trees,
    pushed_objects,
    quarantined_objects,
    tip_links,
)
from memsync.sync.push_rules import RefUpdate, refusal

if TYPE_CHECKING:
    from memsync.memory import Problem
    from memsync.secrets import Finding

PREFIX = "memsync:"
# A push of thousands of bad files would otherwise flood the pusher's terminal.
MAX_REPORTED = 40


@dataclass
class PushReport:
    """What the hook prints: refusals (the push is refused if there is one) and warnings."""

    refusals: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return not self.refusals

    def lines(self) -> list[str]:
        out: list[str] = []
        if self.refusals:
            count = len(self.refusals)
            out.append(f"{PREFIX} push refused ({count} problem{'s' if count > 1 else ''}):")
            out += [f"{PREFIX}   {line}" for line in self.refusals[:MAX_REPORTED]]
            if count > MAX_REPORTED:
                out.append(f"{PREFIX}   … and {count - MAX_REPORTED} more")
            out.append(f"{PREFIX} nothing of this push was stored.")
        shown = self.warnings[:MAX_REPORTED]
        out += [f"{PREFIX} warning: {line}" for line in shown]
        if len(self.warnings) > MAX_REPORTED:
            out.append(f"{PREFIX} warning: … and {len(self.warnings) - MAX_REPORTED} more")
        if self.warnings and not self.refusals:
            out.append(f"{PREFIX} accepted with warnings; they show in the dashboard.")
        return out


def inspect_push(git_dir: Path, updates: Sequence[RefUpdate], pusher: str) -> PushReport:
    """Judge the ref ``updates`` a push by ``pusher`` asks for, reading ``git_dir``."""
    report = PushReport()
    if not pusher:
        report.refusals.append(
            "the push carries no user: push through the memsync server's HTTP endpoint"
        )
        return report
    report.refusals += [why for update in updates if (why := refusal(update, pusher))]
    if report.refusals:
        return report
    tips = [update.new for update in updates if not update.is_delete]
    # What the pack carried beyond the tips' history; Git would keep it (issue 10).
    quarantined = quarantined_objects(git_dir)
    if not (tips or quarantined):
        return report
    with ObjectReader(git_dir) as reader:
        found = reader.describe(tips)
        for update in updates:
            if not update.is_delete and _kind(found[update.new]) != "commit":
                report.refusals.append(f"{update.ref}: must point at a commit")
        if report.refusals:
            return report
        new = pushed_objects(git_dir, reader, tips)
        stray = {sha: obj for sha, obj in quarantined.items() if sha not in new}
        findings, problems = _check_content(reader, new)
        findings += _check_stray(reader, stray)
    findings += _links_in_tips(git_dir, tips, {finding.path for finding in findings})
    report.refusals += [finding.message() for finding in findings]
    report.warnings += [_problem_line(problem) for problem in problems]
    return report


def _kind(pushed: PushedObject | None) -> str:
    return pushed.type if pushed is not None else "missing"


def _check_content(
    reader: ObjectReader, new: dict[str, PushedObject]
) -> tuple[list[Finding], list[Problem]]:
    from memsync.secrets import MAX_BLOB_BYTES, check_blob, check_path
    from memsync.sync.trees import tree_findings

    findings: list[Finding] = []
    problems: list[Problem] = []
    # Blobs the repository already had were checked when they arrived: only new ones are
    # read. A new blob is scanned once per path it appears at (rules can depend on it).
    scanned: set[tuple[str, str]] = set()
    reached: set[str] = set()
    names: set[str] = set()
    trees = list(new_trees(reader, new))
    for tree in trees:
        findings += tree_findings(tree)
    reached.update(tree.sha for tree in trees)
    for entry in (entry for tree in trees for entry in tree.entries()):
        path = _text_path(entry.path, findings)
        if path is None:
            continue
        unsafe = check_path(path)
        if unsafe is not None:
            findings.append(unsafe)
            continue
        names.add(path)
        if entry.mode == TREE_MODE:
            continue
        if entry.mode == GITLINK_MODE:
            findings.append(_submodule(path))
            continue
        reached.add(entry.sha)
        if entry.mode == SYMLINK_MODE:
            findings.append(_symlink(path))
            continue
        pushed = new.get(entry.sha)
        if pushed is None or (entry.sha, path) in scanned:
            continue
        scanned.add((entry.sha, path))
        if pushed.size > MAX_BLOB_BYTES:
            findings.append(_too_large(path, pushed.size, MAX_BLOB_BYTES))
            continue
        data = reader.read(entry.sha)[1]
        found = check_blob(path, data)
        findings += found
        if not found:
            problems += _memory_problems(path, data)
    findings += _check_metadata(reader, new, names)
    unreached = {sha: obj for sha, obj in new.items() if sha not in reached}
    return findings + _check_stray(reader, unreached), problems


def _check_stray(reader: ObjectReader, stray: dict[str, PushedObject]) -> list[Finding]:
    """Blobs and trees no pushed tree reaches, named by their ids.

    `git push` never sends them, but a crafted pack may carry anything, and Git keeps
    what an accepted push brought: a later push could then reach a tree nobody checked.
    """
    from memsync.secrets import MAX_BLOB_BYTES, check_blob, check_path
    from memsync.sync.trees import tree_findings

    findings: list[Finding] = []
    for pushed in stray.values():
        name = f"({pushed.type} {pushed.sha[:12]})"
        if pushed.type == "blob" and pushed.size > MAX_BLOB_BYTES:
            findings.append(_too_large(name, pushed.size, MAX_BLOB_BYTES))
        elif pushed.type == "blob":
            findings += check_blob(name, reader.read(pushed.sha)[1])
        elif pushed.type == "tree":
            tree = PushedTree(pushed.sha, b"", 0, reader.read(pushed.sha)[1])
            findings += tree_findings(tree, f"{name}/")
            for entry in tree.entries():
                found = check_path(entry.path.decode("utf-8", "backslashreplace"))
                if found is not None:
                    findings.append(replace(found, path=f"{name}/{found.path}"))
    return findings


def _check_metadata(
    reader: ObjectReader, new: dict[str, PushedObject], names: set[str]
) -> list[Finding]:
    """Secrets in the new commits' and tags' people and messages, and in file names."""
    from memsync.secrets.metadata import check_commit, check_path_texts

    findings: list[Finding] = []
    for pushed in new.values():
        if pushed.type in ("commit", "tag"):
            findings += check_commit(pushed.sha, reader.read(pushed.sha)[1])
    return findings + check_path_texts(sorted(names))


def _text_path(raw: bytes, findings: list[Finding]) -> str | None:
    from memsync.secrets import Finding, FindingKind

    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        shown = raw.decode("utf-8", "backslashreplace")
        findings.append(
            Finding(shown, 0, "path-encoding", "path is not valid UTF-8", FindingKind.UNSAFE_PATH)
        )
        return None


def _links_in_tips(git_dir: Path, tips: Sequence[str], reported: set[str]) -> list[Finding]:
    """Links the pushed tips hold in trees the repository already had (issue 10).

    A tip may bring back a tree or commit from before pushes refused links, or move
    such a link to a new name inside an old subtree: the pushed objects alone miss
    those, so each tip's whole tree is listed.
    """
    findings = []
    for tip in dict.fromkeys(tips):
        for mode, raw in tip_links(git_dir, tip):
            path = raw.decode("utf-8", "backslashreplace")
            if path in reported:
                continue
            reported.add(path)
            findings.append(_symlink(path) if mode == SYMLINK_MODE else _submodule(path))
    return findings


def _symlink(path: str) -> Finding:
    from memsync.secrets import Finding, FindingKind

    # Refused whatever it points at: judging a target means resolving it against the
    # other links of the tree, which is how a chain of harmless-looking links got
    # through. A memory directory has no use for links.
    description = "symbolic links are not memory; commit the file itself"
    return Finding(path, 0, "symlink", description, FindingKind.UNSAFE_PATH)


def _submodule(path: str) -> Finding:
    from memsync.secrets import Finding, FindingKind

    return Finding(path, 0, "path-submodule", "submodules are not memory", FindingKind.UNSAFE_PATH)


def _too_large(path: str, size: int, limit: int) -> Finding:
    from memsync.secrets import Finding, FindingKind

    # The same words check_blob uses, without reading an oversized blob into memory.
    description = f"{size:,} bytes, over the {limit:,}-byte limit"
    return Finding(path, 0, "max-blob-size", description, FindingKind.TOO_LARGE)


def _memory_problems(path: str, data: bytes) -> Iterable[Problem]:
    from memsync.memory import INDEX_FILENAME, MemoryFile, MemoryIndex, is_topic_path

    if path == INDEX_FILENAME:
        return MemoryIndex.parse_bytes(data, path).problems(path)
    if is_topic_path(path):
        return MemoryFile.parse(path, data).problems
    return ()


def _problem_line(problem: Problem) -> str:
    from memsync.secrets.findings import printable_path

    where = printable_path(problem.path)
    what = problem.message
    if problem.line is not None:
        where = f"{where}:{problem.line}"
        what = what.removeprefix(f"line {problem.line}: ")
    return f"{where}: {what} [{problem.code}]"
