"""Repository configuration is written at creation and at each ``manage.py migrate``
(a deploy), under the repository's lock, and only where it differs (issue 10, item 3)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

from memsync.store.recovery import SERVER_MARKER
from memsync.sync.hooks import SERVER_ATTRIBUTES
from tests.sync.conftest import make_team

pytestmark = pytest.mark.django_db(transaction=True)


def config(git_dir: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", f"--git-dir={git_dir}", "config", *args], capture_output=True, text=True
    )
    return done.stdout.strip()


def test_migrate_brings_a_repository_made_by_an_older_memsync_up_to_date(tmp_path: Path):
    team = make_team(f"old-{tmp_path.name[-10:]}", {"alice": "maintainer"})
    git_dir = team.git_dir()
    # What a repository created before this version looks like.
    (git_dir / SERVER_MARKER).unlink()
    (git_dir / "info" / "attributes").write_text("MEMORY.md merge=memsync-index\n")
    (git_dir / "hooks" / "pre-receive").write_text("#!/bin/sh\nexec /old/venv/bin/python\n")
    config(git_dir, "--unset", "receive.fsckObjects")
    config(git_dir, "merge.memsync-index.driver", "'/old/venv/bin/memsync' merge-index %O %A %B")

    call_command("migrate", verbosity=0)

    assert (git_dir / SERVER_MARKER).is_file()
    assert (git_dir / "info" / "attributes").read_text() == SERVER_ATTRIBUTES
    assert "-m memsync.sync.prereceive" in (git_dir / "hooks" / "pre-receive").read_text()
    assert config(git_dir, "receive.fsckObjects") == "true"
    assert "/old/venv" not in config(git_dir, "merge.memsync-index.driver")

    # A second deploy over an up-to-date repository rewrites nothing.
    files = [git_dir / "config", git_dir / "info" / "attributes", git_dir / "hooks" / "pre-receive"]
    before = [(path.stat().st_ino, path.stat().st_mtime_ns) for path in files]
    call_command("migrate", verbosity=0)
    assert [(path.stat().st_ino, path.stat().st_mtime_ns) for path in files] == before
