"""Search (issue 13 item 3): a project's memories on ``main`` for a query, ranked by
recall, with the matching words marked."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from memsync.store import MAIN

from ..access import project_for
from ..recall_index import indexed
from ..search import MAX_QUERY_CHARS, SearchHit, search
from .snapshot import open_repo


class SearchForm(forms.Form):
    q = forms.CharField(
        required=False,
        strip=True,
        max_length=MAX_QUERY_CHARS,
        error_messages={
            "max_length": f"A search is at most {MAX_QUERY_CHARS} characters "
            "(this one has %(show_value)d); shorten it to its key words."
        },
    )


@login_required
@require_safe
def memory_search(request: HttpRequest, slug: str) -> HttpResponse:
    access = project_for(request, slug)
    form = SearchForm(request.GET)
    query = form.cleaned_data["q"] if form.is_valid() else ""
    repo = open_repo(access.project.repo_dir)
    commit = repo.rev_parse(MAIN) if repo else None
    hits: list[SearchHit] = []
    has_memory = False
    if repo is not None and commit is not None:
        source, index = indexed(repo, commit)
        has_memory = len(index) > 0
        if query and has_memory:
            hits = search(index, source.read, query, timezone.now())
    return render(
        request,
        "dashboard/search.html",
        {
            "access": access,
            "project": access.project,
            "form": form,
            "query": query,
            "hits": hits,
            "has_memory": has_memory,
            "max_query": MAX_QUERY_CHARS,
            "tab": "search",
        },
        status=400 if form.errors else 200,
    )
