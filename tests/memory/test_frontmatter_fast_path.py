"""The plain-line fast path reads frontmatter exactly as the YAML parser does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memsync.memory.frontmatter import _plain_mapping, _yaml_mapping, load_mapping

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
