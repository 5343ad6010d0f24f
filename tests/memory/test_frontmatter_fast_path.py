"""The plain-line fast path reads frontmatter exactly as the YAML parser does, and the
block is split where a line-by-line reading splits it."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from memsync.memory.frontmatter import (
    _OPENING,
    FrontmatterBlock,
    UnterminatedBlock,
    _plain_dump,
    _plain_mapping,
    _yaml_dump,
    _yaml_mapping,
    load_mapping,
    split_frontmatter,
)

keys = st.from_regex(r"[A-Za-z_][A-Za-z0-9_-]{0,12}", fullmatch=True)
values = (
    st.text(
        alphabet=st.characters(
            blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\x85"
        ),
        min_size=1,
        max_size=40,
    )
    .map(str.strip)
    .filter(bool)
)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(keys, values), min_size=1, max_size=6))
def test_it_agrees_with_yaml_whenever_it_answers(pairs):
    text = "".join(f"{key}: {value}\n" for key, value in pairs)

    fast = _plain_mapping(text)

    if fast is not None:
        assert (fast, None) == _yaml_mapping(text)


entries = st.tuples(keys, st.one_of(values, values.map(lambda value: f"'{value}'")))
lines = st.one_of(
    entries.map(lambda entry: f"{entry[0]}: {entry[1]}"),
    st.tuples(keys, st.sampled_from(["  ", "    ", " "]), st.lists(entries, max_size=3)).map(
        lambda nest: f"{nest[0]}:\n" + "".join(f"{nest[1]}{k}: {v}\n" for k, v in nest[2])
    ),
    st.sampled_from(["", "  ", "   x: y", "\tx: y", "x:", "x: ''", "x: 'it''s'", "x: 'a' # b"]),
)


@settings(max_examples=1000, deadline=None)
@given(st.lists(lines, min_size=1, max_size=5))
def test_it_agrees_with_yaml_on_nested_and_quoted_values_whenever_it_answers(block):
    text = "\n".join(block) + "\n"

    fast = _plain_mapping(text)

    if fast is not None:
        assert (fast, None) == _yaml_mapping(text)


def test_it_reads_a_new_memorys_nested_block_without_yaml():
    text = (
        "name: ledger\ndescription: Deploys at noon\nmetadata:\n  node_type: memory\n"
        "  type: project\n  modified: '2026-01-05'\n"
    )

    assert _plain_mapping(text) == {
        "name": "ledger",
        "description": "Deploys at noon",
        "metadata": {"node_type": "memory", "type": "project", "modified": "2026-01-05"},
    }


def test_it_reads_the_usual_claude_code_block_without_yaml():
    text = "name: user-role\ndescription: Doug teaches Fuzzbox Physics, CSCM 373-01\ntype: user\n"

    assert _plain_mapping(text) == {
        "name": "user-role",
        "description": "Doug teaches Fuzzbox Physics, CSCM 373-01",
        "type": "user",
    }


def test_it_leaves_anything_unusual_to_the_yaml_parser():
    for text in (
        "metadata:\n  type:\n    kind: project\n",
        "metadata:\n",
        "name: 'it''s'\n",
        "count: 12\n",
        "flag: true\n",
        "name: a # comment\n",
        "name: x\nname: y\n",
        "key2: use case: foo\n",
        "description: a: b # c\n",
    ):
        assert _plain_mapping(text) is None, text
    assert load_mapping("description: use case: foo\n")[0] == {"description": "use case: foo"}


def test_it_reads_a_value_with_a_colon_as_claude_codes_rescue_does():
    text = "name: deploys\ndescription: Deploys: never on a Friday\ntype: feedback\n"

    assert _plain_mapping(text) == _yaml_mapping(text)[0]
    assert _plain_mapping(text)["description"] == "Deploys: never on a Friday"


def test_every_value_yaml_reads_as_a_number_bool_or_null_goes_to_yaml():
    for value in ("~", "null", "NULL", "False", "TRUE", "12", "-3", "+0", "0o17", "0x1F"):
        assert _plain_mapping(f"x: {value}\n") is None, value
    for value in ("1.5", ".5", "-.inf", ".NaN", "1e5", "-1.5E+3", "7."):
        assert _plain_mapping(f"x: {value}\n") is None, value
    for value in ("no", "yes", "nothing", "12 monkeys", "1.2.3", "trueish", "Never"):
        assert _plain_mapping(f"x: {value}\n") == {"x": value}, value


_CLOSING = re.compile(r"^---[ \t]*$")


def _split_line_by_line(text: str) -> FrontmatterBlock | UnterminatedBlock | None:
    """`split_frontmatter` as it was written first: every line tested in turn."""
    opening = _OPENING.match(text)
    if opening is None:
        return None
    head = opening.group(0)
    if not head.endswith("\n"):
        return UnterminatedBlock()
    position = len(head)
    while position < len(text):
        end = text.find("\n", position)
        line_end = len(text) if end == -1 else end + 1
        if _CLOSING.match(text[position:line_end].rstrip("\n").rstrip("\r")):
            rest = text[line_end:]
            gap = next((blank for blank in ("\r\n", "\n") if rest.startswith(blank)), "")
            return FrontmatterBlock(
                opening=head,
                yaml_text=text[len(head) : position],
                closing=text[position:line_end],
                gap=gap,
                body=rest[len(gap) :],
                newline="\r\n" if head.endswith("\r\n") else "\n",
            )
        position = line_end
    return UnterminatedBlock()


pieces = st.sampled_from(["---", "-", "--", " ", "\t", "\r", "\n", "\r\n", "a: b", "x", ":"])


@settings(max_examples=2000, deadline=None)
@given(st.sampled_from(["---\n", "---\r\n", "--- \n", ""]), st.lists(pieces, max_size=14))
def test_the_closing_line_is_found_where_a_line_by_line_reading_finds_it(opening, parts):
    text = opening + "".join(parts)

    assert split_frontmatter(text) == _split_line_by_line(text)


# -- writing ----------------------------------------------------------------------

# Mostly text the fast path writes, with every character that decides quoting drawn
# often enough to reach it at each position.
plain = st.text(st.sampled_from("abcdefXYZ  中—é,()[]{}?!&*%@`|>'\"-:#"), min_size=1, max_size=20)
written = st.one_of(
    st.sampled_from(["yes", "No", "null", "on", "OFF", "True", "~", "1", "x", "2026-01-05"]),
    st.dates().map(str),
    st.from_regex(r"[0-9]{4}-[0-9]{1,2}-[0-9]{2}.?", fullmatch=True),
    st.uuids().map(str),
    st.from_regex(r"[0-9][0-9_:.xbeE+-]{0,8}[0-9a-z]?", fullmatch=True),
    st.datetimes().map(str),
    st.floats().map(str),
    plain,
    plain,
    st.text(
        alphabet=st.one_of(
            st.sampled_from(
                "abcdefXYZ  中—é" * 4 + " :#-?,[]{}&*!|>'\"%@`+.0~<=\t\n\x85\u2028\ufeff"
            ),
            st.characters(whitelist_categories=("L", "N", "P", "S", "Zs")),
            st.characters(blacklist_categories=("Cs",)),
        ),
        max_size=20,
    ),
)
fields = st.dictionaries(
    keys,
    st.one_of(written, st.dictionaries(st.one_of(keys, written), written, min_size=1, max_size=2)),
    max_size=3,
)


def _assert_written_as_the_emitter_writes(mapping):
    fast = _plain_dump(mapping)

    if fast is not None:
        emitted = _yaml_dump(mapping)
        assert "".join(f"{line}\n" for line in fast) == ("" if emitted == "{}\n" else emitted)


@settings(max_examples=2000, deadline=None)
@given(fields)
def test_it_writes_what_the_yaml_emitter_writes_whenever_it_answers(mapping):
    _assert_written_as_the_emitter_writes(mapping)


def test_it_writes_a_new_memorys_fields_without_yaml():
    mapping = {
        "name": "ledger-service-deploys",
        "description": "The ledger service deploys from the release branch — at noon (UTC), 中文",
        "metadata": {"node_type": "memory", "type": "project", "modified": "2026-01-05"},
    }

    assert _plain_dump(mapping) == [
        "name: ledger-service-deploys",
        "description: The ledger service deploys from the release branch — at noon (UTC), 中文",
        "metadata:",
        "  node_type: memory",
        "  type: project",
        "  modified: '2026-01-05'",
    ]


def test_it_leaves_anything_the_emitter_might_quote_to_the_emitter():
    for value in (
        "yes",
        "No",
        "OFF",
        "null",
        "~",
        "-x",
        "#x",
        "-a: b",
        " a",
        "a ",
        "'a'",
        "a\tb",
        "a\nb",
        "a\x85b",
        "",
        "*a",
        "=",
        "<<",
    ):
        assert _plain_dump({"description": value}) is None, value
    assert _plain_dump({"yes": "a"}) is None
    assert _plain_dump({"metadata": {}}) is None
    assert _plain_dump({"count": 3}) is None


def test_it_quotes_what_reads_as_a_number_or_a_date_as_the_emitter_does():
    session = "0b7c6f1e-2d4a-4b8e-9c3f-5a6e7d8f9a0b"
    mapping = {"a": "12", "b": "2026-01-05", "c": "1:20", "d": "0x1F", "e": session, "f": "3 pm"}

    assert _plain_dump(mapping) == [
        "a: '12'", "b: '2026-01-05'", "c: '1:20'", "d: '0x1F'", f"e: {session}", "f: 3 pm",
    ]  # fmt: skip
    assert "".join(f"{line}\n" for line in _plain_dump(mapping)) == _yaml_dump(mapping)


tricky = st.text(
    alphabet=st.sampled_from(
        [*"aAyYnNoOtTfF019 .-_:#'\"!&*?,[]{}|>%@`~=<\t\n", "é", "中", "\x85", "\u2028"]
    ),
    min_size=0,
    max_size=14,
)
dumped_keys = st.one_of(
    keys, tricky, st.integers(118, 130).map(lambda n: "k" * n), st.integers(), st.booleans()
)


@settings(max_examples=1000, deadline=None)
@given(st.dictionaries(dumped_keys, st.one_of(tricky, values, st.integers()), max_size=4))
def test_it_writes_what_yaml_writes_for_any_key_whenever_it_answers(mapping):
    _assert_written_as_the_emitter_writes(mapping)


def test_it_writes_the_usual_claude_code_block_without_yaml():
    mapping = {
        "name": "user-role",
        "description": "Doug teaches Fuzzbox Physics, CSCM 373-01 (fall term); see docs/x.md",
        "type": "user",
    }

    assert "".join(f"{line}\n" for line in _plain_dump(mapping)) == _yaml_dump(mapping)
    for unusual in ("yes", " lead", "-x", "x\ny"):
        assert _plain_dump({"description": unusual}) is None, unusual


def test_it_quotes_a_value_with_a_colon_or_a_comment_mark_as_the_emitter_does():
    mapping = {"a": "Dana, SRE: how to work with them", "b": "a #b", "c": "ends:", "d": "it's: x"}

    assert _plain_dump(mapping) == [
        "a: 'Dana, SRE: how to work with them'", "b: 'a #b'", "c: 'ends:'", "d: 'it''s: x'",
    ]  # fmt: skip
    assert "".join(f"{line}\n" for line in _plain_dump(mapping)) == _yaml_dump(mapping)
