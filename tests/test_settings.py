import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]
SERVER_CODE = [
    path
    for package in ("memsync", "dashboard")
    for path in sorted((ROOT / package).rglob("*.py"))
    if path != ROOT / "memsync" / "settings.py"
]


def test_it_reads_the_data_dir_from_the_environment():
    assert "memsync-tests-" in str(settings.DATA_DIR)


def test_it_uses_the_redis_the_run_provides():
    import redis

    assert redis.Redis.from_url(settings.REDIS_URL).ping()


def test_it_declares_every_setting_the_code_reads():
    read = {
        (path.relative_to(ROOT).as_posix(), name)
        for path in SERVER_CODE
        for name in re.findall(r"\bsettings\.([A-Z][A-Z0-9_]*)\b", path.read_text())
    }
    assert read, "no settings.NAME found: the scan is looking in the wrong place"
    undeclared = sorted(f"{where}: {name}" for where, name in read if not hasattr(settings, name))
    assert not undeclared, f"read but not declared in memsync/settings.py: {undeclared}"


def test_it_reads_no_setting_through_a_fallback_default():
    # getattr(settings, "X", default) hides a setting from memsync/settings.py, from
    # README's table and from deploy/env.example; declare it and read it plainly.
    fallbacks = [
        f"{path.relative_to(ROOT).as_posix()}: {match.group(0)}"
        for path in SERVER_CODE
        for match in re.finditer(r"getattr\(\s*settings\s*,[^)]*\)", path.read_text())
    ]
    assert not fallbacks, fallbacks


@pytest.mark.parametrize("name", ["MEMSYNC_EXTRACT_EVERY_TURNS", "MEMSYNC_MAX_TRANSCRIPT_BYTES"])
def test_it_refuses_to_start_with_a_count_below_one(name, tmp_path):
    env = {**os.environ, name: "0", "MEMSYNC_DATA_DIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )

    assert result.returncode != 0
    assert f"{name} must be at least 1" in result.stderr


def _database_setting(tmp_path, **env: str) -> str:
    script = "from django.conf import settings; d = settings.DATABASES['default']; "
    script += "print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'])"
    environment = {**os.environ, "MEMSYNC_DATA_DIR": str(tmp_path)}
    environment.pop("DATABASE_CONN_MAX_AGE", None)
    environment.update(env)
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + script],
        cwd=ROOT, env={**environment, "DJANGO_SETTINGS_MODULE": "memsync.settings"},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return result.stdout.strip()


def test_it_keeps_a_database_connection_open_and_checks_it_before_reuse(tmp_path):
    assert _database_setting(tmp_path) == "None True"


def test_it_closes_database_connections_after_the_age_it_is_given(tmp_path):
    assert _database_setting(tmp_path, DATABASE_CONN_MAX_AGE="30") == "30 True"
