"""The client's config file (tokens) and the git credential helper reading it, through
the real console script. Logging in against a live server is in test_sync_end_to_end."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from memsync.client.config import ClientConfig, Credential, config_path

MEMSYNC = [sys.executable, "-m", "memsync.client.cli"]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    return home


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_it_writes_the_token_file_0600_in_a_0700_directory_whatever_the_umask(home):
    path = config_path({}, home)
    old = os.umask(0o022)
    try:
        config = ClientConfig.load(path)
        config.remember(Credential("https://memsync.example.com", "bob", "tok-1"))
        config.save()
    finally:
        os.umask(old)

    assert path == home / ".config" / "memsync" / "config.json"
    assert mode(path) == 0o600
    assert mode(path.parent) == 0o700
    assert (
        json.loads(path.read_text())["servers"]["https://memsync.example.com"]["token"] == "tok-1"
    )


def test_it_follows_xdg_config_home_but_not_a_relative_one(home, tmp_path):
    assert config_path({"XDG_CONFIG_HOME": str(tmp_path / "xdg")}, home) == (
        tmp_path / "xdg" / "memsync" / "config.json"
    )
    assert config_path({"XDG_CONFIG_HOME": "relative"}, home) == (
        home / ".config" / "memsync" / "config.json"
    )


def test_a_second_login_replaces_the_token_and_tightens_a_loose_directory(home):
    path = config_path({}, home)
    path.parent.mkdir(parents=True, mode=0o755)
    path.parent.chmod(0o755)
    first = ClientConfig.load(path)
    first.remember(Credential("https://memsync.example.com", "bob", "old-token"))
    first.save()

    second = ClientConfig.load(path)
    second.remember(Credential("https://memsync.example.com", "bob", "new-token"))
    second.save()

    text = path.read_text()
    assert "new-token" in text and "old-token" not in text
    assert mode(path.parent) == 0o700 and mode(path) == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["config.json"]


def credential(
    home: Path, request: str, operation: str = "get"
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home)}
    env.pop("XDG_CONFIG_HOME", None)
    return subprocess.run(
        [*MEMSYNC, "credential", operation], input=request, capture_output=True, text=True, env=env
    )


def test_the_credential_helper_answers_git_with_the_stored_token(home):
    config = ClientConfig.load(config_path({}, home))
    config.remember(Credential("http://127.0.0.1:8000", "bob", "bob-token"))
    config.remember(Credential("https://memsync.example.com/team", "robert", "other-token"))
    config.save()

    local = credential(home, "protocol=http\nhost=127.0.0.1:8000\npath=git/app.git\n\n")
    prefixed = credential(home, "protocol=https\nhost=memsync.example.com\npath=team/git/a.git\n")
    outside = credential(home, "protocol=https\nhost=memsync.example.com\npath=git/a.git\n")
    unknown = credential(home, "protocol=https\nhost=github.com\n\n")

    assert local.stdout == "username=bob\npassword=bob-token\n"
    assert prefixed.stdout == "username=robert\npassword=other-token\n"
    assert outside.stdout == ""
    assert unknown.returncode == 0 and unknown.stdout == ""


def test_the_credential_helper_never_erases_the_stored_token(home):
    config = ClientConfig.load(config_path({}, home))
    config.remember(Credential("http://127.0.0.1:8000", "bob", "bob-token"))
    config.save()

    erased = credential(home, "protocol=http\nhost=127.0.0.1:8000\n\n", operation="erase")

    assert erased.returncode == 0
    assert "bob-token" in config_path({}, home).read_text()


def test_a_config_file_that_is_not_json_is_reported_not_overwritten(home):
    path = config_path({}, home)
    path.parent.mkdir(parents=True)
    path.write_text("{ broken")

    result = credential(home, "protocol=http\nhost=127.0.0.1:8000\n\n")

    assert result.returncode == 2
    assert f"cannot read {path}" in result.stderr
    assert path.read_text() == "{ broken"
