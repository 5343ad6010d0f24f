"""Topic files: reading real and broken files, byte-exact rendering, editing (SPEC F2, F6)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memsync.memory import MEMORY_TYPES, MemoryFile, ProblemCode, Severity
from tests.memory.real_files import sample

AGTERM = "AnotherSava__agterm__.claude__memory__fork-and-local-install.md"
FUZZBOX = "douglasgoodwin__FuzzboxPhysics__memory__user_role.md"
DISPATCH = "mediajunkie__dispatch__memory__feedback_omnibus_context_gap.md"


def parse(text: str | bytes, path: str = "memory.md") -> MemoryFile:
    return MemoryFile.parse(path, text.encode() if isinstance(text, str) else text)


def found(memory: MemoryFile) -> list[tuple[ProblemCode, int | None, Severity]]:
    return [(p.code, p.line, p.severity) for p in memory.problems]


# -- real files ------------------------------------------------------------------------


def test_it_reads_a_real_user_memory() -> None:
    memory = MemoryFile.parse("user_role.md", sample(FUZZBOX))
    assert memory.name == "user-role"
    assert memory.type == "user"
    assert memory.description == (
        "Doug Goodwin teaches CalArts CSCM 373-01 (Fuzzbox Physics), builds interactive "
        "browser audio labs for students"
    )
    assert memory.body.startswith("Doug Goodwin is a professor at CalArts")
    assert memory.has_frontmatter and memory.is_text
    assert memory.problems == ()


def test_it_reads_a_real_feedback_memory_with_its_why_and_how() -> None:
    memory = MemoryFile.parse("feedback_omnibus_context_gap.md", sample(DISPATCH))
    assert memory.type == "feedback"
    assert memory.description is not None and "—" in memory.description
    assert memory.problems == ()


def test_it_reads_a_real_memory_whose_type_is_nested_under_metadata() -> None:
    memory = MemoryFile.parse("fork-and-local-install.md", sample(AGTERM))
    assert memory.type == "project"
    assert memory.memory_type == "project"
    assert memory.has_nested_type
    assert list(memory.metadata) == ["name", "description", "metadata"]
    assert memory.metadata["metadata"] == {"type": "project"}
    # Its body is prose without **Why:** / **How to apply:** lines: a true, and only,
    # warning. No error, and no field reported missing for the nested type.
    assert found(memory) == [(ProblemCode.BODY_STRUCTURE, 8, Severity.WARNING)]


def test_real_files_render_back_byte_for_byte() -> None:
    for name in (AGTERM, FUZZBOX, DISPATCH):
        data = sample(name)
        assert MemoryFile.parse(name, data).render() == data


# -- F6: every bad input is a named problem with its line ----------------------------------

VALID = "---\nname: n\ndescription: d\ntype: user\n---\n\nbody\n"


def test_valid_frontmatter_has_no_problems() -> None:
    assert parse(VALID).problems == ()


def test_unterminated_frontmatter_is_broken_at_line_1() -> None:
    memory = parse("---\nname: n\ndescription: d\n\nbody without a closing line\n")
    assert found(memory) == [(ProblemCode.FRONTMATTER_BROKEN, 1, Severity.ERROR)]
    assert memory.problems[0].message == (
        "line 1: frontmatter opened with '---' is never closed by a '---' line"
    )
    assert memory.metadata == {}
    assert memory.has_frontmatter


def test_invalid_yaml_is_broken_at_the_line_yaml_complains_about() -> None:
    memory = parse("---\nname: n\ndescription: d\ntype: user\n  bad: indent\n---\nbody\n")
    assert found(memory) == [(ProblemCode.FRONTMATTER_BROKEN, 5, Severity.ERROR)]
    assert "line 5: frontmatter is not valid YAML: mapping values are not allowed" in (
        memory.problems[0].message
    )
    assert memory.body == "body\n"


def test_frontmatter_that_is_not_a_mapping_is_broken() -> None:
    memory = parse("---\n- name\n- type\n---\nbody\n")
    assert found(memory) == [(ProblemCode.FRONTMATTER_BROKEN, 2, Severity.ERROR)]
    assert memory.problems[0].message == "line 2: frontmatter is a list, not a mapping of fields"


def test_each_missing_field_is_named() -> None:
    memory = parse("---\nname: n\n---\nbody\n")
    assert found(memory) == [
        (ProblemCode.FIELD_MISSING, 1, Severity.ERROR),
        (ProblemCode.FIELD_MISSING, 1, Severity.ERROR),
    ]
    assert [p.message for p in memory.problems] == [
        "line 1: frontmatter has no 'description' (one specific line that decides when this "
        "memory is relevant)",
        "line 1: frontmatter has no 'type' (one of user, feedback, project, reference)",
    ]


def test_an_empty_field_is_missing_on_its_own_line() -> None:
    memory = parse("---\nname: n\ndescription:\ntype: user\n---\n")
    assert found(memory) == [(ProblemCode.FIELD_MISSING, 3, Severity.ERROR)]
    assert memory.problems[0].message.startswith("line 3: frontmatter has an empty 'description'")


def test_an_unknown_type_is_named_with_its_line() -> None:
    memory = parse("---\nname: n\ndescription: d\ntype: preference\n---\n")
    assert found(memory) == [(ProblemCode.TYPE_UNKNOWN, 4, Severity.ERROR)]
    assert memory.problems[0].message == (
        "line 4: type 'preference' is not one of user, feedback, project, reference"
    )
    assert memory.type == "preference"
    assert memory.memory_type is None


def test_an_unknown_nested_type_is_found_on_its_nested_line() -> None:
    memory = parse("---\nname: n\ndescription: d\nmetadata:\n  owner: x\n  type: Feedback\n---\n")
    assert found(memory) == [(ProblemCode.TYPE_UNKNOWN, 6, Severity.ERROR)]


def test_a_key_written_twice_is_broken_at_its_second_line_and_edits_clean_it_up() -> None:
    memory = parse("---\nname: a\ndescription: d\ntype: user\nname: b\n---\nbody\n")
    assert found(memory) == [(ProblemCode.FRONTMATTER_BROKEN, 5, Severity.ERROR)]
    assert memory.problems[0].message == (
        "line 5: key 'name' appears twice (lines 2 and 5); YAML readers disagree on which one "
        "counts"
    )
    assert memory.name == "b"
    fixed = memory.replace(name="c")
    assert fixed.render() == b"---\nname: c\ndescription: d\ntype: user\n---\nbody\n"
    assert fixed.problems == ()


def test_a_multiline_description_is_a_warning() -> None:
    memory = parse("---\nname: n\ndescription: |\n  first\n  second\ntype: user\n---\n")
    assert found(memory) == [(ProblemCode.DESCRIPTION_MULTILINE, 3, Severity.WARNING)]


def test_a_folded_description_that_reads_as_one_line_is_fine() -> None:
    memory = parse("---\nname: n\ndescription: >\n  first\n  second\ntype: user\n---\n")
    assert memory.description == "first second\n"
    assert memory.problems == ()


@pytest.mark.parametrize("kind", ["feedback", "project"])
def test_a_feedback_or_project_body_needs_why_and_how_to_apply(kind: str) -> None:
    head = f"---\nname: n\ndescription: d\ntype: {kind}\n---\n\n"
    assert parse(head + "Rule.\n\n**Why:** w\n**How to apply:** h\n").problems == ()
    assert parse(head + "Rule.\n- **Why**: w\n- **How to apply**: h\n").problems == ()
    only_why = parse(head + "Rule.\n\n**Why:** because\n")
    assert found(only_why) == [(ProblemCode.BODY_STRUCTURE, 7, Severity.WARNING)]
    assert only_why.problems[0].message == (
        f"line 7: a {kind} memory's body should state the rule, then a **How to apply:** "
        "line; this one has no **How to apply:**"
    )


def test_user_and_reference_bodies_are_free_form() -> None:
    for kind in ("user", "reference"):
        assert parse(f"---\nname: n\ndescription: d\ntype: {kind}\n---\nprose\n").problems == ()


def test_non_utf8_bytes_are_a_problem_on_their_line_and_kept() -> None:
    data = "---\nname: café\n".encode() + "description: naïve\n".encode("latin-1") + b"---\n"
    memory = MemoryFile.parse("latin.md", data)
    assert found(memory) == [(ProblemCode.NOT_UTF8, 3, Severity.ERROR)]
    assert not memory.is_text
    assert memory.render() == data == memory.raw
    with pytest.raises(ValueError, match="not UTF-8 text"):
        memory.replace(body="x")


def test_binary_data_is_a_problem_and_kept() -> None:
    data = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
    memory = MemoryFile.parse("image.md", data)
    assert found(memory) == [(ProblemCode.BINARY, 3, Severity.ERROR)]
    assert memory.render() == data


def test_a_file_without_frontmatter_is_a_memory_without_type() -> None:
    memory = parse("Just a note, no frontmatter.\n")
    assert not memory.has_frontmatter
    assert memory.type is None and memory.description is None and memory.name is None
    assert memory.problems == ()
    assert memory.body == "Just a note, no frontmatter.\n"


def test_an_unquoted_value_with_a_colon_reads_as_claude_code_reads_it() -> None:
    memory = parse("---\nname: n\ndescription: use case: foo\ntype: user\n---\n")
    assert memory.description == "use case: foo"
    assert memory.problems == ()


def test_scalars_read_as_yaml_1_2_so_dates_and_yes_stay_text() -> None:
    memory = parse(
        "---\nname: yes\ndescription: d\ntype: user\ncreated: 2026-01-05\nport: 012\n---\n"
    )
    assert memory.metadata["created"] == "2026-01-05"
    assert memory.name == "yes"
    assert memory.metadata["port"] == 12


# -- byte-exact round trips ---------------------------------------------------------------

_yaml_lines = st.one_of(
    st.sampled_from(
        [
            "name: x",
            "name: 'quoted'",
            'description: "double \\"quoted\\""',
            "description: use case: foo",
            "type: feedback",
            "metadata:",
            "  type: project",
            "# a comment",
            "",
            "created: 2026-01-05",
            "tags: [a, b]",
            "- broken",
            "  : nonsense",
            "key: |",
            "  block",
            "\tindented with a tab",
        ]
    ),
    st.text(max_size=30).map(lambda s: s.replace("\n", " ").replace("\r", " ")),
)


@st.composite
def memory_files(draw: st.DrawFn) -> bytes:
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    bom = draw(st.sampled_from(["", "\ufeff"]))
    lines = draw(st.lists(_yaml_lines, max_size=10))
    opening = draw(st.sampled_from(["---", "--- ", ""]))
    closing = draw(st.sampled_from(["---", "---  ", ""]))
    body = draw(st.text(max_size=80))
    head = ""
    if opening:
        head = opening + newline + "".join(line + newline for line in lines) + closing
        head += draw(st.sampled_from(["", newline, newline + newline]))
    return (bom + head + body).encode("utf-8", "surrogatepass")


@given(st.binary())
def test_any_bytes_parse_without_raising_and_render_back(data: bytes) -> None:
    assert MemoryFile.parse("x.md", data).render() == data


@settings(max_examples=300)
@given(memory_files())
def test_any_frontmatter_and_body_render_back_byte_for_byte(data: bytes) -> None:
    memory = MemoryFile.parse("x.md", data)
    assert memory.render() == data
    assert memory.raw == data


# -- creating and replacing -----------------------------------------------------------


def test_create_writes_claude_codes_canonical_layout() -> None:
    memory = MemoryFile.create(
        "feedback_tests.md",
        name="integration-tests-hit-a-real-database",
        description="Integration tests must use a real database, not mocks",
        type="feedback",
        body="Use the real database.\n\n**Why:** mocks hid a broken migration.\n"
        "**How to apply:** start Postgres in the test fixture.",
    )
    assert memory.render() == (
        b"---\n"
        b"name: integration-tests-hit-a-real-database\n"
        b"description: Integration tests must use a real database, not mocks\n"
        b"type: feedback\n"
        b"---\n"
        b"\n"
        b"Use the real database.\n\n**Why:** mocks hid a broken migration.\n"
        b"**How to apply:** start Postgres in the test fixture.\n"
    )
    assert memory.problems == ()


def test_create_quotes_what_yaml_would_misread_and_keeps_extra_keys_last() -> None:
    memory = MemoryFile.create(
        "a.md",
        name="yes",
        description="deploys: never on Friday",
        type="project",
        body="",
        extra={"originSessionId": "1af7fc5e", "created": "2026-12-02"},
    )
    assert memory.render().decode() == (
        "---\nname: 'yes'\ndescription: 'deploys: never on Friday'\ntype: project\n"
        "originSessionId: 1af7fc5e\ncreated: '2026-12-02'\n---\n"
    )
    assert memory.name == "yes"
    assert memory.metadata["created"] == "2026-12-02"


def test_create_refuses_an_unknown_type_or_a_two_line_description() -> None:
    with pytest.raises(ValueError, match="not one of user, feedback, project, reference"):
        MemoryFile.create("a.md", name="a", description="d", type="preference", body="")
    with pytest.raises(ValueError, match="description must be one line"):
        MemoryFile.create("a.md", name="a", description="d\ne", type="user", body="")


def test_replacing_the_body_keeps_the_frontmatter_verbatim() -> None:
    text = (
        "---\r\nname:   'odd quoting'   # why not\r\ndescription: \"d\"\r\n"
        "type: user\r\nzeta: 1\r\nalpha: 2\r\n---\r\n\r\nold body\r\n"
    )
    memory = parse("\ufeff" + text)
    changed = memory.replace(body="new body\nsecond line\n")
    assert changed.render() == ("\ufeff" + text.replace("old body\r\n", "")).encode() + (
        b"new body\r\nsecond line\r\n"
    )
    assert changed.frontmatter_text == memory.frontmatter_text


def test_replacing_a_field_rewrites_only_its_line() -> None:
    memory = MemoryFile.parse("fork-and-local-install.md", sample(AGTERM))
    changed = memory.replace(description="A fork; the daily driver is a local build")
    before = sample(AGTERM).decode().splitlines()
    after = changed.render().decode().splitlines()
    assert [n for n, (a, b) in enumerate(zip(before, after, strict=True)) if a != b] == [2]
    assert after[2] == "description: A fork; the daily driver is a local build"


def test_replacing_the_type_keeps_it_nested_where_it_was() -> None:
    memory = MemoryFile.parse("fork-and-local-install.md", sample(AGTERM))
    changed = memory.replace(type="reference")
    assert changed.type == "reference"
    assert changed.metadata["metadata"] == {"type": "reference"}
    assert "type" not in changed.metadata
    assert changed.render().decode().splitlines()[3:5] == ["metadata:", "  type: reference"]
    assert changed.render().replace(b"type: reference", b"type: project") == sample(AGTERM)


def test_replacing_keeps_unknown_keys_comments_and_their_order() -> None:
    text = (
        "---\n# written by Claude Code\noriginSessionId: 1af7fc5e\nname: n\n"
        "description: d\ntype: user\ncreated: 2026-01-05\ntags:\n  - a\n  - b\n---\nbody\n"
    )
    changed = parse(text).replace(name="renamed", type="reference")
    assert list(changed.metadata) == [
        "originSessionId",
        "name",
        "description",
        "type",
        "created",
        "tags",
    ]
    assert changed.render().decode() == text.replace("name: n", "name: renamed").replace(
        "type: user", "type: reference"
    )


def test_replacing_the_whole_metadata_adds_and_drops_keys_in_place() -> None:
    memory = parse("---\nname: n\ndescription: d\ntype: user\nstale: x\n---\nbody\n")
    changed = memory.replace(
        metadata={"name": "n", "description": "d", "type": "user", "modified": "2026-12-02"}
    )
    assert changed.render().decode() == (
        "---\nname: n\ndescription: d\ntype: user\nmodified: '2026-12-02'\n---\nbody\n"
    )


def test_replacing_fields_of_a_file_without_frontmatter_adds_a_canonical_block() -> None:
    memory = parse("A plain note.\n")
    changed = memory.replace(name="note", description="a plain note", type="reference")
    assert changed.render() == (
        b"---\nname: note\ndescription: a plain note\ntype: reference\n---\n\nA plain note.\n"
    )
    assert changed.problems == ()


def test_replacing_with_the_same_values_returns_the_same_bytes() -> None:
    memory = MemoryFile.parse("user_role.md", sample(FUZZBOX))
    assert memory.replace(name="user-role", type="user").render() == sample(FUZZBOX)


def test_fields_of_a_broken_file_are_not_edited_over_the_damage() -> None:
    memory = parse("---\nname: [unclosed\n  x: y\n---\nbody\n")
    assert memory.problems[0].code is ProblemCode.FRONTMATTER_BROKEN
    with pytest.raises(ValueError, match="frontmatter is broken"):
        memory.replace(type="user")
    # The body can still change; the broken block stays exactly as it was.
    assert memory.replace(body="new\n").render() == b"---\nname: [unclosed\n  x: y\n---\nnew\n"


def test_replace_refuses_an_unknown_type() -> None:
    with pytest.raises(ValueError, match="'preference' is not one of"):
        parse(VALID).replace(type="preference")


def test_replacing_a_field_whose_yaml_is_unusual_falls_back_to_a_clean_block() -> None:
    memory = parse("---\n{name: n, description: d, type: user, extra: 1}\n---\nbody\n")
    changed = memory.replace(description="new")
    assert changed.metadata == {"name": "n", "description": "new", "type": "user", "extra": 1}
    assert changed.render() == (
        b"---\nname: n\ndescription: new\ntype: user\nextra: 1\n---\nbody\n"
    )


def test_a_field_edit_keeps_keys_yaml_reads_as_numbers() -> None:
    memory = parse("---\nname: n\ndescription: d\ntype: user\n1: one\n---\nbody\n")
    assert memory.metadata[1] == "one"
    changed = memory.replace(description="e")
    assert changed.render() == b"---\nname: n\ndescription: e\ntype: user\n1: one\n---\nbody\n"


_keys = st.from_regex(r"[a-z][a-zA-Z0-9_]{0,10}", fullmatch=True).filter(
    lambda k: k not in ("name", "description", "type", "metadata")
)
_values = st.one_of(
    st.text(max_size=20),
    st.integers(),
    st.booleans(),
    st.none(),
    st.lists(st.text(max_size=5), max_size=3),
)


@settings(max_examples=150)
@given(
    st.dictionaries(_keys, _values, max_size=6),
    st.text(max_size=40).map(lambda s: s.replace("\n", " ").replace("\r", " ")),
    st.sampled_from(MEMORY_TYPES),
)
def test_replace_keeps_every_unknown_key_and_its_order(
    extra: dict[str, object], description: str, kind: str
) -> None:
    memory = MemoryFile.create(
        "x.md", name="x", description="before", type="user", body="b\n", extra=extra
    )
    changed = memory.replace(description=description, type=kind)
    assert changed.description == description
    assert changed.type == kind
    assert list(changed.metadata) == list(memory.metadata)
    assert {k: changed.metadata[k] for k in extra} == {k: memory.metadata[k] for k in extra}
    assert changed.body == memory.body


def test_an_edited_memory_reads_its_new_fields_after_the_old_ones_were_read() -> None:
    text = "---\nname: a\ndescription: old\nmetadata:\n  type: user\n---\n\nBody.\n"
    memory = MemoryFile.parse("user_a.md", text.encode("utf-8"))
    fields = (memory.name, memory.description, memory.type, memory.memory_type)
    assert fields == ("a", "old", "user", "user")

    changed = memory.replace(name="b", description="new", type="project")

    assert (changed.name, changed.description, changed.type, changed.memory_type) == (
        "b",
        "new",
        "project",
        "project",
    )
    assert (memory.name, memory.description, memory.type) == ("a", "old", "user")
    # Fields worked out once are no part of what the memory is.
    assert memory == MemoryFile.parse("user_a.md", text.encode("utf-8"))
