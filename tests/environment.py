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

if os.environ.get("REDIS_URL"):
    # A Redis database given to the test run (CI uses its own number): start it empty so
    # no task queued by an earlier run reaches this run's workers.
    import redis

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()
else:
    from memsync import bundled_redis

    _redis_dir = _run_dir / "redis"
    os.environ["REDIS_URL"] = bundled_redis.ensure_running(_redis_dir)
    atexit.register(bundled_redis.stop, _redis_dir)

atexit.register(shutil.rmtree, _run_dir, ignore_errors=True)
