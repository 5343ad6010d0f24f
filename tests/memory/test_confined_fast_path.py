"""A name directly in the root skips the component walk (`memsync.confined`): it gets
what the walk gives, and it still refuses every link (issue 10)."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

import pytest

from memsync.confined import ConfinedRoot, ConfinementError, _is_plain_name


@pytest.mark.parametrize(
    "path",
    ["notes.md", "MEMORY.md", " spaced ", "..x", "x..", ".hidden", "a\\b", "", ".", "..",
     "/", "/etc", "a/b", "a/", "./a", "a\0b", "\0"],
)  # fmt: skip
def test_a_plain_name_is_what_parts_reads_as_one_component(tmp_path: Path, path: str) -> None:
    confined = ConfinedRoot(tmp_path)
    try:
        walked = confined.parts(path)
    except ConfinementError:
        walked = None
    assert _is_plain_name(path) == (walked == [path])


def test_a_plain_name_that_is_a_link_is_refused_held_or_not(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("untouched\n")
    root = tmp_path / "repo"
    root.mkdir()
    (root / "MEMORY.md").symlink_to(victim)
    (root / "dangling.md").symlink_to(tmp_path / "later")
    confined = ConfinedRoot(root)
    for held in (False, True):
        with confined.held() if held else nullcontext():
            for name in ("MEMORY.md", "dangling.md"):
                with pytest.raises(ConfinementError, match=name):
                    confined.read_bytes(name)
                with pytest.raises(ConfinementError, match=name):
                    confined.write(name, "overwritten\n", in_place=True)
                with pytest.raises(ConfinementError, match=name):
                    confined.write(name, "overwritten\n")
    assert victim.read_text() == "untouched\n"
    assert not (tmp_path / "later").exists()
