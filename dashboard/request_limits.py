"""Reading a JSON request body within limits, so bad input is a 4xx naming what is wrong.

Each check here closes one way a hostile or broken client turned a request into a
500 or a wrong answer:

* the size is checked before anything is parsed: the declared ``Content-Length``
  first, then what is actually read, chunked bodies included (Django reads nothing of a
  chunked body — it only reads up to ``Content-Length`` — so the old parser saw an
  empty body and answered "not valid JSON: line 1 column 1" to a 50 MiB upload);
* nesting is bounded (JSON nested 100,000 deep made the parser raise RecursionError);
* ``NaN``, ``Infinity``, ``1e999`` and integers beyond :data:`MAX_INT` are refused (a ``messages``
  of 2³¹ overflowed the database column);
* text must be valid Unicode: a lone surrogate (``"\\ud800"``) parses, then fails when
  the text is encoded to be stored.

The callers (``dashboard.api``) turn :class:`BodyError` into their JSON error.
"""

from __future__ import annotations

import json
import math
from typing import IO, Any

from django.http import HttpRequest

# Deeper than any request memsync takes (a session report is one level).
MAX_DEPTH = 32
# The largest integer every supported database stores in an integer column.
MAX_INT = 2**31 - 1
_CHUNK = 64 * 1024


class BodyError(Exception):
    """The body cannot be taken: ``status`` (400, 411 or 413) and a message for the client."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def read_body(request: HttpRequest, limit: int) -> bytes:
    """The request body, at most ``limit`` bytes, or :class:`BodyError` (413) before
    more than ``limit + 1`` bytes were read."""
    declared = request.META.get("CONTENT_LENGTH") or ""
    if declared:
        if not declared.isascii() or not declared.isdigit():
            raise BodyError(400, f"Content-Length {declared[:40]!r} is not a number")
        if int(declared) > limit:
            raise BodyError(
                413, f"request body over the limit of {limit:,} bytes ({int(declared):,} sent)"
            )
        source: IO[bytes] = request  # type: ignore[assignment]  # HttpRequest is file-like
    elif "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
        # gunicorn decodes chunked bodies itself and says so; another server may not.
        if not request.META.get("wsgi.input_terminated"):
            raise BodyError(
                411, "send the body with a Content-Length (chunked bodies are not read here)"
            )
        source = request.META["wsgi.input"]
    else:
        source = request  # type: ignore[assignment]
    parts: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = source.read(min(_CHUNK, limit + 1 - size))
        if not chunk:
            break
        parts.append(chunk)
        size += len(chunk)
    if size > limit:
        raise BodyError(413, f"request body over the limit of {limit:,} bytes")
    return b"".join(parts)


def parse_json_object(raw: bytes) -> dict[str, Any]:
    """``raw`` as a JSON object within the limits above, or :class:`BodyError` (400)."""
    try:
        body = json.loads(raw, parse_constant=_refuse_constant, parse_float=_finite)
    except RecursionError:
        raise BodyError(
            400, f"the body is not valid JSON: nested deeper than {MAX_DEPTH} levels"
        ) from None
    except (ValueError, UnicodeDecodeError) as failure:
        raise BodyError(400, f"the body is not valid JSON: {failure}") from None
    if not isinstance(body, dict):
        raise BodyError(400, "the body must be a JSON object")
    _check_values(body)
    return body


def json_object(request: HttpRequest, limit: int) -> dict[str, Any]:
    return parse_json_object(read_body(request, limit))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text[:40]} is too large for a number")
    return number


def _check_values(body: dict[str, Any]) -> None:
    """Depth, integer range and Unicode of every value, without recursion."""
    pending: list[tuple[str, Any, int]] = [(key, value, 1) for key, value in body.items()]
    for key in body:
        _check_text(key, "a field name")
    while pending:
        where, value, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise BodyError(400, f"{where}: nested deeper than {MAX_DEPTH} levels")
        if isinstance(value, str):
            _check_text(value, where)
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int) and not -MAX_INT - 1 <= value <= MAX_INT:
            raise BodyError(400, f"{where}: {_short(value)} is out of range (at most {MAX_INT:,})")
        elif isinstance(value, dict):
            for name, item in value.items():
                _check_text(name, f"a field name in {where}")
                pending.append((f"{where}.{name}", item, depth + 1))
        elif isinstance(value, list):
            pending += [(f"{where}[{n}]", item, depth + 1) for n, item in enumerate(value)]


def _check_text(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as failure:
        code = ord(text[failure.start])
        raise BodyError(
            400,
            f"{where}: a lone surrogate (\\u{code:04x}) at character {failure.start:,}; "
            "text must be valid Unicode",
        ) from None


def _short(number: int) -> str:
    digits = str(number)
    return digits if len(digits) <= 24 else f"a {len(digits)}-digit number"
