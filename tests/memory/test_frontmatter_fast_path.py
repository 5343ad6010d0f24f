"""The plain-line fast path reads frontmatter exactly as the YAML parser does."""

from __future__ import annotations

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from memsync.memory.frontmatter import _FrontmatterLoader, _plain_mapping, load_mapping

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
        assert fast == yaml.load(text, Loader=_FrontmatterLoader)


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
        "description: use case: foo\n",
    ):
        assert _plain_mapping(text) is None, text
    assert load_mapping("description: use case: foo\n")[0] == {"description": "use case: foo"}
