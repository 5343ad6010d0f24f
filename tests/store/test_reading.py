"""Reading many objects through one ``git cat-file --batch``: each answer lines up with
its question, whatever the others are (missing, a tree, empty)."""

from __future__ import annotations

from pathlib import Path

from memsync.store import CommitKind, MemoryRepo
from memsync.store.reading import batch_blobs


def test_a_missing_name_or_a_tree_does_not_shift_the_answers_after_it(tmp_path: Path) -> None:
    repo = MemoryRepo.init(tmp_path / "memory")
    repo.apply({"a.md": b"alpha\n", "team/b.md": b"bravo\n", "empty.md": b""},
               CommitKind.EXTRACT, "three")  # fmt: skip
    names = ["main:a.md", "main:nowhere.md", "main:team", "main:empty.md", "main:team/b.md"]

    contents = batch_blobs(repo._git, names)

    assert contents == [b"alpha\n", None, None, b"", b"bravo\n"]
    wanted = ["a.md", "nowhere.md", "team/b.md"] + [f"x{n}.md" for n in range(20)]
    assert repo.read_many("main", wanted) == {"a.md": b"alpha\n", "team/b.md": b"bravo\n"}
