"""The index page (SPEC W1) and a memory's own pages: body, frontmatter, history, blame."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any

import yaml
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_safe

from memsync.memory import (
    INDEX_FILENAME,
    MAX_INDEX_LINES,
    MAX_INDEX_UNITS,
    MEMORY_TYPES,
    TEAM_DIRNAME,
    IndexEntry,
    MemoryDirectory,
    MemoryFile,
    Problem,
    age_days,
    age_label,
    freshness_note,
    is_topic_path,
)
from memsync.memory.layout import link_wiki_names, wiki_link_candidates
from memsync.recall.snapshot import scope_prefix
from memsync.store import MAIN, BlameLine, CommitInfo, MemoryRepo

from ..access import ProjectAccess, project_for
from ..forms import IndexFilterForm
from ..markdown import render_markdown
from ..memory_facts import FileFacts, ScopeFacts, main_facts
from ..people import People
from .snapshot import open_repo

_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}([ \t]|$)")
HISTORY_LIMIT = 50
ORPHANS_PER_PAGE = 100
# Ten thousand files nobody indexed are ten thousand problems: the table comes a page at
# a time too, a short one (each row costs the template engine most of a millisecond).
PROBLEMS_PER_PAGE = 50


@dataclass(frozen=True)
class Freshness:
    days: int | None

    @property
    def label(self) -> str:
        return age_label(self.days) if self.days is not None else "not committed"

    @property
    def note(self) -> str | None:
        return freshness_note(self.days) if self.days is not None else None


@dataclass(frozen=True)
class IndexRow:
    """One line of ``MEMORY.md``, with what the dashboard knows about it."""

    number: int
    text: str
    role: str  # entry, heading, text, blank
    visible: bool
    entry: IndexEntry | None = None
    memory: FileFacts | None = None
    path: str | None = None  # repository path of the linked file, when it exists
    freshness: Freshness | None = None
    problems: tuple[Problem, ...] = ()

    @property
    def type_known(self) -> bool:
        return self.memory is not None and self.memory.type in MEMORY_TYPES


@dataclass(frozen=True)
class OrphanRow:
    name: str
    path: str
    memory: FileFacts
    freshness: Freshness


@dataclass(frozen=True)
class ProblemRow:
    problem: Problem
    path: str | None  # repository path to link to, when the file is a memory
    in_index: bool


@dataclass
class IndexReport:
    rows: list[IndexRow]
    orphans: list[str]  # names of the files the index does not link (filtered)
    line_count: int = 0
    unit_count: int = 0  # UTF-16 units, as Claude Code measures MEMORY.md
    first_invisible: int | None = None
    shown_entries: int = 0
    total_entries: int = 0
    problems: Sequence[Problem] = field(default_factory=list)

    @property
    def size_label(self) -> str:
        return f"{self.unit_count:,}"

    @property
    def over_lines(self) -> bool:
        return self.line_count > MAX_INDEX_LINES

    @property
    def over_size(self) -> bool:
        return self.unit_count > MAX_INDEX_UNITS


def index_report(facts: ScopeFacts, now: datetime, filters: IndexFilterForm) -> IndexReport:
    """The page's rows from the scope's cached facts: the index's lines, the files it
    does not link (names only: the view builds rows for one page of them), the first
    problems."""
    index = facts.index
    problems_at: dict[int, list[Problem]] = {}
    for problem in facts.problems_for(INDEX_FILENAME):
        problems_at.setdefault(problem.line or 0, []).append(problem)
    filtering = filters.is_filtering()
    rows: list[IndexRow] = []
    report = IndexReport(rows=rows, orphans=facts.orphans, problems=facts.problems)
    if index is not None:
        invisible = index.invisible_lines()
        report.line_count, report.unit_count = index.line_count, index.unit_count
        report.first_invisible = invisible.start if len(invisible) else None
        entries = {entry.line: entry for entry in index.entries}
        report.total_entries = len(entries)
        for number, text in enumerate(index.lines, start=1):
            entry = entries.get(number)
            visible = number not in invisible
            row = _index_row(facts, number, text, entry, visible, now, problems_at)
            if filtering and (
                entry is None
                or not filters.accepts(
                    row.memory.type if row.memory else None,
                    row.freshness.days if row.freshness else None,
                )
            ):
                continue
            rows.append(row)
        report.shown_entries = sum(1 for row in rows if row.entry is not None)
    if filtering:
        report.orphans = [
            name
            for name in facts.orphans
            if filters.accepts(facts.files[name].type, facts.days_old(name, now))
        ]
    return report


def problem_rows(facts: ScopeFacts, problems: Iterable[Problem]) -> list[ProblemRow]:
    return [
        ProblemRow(
            problem,
            facts.path_of(problem.path) if problem.path in facts.files else None,
            problem.path == INDEX_FILENAME and problem.line is not None,
        )
        for problem in problems
    ]


def orphan_rows(facts: ScopeFacts, names: Iterable[str], now: datetime) -> list[OrphanRow]:
    return [
        OrphanRow(
            name, facts.path_of(name), facts.files[name], Freshness(facts.days_old(name, now))
        )
        for name in names
    ]


def _index_row(
    facts: ScopeFacts,
    number: int,
    text: str,
    entry: IndexEntry | None,
    visible: bool,
    now: datetime,
    problems_at: dict[int, list[Problem]],
) -> IndexRow:
    problems = tuple(problems_at.get(number, ()))
    if entry is None:
        role = "blank" if not text.strip() else "heading" if _HEADING.match(text) else "text"
        return IndexRow(number, text, role, visible, problems=problems)
    memory = facts.file_for(entry)
    target = entry.file
    exists = target is not None and facts.exists(target)
    return IndexRow(
        number,
        text,
        "entry",
        visible,
        entry=entry,
        memory=memory,
        path=facts.path_of(target) if exists and target else None,
        freshness=Freshness(facts.days_old(target, now)) if exists and target else None,
        problems=problems,
    )


def _digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def fragment_keys(
    access: ProjectAccess,
    facts: ScopeFacts | None,
    report: IndexReport | None,
    request: HttpRequest,
    orphans: list[OrphanRow],
) -> dict[str, str]:
    """What each cached part of the page is a pure function of, so a part is served from
    Django's cache only when it would render the same. Rendering the index's lines took
    most of the page's time. The ages shown are part of each key: a label moves on when
    a day passes, without a new commit. Nothing in these parts depends on who asks."""
    if facts is None or report is None:
        return {}
    where = (access.project.slug, facts.commit, facts.scope)
    query = sorted(request.GET.lists())
    lines = [(row.freshness.days if row.freshness else None) for row in report.rows]
    return {
        "index_lines": _digest(*where, query, lines),
        "index_orphans": _digest(*where, query, [(o.name, o.freshness.days) for o in orphans]),
        "index_problems": _digest(*where, request.GET.get("problems")),
    }


def _repo_for(access: ProjectAccess) -> MemoryRepo | None:
    return open_repo(access.project.repo_dir)


@login_required
@require_safe
def memory_index(request: HttpRequest, slug: str) -> HttpResponse:
    access = project_for(request, slug)
    scope = request.GET.get("scope", "")
    if scope not in ("", TEAM_DIRNAME):
        raise Http404("no such scope")
    repo = _repo_for(access)
    facts = main_facts(repo, scope) if repo else None
    filters = IndexFilterForm(request.GET)
    now = timezone.now()
    report = index_report(facts, now, filters) if facts else None
    # The index itself is short (Claude Code loads 200 lines); the files it does not
    # link can be thousands, so they come a page at a time, and only that page's rows
    # are built.
    orphans = Paginator(report.orphans if report else [], ORPHANS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    problems = Paginator(facts.problems if facts else [], PROBLEMS_PER_PAGE).get_page(
        request.GET.get("problems")
    )
    query = request.GET.copy()
    query.pop("page", None)
    problem_query = request.GET.copy()
    problem_query.pop("problems", None)
    shown_orphans = orphan_rows(facts, orphans, now) if facts else []
    return render(
        request,
        "dashboard/index.html",
        {
            "access": access,
            "project": access.project,
            "facts": facts,
            "report": report,
            "orphans": orphans,
            "orphan_rows": shown_orphans,
            "fragments": fragment_keys(access, facts, report, request, shown_orphans),
            "page_query": query.urlencode(),
            "problems": problems,
            "problem_rows": problem_rows(facts, problems) if facts else [],
            "problem_query": problem_query.urlencode(),
            "filters": filters,
            "scope": scope,
            "max_lines": MAX_INDEX_LINES,
            "max_units": f"{MAX_INDEX_UNITS:,}",
            "tab": "index",
        },
    )


def _checked_memory_path(path: str) -> str:
    pure = PurePosixPath(path)
    if not path or pure.is_absolute() or ".." in pure.parts or "\\" in path or "\0" in path:
        raise Http404("no such memory")
    if pure.parts[0] == ".git":
        raise Http404("no such memory")
    return pure.as_posix()


def _scope_of(path: str) -> tuple[str, str]:
    """(scope, name inside the scope) of a repository path."""
    if path.startswith(f"{TEAM_DIRNAME}/"):
        return TEAM_DIRNAME, path.removeprefix(f"{TEAM_DIRNAME}/")
    return "", path


@dataclass(frozen=True)
class FrontmatterRow:
    key: str
    value: str
    structured: bool  # a mapping or list, shown as YAML


def frontmatter_rows(metadata: dict[str, Any]) -> list[FrontmatterRow]:
    rows = []
    for key, value in metadata.items():
        if isinstance(value, dict | list):
            shown = yaml.safe_dump(value, allow_unicode=True, sort_keys=False).rstrip()
            rows.append(FrontmatterRow(str(key), shown, True))
        else:
            rows.append(FrontmatterRow(str(key), "" if value is None else str(value), False))
    return rows


def _with_wiki_links(body: str, access: ProjectAccess, repo: MemoryRepo, scope: str) -> str:
    """Claude Code links related memories as ``[[name]]``: make those links to the
    memory's page when such a memory exists in the same scope."""
    if "[[" not in body:
        return body
    prefix = scope_prefix(scope)
    present = set(repo.files(MAIN))

    def target_for(name: str) -> str | None:
        for candidate in wiki_link_candidates(name):
            if prefix + candidate in present:
                return reverse("dashboard:memory", args=[access.project.slug, prefix + candidate])
        return None

    return link_wiki_names(body, target_for)


@login_required
@require_safe
def memory_detail(request: HttpRequest, slug: str, path: str) -> HttpResponse:
    access = project_for(request, slug)
    path = _checked_memory_path(path)
    repo = _repo_for(access)
    if repo is None:
        raise Http404("no repository")
    scope, name = _scope_of(path)
    index_path = scope_prefix(scope) + INDEX_FILENAME
    blobs = repo.read_many(MAIN, [path, index_path])
    if path not in blobs:
        raise Http404("no such memory on main")
    data = blobs[path]
    memory: MemoryFile | None = None
    problems: list[Problem] = []
    if is_topic_path(name):
        # The file with its own index, so "no entry links here" is known without
        # reading every other memory.
        directory = MemoryDirectory.from_files(blobs.get(index_path), {name: data})
        memory = directory.files[name]
        problems = directory.problems_for(name)
    history = repo.log(MAIN, paths=[path], limit=HISTORY_LIMIT)
    # The age is the content's (F4), not the newest commit touching the path on any side.
    changed = repo.ages(MAIN).get(path)
    days = age_days(changed, timezone.now()) if changed else None
    text = data.decode("utf-8", "replace") if b"\0" not in data[:8000] else None
    return render(
        request,
        "dashboard/memory.html",
        {
            "access": access,
            "project": access.project,
            "path": path,
            "name": name,
            "scope": scope,
            "memory": memory,
            "problems": problems,
            "frontmatter": frontmatter_rows(memory.metadata) if memory else [],
            "body_html": (
                render_markdown(_with_wiki_links(memory.body, access, repo, scope))
                if memory and memory.is_text
                else None
            ),
            "text": text,
            "size": len(data),
            "freshness": Freshness(days),
            "history": history,
            "history_limit": HISTORY_LIMIT,
            "people": People.of(access.project),
            "tab": "index",
        },
    )


@dataclass(frozen=True)
class BlameBlock:
    """Consecutive lines last changed by the same commit."""

    commit: CommitInfo
    lines: list[BlameLine]


def blame_blocks(lines: list[BlameLine]) -> list[BlameBlock]:
    blocks: list[BlameBlock] = []
    for line in lines:
        if blocks and blocks[-1].commit.sha == line.commit.sha:
            blocks[-1].lines.append(line)
        else:
            blocks.append(BlameBlock(line.commit, [line]))
    return blocks


@login_required
@require_safe
def memory_blame(request: HttpRequest, slug: str, path: str) -> HttpResponse:
    access = project_for(request, slug)
    path = _checked_memory_path(path)
    repo = _repo_for(access)
    if repo is None or repo.read(MAIN, path) is None:
        raise Http404("no such memory on main")
    return render(
        request,
        "dashboard/blame.html",
        {
            "access": access,
            "project": access.project,
            "path": path,
            "blocks": blame_blocks(repo.blame(path, MAIN)),
            "tab": "index",
        },
    )
