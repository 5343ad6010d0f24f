"""A scripted Anthropic Messages API on 127.0.0.1, for every test that needs a model.

Tests never reach the real API. They point the real `anthropic` SDK at this server
(``anthropic.Anthropic(api_key="test", base_url=server.base_url)``) and give it a
script: one step per ``POST /v1/messages``, in order. A step is

- a list of content blocks (``[text("..."), tool_use("read", {"path": "MEMORY.md"})]``),
- a `Reply` (blocks plus usage and stop reason),
- an `ErrorReply` (an HTTP error with an Anthropic-shaped body), or
- a callable that receives the request body and returns one of the above, so a test
  can react to the tool results it was sent (see `tool_results`).

Every request body is kept in `requests`. The server also checks what the real API
would reject (roles out of order, a ``tool_use`` without its ``tool_result``, more than
four ``cache_control`` breakpoints) and answers 400, so a broken loop fails here too.

A request with ``"stream": true`` is answered as the real API streams: server-sent
events (``message_start``, one ``content_block_start``/``…_delta``/``…_stop`` per block,
``message_delta``, ``message_stop``). Claude Code only ever streams, and also calls
``POST /v1/messages/count_tokens`` and ``GET`` probes, which get plausible answers
without consuming a step.

In a test: the ``messages_server`` fixture. In another process (a Celery worker under
test): ``python -m tests.support.messages_server --script steps.json [--record out.jsonl]``
prints its base URL as the first line of stdout and serves until terminated.
"""

from __future__ import annotations

import argparse
import itertools
import json
import signal
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

DEFAULT_USAGE = {
    "input_tokens": 10,
    "output_tokens": 5,
    "cache_read_input_tokens": 0,
    "cache_creation_input_tokens": 0,
}

_REPOSITORY = Path(__file__).resolve().parents[2]

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


@dataclass
class Reply:
    content: list[dict[str, Any]]
    usage: dict[str, int] = field(default_factory=dict)
    # None: "tool_use" when a block calls a tool, else "end_turn".
    stop_reason: str | None = None


@dataclass
class ErrorReply:
    status: int
    message: str = "scripted failure"
    error_type: str | None = None
    # None lets the SDK decide from the status (it retries 408, 409, 429 and 5xx).
    should_retry: bool | None = None


Outcome = list[dict[str, Any]] | Reply | ErrorReply
Step = Outcome | Callable[[dict[str, Any]], Outcome]


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def tool_use(name: str, tool_input: dict[str, Any], id: str | None = None) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_use", "name": name, "input": tool_input}
    if id is not None:
        block["id"] = id
    return block


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool_result blocks of the last message of a request body."""
    content = body["messages"][-1]["content"]
    if isinstance(content, str):
        return []
    return [block for block in content if block.get("type") == "tool_result"]


def result_text(block: dict[str, Any]) -> str:
    """The text of a tool_result block, whether its content is a string or blocks."""
    content = block.get("content", "")
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content)


class MessagesServer:
    """``POST /v1/messages`` answered from a script, in a thread, on a random port."""

    def __init__(
        self,
        script: Iterable[Step] = (),
        *,
        repeat_last: bool = False,
        record_path: Path | None = None,
    ) -> None:
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.failures: list[str] = []
        self.repeat_last = repeat_last
        self.record_path = record_path
        self._steps: list[Step] = list(script)
        self._position = 0
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("the scripted Messages server is not running")
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def remaining(self) -> int:
        with self._lock:
            return len(self._steps) - self._position

    def add(self, *steps: Step) -> None:
        with self._lock:
            self._steps.extend(steps)

    def start(self, port: int = 0) -> MessagesServer:
        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},  # shutdown() waits up to one poll
            name="scripted-messages-api",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> MessagesServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def answer(self, body: dict[str, Any], headers: dict[str, str]) -> tuple[int, dict, dict]:
        """Status, extra headers and JSON body for one request (called by the handler).

        The body of a 200 is the whole message, also for a streaming request: the
        handler turns it into events (`stream_events`)."""
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            number = len(self.requests)
            if self.record_path is not None:
                with self.record_path.open("a", encoding="utf-8") as record:
                    record.write(json.dumps(body) + "\n")
            invalid = _invalid(body)
            if invalid is not None:
                self.failures.append(f"request {number}: {invalid}")
                return _error(ErrorReply(400, invalid, should_retry=False))
            if self._position < len(self._steps):
                step = self._steps[self._position]
                self._position += 1
            elif self.repeat_last and self._steps:
                step = self._steps[-1]
            else:
                message = f"the scripted server has no step left for request {number}"
                self.failures.append(message)
                return _error(ErrorReply(500, message, should_retry=False))
        try:
            outcome = step(body) if callable(step) else step
        except Exception:
            message = f"request {number}: the script's callable failed:\n{traceback.format_exc()}"
            self.failures.append(message)
            return _error(ErrorReply(500, message, should_retry=False))
        if isinstance(outcome, ErrorReply):
            return _error(outcome)
        reply = outcome if isinstance(outcome, Reply) else Reply(list(outcome))
        return 200, {}, self._message(body, reply)

    def _message(self, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
        content = []
        for block in reply.content:
            block = dict(block)
            if block.get("type") == "tool_use" and "id" not in block:
                block["id"] = f"toolu_scripted_{next(self._ids)}"
            content.append(block)
        calls_tool = any(block.get("type") == "tool_use" for block in content)
        return {
            "id": f"msg_scripted_{next(self._ids)}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "scripted"),
            "content": content,
            "stop_reason": reply.stop_reason or ("tool_use" if calls_tool else "end_turn"),
            "stop_sequence": None,
            "usage": {**DEFAULT_USAGE, **reply.usage},
        }


def _invalid(body: dict[str, Any]) -> str | None:
    """What the real API would answer 400 to, for the mistakes a tool loop can make."""
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages: at least one message is required"
    # Claude Code 2.1 adds mid-conversation `system` turns (its environment, reminders);
    # the alternation rule holds between the user and assistant turns around them.
    turns = [(index, m) for index, m in enumerate(messages) if m.get("role") != "system"]
    for position, (index, message) in enumerate(turns):
        expected = "user" if position % 2 == 0 else "assistant"
        if message.get("role") != expected:
            return f"messages.{index}.role: expected {expected!r}, got {message.get('role')!r}"
        if position and turns[position - 1][1]["role"] == "assistant":
            called = _ids(turns[position - 1][1], "tool_use", "id")
            answered = _ids(message, "tool_result", "tool_use_id")
            if called - answered:
                return (
                    f"messages.{index}: tool_use ids were found without tool_result blocks "
                    f"immediately after: {', '.join(sorted(called - answered))}"
                )
    breakpoints = _count_key(body, "cache_control")
    if breakpoints > 4:
        return f"A maximum of 4 blocks with cache_control may be provided. Found {breakpoints}."
    return None


def _count_key(value: object, key: str) -> int:
    if isinstance(value, dict):
        return (key in value) + sum(_count_key(item, key) for item in value.values())
    if isinstance(value, list):
        return sum(_count_key(item, key) for item in value)
    return 0


def _ids(message: dict[str, Any], kind: str, key: str) -> set[str]:
    content = message.get("content")
    if isinstance(content, str):
        return set()
    return {block[key] for block in content if block.get("type") == kind}


def stream_events(message: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The server-sent events the real API sends for `message` when asked to stream."""
    start = {**message, "content": [], "stop_reason": None, "stop_sequence": None}
    start["usage"] = {**message["usage"], "output_tokens": 1}
    yield "message_start", {"type": "message_start", "message": start}
    for index, block in enumerate(message["content"]):
        if block["type"] == "tool_use":
            opening = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        elif block["type"] == "thinking":
            opening = {**block, "thinking": "", "signature": ""}
            delta = {"type": "thinking_delta", "thinking": block["thinking"]}
        else:
            opening = {**block, "text": ""}
            delta = {"type": "text_delta", "text": block.get("text", "")}
        yield (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": index,
                "content_block": opening,
            },
        )
        yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": message["usage"]["output_tokens"]},
        },
    )
    yield "message_stop", {"type": "message_stop"}


def _error(reply: ErrorReply) -> tuple[int, dict, dict]:
    headers = {"retry-after-ms": "10"}
    if reply.should_retry is not None:
        headers["x-should-retry"] = "true" if reply.should_retry else "false"
    body = {
        "type": "error",
        "error": {
            "type": reply.error_type or _ERROR_TYPES.get(reply.status, "api_error"),
            "message": reply.message,
        },
    }
    return reply.status, headers, body


def _handler_for(server: MessagesServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length)
            route = self.path.split("?")[0]
            if route not in ("/v1/messages", "/v1/messages/count_tokens"):
                self._send(*_error(ErrorReply(404, f"no route for {self.path}", "not_found_error")))
                return
            try:
                body = json.loads(raw)
            except ValueError:
                self._send(*_error(ErrorReply(400, "the body is not JSON", should_retry=False)))
                return
            if route == "/v1/messages/count_tokens":
                # A rough count, as Claude Code only uses it to decide when to compact.
                self._send(200, {}, {"input_tokens": len(raw) // 4})
                return
            status, headers, answer = server.answer(
                body, {k.lower(): v for k, v in self.headers.items()}
            )
            if status == 200 and body.get("stream"):
                self._stream(answer)
            else:
                self._send(status, headers, answer)

        def do_GET(self) -> None:
            # Claude Code probes the base URL (``/api/hello``) before its first request;
            # anything else is unknown.
            if self.path.split("?")[0] == "/api/hello":
                self._send(200, {}, {"message": "hello"})
                return
            self._send(*_error(ErrorReply(404, f"no route for {self.path}", "not_found_error")))

        def _stream(self, message: dict) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("request-id", f"req_scripted_{len(server.requests)}")
            self.send_header("connection", "close")
            self.end_headers()
            for event, data in stream_events(message):
                self.wfile.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())
            self.wfile.flush()
            self.close_connection = True

        def _send(self, status: int, headers: dict, body: dict) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.send_header("request-id", f"req_scripted_{len(server.requests)}")
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # pytest output stays readable; requests are in server.requests

    return Handler


def load_script(path: Path) -> list[Step]:
    """Steps from JSON: a list whose items are a list of blocks, ``{"content": [...],
    "usage": {...}, "stop_reason": ...}``, or ``{"error": {"status": 500, "message": ...}}``."""
    steps: list[Step] = []
    for item in json.loads(path.read_text(encoding="utf-8")):
        if isinstance(item, list):
            steps.append(item)
        elif "error" in item:
            steps.append(ErrorReply(**item["error"]))
        else:
            steps.append(Reply(**item))
    return steps


@dataclass
class ServerProcess:
    """The scripted server running as its own process (for a worker under test)."""

    process: subprocess.Popen[str]
    base_url: str
    record_path: Path | None

    def requests(self) -> list[dict[str, Any]]:
        if self.record_path is None or not self.record_path.exists():
            return []
        lines = self.record_path.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self.process.stdout is not None:
            self.process.stdout.close()


def start_process(
    script_path: Path, *, record_path: Path | None = None, repeat_last: bool = False
) -> ServerProcess:
    """Run ``python -m tests.support.messages_server`` and wait for its URL."""
    command = [sys.executable, "-m", "tests.support.messages_server", "--script", str(script_path)]
    if record_path is not None:
        command += ["--record", str(record_path)]
    if repeat_last:
        command.append("--repeat-last")
    process = subprocess.Popen(
        command, cwd=_REPOSITORY, stdout=subprocess.PIPE, text=True, encoding="utf-8"
    )
    assert process.stdout is not None
    first_line = process.stdout.readline().strip()
    if not first_line.startswith("http://"):
        process.kill()
        process.wait(timeout=10)
        raise RuntimeError(f"the scripted server did not start (it printed {first_line!r})")
    return ServerProcess(process, first_line, record_path)


@pytest.fixture
def messages_server() -> Iterator[MessagesServer]:
    """A running scripted server with an empty script; add steps with ``.add(...)``."""
    with MessagesServer() as server:
        yield server


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve a scripted Anthropic Messages API.")
    parser.add_argument("--script", type=Path, required=True, help="JSON list of steps")
    parser.add_argument("--record", type=Path, help="append each request body here (JSONL)")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--repeat-last", action="store_true", help="repeat the last step")
    options = parser.parse_args(argv)
    server = MessagesServer(
        load_script(options.script), repeat_last=options.repeat_last, record_path=options.record
    )
    server.start(options.port)
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    signal.signal(signal.SIGINT, lambda *_: stopped.set())
    print(server.base_url, flush=True)
    stopped.wait()
    server.stop()
    sys.exit(0)


if __name__ == "__main__":
    main()
