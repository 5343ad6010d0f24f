"""A team clone linked to a bare repository on disk: for client behaviour that needs
no server's checks (the background push, refusals git itself makes)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from memsync.client.team import Link, TeamClone


def bare_origin(root: Path) -> Path:
    """A bare repository with one commit on ``main`` (alice's first memory)."""
    origin, seed = root / "origin.git", root / "seed"
    if origin.exists():
        return origin
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(seed)], check=True)
    (seed / "MEMORY.md").write_text("- [Freeze](freeze.md) — no deploys on Fridays\n")
    git = ["git", "-C", str(seed), "-c", "user.name=alice", "-c", "user.email=a@example.com"]
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "seed"], check=True)
    subprocess.run([*git, "push", "-q", str(origin), "main"], check=True)
    return origin


def linked_clone(root: Path, team_dir: Path, user: str = "bob") -> Path:
    """``team_dir`` linked as `user` to the bare repository under `root`."""
    origin = bare_origin(root)
    TeamClone.create(team_dir, str(origin), Link("http://127.0.0.1:9", "shop", user))
    for key, value in (("user.name", user), ("user.email", f"{user}@example.com")):
        subprocess.run(["git", "-C", str(team_dir), "config", key, value], check=True)
    return team_dir
