"""Response headers that limit what a page may load or run, whatever a memory contains.

Django 5.2 has no Content-Security-Policy setting of its own, so this small middleware
adds it. Every page is built from our templates, our static files and sanitized memory
HTML: nothing needs inline scripts, other origins, plugins or frames. Table cells keep
their ``text-align`` (the one inline style the Markdown renderer emits and the sanitizer
lets through), hence ``style-src-attr``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "style-src-attr 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        return response
