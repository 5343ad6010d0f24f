"""A project's overview (issue 13 item 6): this week's commits on ``main`` by kind, who
last changed each memory, and charts of memory count, index size and freshness over
time, from one walk of ``main``'s history kept per commit (``memsync.store.overview``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from memsync.memory import INDEX_FILENAME, MAX_INDEX_LINES, TEAM_DIRNAME, is_topic_path
from memsync.store import MAIN, CommitInfo, MemoryRepo
from memsync.store.overview import LastChange, Overview, branch_overview, changes_since

from ..access import project_for
from ..charts import LineChart, line_chart
from ..people import People
from .snapshot import open_repo

WEEK = timedelta(days=7)


def is_memory(path: str) -> bool:
    """A topic file of the root scope or of ``team/``."""
    return is_topic_path(path.removeprefix(f"{TEAM_DIRNAME}/"))


@dataclass(frozen=True)
class KindGroup:
    kind: str
    commits: list[CommitInfo]


@dataclass(frozen=True)
class AuthorRow:
    name: str
    memories: list[tuple[str, LastChange]]  # path and its last change, newest first


def week_by_kind(commits: list[CommitInfo]) -> list[KindGroup]:
    """The week's commits grouped by kind, the busiest kind first."""
    groups: dict[str, list[CommitInfo]] = defaultdict(list)
    for commit in commits:
        groups[commit.kind or "other"].append(commit)
    return [KindGroup(kind, found) for kind, found in
            sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))]  # fmt: skip


def authors(overview: Overview, people: People) -> list[AuthorRow]:
    """Who last changed which memory: one row per person, however Git spelled them."""
    rows: dict[str, list[tuple[str, LastChange]]] = defaultdict(list)
    for path, change in overview.last_changes.items():
        rows[people.who(change.author_name, change.author_email).name].append((path, change))
    return [
        AuthorRow(name, sorted(memories, key=lambda item: item[1].when, reverse=True))
        for name, memories in sorted(rows.items(), key=lambda item: (-len(item[1]), item[0]))
    ]


def charts(overview: Overview) -> list[LineChart]:
    samples = overview.samples
    found = [
        line_chart("Memories", [(s.when, s.memories) for s in samples], steps=True),
        line_chart(
            "Index size (lines of MEMORY.md)",
            [(s.when, s.index_lines) for s in samples],
            limit=MAX_INDEX_LINES,
            steps=True,
        ),
        line_chart(
            "Freshness (median age of the memories, days)",
            [(s.when, s.median_age_days) for s in samples if s.median_age_days is not None],
            unit=" days",
        ),
    ]
    return [chart for chart in found if chart is not None]


def _overview_of(repo: MemoryRepo, head: str, people: People, now: datetime) -> dict[str, object]:
    overview = branch_overview(repo, head, is_memory, INDEX_FILENAME)
    return {
        "overview": overview,
        "authors": authors(overview, people),
        "latest": overview.samples[-1] if overview.samples else None,
        "week": week_by_kind(changes_since(repo, head, now - WEEK)),
        "charts": charts(overview),
    }


@login_required
@require_safe
def overview(request: HttpRequest, slug: str) -> HttpResponse:
    access = project_for(request, slug)
    repo = open_repo(access.project.repo_dir)
    head = repo.rev_parse(MAIN) if repo else None
    people = People.of(access.project)
    context: dict[str, object] = {
        "access": access,
        "project": access.project,
        "people": people,
        "present": set(repo.files(head)) if repo and head else set(),
        "max_lines": MAX_INDEX_LINES,
        "tab": "overview",
    }
    if repo is not None and head is not None:
        context.update(_overview_of(repo, head, people, timezone.now()))
    return render(request, "dashboard/overview.html", context)
