"""The memsync server's JSON API, as the client calls it (token auth, JSON both ways).

Failures come back as two kinds the commands treat differently: :class:`Unreachable`
(no answer: DNS, refused connection, timeout, TLS) — which a Claude Code hook shrugs
off — and :class:`ApiRefusal` (the server answered with an error status), carrying the
server's own ``{"error": …}`` message.
"""

from __future__ import annotations

import base64
import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote

from memsync.client.config import Credential

DEFAULT_TIMEOUT = 15.0
# Hooks: a server that accepts connections and never answers costs at most this
# long per connect or read (seconds), and one request at most HOOK_TOTAL.
HOOK_TIMEOUT = 3.0
HOOK_TOTAL = 10.0
_CHUNK = 64 * 1024


class ServerError(Exception):
    """Talking to the server failed; the message is for the user."""


class Unreachable(ServerError):
    """No HTTP answer at all."""


class ApiRefusal(ServerError):
    """An HTTP error status; ``message`` is the server's explanation when it gave one."""

    def __init__(self, status: int, message: str, *, is_memsync: bool) -> None:
        super().__init__(f"HTTP {status}: {message}")
        self.status = status
        self.message = message
        # False when the answer was not memsync's JSON (a proxy, another web server).
        self.is_memsync = is_memsync


@dataclass(frozen=True)
class SessionReport:
    session_id: str
    touched_at: datetime
    messages: int
    transcript: str | None = None

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "session_id": self.session_id,
            "touched_at": self.touched_at.isoformat(),
            "messages": self.messages,
        }
        if self.transcript is not None:
            body["transcript"] = self.transcript
        return body


class TeamServer:
    """One memsync server, spoken to as one user."""

    def __init__(
        self,
        credential: Credential,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        total: float | None = None,
    ) -> None:
        self.credential = credential
        self.timeout = timeout  # each connect and each read
        self.total = total  # the whole request, when set

    @property
    def url(self) -> str:
        return self.credential.server

    def git_url(self, slug: str) -> str:
        return f"{self.url}/git/{quote(slug)}.git"

    def status(self, slug: str) -> dict[str, Any]:
        """``GET /api/projects/<slug>/status``."""
        return self._request("GET", f"/api/projects/{quote(slug)}/status")

    def report_session(self, slug: str, report: SessionReport) -> dict[str, Any]:
        """``POST /api/projects/<slug>/sessions``."""
        return self._request("POST", f"/api/projects/{quote(slug)}/sessions", report.payload())

    def whoami(self) -> dict[str, Any]:
        """``GET /api/whoami``: the token's user and their projects with roles.

        Raises :class:`ApiRefusal` (401) for a token the server refuses.
        """
        return self._request("GET", "/api/whoami")

    def _request(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        secret = f"{self.credential.user}:{self.credential.token}".encode()
        headers = {
            "Authorization": "Basic " + base64.b64encode(secret).decode("ascii"),
            "Accept": "application/json",
            "User-Agent": "memsync-client",
        }
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        # The URL is always the server's http(s) address (checked at login) plus an API path.
        request = urllib.request.Request(  # noqa: S310
            self.url + path, data=data, headers=headers, method=method
        )
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310
                raw = self._read(response, started)
        except urllib.error.HTTPError as failure:
            raise _refusal(failure) from None
        except (TimeoutError, urllib.error.URLError, ConnectionError) as failure:
            reason = getattr(failure, "reason", failure)
            raise Unreachable(f"cannot reach {self.url}: {reason}") from None
        try:
            answer = json.loads(raw)
        except ValueError:
            raise ServerError(
                f"{self.url}{path} did not answer JSON; is it a memsync server?"
            ) from None
        if not isinstance(answer, dict):
            raise ServerError(f"{self.url}{path} answered {type(answer).__name__}, not an object")
        return answer

    def _read(self, response: Any, started: float) -> bytes:
        """The body, read in chunks so a server trickling bytes cannot pass ``total``."""
        chunks = []
        while chunk := response.read(_CHUNK):
            chunks.append(chunk)
            if self.total is not None and time.monotonic() - started > self.total:
                raise TimeoutError(f"no complete answer within {self.total:g} s")
        return b"".join(chunks)


def _refusal(failure: urllib.error.HTTPError) -> ApiRefusal:
    try:
        raw = failure.read()
    except OSError:
        raw = b""
    try:
        message = json.loads(raw)["error"]
        if isinstance(message, str):
            return ApiRefusal(failure.code, message, is_memsync=True)
    except (ValueError, KeyError, TypeError):
        pass
    return ApiRefusal(failure.code, str(failure.reason), is_memsync=False)
