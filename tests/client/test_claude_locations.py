"""Finding Claude Code's memory directory and transcripts the way Claude Code does:
real directories, real settings files, real ``git`` repositories and worktrees."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from memsync.client.claude import ClaudeCode, canonical_git_root
from memsync.memory.paths import djb2_hash, sanitize_path


def git(*args: str | Path, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *map(str, args)],
        cwd=cwd, check=True, capture_output=True,
    )  # fmt: skip


def repository(path: Path) -> Path:
    path.mkdir(parents=True)
    git("init", "-q", "-b", "main", cwd=path)
    git("commit", "-q", "--allow-empty", "-m", "start", cwd=path)
    return path


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    return tmp_path / "home"


def claude(home: Path, **environ: str) -> ClaudeCode:
    # No managed policy file on a test machine: pass a path that does not exist.
    return ClaudeCode(environ, home, policy_file=home / "no-policy.json")


def settings(path: Path, data: dict[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def test_it_uses_the_sanitized_git_root_under_the_default_config_dir(home, tmp_path):
    project = repository(tmp_path / "work" / "my-app")
    (project / "src" / "deep").mkdir(parents=True)

    location = claude(home).memory_location(project / "src" / "deep")

    root = str(project.resolve())
    assert location.path == home / ".claude" / "projects" / sanitize_path(root) / "memory"
    assert location.team_dir == location.path / "team"
    assert location.path.parent.name.startswith("-") and "/" not in location.path.parent.name


def test_it_uses_the_directory_itself_outside_git(home, tmp_path):
    plain = tmp_path / "notes"
    plain.mkdir()

    location = claude(home).memory_location(plain)

    assert location.path.parent.name == sanitize_path(str(plain.resolve()))


def test_it_puts_linked_worktrees_under_their_main_checkout(home, tmp_path):
    main = repository(tmp_path / "app")
    git("worktree", "add", "-q", "-b", "feature", tmp_path / "app-feature", cwd=main)

    from_worktree = claude(home).memory_location(tmp_path / "app-feature")

    assert canonical_git_root(tmp_path / "app-feature") == main.resolve()
    assert from_worktree.path == claude(home).memory_location(main).path


def test_it_does_not_follow_a_forged_worktree_file(home, tmp_path):
    victim = repository(tmp_path / "victim")
    git("worktree", "add", "-q", "-b", "wt", tmp_path / "wt", cwd=victim)
    forged = tmp_path / "forged"
    forged.mkdir()
    # A real worktree entry of the victim, but it does not point back at this directory.
    (forged / ".git").write_text(f"gitdir: {victim / '.git' / 'worktrees' / 'wt'}\n")

    assert canonical_git_root(forged) == forged.resolve()


def test_it_follows_claude_config_dir(home, tmp_path):
    project = repository(tmp_path / "app")
    config = tmp_path / "elsewhere" / "claude"

    location = claude(home, CLAUDE_CONFIG_DIR=str(config)).memory_location(project)

    assert location.path == config / "projects" / sanitize_path(str(project.resolve())) / "memory"
    assert claude(home, CLAUDE_CONFIG_DIR=str(config)).user_settings == config / "settings.json"


def test_it_takes_auto_memory_directory_from_the_user_settings_with_tilde(home, tmp_path):
    project = repository(tmp_path / "app")
    settings(home / ".claude" / "settings.json", {"autoMemoryDirectory": "~/notes/claude"})

    location = claude(home).memory_location(project)

    assert location.path == home / "notes" / "claude"
    assert "settings.json" in location.source


def test_local_project_settings_win_over_user_settings(home, tmp_path):
    project = repository(tmp_path / "app")
    settings(home / ".claude" / "settings.json", {"autoMemoryDirectory": "/srv/user-memory"})
    settings(project / ".claude" / "settings.local.json", {"autoMemoryDirectory": "/srv/local"})

    assert claude(home).memory_location(project).path == Path("/srv/local")


def test_shared_project_settings_are_honoured_as_claude_code_honours_them(home, tmp_path):
    # Claude Code 2.1.332 reads autoMemoryDirectory from .claude/settings.json in -p
    # mode and in trusted folders (tests/claude_code/test_context.py runs it).
    project = repository(tmp_path / "app")
    settings(project / ".claude" / "settings.json", {"autoMemoryDirectory": "/srv/shared"})
    settings(home / ".claude" / "settings.json", {"autoMemoryDirectory": "/srv/user"})

    location = claude(home).memory_location(project)

    assert location.path == Path("/srv/shared")
    assert location.source == f"autoMemoryDirectory in {project / '.claude' / 'settings.json'}"


def test_local_settings_win_over_shared_project_settings(home, tmp_path):
    project = repository(tmp_path / "app")
    settings(project / ".claude" / "settings.json", {"autoMemoryDirectory": "/srv/shared"})
    settings(project / ".claude" / "settings.local.json", {"autoMemoryDirectory": "/srv/local"})

    assert claude(home).memory_location(project).path == Path("/srv/local")


def test_policy_then_the_settings_flag_win_over_project_settings(home, tmp_path):
    project = repository(tmp_path / "app")
    policy = tmp_path / "etc" / "managed-settings.json"
    settings(project / ".claude" / "settings.local.json", {"autoMemoryDirectory": "/srv/local"})
    flag = tmp_path / "flag.json"
    settings(flag, {"autoMemoryDirectory": "/srv/flag"})
    found = ClaudeCode({}, home, policy_file=policy)

    assert found.memory_location(project, flag_settings=str(flag)).path == Path("/srv/flag")
    inline = '{"autoMemoryDirectory": "/srv/inline"}'
    assert found.memory_location(project, flag_settings=inline).path == Path("/srv/inline")
    settings(policy, {"autoMemoryDirectory": "/srv/policy"})
    assert found.memory_location(project, flag_settings=str(flag)).path == Path("/srv/policy")
    settings(policy.parent / "managed-settings.d" / "10-memory.json",
             {"autoMemoryDirectory": "/srv/drop-in"})  # fmt: skip
    assert found.memory_location(project).path == Path("/srv/drop-in")


def test_an_unusable_first_setting_means_the_default_not_the_next_source(home, tmp_path):
    project = repository(tmp_path / "app")
    settings(project / ".claude" / "settings.local.json", {"autoMemoryDirectory": "relative"})
    settings(home / ".claude" / "settings.json", {"autoMemoryDirectory": "/srv/user"})

    location = claude(home).memory_location(project)

    assert location.path.parent.parent == home / ".claude" / "projects"
    assert any("'relative'" in note for note in location.notes)


@pytest.mark.parametrize("value", ["relative/dir", "~/", "~", "/", "~/.."])
def test_it_skips_a_setting_claude_code_would_reject(home, tmp_path, value):
    project = repository(tmp_path / "app")
    settings(home / ".claude" / "settings.json", {"autoMemoryDirectory": value})

    location = claude(home).memory_location(project)

    assert location.path.parent.parent == home / ".claude" / "projects"


def test_the_cowork_override_wins_and_is_taken_as_given(home, tmp_path):
    project = repository(tmp_path / "app")
    settings(home / ".claude" / "settings.json", {"autoMemoryDirectory": "/srv/user-memory"})

    found = claude(home, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE="/mnt/space/memory")

    assert found.memory_location(project).path == Path("/mnt/space/memory")


def test_a_broken_settings_file_is_skipped_with_a_note(home, tmp_path):
    project = repository(tmp_path / "app")
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text("{ not json")

    location = claude(home).memory_location(project)

    assert location.path.name == "memory"
    assert any("was skipped" in note for note in location.notes)


def test_a_path_over_200_characters_gets_claude_codes_hash(home, tmp_path):
    deep = tmp_path / ("a-very-long-directory-name-" * 9)
    deep.mkdir(parents=True)

    location = claude(home).memory_location(deep)

    name = location.path.parent.name
    full = sanitize_path(str(deep.resolve()))
    assert len(full) > 200 and name == full
    assert name == f"{full[:200]}-{_base36(abs(djb2_hash(str(deep.resolve()))))}"


def test_over_200_characters_an_existing_directory_with_another_hash_is_found(home, tmp_path):
    deep = tmp_path / ("b-very-long-directory-name-" * 9)
    deep.mkdir(parents=True)
    prefix = sanitize_path(str(deep.resolve()))[:200]
    bun_built = home / ".claude" / "projects" / f"{prefix}-1x2y3z"
    (bun_built / "memory").mkdir(parents=True)

    location = claude(home).memory_location(deep)

    assert location.path == bun_built / "memory"
    assert claude(home).transcripts_dir(deep) == bun_built


def test_transcripts_are_named_after_the_working_directory_not_the_git_root(home, tmp_path):
    project = repository(tmp_path / "app")
    (project / "web").mkdir()

    transcripts = claude(home).transcripts_dir(project / "web")

    expected = sanitize_path(str((project / "web").resolve()))
    assert transcripts == home / ".claude" / "projects" / expected


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while number:
        number, remainder = divmod(number, 36)
        text = digits[remainder] + text
    return text or "0"
