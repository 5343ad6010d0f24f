"""A webhook receiver on 127.0.0.1: a real HTTP server in a thread that records every
POST (headers and JSON body) and answers with the status codes it is told to, in order
(then 200), so a test can watch deliveries fail and be retried."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    raw: bytes

    @property
    def body(self) -> Any:
        return json.loads(self.raw)


@dataclass
class WebhookReceiver:
    url: str
    answers: list[int] = field(default_factory=list)  # status codes to give first
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def wait_for(self, count: int, timeout: float = 90.0) -> list[Received]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.received) >= count:
                    return list(self.received)
            time.sleep(0.1)
        raise AssertionError(f"{len(self.received)} POST(s) received, {count} expected")


def _handler(receiver: WebhookReceiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with receiver.lock:
                receiver.received.append(Received(self.path, dict(self.headers), raw))
                status = receiver.answers.pop(0) if receiver.answers else 200
            self.send_response(status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, format: str, *args: object) -> None:
            pass  # quiet test output

    return Handler


@pytest.fixture
def webhook_receiver() -> Iterator[WebhookReceiver]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), None)  # type: ignore[arg-type]
    receiver = WebhookReceiver(f"http://127.0.0.1:{server.server_address[1]}/hooks/memsync")
    server.RequestHandlerClass = _handler(receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield receiver
    server.shutdown()
    server.server_close()
