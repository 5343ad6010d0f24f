"""The deterministic extraction engine: explicit requests only, no model (SPEC E3).

"Remember X" becomes a memory at once: a topic file ``<type>_<subject>.md`` with
frontmatter and, for feedback and project, the rule or fact followed by **Why:** and
**How to apply:** lines, plus its line in ``MEMORY.md``. An existing memory on the
same subject (the same file name, or a name and description sharing most of their
words with the statement) is updated instead: the latest statement wins, its other
frontmatter keys are kept. Relative dates become absolute, counted from the time of
the message that said them. What SPEC F5 excludes is refused and reported.

"Forget X" deletes the memory X names best, and its index line — but only when that
match is confident. Confidence is the share of the request's words (weighted by how
rare each is among the memories, so "pnpm" counts for more than "deploy") found in
the memory: words in its name, description or file name count fully, words only in
its body count half. Deleting is the one step here that loses something, so a match
must reach 0.6 and clearly beat the runner-up (by 0.2): a memory that only mentions
the subject in its body (at most 0.5) is never deleted, nor is one of two equally
good candidates. A request that misses is reported, never guessed.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from memsync.confined import ConfinedRoot, EntryKind
from memsync.extract.engine import DETERMINISTIC, EngineOutcome, ExtractionRequest, Refusal
from memsync.extract.exclusions import never_saved
from memsync.extract.explicit import (
    ExplicitRequest,
    classify,
    find_requests,
    is_chinese,
    sentence_case,
    split_reason,
)
from memsync.memory import (
    INDEX_FILENAME,
    MAX_ENTRY_CHARS,
    STRUCTURED_TYPES,
    TEAM_DIRNAME,
    MemoryFile,
    MemoryIndex,
    is_topic_path,
    rewrite_relative_dates,
)
from memsync.memory.layout import MemoryLayout, create_memory, file_stem, kebab_name, memory_name
from memsync.recall.disk import DiskIndex
from memsync.recall.manifest import layout_of
from memsync.recall.rank import tokenize

FORGET_THRESHOLD = 0.6
FORGET_MARGIN = 0.2
# Name-and-description overlap (Jaccard of terms) above which a statement updates an
# existing memory of the same type instead of adding a near-duplicate.
SAME_SUBJECT = 0.5
MAX_DESCRIPTION_CHARS = 150
MAX_NAME_CHARS = 60
MAX_SLUG_CHARS = 40

# Words that say "a memory" rather than which one: "forget the pnpm rule", 忘记关于
# pnpm 的那条规则. Chinese ones are removed from the text before it is cut into terms.
_FORGET_FILLER = set(
    tokenize(
        "memory memories note notes rule rules thing things stuff entry fact facts said told "
        "about preference preferences instruction instructions reminder remembered what my "
        "the that this you i asked saved"
    )
)
_FORGET_FILLER_ZH = re.compile(
    r"关于|那条|这条|那个|这个|规则|记忆|内容|偏好|说过的?|之前的?|提醒|的"
)
_SLUG_STOP = frozenset(
    (  # noqa: SIM905
        "a an the and or but of to in on at for with by from as is are was were be been it its "
        "this that these those we you i my our your they them he she use using always never "
        "dont don do not must should make sure please when every all any"
    ).split()
)
# Leading words a Chinese statement's subject starts after: 我是…, 请把…, 都用…
_CJK_SLUG_SKIP = "我你他她它们是请把要都也就在"
_TEAM_PREFIX = f"{TEAM_DIRNAME}/"  # the recall index also holds team memories: not ours
_CJK_CLAUSE = re.compile(r"[，。、；：！？,.;:!?\n]")


@dataclass
class _Directory:
    """The memory directory while requests are applied; written once at the end.

    Only what the requests need is read (issue 14): ``MEMORY.md``, and the memories a
    request may update or forget — those the recall index kept on disk between calls
    (`memsync.recall.disk`, brought up to date with the files first) lists under the
    request's words, a superset of the ones whose words decide. How many memories there
    are and which layout most of them use come from the same index. Until `save`, the
    files on disk are as they were before the run; `written` and `deleted` lie over them.

    Every read and write goes through `ConfinedRoot` (issue 10): a symlink in the
    tree is never followed. Linked topic files are no memories here, and a linked
    ``MEMORY.md`` raises `ConfinementError`, which the run reports.
    """

    root: ConfinedRoot
    index: MemoryIndex
    known: DiskIndex  # the memories as they are on disk before the run
    on_disk: dict[str, MemoryFile | None] = field(default_factory=dict)  # read so far
    written: dict[str, MemoryFile] = field(default_factory=dict)
    deleted: dict[str, None] = field(default_factory=dict)
    index_changed: bool = False
    originals: dict[str, bytes | None] = field(default_factory=dict)  # filled by `save`

    @classmethod
    def read(cls, workdir: Path) -> _Directory:
        root = ConfinedRoot(workdir)
        index = (
            MemoryIndex.parse_bytes(root.read_bytes(INDEX_FILENAME))
            if root.is_file(INDEX_FILENAME)
            else MemoryIndex.empty()
        )
        # Ages are not needed to compare words: asking Git for them is left to recall.
        return cls(root, index, DiskIndex(workdir, ages=False, rescan=False))

    def close(self) -> None:
        self.known.close()

    def get(self, path: str) -> MemoryFile | None:
        """The memory at `path` as the run sees it (None: none there)."""
        if path in self.deleted:
            return None
        if path in self.written:
            return self.written[path]
        return self._disk(path)

    def _disk(self, path: str) -> MemoryFile | None:
        if path not in self.on_disk:
            memory = None
            if is_topic_path(path) and self.root.kind(path) is EntryKind.FILE:
                memory = MemoryFile.parse(path, self.root.read_bytes(path))
            self.on_disk[path] = memory if memory is not None and memory.is_text else None
        return self.on_disk[path]

    def sharing(
        self, terms: set[str], *, at_least: int = 1, heads: bool = False
    ) -> dict[str, MemoryFile]:
        """The memories that may hold `at_least` of `terms` (with `heads`, in their name or
        description), in the order a directory listing gives, then those this run added."""
        found = set(self.known.index.sharing(terms, at_least=at_least, heads=heads))
        found = {path for path in found if not path.startswith(_TEAM_PREFIX)}
        found |= {path for path in self.written if self._disk(path) is not None}
        added = [path for path in self.written if self._disk(path) is None]
        memories = {}
        for path in [*sorted(found), *added]:
            memory = self.get(path)
            if memory is not None:
                memories[path] = memory
        return memories

    def count(self) -> int:
        """How many memories the directory holds now."""
        before = sum(1 for path in self.known.index.paths() if not path.startswith(_TEAM_PREFIX))
        added = sum(1 for path in self.written if self._disk(path) is None)
        removed = sum(1 for path in self.deleted if self._disk(path) is not None)
        return before + added - removed

    def layout(self) -> MemoryLayout:
        """The layout most memories use, as `detect_layout` over every file would say."""
        counts = self.known.index.layouts(_TEAM_PREFIX)
        for path in {*self.written, *self.deleted}:
            was, now = self._disk(path), self.get(path)
            if was is not None and (kind := layout_of(was)) is not None:
                counts[kind] -= 1
            if now is not None and (kind := layout_of(now)) is not None:
                counts[kind] += 1
        classic, current = counts[MemoryLayout.CLASSIC], counts[MemoryLayout.CURRENT]
        return MemoryLayout.CLASSIC if classic > current else MemoryLayout.CURRENT

    def taken(self, name: str) -> bool:
        # Anything at the name counts, a link included: a dangling link is not "free".
        # (A memory this run deleted is still on disk until `save`.)
        return name in self.written or self.root.kind(name) is not None

    def put(self, memory: MemoryFile, title: str, hook: str) -> None:
        self.written[memory.path] = memory
        self.deleted.pop(memory.path, None)
        updated = self.index.with_entry(title, memory.path, hook)
        self.index_changed |= updated != self.index
        self.index = updated

    def remove(self, path: str) -> None:
        self.written.pop(path, None)
        self.deleted[path] = None
        updated = self.index.without_entry(path)
        self.index_changed |= updated != self.index
        self.index = updated

    def save(self) -> None:
        """Write the changes, keeping what each changed path held before (`originals`):
        the run compares against them, and puts them back if it refuses the result."""
        touched = [*self.written, *self.deleted, *([INDEX_FILENAME] if self.index_changed else [])]
        for path in touched:
            self.originals[path] = (
                self.root.read_bytes(path) if self.root.kind(path) is EntryKind.FILE else None
            )
        for path, memory in self.written.items():
            self.root.write(path, memory.render())
        for path in self.deleted:
            self.root.unlink(path, missing_ok=True)
        if self.index_changed:
            self.root.write(INDEX_FILENAME, self.index.render_bytes())


class DeterministicEngine:
    name = DETERMINISTIC
    # Reads only what its requests need and reports what it changed (engine.py).
    incremental = True

    def extract(self, request: ExtractionRequest) -> EngineOutcome:
        outcome = EngineOutcome(engine=self.name, originals={})
        found_requests = [found for message in request.messages for found in find_requests(message)]
        if not found_requests:
            # Most turns ask to remember nothing: the directory is not even listed.
            return outcome
        directory = _Directory.read(request.workdir)
        try:
            for found in found_requests:
                day = (found.timestamp or request.now).date()
                if found.action == "remember":
                    _remember(directory, found, day, request, outcome)
                else:
                    _forget(directory, found, outcome)
            directory.save()
        finally:
            directory.close()
        outcome.written = list(directory.written)
        outcome.deleted = list(directory.deleted)
        outcome.originals = dict(directory.originals)
        return outcome


def _remember(
    directory: _Directory,
    found: ExplicitRequest,
    day: date,
    request: ExtractionRequest,
    outcome: EngineOutcome,
) -> None:
    text, _ = rewrite_relative_dates(found.text, day)
    # Judged as said: "this week's PRs" must still read as ephemeral once dated.
    excluded = never_saved(found.text, request.claude_md) or never_saved(text, request.claude_md)
    if excluded is not None:
        outcome.refused.append(Refusal(found.message_index, text, excluded.message()))
        outcome.notes.append(f"#{found.message_index}: {excluded.message()}: {text!r}")
        return
    kind = classify(text, found.rule)
    statement = split_reason(text) if kind in STRUCTURED_TYPES else None
    fact = sentence_case(statement.fact if statement else text)
    description = _one_line(fact, MAX_DESCRIPTION_CHARS)
    body = _body(kind, fact, statement.why if statement else None, day, is_chinese(text))
    existing = _same_subject(directory, kind, fact)
    if existing is not None:
        found_memory = directory.get(existing)
        assert found_memory is not None  # _same_subject names a memory there
        memory = found_memory.replace(description=description, body=body)
        title = _title_of(directory, existing, memory)
        verb = "updated"
    else:
        # Written as the installed Claude Code writes: the directory's own layout,
        # else the current one (kebab-case name, nested metadata; memsync.memory.layout).
        layout = directory.layout()
        title = _title(fact)
        slug = _slug(fact)
        name = memory_name(layout, title, kind, fact, slug)
        path = _free_name(directory, file_stem(layout, name, kind, slug) + ".md")
        if layout is MemoryLayout.CURRENT:
            name = path.removesuffix(".md")  # a file is named after its memory
        memory = create_memory(
            layout,
            path,
            name=name,
            description=description,
            type=kind,
            body=body,
            session_id=request.session_id,
            day=day,
        )
        verb = "saved"
    hook = description if description != title else ""
    directory.put(memory, title, _hook(title, memory.path, hook))
    outcome.notes.append(f"#{found.message_index}: {verb} {kind} memory {memory.path}")


def _forget(directory: _Directory, found: ExplicitRequest, outcome: EngineOutcome) -> None:
    # A memory holding none of the request's words scores 0: only those holding one are
    # read, and the count of all of them weighs how rare each word is.
    candidates = directory.sharing(forget_terms(found.text))
    ranked = rank_for_forget(found.text, candidates, count=directory.count())
    best = ranked[0] if ranked else None
    runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
    if best is None or best[1] < FORGET_THRESHOLD:
        outcome.notes.append(
            f"#{found.message_index}: nothing forgotten: no memory matches {found.text!r} "
            "confidently enough"
        )
        return
    if best[1] - runner_up < FORGET_MARGIN:
        close = ", ".join(path for path, score in ranked[:3] if best[1] - score < FORGET_MARGIN)
        outcome.notes.append(
            f"#{found.message_index}: nothing forgotten: {found.text!r} matches several "
            f"memories equally ({close}); ask again more precisely"
        )
        return
    directory.remove(best[0])
    outcome.notes.append(f"#{found.message_index}: forgot {best[0]} ({best[1]:.2f})")


def forget_terms(target: str) -> set[str]:
    """The words of a "forget" request that say which memory (fillers left out)."""
    said = _FORGET_FILLER_ZH.sub(" ", target)
    return {term for term in tokenize(said) if term not in _FORGET_FILLER}


def rank_for_forget(
    target: str, files: dict[str, MemoryFile], *, count: int | None = None
) -> list[tuple[str, float]]:
    """Memories by how confidently `target` names them (0–1), best first; see the module
    docstring for the measure. `files` may be only those holding one of the request's
    words (the others score 0) when `count` says how many memories there are in all."""
    wanted = forget_terms(target)
    if not wanted or not files:
        return []
    heads: dict[str, set[str]] = {}
    bodies: dict[str, set[str]] = {}
    for path, memory in files.items():
        stem = path.removesuffix(".md")
        heads[path] = set(tokenize(f"{memory.name or ''} {memory.description or ''} {stem}"))
        bodies[path] = set(tokenize(memory.body))
    count = len(files) if count is None else count
    weight = {}
    for term in wanted:
        holders = sum(1 for path in files if term in heads[path] or term in bodies[path])
        weight[term] = math.log(1 + (count + 1) / (holders + 0.5))
    total = sum(weight.values())
    scores = []
    for path in files:
        found = sum(
            weight[term] * (1.0 if term in heads[path] else 0.5 if term in bodies[path] else 0.0)
            for term in wanted
        )
        scores.append((path, found / total))
    scores.sort(key=lambda item: (-item[1], item[0]))
    return scores


def _same_subject(directory: _Directory, kind: str, fact: str) -> str | None:
    slug = _slug(fact)
    for slugged in (f"{kind}_{slug}.md", f"{kebab_name(slug.replace('_', '-'))}.md"):
        memory = directory.get(slugged)
        if memory is not None and memory.memory_type == kind:
            return slugged
    terms = set(tokenize(fact))
    # An overlap of SAME_SUBJECT (a half) needs at least half of the statement's terms
    # in the memory's name or description: only memories indexed so are read.
    needed = math.ceil(len(terms) * SAME_SUBJECT)
    best: tuple[float, str] | None = None
    for path, memory in directory.sharing(terms, at_least=max(needed, 1), heads=True).items():
        if memory.memory_type != kind:
            continue
        other = set(tokenize(f"{memory.name or ''} {memory.description or ''}"))
        union = terms | other
        overlap = len(terms & other) / len(union) if union else 0.0
        if overlap >= SAME_SUBJECT and (best is None or overlap > best[0]):
            best = (overlap, path)
    return best[1] if best else None


def _body(kind: str, fact: str, why: str | None, day: date, chinese: bool) -> str:
    sentence = (
        fact
        if fact.endswith((".", "。", "!", "！", "?", "？"))
        else fact + ("。" if chinese else ".")
    )
    if kind not in STRUCTURED_TYPES:
        return sentence + "\n"
    when = day.isoformat()
    if chinese:
        reason = why or f"用户在 {when} 明确要求记住，没有说明原因。"
        apply = (
            "以后的每次会话都直接遵循，不必等用户再提醒。"
            if kind == "feedback"
            else "规划和评审这个项目的工作时考虑这一点。"
        )
    else:
        reason = (
            sentence_case(why) if why else f"The user asked for this on {when}; no reason given."
        )
        apply = (
            "In every session on this project, without waiting to be reminded."
            if kind == "feedback"
            else "Take it into account when planning or reviewing work on this project."
        )
    reason = reason if reason.endswith((".", "。")) else reason + ("。" if chinese else ".")
    return f"{sentence}\n\n**Why:** {reason}\n**How to apply:** {apply}\n"


def _words(text: str) -> list[str]:
    """Lower-case words; a possessive keeps its noun ("alice's" → alice) and other
    contractions ("I'm", "don't") go: they never say what a memory is about."""
    found = []
    for token in re.findall(r"[a-z0-9]+(?:['’][a-z]+)*", text.lower()):
        word, apostrophe, rest = token.replace("’", "'").partition("'")
        if not apostrophe or rest == "s":
            found.append(word)
    return found


def _slug(text: str) -> str:
    words = [word for word in _words(text) if word not in _SLUG_STOP and not word.isdigit()]
    parts: list[str] = []
    for word in words:
        if len(parts) == 4 or len("_".join([*parts, word])) > MAX_SLUG_CHARS:
            break
        parts.append(word)
    if len(parts) < 2:
        # The first clause of the Chinese text, so a name ends where a phrase does.
        clauses = (re.sub(r"[^\u3400-\u9fff]", "", c) for c in _CJK_CLAUSE.split(text))
        chars = next((c.lstrip(_CJK_SLUG_SKIP) for c in clauses if c.lstrip(_CJK_SLUG_SKIP)), "")
        if chars:
            parts.append(chars[:12])
    return "_".join(parts) or "note"


def _free_name(directory: _Directory, wanted: str) -> str:
    if not directory.taken(wanted):
        return wanted
    stem = wanted.removesuffix(".md")
    joint = "_" if "_" in stem else "-"  # deploy_freeze_2.md, deploy-freeze-2.md
    number = 2
    while directory.taken(f"{stem}{joint}{number}.md"):
        number += 1
    return f"{stem}{joint}{number}.md"


def _title_of(directory: _Directory, path: str, memory: MemoryFile) -> str:
    entry = directory.index.entry_for(path)
    return entry.title if entry is not None else (memory.name or path.removesuffix(".md"))


def _title(fact: str) -> str:
    """A few words naming the memory: the statement's opening, cut at a word."""
    if is_chinese(fact):
        return fact if len(fact) <= 12 else fact[:12].rstrip("，,；;：: ") + "…"
    words = fact.split()
    title = " ".join(words[:5]) + ("…" if len(words) > 5 else "")
    return _one_line(title.rstrip(",;:"), MAX_NAME_CHARS)


def _hook(title: str, path: str, description: str) -> str:
    # "- [Title](path) — hook" within MAX_ENTRY_CHARS (SPEC F3).
    room = MAX_ENTRY_CHARS - len(f"- [{title}]({path}) — ")
    return _one_line(description, max(room, 20))


def _one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    if " " in cut and not is_chinese(cut):
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(" ,;:，；：") + "…"
