"""The deployment files run what the tests run, and production settings pass --deploy.

Docker cannot run here, so the compose file is validated structurally and its commands
compared with memsync.processes — the same command lines the tests start.
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

from memsync.processes import beat_command, web_command, worker_command

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())


def test_it_defines_the_whole_stack_in_compose():
    services = compose()["services"]

    assert {"postgres", "redis", "migrate", "web", "worker", "beat"} <= set(services)
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    for name in ("web", "worker", "beat", "migrate"):
        service = services[name]
        assert service["build"]["dockerfile"] == "deploy/Dockerfile"
        assert service["environment"]["REDIS_URL"].startswith("redis://redis:")
        assert service["environment"]["DATABASE_URL"].startswith("postgres://")
    assert (DEPLOY / "Dockerfile").exists()


def test_it_runs_the_commands_the_tests_run_in_compose():
    services = compose()["services"]

    assert services["web"]["command"] == web_command()
    assert services["worker"]["command"] == worker_command()
    assert services["beat"]["command"] == beat_command("/var/lib/memsync/celerybeat-schedule")
    assert services["migrate"]["command"] == ["python", "manage.py", "migrate", "--noinput"]


def exec_start(unit: str) -> list[str]:
    text = (DEPLOY / "systemd" / unit).read_text()
    [line] = [ln for ln in text.splitlines() if ln.startswith("ExecStart=")]
    argv = shlex.split(line.removeprefix("ExecStart="))
    return [Path(argv[0]).name, *argv[1:]]


def test_it_runs_the_same_commands_under_systemd():
    assert exec_start("memsync-web.service") == web_command(bind="127.0.0.1:8000")
    assert exec_start("memsync-worker@.service") == worker_command(("%i",))
    assert exec_start("memsync-beat.service") == beat_command(
        "/var/lib/memsync/celerybeat-schedule"
    )
    for unit in ("memsync-web.service", "memsync-worker@.service", "memsync-beat.service"):
        assert "EnvironmentFile=/etc/memsync/env" in (DEPLOY / "systemd" / unit).read_text()


def test_it_streams_git_through_nginx_unbuffered_and_uncapped():
    text = (DEPLOY / "nginx" / "memsync.conf").read_text()
    git_block = re.search(r"location /git/ \{(.*?)\n    \}", text, re.S)

    assert git_block is not None
    block = git_block.group(1)
    assert "proxy_request_buffering off;" in block
    assert "proxy_buffering off;" in block
    assert "client_max_body_size 0;" in block
    assert "X-Forwarded-Proto" in block


def test_it_passes_the_deployment_checks_with_the_example_environment(tmp_path):
    env = {
        key: value
        for line in (DEPLOY / "env.example").read_text().splitlines()
        if line and not line.startswith("#") and "=" in line
        for key, value in [line.split("=", 1)]
    }
    env.update(
        SECRET_KEY=secrets.token_urlsafe(50),
        MEMSYNC_DATA_DIR=str(tmp_path),
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    clean = {k: v for k, v in os.environ.items() if k not in env and not k.startswith("DJANGO")}

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env={**clean, **env}, capture_output=True, text=True,
    )  # fmt: skip

    assert result.returncode == 0, result.stdout + result.stderr


def test_it_refuses_to_start_without_a_secret_key_when_debug_is_off(tmp_path):
    env = {**os.environ, "DEBUG": "0", "SECRET_KEY": "", "MEMSYNC_DATA_DIR": str(tmp_path)}

    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )

    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_it_documents_every_environment_variable_the_settings_read():
    settings_source = (ROOT / "memsync" / "settings.py").read_text()
    read = set(re.findall(r'env_\w+\(\s*"([A-Z_]+)"', settings_source))
    readme = (ROOT / "README.md").read_text()

    undocumented = sorted(name for name in read if f"`{name}`" not in readme)
    assert not undocumented, f"README's configuration table misses {undocumented}"
