"""Fixtures shared with the sync tests: the live gunicorn server."""

from tests.sync.conftest import git_server  # noqa: F401  (fixture)
