"""The production web command serves the dashboard's stylesheet and htmx itself."""

from __future__ import annotations

import urllib.request

import pytest


@pytest.mark.parametrize(
    ("path", "kind"),
    [("dashboard/memsync.css", "text/css"), ("dashboard/vendor/htmx-2.0.11.min.js", "javascript")],
)
def test_it_serves_static_files_under_gunicorn(git_server, path, kind):
    with urllib.request.urlopen(f"{git_server.url}/static/{path}", timeout=10) as response:
        body = response.read()

    assert response.status == 200
    assert kind in response.headers["Content-Type"]
    assert len(body) > 100
