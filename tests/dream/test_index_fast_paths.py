"""The index budget's shortcuts give what parsing gives (issue 14 item 3, issue 15 item
6): each is checked against the parse it stands for, on lines built to hit its edges."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memsync.dream.index_edit import IndexLines, title_after_retarget, with_target
from memsync.memory import MemoryIndex
from memsync.memory.index import entry_titles

# Pieces that decide where a title ends and what a link is: brackets, parentheses,
# angle brackets, backslashes, spaces, a copy of a link inside the title or the hook.
_PIECES = [*"ab []()<>\\*_-—:'\"", "](a.md", "](<a.md>", "[x](a.md)"]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=8).map("".join)
_TARGET = st.sampled_from(["a.md", "<a.md>", "my notes.md", "<my notes.md>", "a(b).md", "a\\b"])
_LINE = st.builds(
    lambda indent, bullet, bold, title, target, hook: (
        f"{indent}{bullet} {bold}[{title}]({target}){bold}{hook}"
    ),
    st.sampled_from(["", "  ", "\t"]),
    st.sampled_from(["-", "*", "+", "1.", "12)"]),
    st.sampled_from(["", "**"]),
    _TEXT,
    _TARGET,
    st.one_of(st.just(""), _TEXT.map(lambda hook: f" — {hook}")),
)
_NEW_TARGET = st.sampled_from(
    ["../a.md", "../b.md", "../my notes.md", "../a(b).md", "../a)b.md", "../a<b>.md", "../a\\"]
)


@settings(max_examples=3000, deadline=None)
@given(_LINE, _NEW_TARGET)
def test_a_title_known_after_a_new_target_is_the_title_the_line_parses_to(line, target):
    entries = MemoryIndex.parse(line + "\n").entries
    if not entries:
        return
    retargeted = with_target(entries[0], target)

    title = title_after_retarget(entries[0], target, retargeted)

    if title is not None:
        assert entry_titles([retargeted]) == [title]


def test_the_title_of_a_plain_entry_is_known_without_parsing():
    for line in ("- [A](a.md) — hook", "  * **[B \\[x\\]](<b.md>)** - hook", "3) [C](c.md)"):
        entry = MemoryIndex.parse(line + "\n").entries[0]

        title = title_after_retarget(entry, "../a.md", with_target(entry, "../a.md"))

        assert title == entry.title
    # A copy of the link in the title: the line must be parsed.
    entry = MemoryIndex.parse("- [see [x](a.md) too](a.md)\n").entries[0]
    assert title_after_retarget(entry, "../a.md", with_target(entry, "../a.md")) is None


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.one_of(_LINE, st.sampled_from(["", "# Memory", "## Projects", "```", "~~~~", "text"])),
        max_size=8,
    ),
    st.booleans(),
)
def test_the_targets_of_an_index_are_those_of_its_parsed_entries(contents, parsed_first):
    lines = IndexLines.parse("".join(f"{content}\n" for content in contents))
    expected = [entry.target for entry in MemoryIndex.parse(lines.render()).entries]
    if parsed_first:
        lines.index()

    assert lines.targets() == expected
