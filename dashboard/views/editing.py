"""A maintainer edits, deletes and confirms ("still true") a memory (SPEC W1, issue 13).

Each action is one commit on ``main`` authored by the maintainer (``edit:``,
``delete:``, ``confirm:``), made by ``memsync.curate`` under the repository's lock with
``MEMORY.md`` kept consistent. Members and viewers get 403: they propose changes on their
own branch with the client. The live preview is an htmx POST of the form to
``memory_preview``, rendered through the sanitizer like every memory page.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from memsync.curate import (
    MAX_EDIT_BYTES,
    EditRefused,
    check_memory,
    confirm_memory,
    delete_memory,
    edit_memory,
)
from memsync.curate.edits import blob_id
from memsync.memory import TEAM_DIRNAME, is_topic_path
from memsync.store import MAIN, MemoryRepo, StoreError

from ..access import ProjectAccess, project_for
from ..forms import MemoryEditForm
from ..markdown import render_markdown
from ..models import Role
from ..queue import queue_facts_warmup
from ..sync import identity_for
from .snapshot import repo_or_404


def _memory_path(path: str) -> str:
    """``path`` when it names a topic file (in the scope's root or ``team/``), else 404."""
    pure = PurePosixPath(path)
    name = path.removeprefix(f"{TEAM_DIRNAME}/")
    if pure.is_absolute() or ".." in pure.parts or "\\" in path or not is_topic_path(name):
        raise Http404("no such memory")
    return pure.as_posix()


def _editable(request: HttpRequest, slug: str, path: str) -> tuple[ProjectAccess, MemoryRepo, str]:
    access = project_for(request, slug, Role.MAINTAINER)
    repo = repo_or_404(access.project.repo_dir)
    path = _memory_path(path)
    if repo.read(MAIN, path) is None:
        raise Http404("no such memory on main")
    return access, repo, path


def _memory_page(slug: str, path: str) -> str:
    return reverse("dashboard:memory", args=[slug, path])


def _preview_context(path: str, text: str) -> dict[str, object]:
    """What the preview pane shows: the rendered body, or why it could not be stored."""
    data = text.encode("utf-8")
    if len(data) > MAX_EDIT_BYTES:
        return {"reasons": [f"{len(data):,} bytes is over the {MAX_EDIT_BYTES:,}-byte limit"]}
    try:
        memory = check_memory(path, data)
    except EditRefused as refused:
        return {"reasons": refused.reasons}
    return {"memory": memory, "body_html": render_markdown(memory.body)}


def _as_stored(text: str, current: bytes) -> bytes:
    """The submitted text as file bytes. Browsers send a textarea's lines ending in CRLF
    (HTML's form encoding); a file that used LF keeps LF, so an unchanged save is no
    change and a diff shows only what the maintainer edited."""
    if b"\r\n" not in current:
        text = text.replace("\r\n", "\n")
    return text.encode("utf-8")


def _stored_message(
    request: HttpRequest, access: ProjectAccess, commit: str | None, done: str, unchanged: str
) -> None:
    """Say what happened; a commit moved ``main``, so the worker brings the cached facts
    up to it."""
    if commit is None:
        messages.info(request, unchanged)
    else:
        queue_facts_warmup(access.project.pk)
        messages.success(request, f"{done} ({commit[:10]}).")


@login_required
@require_http_methods(["GET", "POST"])
def memory_edit(request: HttpRequest, slug: str, path: str) -> HttpResponse:
    access, repo, path = _editable(request, slug, path)
    current = repo.read(MAIN, path) or b""
    initial = {"text": current.decode("utf-8", "replace"), "based_on": blob_id(current)}
    form = MemoryEditForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                commit = edit_memory(
                    repo,
                    path,
                    _as_stored(form.cleaned_data["text"], current),
                    author=identity_for(access.user),
                    based_on=form.cleaned_data["based_on"] or None,
                )
            except (EditRefused, StoreError) as error:
                reasons = error.reasons if isinstance(error, EditRefused) else [str(error)]
                for reason in reasons:
                    form.add_error(None, reason)
            else:
                done = f"Saved {path}"
                _stored_message(request, access, commit, done, "No change: nothing saved.")
                return HttpResponseRedirect(_memory_page(slug, path))
        status = 400
    text = form.data.get("text", initial["text"]) if form.is_bound else initial["text"]
    return render(
        request,
        "dashboard/memory_edit.html",
        {
            "access": access,
            "project": access.project,
            "path": path,
            "form": form,
            "preview": _preview_context(path, str(text)),
            "tab": "index",
        },
        status=status,
    )


@login_required
@require_POST
def memory_preview(request: HttpRequest, slug: str, path: str) -> HttpResponse:
    """The preview pane for the text being edited: an htmx fragment."""
    _, _, path = _editable(request, slug, path)
    text = request.POST.get("text", "").replace("\r\n", "\n")
    context = {"preview": _preview_context(path, text)}
    return render(request, "dashboard/_memory_preview.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def memory_delete(request: HttpRequest, slug: str, path: str) -> HttpResponse:
    """GET: what will go, and a confirmation button. POST: the ``delete:`` commit."""
    access, repo, path = _editable(request, slug, path)
    if request.method == "POST":
        try:
            commit = delete_memory(repo, path, author=identity_for(access.user))
        except (EditRefused, StoreError) as error:
            messages.error(request, f"Not deleted: {error}")
            return HttpResponseRedirect(_memory_page(slug, path))
        done = f"Deleted {path} and its index entry"
        _stored_message(request, access, commit, done, "Nothing to delete.")
        scope = "?scope=team" if path.startswith(f"{TEAM_DIRNAME}/") else ""
        return HttpResponseRedirect(reverse("dashboard:index", args=[slug]) + scope)
    return render(
        request,
        "dashboard/memory_delete.html",
        {"access": access, "project": access.project, "path": path, "tab": "index"},
    )


@login_required
@require_POST
def memory_confirm(request: HttpRequest, slug: str, path: str) -> HttpResponse:
    """ "Still true": a ``confirm:`` commit that records today's date in the frontmatter."""
    access, repo, path = _editable(request, slug, path)
    try:
        commit = confirm_memory(
            repo, path, author=identity_for(access.user), today=timezone.localdate()
        )
    except (EditRefused, StoreError) as error:
        messages.error(request, f"Not confirmed: {error}")
    else:
        done = f"Marked {path} still true"
        _stored_message(request, access, commit, done, "Already confirmed today: no change.")
    return HttpResponseRedirect(_memory_page(slug, path))
