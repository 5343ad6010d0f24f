"""Two versions of a file side by side, built on the store's diff of real commits."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memsync.store import CommitKind, MemoryRepo
from memsync.store.diff import SideBySideRow, side_by_side


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    return MemoryRepo.init(tmp_path / "memory")


def commit(repo: MemoryRepo, text: str | None) -> str:
    """A commit where notes.md holds ``text`` (None: no notes.md)."""
    if text is not None or repo.read("HEAD", "notes.md") is not None:
        data = text.encode() if text is not None else None
        repo.apply({"notes.md": data}, CommitKind.MANUAL, "notes")
    head = repo.head()
    assert head is not None
    return head


def rows_between(repo: MemoryRepo, left: str | None, right: str | None) -> list[SideBySideRow]:
    old, new = commit(repo, left), commit(repo, right)
    return side_by_side(left or "", repo.file_diff("notes.md", old, new))


def test_it_pairs_a_changed_line_and_keeps_the_rest_beside_itself(repo):
    rows = rows_between(repo, "one\ntwo, says main\nthree\n", "one\ntwo, says bob\nthree\n")

    assert rows == [
        SideBySideRow("same", 1, "one", 1, "one"),
        SideBySideRow("changed", 2, "two, says main", 2, "two, says bob"),
        SideBySideRow("same", 3, "three", 3, "three"),
    ]


def test_it_shows_lines_far_from_any_change_and_numbers_each_side_on_its_own(repo):
    left = "".join(f"line {n}\n" for n in range(1, 21))
    right = "new first\n" + left.replace("line 15\n", "")

    rows = rows_between(repo, left, right)

    assert rows[0] == SideBySideRow("right-only", None, None, 1, "new first")
    assert rows[1] == SideBySideRow("same", 1, "line 1", 2, "line 1")
    assert SideBySideRow("same", 10, "line 10", 11, "line 10") in rows  # between the hunks
    assert SideBySideRow("left-only", 15, "line 15", None, None) in rows
    assert rows[-1] == SideBySideRow("same", 20, "line 20", 20, "line 20")


def test_a_side_without_the_file_shows_every_line_on_the_other(repo):
    assert rows_between(repo, None, "a\nb") == [
        SideBySideRow("right-only", None, None, 1, "a"),
        SideBySideRow("right-only", None, None, 2, "b"),
    ]
    assert [row.kind for row in rows_between(repo, "a\nb\n", None)] == ["left-only"] * 2


def test_the_same_text_on_both_sides_is_all_same_rows(repo):
    sha = commit(repo, "a\nb\n")

    rows = side_by_side("a\nb\n", repo.file_diff("notes.md", sha, sha))

    assert [row.kind for row in rows] == ["same", "same"]


lines = st.lists(st.sampled_from(["a", "b", "c", "", "d d"]), max_size=12)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(left=lines, right=lines, final_newline=st.booleans())
def test_each_side_reads_back_in_order_with_consecutive_numbers(repo, left, right, final_newline):
    end = "\n" if final_newline else ""
    left_text = "\n".join(left) + (end if left else "")
    right_text = "\n".join(right) + (end if right else "")

    rows = rows_between(repo, left_text, right_text)

    mine = [(row.left_number, row.left) for row in rows if row.left is not None]
    theirs = [(row.right_number, row.right) for row in rows if row.right is not None]
    assert mine == list(enumerate(left_text.splitlines(), start=1))
    assert theirs == list(enumerate(right_text.splitlines(), start=1))
    sides = {"same": (True, True), "changed": (True, True), "left-only": (True, False),
             "right-only": (False, True)}  # fmt: skip
    for row in rows:
        assert sides[row.kind] == (row.left is not None, row.right is not None)
        assert row.kind != "same" or row.left == row.right
