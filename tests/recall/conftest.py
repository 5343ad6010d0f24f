"""Fixtures shared with the dashboard tests: the personas and their projects."""

from tests.dashboard.world import projects_dir, world  # noqa: F401  (fixtures)
