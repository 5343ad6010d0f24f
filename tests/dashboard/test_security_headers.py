"""Every answer carries the Content-Security-Policy (issue 10 item 8): pages, errors,
the login form and the API alike. That the pages still work under it is checked in
Chromium by every browser test (tests/browser/conftest.py fails on a blocked resource)."""

from __future__ import annotations

import pytest

from dashboard.security import CONTENT_SECURITY_POLICY


@pytest.mark.parametrize(
    ("user", "path"),
    [
        (None, "/login/"),
        (None, "/p/acme/"),  # redirect to the login
        ("carol", "/"),
        ("carol", "/p/acme/"),
        ("carol", "/p/acme/history/"),
        ("carol", "/p/acme/memories/no-such-memory.md"),  # 404
        ("carol", "/p/other/"),  # 403 or 404: not a member
    ],
)
def test_every_answer_carries_the_policy(world, user, path):
    response = world.client(user).get(path)

    assert response["Content-Security-Policy"] == CONTENT_SECURITY_POLICY, response.status_code


def test_the_policy_allows_nothing_from_elsewhere_and_no_inline_script():
    directives = dict(part.split(" ", 1) for part in CONTENT_SECURITY_POLICY.split("; "))

    assert directives["script-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert all("*" not in value and "http" not in value for value in directives.values())
