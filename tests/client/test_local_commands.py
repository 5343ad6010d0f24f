"""The memsync command on a local memory directory, run as the real console script."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parents[1] / "memory" / "samples"
MEMSYNC = [sys.executable, "-m", "memsync.client.cli"]


def memsync(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MEMSYNC, *map(str, args)], capture_output=True, text=True)


@pytest.fixture
def memory_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "memory"
    directory.mkdir()
    (directory / "MEMORY.md").write_text(
        "# Memory Index\n\n- [Role](user_role.md) — Doug teaches Fuzzbox Physics\n"
    )
    shutil.copy(SAMPLES / "douglasgoodwin__FuzzboxPhysics__memory__user_role.md",
                directory / "user_role.md")  # fmt: skip
    return directory


def test_it_checks_a_clean_directory_with_exit_0(memory_dir):
    result = memsync("check", memory_dir)

    assert result.returncode == 0, result.stdout
    assert "1 memories, no problems" in result.stdout


def test_it_reports_problems_with_exit_1_and_names_file_and_line(memory_dir):
    (memory_dir / "MEMORY.md").write_text(
        "- [Role](user_role.md) — Doug\n- [Gone](gone.md) — deleted\n"
    )
    (memory_dir / "broken.md").write_text("---\nname: x\ntype: user\nno closing line\n")

    result = memsync("check", memory_dir, "--json")

    assert result.returncode == 1
    report = json.loads(result.stdout)
    found = {(p["code"], p["path"], p["line"]) for p in report["problems"]}
    assert ("index-dead-link", "MEMORY.md", 2) in found
    assert any(code == "frontmatter-broken" and path == "broken.md" for code, path, _ in found)
    assert (memory_dir / "broken.md").read_text() == "---\nname: x\ntype: user\nno closing line\n"


def test_it_exits_2_on_a_missing_directory(tmp_path):
    result = memsync("check", tmp_path / "nope")

    assert result.returncode == 2
    assert "is not a directory" in result.stderr


def test_it_exits_2_on_usage_errors():
    assert memsync("check").returncode == 2


def test_it_lists_memories_with_age_from_git_history(memory_dir):
    assert memsync("init", memory_dir).returncode == 0
    old = "2026-10-01T12:00:00+00:00"
    (memory_dir / "old.md").write_text("---\nname: old\ndescription: old fact\ntype: project\n"
                                       "---\nIt was.\n")  # fmt: skip
    subprocess.run(["git", "add", "old.md"], cwd=memory_dir, check=True)
    subprocess.run(
        ["git", "commit", "-qm", "manual: old"], cwd=memory_dir, check=True,
        env={**__import__("os").environ, "GIT_COMMITTER_DATE": old, "GIT_AUTHOR_DATE": old},
    )  # fmt: skip

    rows = {row["path"]: row for row in json.loads(memsync("ls", memory_dir, "--json").stdout)}

    assert rows["user_role.md"]["type"] == "user" and rows["user_role.md"]["indexed"]
    assert rows["user_role.md"]["age"] == "today"
    assert rows["old.md"]["indexed"] is False
    assert rows["old.md"]["age_days"] >= 60
    assert rows["old.md"]["freshness_note"].startswith(
        f"This memory is {rows['old.md']['age_days']} days old."
    )


def test_it_logs_kinds_and_trailers_as_json(memory_dir):
    memsync("init", memory_dir)

    [commit] = json.loads(memsync("log", memory_dir, "--json").stdout)

    assert commit["kind"] == "manual"
    assert {"key": "Memsync-Kind", "value": "manual"} in commit["trailers"]
    assert {f["path"] for f in commit["files"]} >= {"MEMORY.md", "user_role.md"}


def test_it_refuses_log_outside_a_repository(memory_dir):
    result = memsync("log", memory_dir)

    assert result.returncode == 2
    assert "not a memsync repository" in result.stderr


def test_it_merges_index_files_in_place_as_a_git_driver(tmp_path):
    base, ours, theirs = (tmp_path / n for n in ("O", "A", "B"))
    base.write_text("- [A](a.md) — a\n")
    ours.write_text("- [A](a.md) — a\n- [B](b.md) — b\n")
    theirs.write_text("- [A](a.md) — a\n- [C](c.md) — c\n")

    result = memsync("merge-index", base, ours, theirs)

    assert result.returncode == 0
    assert ours.read_text() == "- [A](a.md) — a\n- [B](b.md) — b\n- [C](c.md) — c\n"


def test_check_counts_size_as_claude_code_does_in_utf16_units(tmp_path):
    # 180 entries in Chinese: 39,000-odd UTF-8 bytes, about 15,800 UTF-16 units. Claude
    # Code loads them whole; check must not call lines past 25,000 bytes invisible.
    directory = tmp_path / "memory"
    directory.mkdir()
    lines, files = [], {}
    hook = "发布前必须通过全部集成测试并由值班同学确认" * 3
    for n in range(180):
        name = f"rule-{n:03}.md"
        files[name] = f"---\nname: rule-{n:03}\ndescription: 规则 {n}\ntype: user\n---\n\n规则。\n"
        lines.append(f"- [规则{n:03}]({name}) — {hook}")
    for name, text in files.items():
        (directory / name).write_text(text)
    (directory / "MEMORY.md").write_text("\n".join(lines) + "\n")
    assert (directory / "MEMORY.md").stat().st_size > 25_000

    result = memsync("check", directory, "--json")

    assert result.returncode == 0, result.stdout
    assert json.loads(result.stdout)["problems"] == []


def test_init_drops_a_team_clone_an_earlier_commit_recorded_as_a_gitlink(tmp_path):
    directory = tmp_path / "memory"
    team = directory / "team"
    team.mkdir(parents=True)
    (directory / "user_role.md").write_text("---\nname: r\ndescription: d\ntype: user\n---\nx\n")
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for where, args in (
        (team, ["init", "-q"]),
        (team, ["commit", "-q", "--allow-empty", "-m", "team"]),
        (directory, ["init", "-q", "-b", "main"]),
        (directory, ["add", "-A"]),
        (directory, ["commit", "-q", "-m", "before memsync"]),
    ):
        subprocess.run(["git", *identity, *args], cwd=where, check=True, capture_output=True)
    tree = ["git", "ls-tree", "-r", "HEAD"]
    assert "160000" in subprocess.run(tree, cwd=directory, capture_output=True, text=True).stdout

    result = memsync("init", directory)

    assert result.returncode == 0, result.stderr
    listed = subprocess.run(tree, cwd=directory, capture_output=True, text=True).stdout
    assert "160000" not in listed and "team" not in listed and "user_role.md" in listed
    assert (team / ".git").is_dir()


def test_it_knows_which_module_registers_each_command():
    import argparse
    import importlib

    from memsync.client.cli import COMMAND_MODULES, COMMANDS

    for module_name in COMMAND_MODULES:
        subparsers = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(module_name).register(subparsers)
        registered = set(subparsers.choices)
        assert registered == {c for c, m in COMMANDS.items() if m == module_name}, module_name


def test_it_lists_every_command_when_the_first_word_is_none_of_them():
    result = memsync("extrakt", "dir")

    assert result.returncode == 2
    assert "invalid choice: 'extrakt'" in result.stderr
    assert "init" in result.stderr and "recall" in result.stderr and "credential" in result.stderr
