"""The MEMORY.md merge driver: by entry, never conflict markers, through real git."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from memsync.memory import MemoryIndex
from memsync.memory.merge import merge_index, merge_index_bytes
from memsync.store import CommitKind, MemoryRepo


def merged(base: str, ours: str, theirs: str) -> str:
    return merge_index(
        MemoryIndex.parse(base), MemoryIndex.parse(ours), MemoryIndex.parse(theirs)
    ).render()


BASE = """# Memory Index

## User
- [Role](user_role.md) — Doug teaches Fuzzbox Physics

## Projects
- [Piper](project_piper.md) — AI PM assistant
"""


def test_it_keeps_entries_added_on_both_sides_under_their_headings():
    ours = BASE.replace(
        "- [Role](user_role.md) — Doug teaches Fuzzbox Physics\n",
        "- [Role](user_role.md) — Doug teaches Fuzzbox Physics\n- [Tools](user_tools.md) — vim\n",
    )
    theirs = BASE + "- [Klatch](project_klatch.md) — conversation manager\n"

    result = merged(BASE, ours, theirs)

    assert result == (
        "# Memory Index\n\n## User\n"
        "- [Role](user_role.md) — Doug teaches Fuzzbox Physics\n"
        "- [Tools](user_tools.md) — vim\n\n## Projects\n"
        "- [Piper](project_piper.md) — AI PM assistant\n"
        "- [Klatch](project_klatch.md) — conversation manager\n"
    )


def test_it_drops_an_entry_removed_on_one_side_and_untouched_on_the_other():
    theirs = BASE.replace("- [Piper](project_piper.md) — AI PM assistant\n", "")

    assert "project_piper.md" not in merged(BASE, BASE, theirs)
    assert "project_piper.md" not in merged(BASE, theirs, BASE)


def test_it_keeps_an_entry_removed_on_one_side_but_changed_on_the_other():
    removed = BASE.replace("- [Piper](project_piper.md) — AI PM assistant\n", "")
    changed = BASE.replace("AI PM assistant", "AI PM assistant, Python/FastAPI")

    assert "Python/FastAPI" in merged(BASE, removed, changed)
    assert "Python/FastAPI" in merged(BASE, changed, removed)


def test_it_takes_the_incoming_hook_when_both_sides_changed_it():
    ours = BASE.replace("AI PM assistant", "ours")
    theirs = BASE.replace("AI PM assistant", "theirs")

    assert "— theirs" in merged(BASE, ours, theirs)
    assert "— ours" in merged(BASE, ours, BASE)
    assert "— theirs" in merged(BASE, BASE, theirs)


def test_it_creates_a_heading_theirs_introduced():
    theirs = BASE + "\n## Feedback\n- [Tests](feedback_tests.md) — no mocks\n"

    result = merged(BASE, BASE, theirs)

    assert result.endswith("## Feedback\n- [Tests](feedback_tests.md) — no mocks\n")


def test_it_survives_garbage_and_non_utf8_input():
    result = merge_index_bytes(b"\xff\xfe<<<<<<<", b"- [A](a.md) - a\n", b"\x00\x01binary")

    assert b"(a.md)" in result


# --- properties -----------------------------------------------------------------------
KEYS = [f"k{n}" for n in range(8)]
HEADINGS = [None, "## One", "## Two"]


@st.composite
def indexes(draw: st.DrawFn) -> dict[str, tuple[str, str | None]]:
    """An index as key → (hook, heading)."""
    keys = draw(st.lists(st.sampled_from(KEYS), unique=True, max_size=6))
    return {
        key: (draw(st.sampled_from(["a", "b", "c"])), draw(st.sampled_from(HEADINGS)))
        for key in keys
    }


def render(entries: dict[str, tuple[str, str | None]]) -> str:
    lines: list[str] = ["# Memory Index", ""]
    for heading in HEADINGS:
        group = [(k, hook) for k, (hook, h) in entries.items() if h == heading]
        if heading is not None and group:
            lines.append(heading)
        lines += [f"- [{k}]({k}.md) — {hook}" for k, hook in group]
    return "\n".join(lines) + "\n"


def hooks(text: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for entry in MemoryIndex.parse(text).entries:
        found.setdefault(entry.target.removesuffix(".md"), []).append(entry.hook)
    return found


@settings(max_examples=300, deadline=None)
@given(base=indexes(), ours=indexes(), theirs=indexes())
def test_it_follows_the_entry_rules_for_any_three_indexes(base, ours, theirs):
    result = merged(render(base), render(ours), render(theirs))
    found = hooks(result)

    assert "<<<<<<<" not in result and ">>>>>>>" not in result
    assert all(len(v) == 1 for v in found.values()), "each entry appears once"
    for key in set(base) | set(ours) | set(theirs):
        b = base.get(key, (None,))[0]
        o = ours.get(key, (None,))[0]
        t = theirs.get(key, (None,))[0]
        got = found.get(key, [None])[0]
        if o is None and t is None:
            assert got is None
        elif b is None:  # added on one or both sides: kept, theirs wins on a clash
            assert got == (t if t is not None else o)
        elif o is None:  # we removed it
            assert got == (None if t == b else t)
        elif t is None:  # they removed it
            assert got == (None if o == b else o)
        else:  # changed on one side takes that change; on both, theirs
            assert got == (t if t != b else o)


@settings(max_examples=100, deadline=None)
@given(base=indexes(), ours=indexes())
def test_it_returns_ours_when_theirs_did_not_change(base, ours):
    assert merged(render(base), render(ours), render(base)) == render(ours)


# --- through git ---------------------------------------------------------------------
def git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)


def test_it_is_used_by_a_plain_git_merge_in_a_clone(tmp_path: Path):
    origin = MemoryRepo.init(tmp_path / "origin")
    origin.apply({"MEMORY.md": BASE.encode(), "user_role.md": b"r\n"}, CommitKind.MANUAL, "base")
    origin.create_branch("members/bob")
    origin.apply(
        {"MEMORY.md": (BASE + "- [A](a.md) — alice's\n").encode(), "a.md": b"a\n"},
        CommitKind.EXTRACT, "alice",
    )  # fmt: skip
    worktree = origin.add_worktree(tmp_path / "bob", "bob-work", start="members/bob")
    worktree.apply(
        {"MEMORY.md": (BASE + "- [B](b.md) — bob's\n").encode(), "b.md": b"b\n"},
        CommitKind.SYNC, "bob",
    )  # fmt: skip

    merge = git(origin.path, "merge", "--no-edit", "bob-work")

    assert merge.returncode == 0, merge.stdout + merge.stderr
    index = (origin.path / "MEMORY.md").read_text()
    assert "<<<<<<<" not in index
    assert "- [A](a.md) — alice's\n" in index and "- [B](b.md) — bob's\n" in index


def test_the_driver_entry_point_merges_in_place_and_refuses_what_it_cannot_read(tmp_path):
    import subprocess
    import sys

    base, ours, theirs = (tmp_path / name for name in ("base", "ours", "theirs"))
    base.write_text("- [A](a.md) — a\n")
    ours.write_text("- [A](a.md) — a\n- [B](b.md) — b\n")
    theirs.write_text("- [A](a.md) — a\n- [C](c.md) — c\n")
    driver = [sys.executable, "-m", "memsync.memory.merge_driver"]

    merged = subprocess.run([*driver, str(base), str(ours), str(theirs)], capture_output=True)
    unreadable = subprocess.run(
        [*driver, str(base), str(tmp_path / "missing"), str(theirs)], capture_output=True, text=True
    )
    usage = subprocess.run(driver, capture_output=True, text=True)

    assert merged.returncode == 0
    assert ours.read_text().count("](") == 3 and "c.md" in ours.read_text()
    assert unreadable.returncode == 2 and "cannot merge MEMORY.md" in unreadable.stderr
    assert usage.returncode == 2 and "usage:" in usage.stderr
