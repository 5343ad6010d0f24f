"""Two processes writing one repository at once: every commit lands, nothing corrupt."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from memsync.store import MemoryRepo

WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from memsync.store import MemoryRepo

    path, name, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    repo = MemoryRepo(path)
    for n in range(count):
        # Read-modify-write of the shared index under the repository lock, as an
        # extraction does: the lock is re-entrant, so apply() nests inside it.
        with repo.lock.held():
            index = repo.path / "MEMORY.md"
            text = index.read_text() if index.exists() else ""
            text += f"- [{name} {n}]({name}-{n}.md) — written by {name}\\n"
            repo.apply(
                {f"{name}-{n}.md": f"{name} {n}\\n".encode(), "MEMORY.md": text.encode()},
                "extract", f"{name} {n}",
            )
        # And a commit of a file only this writer touches, without holding the lock.
        (repo.path / f"{name}-own.md").write_text(f"{n}\\n")
        repo.commit("sync", f"{name} own {n}", paths=[f"{name}-own.md"])
    """
)


def test_it_lands_every_commit_of_two_concurrent_writers(tmp_path: Path):
    repo = MemoryRepo.init(tmp_path / "memory")
    count = 40

    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(repo.path), name, str(count)])
        for name in ("alice", "bob")
    ]
    assert [w.wait(timeout=300) for w in writers] == [0, 0]

    commits = repo.log()
    assert len(commits) == 1 + 2 * count * 2
    index = (repo.path / "MEMORY.md").read_text()
    for name in ("alice", "bob"):
        for n in range(count):
            assert f"({name}-{n}.md)" in index
            assert (repo.path / f"{name}-{n}.md").read_text() == f"{name} {n}\n"
    fsck = subprocess.run(
        ["git", "fsck", "--strict", "--no-progress"], cwd=repo.path, capture_output=True, text=True
    )
    assert fsck.returncode == 0, fsck.stderr
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=repo.path, capture_output=True, text=True
    )
    assert status.stdout == ""
