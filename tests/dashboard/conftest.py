from tests.dashboard.world import projects_dir, world  # noqa: F401  (fixtures)
