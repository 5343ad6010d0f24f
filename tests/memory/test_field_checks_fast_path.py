"""A topic file's fields judged fine at a glance are the fields the full checks find
nothing wrong with: checked on frontmatter built to hit each check's edges, and on the
real sample files."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memsync.memory import MemoryFile
from memsync.memory.frontmatter import FrontmatterBlock
from memsync.memory.topic import _check_fields_fully, _fields_fine

from .real_files import SAMPLES

# Values that are text, empty, multi-line, another YAML type, or a type name.
_VALUE = st.sampled_from(
    [
        "plain words",
        "user",
        "feedback",
        "project",
        "reference",
        "User",
        "other",
        "''",
        '""',
        "12",
        "true",
        "null",
        "~",
        "[a, b]",
        "{a: b}",
        "|\n  two\n  lines",
        "|\n  one line",
        '"a\\nb"',
        '"trailing\\n"',
        "'it''s'",
        "Deploys: never on Friday",
    ]
)
_FIELD = st.tuples(st.sampled_from(["name", "description", "type", "metadata", "other"]), _VALUE)
_NESTED_TYPE = st.sampled_from(["", "metadata:\n  type: project\n", "metadata:\n  type: ''\n"])


def _block(text: str) -> FrontmatterBlock:
    memory = MemoryFile.parse("a.md", text.encode())
    assert memory._block is not None
    return memory._block


@settings(max_examples=2000, deadline=None)
@given(st.lists(_FIELD, max_size=4, unique_by=lambda field: field[0]), _NESTED_TYPE)
def test_fields_judged_fine_at_a_glance_are_fine_to_the_full_checks(fields, nested):
    if nested and any(key == "metadata" for key, _ in fields):
        return
    text = "---\n" + "".join(f"{k}: {v}\n" for k, v in fields) + nested + "---\nbody\n"
    memory = MemoryFile.parse("a.md", text.encode())
    if memory._broken:
        return
    found: list = []

    declared = _check_fields_fully("a.md", memory.metadata, _block(text), found)

    if _fields_fine(memory.metadata):
        assert found == []
        assert declared == memory.metadata["type"]


def test_the_glance_passes_the_common_file_and_the_full_checks_agree():
    text = "---\nname: n\ndescription: d\ntype: feedback\n---\n\nRule.\n"
    memory = MemoryFile.parse("a.md", text.encode())
    found: list = []

    assert _fields_fine(memory.metadata)
    assert _check_fields_fully("a.md", memory.metadata, _block(text), found) == "feedback"
    assert found == []
    # The body check still runs on the quick path.
    assert [p.code for p in memory.problems] == ["body-structure"]


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.md")), ids=lambda path: path.name)
def test_real_files_read_to_the_same_problems_either_way(path):
    memory = MemoryFile.parse(path.name, path.read_bytes())
    if memory._block is None or memory._broken:
        return
    found: list = []

    declared = _check_fields_fully(path.name, memory.metadata, memory._block, found)

    if _fields_fine(memory.metadata):
        assert found == []
        assert declared == memory.metadata["type"]
