"""Test environment: real services, isolated per run.

Loaded as a plugin (``-p tests.environment`` in pyproject.toml) so it runs before
pytest-django reads the settings, so it can point ``MEMSYNC_DATA_DIR`` at a fresh
directory and, when no ``REDIS_URL`` is given, start a bundled redis-server for this run.
``DATABASE_URL`` (PostgreSQL in CI) is used as given; without it, SQLite.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

_run_dir = Path(tempfile.mkdtemp(prefix="memsync-tests-"))
os.environ["MEMSYNC_DATA_DIR"] = str(_run_dir / "data")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memsync.settings")
# Tests never reach the real Anthropic API; tests that need a model start the scripted server.
os.environ.pop("ANTHROPIC_API_KEY", None)
os.environ.pop("ANTHROPIC_BASE_URL", None)

_given_redis = bool(os.environ.get("REDIS_URL"))
if _given_redis:
    # A Redis database given to the test run (CI uses its own number): start it empty so
    # no task queued by an earlier run reaches this run's workers.
    import redis

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()
else:
    from memsync import bundled_redis

    _redis_dir = _run_dir / "redis"
    os.environ["REDIS_URL"] = bundled_redis.ensure_running(_redis_dir)


def _clean_up() -> None:
    # One function, in this order: the bundled server is found through the pid file
    # inside the run directory, so it must stop before the directory goes.
    if not _given_redis:
        bundled_redis.stop(_run_dir / "redis")
    shutil.rmtree(_run_dir, ignore_errors=True)


atexit.register(_clean_up)
