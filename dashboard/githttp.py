"""Git smart HTTP at ``/git/<slug>.git/…``: ``git http-backend`` behind token auth.

Fetching (``git-upload-pack``) needs the viewer role; pushing (``git-receive-pack``,
its ref advertisement included) needs member. What a member may push is decided by the
repository's pre-receive hook (``memsync.sync.prereceive``), which learns the pusher
from ``REMOTE_USER``; this view only authenticates, authorizes the service and relays.

Bodies are streamed both ways: the request is copied to the CGI's stdin in chunks by a
thread while the response relays its stdout in chunks, so no pack is ever held in
memory. A gzip request body (git compresses large fetch negotiations) is passed through
with ``HTTP_CONTENT_ENCODING``: ``http-backend`` inflates it itself. Only the smart
protocol is served. Errors are ``text/plain``, which ``git`` shows as ``remote:`` lines.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.csrf import csrf_exempt

from memsync.sync.hooks import restore_hook_files
from memsync.sync.hookserver import ADDRESS_VARIABLE, HookServer

from .auth import WWW_AUTHENTICATE, authenticate, membership_for
from .models import Project, Role
from .queue import MERGE_TASK, PUSH_REFUSED_TASK

log = logging.getLogger(__name__)

CHUNK = 64 * 1024
SERVICES = {"git-upload-pack": Role.VIEWER, "git-receive-pack": Role.MEMBER}
# All that git and the hooks need from the server's environment: the rest (SECRET_KEY,
# DATABASE_URL, API keys) stays out of every process a push starts.
_INHERITED = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ", "PYTHONPATH")
_PASSED_HEADERS = ("HTTP_CONTENT_ENCODING", "HTTP_GIT_PROTOCOL")
# This process's warm hook server (issue 14): a push's hooks are forked from it instead
# of starting Python and importing the secret rules and Celery on every push.
_HOOK_SERVER = HookServer({name: os.environ[name] for name in _INHERITED if name in os.environ})
atexit.register(_HOOK_SERVER.stop)
# WSGI forbids applications from setting hop-by-hop headers.
_HOP_BY_HOP = frozenset(
    {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te",
     "trailers", "transfer-encoding", "upgrade", "status"}
)  # fmt: skip


def _text(status: int, message: str, **headers: str) -> HttpResponse:
    response = HttpResponse(f"memsync: {message}\n", status=status, content_type="text/plain")
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def _service(request: HttpRequest, git_path: str) -> str | None:
    if git_path == "info/refs":
        service = request.GET.get("service", "")
        return service if service in SERVICES else None
    return git_path if git_path in SERVICES else None


@csrf_exempt
def git_endpoint(request: HttpRequest, slug: str, git_path: str) -> HttpResponseBase:
    service = _service(request, git_path)
    if service is None:
        return _text(404, "only Git's smart HTTP protocol is served here")
    expected = "GET" if git_path == "info/refs" else "POST"
    if request.method != expected:
        return _text(405, f"{git_path} takes {expected}", Allow=expected)
    auth = authenticate(request)
    if auth is None:
        return _text(
            401,
            "authentication required: your username and a memsync access token",
            WWW_Authenticate=WWW_AUTHENTICATE,
        )
    try:
        membership = membership_for(auth.user, slug, SERVICES[service])
    except Http404:
        return _text(404, f"repository {slug}.git not found")
    except PermissionDenied as denied:
        return _text(403, f"{denied} to push")
    project = membership.project
    if not (project.repo_dir / ".git").is_dir():
        return _text(404, f"repository {slug}.git not found")
    if service == "git-receive-pack":
        # A hook edited or deleted on the server's disk is put back before it is needed
        # (files only: the repository's config is never written on a request).
        restore_hook_files(project.repo_dir / ".git")
    # Asked for the ref advertisement too: the first push of a web worker then finds
    # its hook server started, or starting.
    hook_server = _HOOK_SERVER.address() if service == "git-receive-pack" else None
    return _relay(request, project, git_path, auth.user.username, hook_server)


def _environment(
    request: HttpRequest, project: Project, git_path: str, user: str, hook_server: str | None
) -> dict:
    env = {name: os.environ[name] for name in _INHERITED if name in os.environ}
    env.update(
        GIT_PROJECT_ROOT=str(project.base_dir),
        GIT_HTTP_EXPORT_ALL="1",
        PATH_INFO=f"/{project.repo_dir.relative_to(project.base_dir).as_posix()}/{git_path}",
        REQUEST_METHOD=request.method or "GET",
        QUERY_STRING=request.META.get("QUERY_STRING", ""),
        CONTENT_TYPE=request.META.get("CONTENT_TYPE", ""),
        REMOTE_USER=user,
        REMOTE_ADDR=request.META.get("REMOTE_ADDR", ""),
        # What the hooks need to queue the merge and a refusal's notification.
        MEMSYNC_PROJECT_ID=str(project.pk),
        MEMSYNC_BROKER_URL=settings.CELERY_BROKER_URL,
        MEMSYNC_MERGE_TASK=MERGE_TASK,
        MEMSYNC_REFUSED_TASK=PUSH_REFUSED_TASK,
        MEMSYNC_QUEUE=settings.CELERY_TASK_DEFAULT_QUEUE,
    )
    if hook_server:
        env[ADDRESS_VARIABLE] = hook_server
    if request.META.get("CONTENT_LENGTH"):
        env["CONTENT_LENGTH"] = request.META["CONTENT_LENGTH"]
    for name in _PASSED_HEADERS:
        if name in request.META:
            env[name] = request.META[name]
    return env


def _body(request: HttpRequest) -> IO[bytes] | None:
    """Where to read the request body from; None when the server cannot deliver it.

    Git sends pushes over ``http.postBuffer`` (1 MiB) chunked, without a length. Django
    only reads up to ``Content-Length``, so such bodies are read from the server's own
    input when it says it decodes chunks itself (gunicorn does: ``wsgi.input_terminated``).
    """
    if request.META.get("CONTENT_LENGTH"):
        return request  # type: ignore[return-value]  # HttpRequest is file-like
    chunked = "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()
    if not chunked:
        return request  # type: ignore[return-value]
    if request.META.get("wsgi.input_terminated"):
        return request.META["wsgi.input"]
    return None


def _relay(
    request: HttpRequest, project: Project, git_path: str, user: str, hook_server: str | None
) -> HttpResponseBase:
    source = _body(request) if request.method == "POST" else None
    if request.method == "POST" and source is None:
        return _text(411, "this server cannot read chunked bodies; set http.postBuffer higher")
    env = _environment(request, project, git_path, user, hook_server)
    backend = BackendRun(env, project.base_dir, source)
    try:
        status, headers, rest = backend.read_headers()
    except BaseException:
        backend.finish(completed=False)
        raise
    response = StreamingHttpResponse(backend.stream(rest), status=status)
    for name, value in headers:
        if name.lower() not in _HOP_BY_HOP:
            response[name] = value
    return response


class BackendRun:
    """One ``git http-backend`` process: request body in by a thread, response out by
    a generator the WSGI server pulls, stderr to a temporary file that is logged."""

    def __init__(self, env: dict[str, str], cwd: Path, source: IO[bytes] | None) -> None:
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115  (closed by finish)
        self.process = subprocess.Popen(
            ["git", "http-backend"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors,
            env=env,
            cwd=cwd,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdout = self.process.stdout
        self.feeder: threading.Thread | None = None
        if source is None:
            self.process.stdin.close()
        else:
            self.feeder = threading.Thread(
                target=_feed, args=(source, self.process.stdin), daemon=True, name="git-body"
            )
            self.feeder.start()

    def read_headers(self) -> tuple[int, list[tuple[str, str]], bytes]:
        """CGI response headers (``Status:`` included) and whatever body followed them."""
        buffer = b""
        while True:
            for separator in (b"\r\n\r\n", b"\n\n"):
                head, found, rest = buffer.partition(separator)
                if found:
                    return (*_parse_headers(head), rest)
            chunk = self.stdout.read1(CHUNK)  # type: ignore[attr-defined]
            if not chunk:
                return 502, [("Content-Type", "text/plain")], b"memsync: git failed\n"
            buffer += chunk

    def stream(self, first: bytes) -> Iterator[bytes]:
        completed = False
        try:
            if first:
                yield first
            while chunk := self.stdout.read1(CHUNK):  # type: ignore[attr-defined]
                yield chunk
            completed = True
        finally:
            self.finish(completed=completed)

    def finish(self, *, completed: bool) -> None:
        if not completed and self.process.poll() is None:
            self.process.kill()  # the client went away mid-response
        self.stdout.close()
        code = self.process.wait()
        if self.feeder is not None:
            # The body must be read to its end (or abandoned) before the server reads
            # the connection's next request from the same stream.
            self.feeder.join(timeout=10)
        self.errors.seek(0)
        message = self.errors.read().decode("utf-8", "replace").strip()
        self.errors.close()
        if code != 0 or message:
            log.warning("git http-backend exited %s: %s", code, message[-2000:])


def _parse_headers(head: bytes) -> tuple[int, list[tuple[str, str]]]:
    status = 200
    headers = []
    for line in head.decode("latin-1").splitlines():
        name, _, value = line.partition(":")
        if name.strip().lower() == "status":
            status = int(value.split()[0])
        elif name.strip():
            headers.append((name.strip(), value.strip()))
    return status, headers


def _feed(source: IO[bytes], sink: IO[bytes]) -> None:
    try:
        while chunk := source.read(CHUNK):
            sink.write(chunk)
    except (BrokenPipeError, ConnectionError, OSError):
        pass  # the backend stopped reading (it answered an error) or the client left
    finally:
        with contextlib.suppress(OSError):
            sink.close()
