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


def test_it_reads_the_usual_claude_code_block_without_yaml():
    text = "name: user-role\ndescription: Doug teaches Fuzzbox Physics, CSCM 373-01\ntype: user\n"

    assert _plain_mapping(text) == {
        "name": "user-role",
        "description": "Doug teaches Fuzzbox Physics, CSCM 373-01",
        "type": "user",
    }


def test_it_leaves_anything_unusual_to_the_yaml_parser():
    for text in (
        "metadata:\n  type: project\n",
        "name: 'quoted'\n",
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
def test_the_plain_writer_writes_what_yaml_writes_whenever_it_answers(mapping):
    fast = _plain_dump(mapping)

    if fast is not None:
        assert fast == _yaml_dump(mapping)


def test_it_writes_the_usual_claude_code_block_without_yaml():
    mapping = {
        "name": "user-role",
        "description": "Doug teaches Fuzzbox Physics, CSCM 373-01 (fall term); see docs/x.md",
        "type": "user",
    }

    assert _plain_dump(mapping) == _yaml_dump(mapping)
    for unusual in ("yes", "12", "2026-01-05", "a: b", "a #b", "ends:", " lead", "-x", "x\ny"):
        assert _plain_dump({"description": unusual}) is None, unusual
