"""``memsync hooks install|uninstall`` on real Claude Code settings files, run as the
real console script with its own HOME."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

MEMSYNC = [sys.executable, "-m", "memsync.client.cli"]
FOREIGN = {
    "model": "opus",
    "permissions": {"allow": ["Bash(npm test)"]},
    "hooks": {
        "SessionStart": [
            {"matcher": "startup", "hooks": [{"type": "command", "command": "echo hello"}]}
        ],
        "PostToolUse": [
            {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "prettier -w"}]}
        ],
    },
}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    return home


SCRIPT = Path(sys.executable).with_name("memsync")
# This installation's bin first: the `memsync` Claude Code's shell would find is this one.
ON_PATH = f"{SCRIPT.parent}{os.pathsep}{os.environ.get('PATH', '')}"


def memsync(
    home: Path, *args: str | Path, cwd: Path | None = None, path: str = ON_PATH
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "PATH": path}
    env.pop("CLAUDE_CONFIG_DIR", None)
    return subprocess.run(
        [*MEMSYNC, *map(str, args)], capture_output=True, text=True, env=env, cwd=cwd
    )


def user_settings(home: Path) -> Path:
    return home / ".claude" / "settings.json"


def commands(settings: dict, event: str) -> list[str]:
    return [
        hook["command"]
        for group in settings.get("hooks", {}).get(event, [])
        for hook in group.get("hooks", [])
    ]


def timeouts(settings: dict) -> dict[str, list]:
    return {
        event: [hook.get("timeout") for group in groups for hook in group["hooks"]]
        for event, groups in settings.get("hooks", {}).items()
    }


def test_it_installs_pull_at_session_start_and_push_at_session_end_and_stop(home):
    result = memsync(home, "hooks", "install")

    assert result.returncode == 0, result.stderr
    settings = json.loads(user_settings(home).read_text())
    assert settings["hooks"]["SessionStart"] == [
        {
            "matcher": "",
            "hooks": [{"type": "command", "command": "memsync pull --hook", "timeout": 15}],
        }
    ]
    assert commands(settings, "SessionEnd") == ["memsync push --hook"]
    assert commands(settings, "Stop") == ["memsync push --hook"]
    assert "UserPromptSubmit" not in settings["hooks"]


def test_every_hook_names_its_timeout_and_the_recall_model_is_opt_in(home):
    plain = memsync(home, "hooks", "install", "--recall")
    settings = json.loads(user_settings(home).read_text())
    with_model = memsync(home, "hooks", "install", "--recall-model", "claude-haiku-4-5")
    modelled = json.loads(user_settings(home).read_text())

    assert plain.returncode == 0 and with_model.returncode == 0, with_model.stderr
    assert timeouts(settings) == {
        "SessionStart": [15], "SessionEnd": [10], "Stop": [10], "UserPromptSubmit": [10]
    }  # fmt: skip
    assert commands(settings, "UserPromptSubmit") == ["memsync recall --hook"]
    assert commands(modelled, "UserPromptSubmit") == [
        "memsync recall --hook --model claude-haiku-4-5"
    ]
    assert timeouts(modelled)["UserPromptSubmit"] == [30]
    assert "UserPromptSubmit" in with_model.stdout and "Stop" not in with_model.stdout


def test_installing_over_an_older_memsync_replaces_its_hooks_without_a_timeout(home):
    user_settings(home).parent.mkdir()
    older = {"hooks": {
        "SessionStart": [{"matcher": "", "hooks": [
            {"type": "command", "command": "memsync pull --quiet"}]}],
        "Stop": [{"matcher": "", "hooks": [
            {"type": "command", "command": "memsync push --quiet"},
            {"type": "command", "command": "say done"}]}],
        "SessionEnd": [{"matcher": "", "hooks": [
            {"type": "command", "command": "memsync push --quiet"}]}],
    }}  # fmt: skip
    user_settings(home).write_text(json.dumps(older))

    result = memsync(home, "hooks", "install")

    settings = json.loads(user_settings(home).read_text())
    assert result.returncode == 0, result.stderr
    assert commands(settings, "Stop") == ["say done", "memsync push --hook"]
    assert commands(settings, "SessionStart") == ["memsync pull --hook"]
    assert timeouts(settings)["SessionEnd"] == [10]
    assert timeouts(settings)["Stop"] == [None, 10]  # "say done" is not ours to change


def test_it_keeps_every_foreign_setting_and_hook(home):
    user_settings(home).parent.mkdir()
    user_settings(home).write_text(json.dumps(FOREIGN, indent=2))

    memsync(home, "hooks", "install", "--user")

    settings = json.loads(user_settings(home).read_text())
    assert settings["model"] == "opus"
    assert settings["permissions"] == FOREIGN["permissions"]
    assert commands(settings, "SessionStart") == ["echo hello", "memsync pull --hook"]
    assert settings["hooks"]["PostToolUse"] == FOREIGN["hooks"]["PostToolUse"]


def test_installing_twice_leaves_one_entry_and_the_file_unchanged(home):
    memsync(home, "hooks", "install", "--recall")
    first = user_settings(home).read_bytes()

    again = memsync(home, "hooks", "install", "--recall")

    assert again.returncode == 0
    assert "nothing changed" in again.stdout
    assert user_settings(home).read_bytes() == first
    settings = json.loads(first)
    assert commands(settings, "Stop") == ["memsync push --hook"]
    assert commands(settings, "UserPromptSubmit") == ["memsync recall --hook"]


def test_a_hook_pointed_at_another_memsync_path_counts_as_ours(home):
    user_settings(home).parent.mkdir()
    ours = {"type": "command", "command": "/opt/bin/memsync push --hook", "timeout": 10}
    moved = {"hooks": {"Stop": [{"matcher": "", "hooks": [ours]}]}}
    user_settings(home).write_text(json.dumps(moved))

    memsync(home, "hooks", "install")
    installed = json.loads(user_settings(home).read_text())
    memsync(home, "hooks", "uninstall")
    left = json.loads(user_settings(home).read_text())

    assert commands(installed, "Stop") == ["/opt/bin/memsync push --hook"]
    assert left == {}


def test_uninstall_removes_only_memsyncs_hooks(home):
    user_settings(home).parent.mkdir()
    user_settings(home).write_text(json.dumps(FOREIGN, indent=2))
    memsync(home, "hooks", "install", "--recall")

    result = memsync(home, "hooks", "uninstall")

    assert result.returncode == 0
    assert "removed memsync hooks" in result.stdout
    assert json.loads(user_settings(home).read_text()) == FOREIGN


def test_a_foreign_hook_sharing_a_group_with_ours_stays(home):
    user_settings(home).parent.mkdir()
    shared = {"hooks": {"Stop": [{"matcher": "", "hooks": [
        {"type": "command", "command": "memsync push --quiet"},
        {"type": "command", "command": "say done"}]}]}}  # fmt: skip
    user_settings(home).write_text(json.dumps(shared))

    memsync(home, "hooks", "uninstall")

    left = json.loads(user_settings(home).read_text())
    assert left == {"hooks": {"Stop": [{"matcher": "", "hooks": [
        {"type": "command", "command": "say done"}]}]}}  # fmt: skip


def test_a_settings_file_that_is_not_json_is_refused_and_left_untouched(home):
    user_settings(home).parent.mkdir()
    broken = b'{\n  "model": "opus",\n  "hooks": {\n}\n'
    user_settings(home).write_bytes(broken)

    install = memsync(home, "hooks", "install")
    uninstall = memsync(home, "hooks", "uninstall")

    assert install.returncode == 2 and uninstall.returncode == 2
    assert "is not valid JSON (line" in install.stderr
    assert str(user_settings(home)) in install.stderr
    assert user_settings(home).read_bytes() == broken
    assert [p.name for p in user_settings(home).parent.iterdir()] == ["settings.json"]


def test_hooks_that_are_not_laid_out_as_claude_code_expects_are_refused(home):
    user_settings(home).parent.mkdir()
    odd = b'{"hooks": {"Stop": "memsync push"}}'
    user_settings(home).write_bytes(odd)

    result = memsync(home, "hooks", "install")

    assert result.returncode == 2
    assert '"hooks.Stop" is a str, not a list' in result.stderr
    assert user_settings(home).read_bytes() == odd


def test_project_scope_writes_the_projects_shared_settings(home, tmp_path):
    project = tmp_path / "app"
    project.mkdir()

    result = memsync(home, "hooks", "install", "--project", cwd=project)

    settings = json.loads((project / ".claude" / "settings.json").read_text())
    assert result.returncode == 0
    assert commands(settings, "SessionStart") == ["memsync pull --hook"]
    assert not user_settings(home).exists()


def test_without_memsync_on_path_user_hooks_run_this_installation_by_path(home, tmp_path):
    bare_path = "/usr/bin:/bin"

    user = memsync(home, "hooks", "install", path=bare_path)
    project = memsync(home, "hooks", "install", "--project", cwd=tmp_path, path=bare_path)
    again = memsync(home, "hooks", "install")  # now memsync is on PATH: still one hook

    settings = json.loads(user_settings(home).read_text())
    assert user.returncode == 0, user.stderr
    assert commands(settings, "Stop") == [f"{SCRIPT} push --hook"]
    assert "nothing changed" in again.stdout
    shared = json.loads((tmp_path / ".claude" / "settings.json").read_text())
    assert commands(shared, "Stop") == ["memsync push --hook"]  # no machine's path in a repo
    assert "not on your PATH" in project.stderr


def test_user_scope_follows_claude_config_dir(home, tmp_path):
    config = tmp_path / "claude-config"
    env = {**os.environ, "HOME": str(home), "CLAUDE_CONFIG_DIR": str(config), "PATH": ON_PATH}

    subprocess.run([*MEMSYNC, "hooks", "install"], env=env, check=True, capture_output=True)

    assert commands(json.loads((config / "settings.json").read_text()), "Stop")
    assert not user_settings(home).exists()


def test_a_symlinked_settings_file_stays_a_symlink(home, tmp_path):
    dotfiles = tmp_path / "dotfiles" / "claude-settings.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text('{"model": "opus"}')
    user_settings(home).parent.mkdir()
    user_settings(home).symlink_to(dotfiles)

    memsync(home, "hooks", "install")

    assert user_settings(home).is_symlink()
    assert commands(json.loads(dotfiles.read_text()), "SessionEnd") == ["memsync push --hook"]
