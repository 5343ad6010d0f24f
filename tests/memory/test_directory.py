"""A memory directory read from disk or from blobs: every F6 problem, nothing changed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memsync.memory import MemoryDirectory, ProblemCode, Severity, format_entry
from tests.memory.real_files import sample

GOOD = "---\nname: {name}\ndescription: {name} in one line\ntype: user\n---\n\nBody of {name}.\n"


def write(root: Path, files: dict[str, bytes | str]) -> None:
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {
        str(path.relative_to(root)): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(root.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def summary(directory: MemoryDirectory) -> list[tuple[ProblemCode, str, int | None]]:
    return [(p.code, p.path, p.line) for p in directory.problems]


def test_a_healthy_directory_has_no_problems(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "MEMORY.md": "# Memory Index\n\n"
            + format_entry("User role", "user_role.md", "senior Go dev")
            + "\n",
            "user_role.md": GOOD.format(name="user_role"),
            "logs/2026/12/2026-12-02.md": "- [09:15] started on the importer\n",
            "team/MEMORY.md": "- [Team rule](rule.md) — from the team\n",
            "team/rule.md": GOOD.format(name="rule"),
            ".consolidate-lock": "4242",
        },
    )
    directory = MemoryDirectory.read(tmp_path, scope="personal")
    assert directory.problems == []
    assert list(directory.files) == ["user_role.md"]
    assert directory.logs == ["logs/2026/12/2026-12-02.md"]
    assert directory.index is not None and len(directory.index.entries) == 1
    assert directory.scope == "personal"
    team = MemoryDirectory.read(tmp_path / "team", scope="team")
    assert list(team.files) == ["rule.md"] and team.problems == []


def test_every_f6_problem_is_named_with_its_file_and_line_and_nothing_is_touched(
    tmp_path: Path,
) -> None:
    index = "\n".join(
        [
            "# Memory Index",
            format_entry("Broken", "broken.md", "unterminated frontmatter"),
            format_entry("Bad YAML", "bad_yaml.md", "invalid YAML"),
            format_entry("Unknown type", "unknown_type.md", "type: preference"),
            format_entry("No description", "missing_field.md", "description missing"),
            format_entry("Latin-1", "latin1.md", "not UTF-8"),
            format_entry("Image", "binary.md", "binary"),
            format_entry("Gone", "deleted.md", "points nowhere"),
        ]
    )
    write(
        tmp_path,
        {
            "MEMORY.md": index + "\n",
            "broken.md": "---\nname: broken\ndescription: never closed\n\nbody\n",
            "bad_yaml.md": "---\nname: bad\ndescription: d\ntype: user\n  oops: x\n---\n",
            "unknown_type.md": "---\nname: u\ndescription: d\ntype: preference\n---\nbody\n",
            "missing_field.md": "---\nname: m\ntype: user\n---\nbody\n",
            "latin1.md": "---\nname: l\ndescription: café\ntype: user\n---\n".encode("latin-1"),
            "binary.md": b"\x00\x01\x02",
            "orphan.md": GOOD.format(name="orphan"),
        },
    )
    before = snapshot(tmp_path)
    directory = MemoryDirectory.read(tmp_path)
    assert snapshot(tmp_path) == before
    assert summary(directory) == [
        (ProblemCode.INDEX_DEAD_LINK, "MEMORY.md", 8),
        (ProblemCode.FRONTMATTER_BROKEN, "bad_yaml.md", 5),
        (ProblemCode.BINARY, "binary.md", 1),
        (ProblemCode.FRONTMATTER_BROKEN, "broken.md", 1),
        (ProblemCode.NOT_UTF8, "latin1.md", 3),
        (ProblemCode.FIELD_MISSING, "missing_field.md", 1),
        (ProblemCode.NOT_INDEXED, "orphan.md", None),
        (ProblemCode.TYPE_UNKNOWN, "unknown_type.md", 4),
    ]
    messages = {p.code: p.message for p in directory.problems}
    assert messages[ProblemCode.INDEX_DEAD_LINK] == (
        "line 8: entry 'Gone' links to deleted.md, which does not exist"
    )
    assert messages[ProblemCode.NOT_INDEXED] == (
        "no entry in MEMORY.md links to this file; an agent only finds it by scanning"
    )
    assert {p.code: p.severity for p in directory.problems}[ProblemCode.NOT_INDEXED] is (
        Severity.WARNING
    )
    # Bad files are still there to show and to fix, exactly as they were.
    assert directory.files["binary.md"].render() == b"\x00\x01\x02"
    assert directory.files["latin1.md"].raw == before["latin1.md"][0]


def test_a_reader_of_files_alone_can_leave_out_the_checks_across_files(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "MEMORY.md": format_entry("Gone", "deleted.md", "points nowhere") + "\n",
            "broken.md": "---\nname: broken\ndescription: never closed\n\nbody\n",
            "orphan.md": GOOD.format(name="orphan"),
        },
    )
    full = MemoryDirectory.read(tmp_path)
    files_alone = MemoryDirectory.read(tmp_path, links=False)
    assert files_alone.files == full.files and files_alone.index == full.index
    across = {ProblemCode.INDEX_DEAD_LINK, ProblemCode.NOT_INDEXED}
    assert {problem.code for problem in full.problems} >= across
    assert files_alone.problems == [p for p in full.problems if p.code not in across]
    assert summary(files_alone) == [(ProblemCode.FRONTMATTER_BROKEN, "broken.md", 1)]


def test_without_an_index_every_topic_file_is_not_indexed(tmp_path: Path) -> None:
    write(tmp_path, {"a.md": GOOD.format(name="a"), "b.md": "plain note\n"})
    directory = MemoryDirectory.read(tmp_path)
    assert directory.index is None
    assert summary(directory) == [
        (ProblemCode.NOT_INDEXED, "a.md", None),
        (ProblemCode.NOT_INDEXED, "b.md", None),
    ]
    assert directory.problems[0].message.startswith("there is no MEMORY.md")


def test_links_to_other_existing_files_are_not_dead(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "MEMORY.md": "- [Log](logs/2026/12/2026-12-02.md)\n- [Team](team/rule.md)\n"
            "- [Site](https://example.com/x.md)\n- [Missing](team/gone.md)\n",
            "logs/2026/12/2026-12-02.md": "- [10:00] x\n",
            "team/rule.md": GOOD.format(name="rule"),
        },
    )
    assert summary(MemoryDirectory.read(tmp_path)) == [
        (ProblemCode.INDEX_DEAD_LINK, "MEMORY.md", 4)
    ]


def test_index_limits_show_up_with_their_lines(tmp_path: Path) -> None:
    entries = [format_entry(f"M{n}", f"m{n}.md", "hook") for n in range(1, 251)]
    write(tmp_path, {"MEMORY.md": "\n".join(entries) + "\n"})
    write(tmp_path, {f"m{n}.md": GOOD.format(name=f"m{n}") for n in range(1, 251)})
    directory = MemoryDirectory.read(tmp_path)
    assert summary(directory) == [(ProblemCode.INDEX_TOO_MANY_LINES, "MEMORY.md", 201)]


def test_every_symlink_is_reported_and_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text(GOOD.format(name="secret"))
    root = tmp_path / "memory"
    write(root, {"MEMORY.md": "- [Inside](inside.md)\n", "real.md": GOOD.format(name="real")})
    (root / "inside.md").symlink_to(root / "real.md")
    (root / "escape.md").symlink_to(outside)
    (root / "logs").mkdir()
    (root / "logs" / "leak.md").symlink_to(outside)
    directory = MemoryDirectory.read(root)
    # Even a link that stays inside is not read through (issue 10: chains of links).
    assert "escape.md" not in directory.files and "inside.md" not in directory.files
    assert summary(directory) == [
        (ProblemCode.SYMLINK_OUTSIDE, "escape.md", None),
        (ProblemCode.SYMLINK, "inside.md", None),
        (ProblemCode.SYMLINK_OUTSIDE, "logs/leak.md", None),
        (ProblemCode.NOT_INDEXED, "real.md", None),
    ]
    assert directory.problems[0].message == (
        f"symlink to {outside}, outside the memory directory; not followed"
    )
    assert directory.problems[1].message == (
        f"symlink to {root / 'real.md'}, inside the memory directory; not followed"
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_an_unreadable_file_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    write(tmp_path, {"MEMORY.md": "- [A](a.md)\n", "a.md": GOOD.format(name="a")})
    (tmp_path / "a.md").chmod(0)
    try:
        directory = MemoryDirectory.read(tmp_path)
    finally:
        (tmp_path / "a.md").chmod(0o644)
    assert summary(directory) == [(ProblemCode.UNREADABLE, "a.md", None)]


def test_a_missing_directory_is_the_only_error_raised(tmp_path: Path) -> None:
    with pytest.raises(NotADirectoryError, match="no memory directory"):
        MemoryDirectory.read(tmp_path / "nope")


def test_only_well_formed_log_paths_are_logs(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "logs/2026/12/2026-12-01.md": "- [08:00] a\n",
            "logs/2026/12/2026-11-30.md": "- [08:00] misfiled\n",
            "logs/notes.md": "x\n",
            "logs/2026/12/2026-12-02.md": "- [08:00] b\n",
        },
    )
    assert MemoryDirectory.read(tmp_path).logs == [
        "logs/2026/12/2026-12-01.md",
        "logs/2026/12/2026-12-02.md",
    ]


def test_from_files_builds_the_same_directory_as_reading_the_disk(tmp_path: Path) -> None:
    files: dict[str, bytes] = {
        "MEMORY.md": b"- [A](a.md)\n- [Gone](gone.md)\n- [Log](logs/2026/01/2026-01-02.md)\n",
        "a.md": GOOD.format(name="a").encode(),
        "orphan.md": b"---\nname: o\n---\n",
        "logs/2026/01/2026-01-02.md": b"- [10:00] x\n",
    }
    write(tmp_path, dict(files))
    from_disk = MemoryDirectory.read(tmp_path)
    from_blobs = MemoryDirectory.from_files(files.pop("MEMORY.md"), files)
    assert from_blobs.problems == from_disk.problems
    assert from_blobs.files == from_disk.files
    assert from_blobs.logs == from_disk.logs
    assert from_blobs.index == from_disk.index


def test_real_samples_read_as_a_directory_have_no_problem_in_the_files_present(
    tmp_path: Path,
) -> None:
    write(
        tmp_path,
        {
            "MEMORY.md": sample("mediajunkie__dispatch__memory__MEMORY.md"),
            "feedback_omnibus_context_gap.md": sample(
                "mediajunkie__dispatch__memory__feedback_omnibus_context_gap.md"
            ),
        },
    )
    directory = MemoryDirectory.read(tmp_path)
    assert directory.problems_for("feedback_omnibus_context_gap.md") == []
    # The sample's other eight files were not published with it: those links are dead here.
    dead = [p for p in directory.problems if p.code is ProblemCode.INDEX_DEAD_LINK]
    assert [p.line for p in dead] == [4, 7, 8, 9, 10, 13, 19, 22]


def _small_directory(root: Path, count: int) -> None:
    root.mkdir()
    entries = []
    for n in range(count):
        (root / f"m{n}.md").write_text(GOOD.format(name=f"m{n}"))
        entries.append(format_entry(f"M{n}", f"m{n}.md", "hook"))
    (root / "MEMORY.md").write_text("\n".join(entries[:150]) + "\n")


def test_it_reads_10000_files_and_names_every_unindexed_one(tmp_path: Path) -> None:
    # Speed is measured by bench/memory.py, not asserted here.
    _small_directory(tmp_path / "big", 10_000)

    directory = MemoryDirectory.read(tmp_path / "big")

    assert len(directory.files) == 10_000
    assert len(directory.problems) == 10_000 - 150  # the files the index does not list


def test_it_counts_entries_of_a_linked_sub_index_as_indexed(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    (root / "indexes").mkdir(parents=True)
    for name in ("a", "b"):
        (root / f"{name}.md").write_text(GOOD.format(name=name))
    (root / "MEMORY.md").write_text(
        "# Memory Index\n\n- [Projects (2 more)](indexes/projects.md) — a and b\n"
    )
    (root / "indexes" / "projects.md").write_text(
        "# Projects\n\n- [A](../a.md) — a\n- [B](../b.md) — b\n- [Gone](../gone.md) — x\n"
    )

    directory = MemoryDirectory.read(root)

    codes = {(p.code, p.path, p.line) for p in directory.problems}
    assert not any(code is ProblemCode.NOT_INDEXED for code, _, _ in codes)
    assert (ProblemCode.INDEX_DEAD_LINK, "indexes/projects.md", 5) in codes
    assert set(directory.subindexes) == {"indexes/projects.md"}
    assert "indexes/projects.md" not in directory.files


def test_it_ignores_a_sub_index_that_memory_md_does_not_link(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    (root / "indexes").mkdir(parents=True)
    (root / "a.md").write_text(GOOD.format(name="a"))
    (root / "MEMORY.md").write_text("# Memory Index\n")
    (root / "indexes" / "stray.md").write_text("- [A](../a.md) — a\n")

    directory = MemoryDirectory.read(root)

    assert [p.path for p in directory.problems if p.code is ProblemCode.NOT_INDEXED] == ["a.md"]


def test_it_follows_sub_indexes_built_from_blobs() -> None:
    directory = MemoryDirectory.from_files(
        b"- [Group](indexes/g.md) - g\n",
        {"a.md": GOOD.format(name="a").encode(), "indexes/g.md": b"- [A](../a.md) - a\n"},
    )

    assert not [p for p in directory.problems if p.code is ProblemCode.NOT_INDEXED]
