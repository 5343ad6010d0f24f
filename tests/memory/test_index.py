"""MEMORY.md: entries, headings, limits and edits that keep every other line (SPEC F3)."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from memsync.memory import (
    MAX_ENTRY_CHARS,
    MAX_INDEX_LINES,
    MAX_INDEX_UNITS,
    MemoryIndex,
    ProblemCode,
    Severity,
    format_entry,
    index_fits,
    utf16_len,
)
from tests.memory.real_files import sample

DISPATCH = "mediajunkie__dispatch__memory__MEMORY.md"
FUZZBOX = "douglasgoodwin__FuzzboxPhysics__memory__MEMORY.md"
AGTERM = "AnotherSava__agterm__.claude__memory__MEMORY.md"


def codes(index: MemoryIndex) -> list[tuple[ProblemCode, int | None]]:
    return [(problem.code, problem.line) for problem in index.problems()]


# -- reading real indexes ----------------------------------------------------------


def test_it_reads_every_entry_of_a_real_grouped_index() -> None:
    index = MemoryIndex.parse_bytes(sample(DISPATCH))
    assert [entry.target for entry in index.entries] == [
        "user_role.md",
        "project_piper_morgan.md",
        "project_klatch.md",
        "project_va_decision_reviews.md",
        "project_radio_free_airlift.md",
        "workflow_omnibus_logs.md",
        "feedback_omnibus_context_gap.md",
        "dispatch-activity-log.md",
        "reference_klatch_five_layer.md",
    ]
    feedback = index.entry_for("feedback_omnibus_context_gap.md")
    assert feedback is not None
    assert feedback.line == 16
    assert feedback.title == "feedback_omnibus_context_gap.md"
    assert feedback.hook.startswith("Why automated omnibus synthesis makes factual errors")
    assert index.heading_for(feedback) == "## Feedback"


def test_real_indexes_render_back_byte_for_byte() -> None:
    for name in (DISPATCH, FUZZBOX, AGTERM):
        data = sample(name)
        assert MemoryIndex.parse_bytes(data).render_bytes() == data
        assert MemoryIndex.parse(data.decode()).render() == data.decode()


def test_real_indexes_have_no_problem_as_claude_code_counts() -> None:
    # Their longest entries (153–163 characters) are under Claude Code's "~200 chars".
    for name in (DISPATCH, FUZZBOX, AGTERM):
        index = MemoryIndex.parse_bytes(sample(name))
        assert index.problems() == []
    assert max(len(line) for line in MemoryIndex.parse_bytes(sample(DISPATCH)).lines) == 163


def test_an_index_without_headings_or_final_newline_still_has_its_entry() -> None:
    index = MemoryIndex.parse_bytes(sample(AGTERM))
    (entry,) = index.entries
    assert entry.title == "Fork and local install"
    assert entry.target == "fork-and-local-install.md"
    assert entry.hook.startswith("remotes are inverted")
    assert index.heading_for(entry) is None


def test_it_accepts_the_bullets_separators_and_indentation_people_write() -> None:
    text = (
        "# Memory\n"
        "- [A](a.md) — em dash\n"
        "* [B](b.md) – en dash\n"
        "+ [C](c.md) - hyphen\n"
        "  - [D](d.md): colon\n"
        "- [E](e.md) no separator\n"
        "- [F](f.md)\n"
        "1. [G](./g.md) — numbered\n"
        "- **[H](h.md)** — bold\n"
        "- [I [draft]](<my notes.md>) — spaces in the name\n"
        "- see [J](j.md) — not an entry: the link is not first\n"
    )
    index = MemoryIndex.parse(text)
    got = [(e.bullet, e.indent, e.title, e.target, e.separator, e.hook) for e in index.entries]
    assert got == [
        ("-", "", "A", "a.md", " — ", "em dash"),
        ("*", "", "B", "b.md", " – ", "en dash"),
        ("+", "", "C", "c.md", " - ", "hyphen"),
        ("-", "  ", "D", "d.md", ": ", "colon"),
        ("-", "", "E", "e.md", "", "no separator"),
        ("-", "", "F", "f.md", "", ""),
        ("1.", "", "G", "./g.md", " — ", "numbered"),
        ("-", "", "H", "h.md", " — ", "bold"),
        ("-", "", "I [draft]", "my notes.md", " — ", "spaces in the name"),
    ]
    assert [e.file for e in index.entries][-3:] == ["g.md", "h.md", "my notes.md"]
    assert [e.raw for e in index.entries][3] == "  - [D](d.md): colon"
    assert index.render() == text


def test_links_inside_a_code_block_are_not_entries() -> None:
    index = MemoryIndex.parse("```\n- [A](a.md) — example\n# not a heading\n```\n- [B](b.md)\n")
    assert [entry.target for entry in index.entries] == ["b.md"]
    assert index.heading_for(index.entries[0]) is None


def test_entry_for_matches_a_target_however_it_is_spelled() -> None:
    index = MemoryIndex.parse("- [A](./a.md#why) — x\n- [B](my%20b.md)\n- [W](https://x.io/a.md)\n")
    assert index.entry_for("a.md") is not None
    assert index.entry_for("my b.md") is not None
    assert index.entry_for("https://x.io/a.md") is not None
    assert index.entry_for("c.md") is None
    assert index.linked_files() == {"a.md", "my b.md"}


# -- round trips -------------------------------------------------------------------

_index_lines = st.one_of(
    st.sampled_from(["", "# Memory Index", "## Feedback", "   ", "```", "---", "text"]),
    st.builds(
        lambda bullet, title, target, sep, hook: f"{bullet} [{title}]({target}){sep}{hook}",
        st.sampled_from(["-", "*", "+", "  -", "1."]),
        st.text(alphabet=string.ascii_letters + " _-é—", max_size=12),
        st.sampled_from(["a.md", "b.md", "./c.md", "<d e.md>", "https://x.io"]),
        st.sampled_from(["", " — ", " – ", " - ", ": ", " "]),
        st.text(max_size=40).map(lambda s: s.replace("\n", " ").replace("\r", " ")),
    ),
    st.text(max_size=60).map(lambda s: s.replace("\n", "").replace("\r", "")),
)


@st.composite
def index_texts(draw: st.DrawFn) -> str:
    lines = draw(st.lists(_index_lines, max_size=25))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    final = draw(st.sampled_from(["", newline]))
    bom = draw(st.sampled_from(["", "\ufeff"]))
    return bom + newline.join(lines) + (final if lines else "")


@given(st.text())
def test_any_text_renders_back_unchanged(text: str) -> None:
    assert MemoryIndex.parse(text).render() == text


@given(st.binary())
def test_any_bytes_render_back_unchanged(data: bytes) -> None:
    assert MemoryIndex.parse_bytes(data).render_bytes() == data


@given(index_texts())
def test_index_like_text_renders_back_unchanged(text: str) -> None:
    index = MemoryIndex.parse(text)
    assert index.render() == text
    assert index.problems() is not None


@settings(max_examples=200)
@given(index_texts(), st.data())
def test_removing_an_entry_keeps_every_other_line_in_order(text: str, data: st.DataObject) -> None:
    index = MemoryIndex.parse(text)
    if not index.entries:
        return
    entry = data.draw(st.sampled_from(index.entries))
    removed = {e.line for e in index.entries if e.file == entry.file and e.target == entry.target}
    removed |= {e.line for e in index.entries if entry.file and e.file == entry.file}
    after = index.without_entry(entry.target)
    expected = [line for n, line in enumerate(index.lines, start=1) if n not in removed]
    assert after.lines == expected
    assert after.entry_for(entry.target) is None
    if expected and expected[-1]:
        assert after.render().endswith("\n") == index.render().endswith("\n")


@settings(max_examples=200)
@given(index_texts())
def test_adding_an_entry_keeps_every_other_line_in_order(text: str) -> None:
    index = MemoryIndex.parse(text)
    after = index.with_entry("New memory", "zz_new.md", "why it matters")
    added = [line for line in after.lines if line not in index.lines]
    assert added == ["- [New memory](zz_new.md) — why it matters"]
    remaining = list(after.lines)
    remaining.remove(added[0])
    assert remaining == index.lines
    assert after.render().endswith("\n") == (index.render().endswith("\n") or not index.lines)


# -- edits ---------------------------------------------------------------------------


def test_with_entry_updates_an_entry_where_it_stands_in_its_own_style() -> None:
    text = "# Memory\n\n## Users\n  * [Old](user_role.md): old hook\n\n## Other\n- [X](x.md)\n"
    index = MemoryIndex.parse(text).with_entry("Role", "./user_role.md", "new hook")
    assert index.render() == (
        "# Memory\n\n## Users\n  * [Role](user_role.md): new hook\n\n## Other\n- [X](x.md)\n"
    )


def test_with_entry_changing_nothing_returns_the_same_text() -> None:
    text = "- [A](a.md) —   spaced   hook  \n"
    index = MemoryIndex.parse(text)
    assert index.with_entry("A", "a.md", "spaced   hook").render() == text


def test_with_entry_appends_under_the_named_heading_after_its_last_entry() -> None:
    index = MemoryIndex.parse_bytes(sample(DISPATCH))
    after = index.with_entry(
        "Omnibus cadence", "feedback_cadence.md", "daily, not hourly", "Feedback"
    )
    lines = after.lines
    at = lines.index("- [Omnibus cadence](feedback_cadence.md) — daily, not hourly")
    assert lines[at - 2] == "## Feedback"
    assert lines[at - 1].startswith("- [feedback_omnibus_context_gap.md]")
    assert lines[at + 1] == ""
    assert lines[at + 2] == "## Activity Log"
    added = after.entry_for("feedback_cadence.md")
    assert added is not None
    assert after.heading_for(added) == "## Feedback"
    assert after.without_entry("feedback_cadence.md").render_bytes() == sample(DISPATCH)


def test_with_entry_under_a_missing_heading_creates_it_at_the_end() -> None:
    index = MemoryIndex.parse("# Memory Index\n\n## User\n- [A](a.md) — a\n")
    after = index.with_entry(
        "Deploys", "reference_deploys.md", "where the runbooks live", "References"
    )
    assert after.render() == (
        "# Memory Index\n\n## User\n- [A](a.md) — a\n\n"
        "## References\n- [Deploys](reference_deploys.md) — where the runbooks live\n"
    )


def test_with_entry_keeps_crlf_and_a_missing_final_newline() -> None:
    index = MemoryIndex.parse("# M\r\n- [A](a.md) — a")
    assert (
        index.with_entry("B", "b.md", "b").render() == "# M\r\n- [A](a.md) — a\r\n- [B](b.md) — b"
    )
    assert index.without_entry("a.md").render() == "# M"


def test_an_empty_index_gets_its_first_entry_with_a_final_newline() -> None:
    assert MemoryIndex.parse("").with_entry("A", "a.md", "a").render() == "- [A](a.md) — a\n"


def test_format_entry_writes_claude_codes_canonical_line() -> None:
    assert format_entry("User role", "user_role.md", "senior Go dev") == (
        "- [User role](user_role.md) — senior Go dev"
    )
    assert format_entry("A", "a.md") == "- [A](a.md)"
    assert format_entry("x [y]", "my notes.md", "z") == r"- [x \[y\]](<my notes.md>) — z"


def test_format_entry_refuses_a_line_break() -> None:
    for bad in ({"hook": "two\nlines"}, {"title": "a\rb"}):
        arguments = {"title": "t", "target": "t.md", "hook": "h"} | bad
        try:
            format_entry(**arguments)
        except ValueError as error:
            assert "line break" in str(error)
        else:
            raise AssertionError(f"accepted {bad}")


# -- limits and problems --------------------------------------------------------------


def long_index(lines: int) -> str:
    return "".join(f"- [Memory {n}](memory_{n}.md) — hook {n}\n" for n in range(1, lines + 1))


def test_a_250_line_index_is_flagged_at_line_201_and_the_rest_is_invisible() -> None:
    index = MemoryIndex.parse(long_index(250))
    (problem,) = index.problems()
    assert problem.code is ProblemCode.INDEX_TOO_MANY_LINES
    assert problem.line == MAX_INDEX_LINES + 1 == 201
    assert problem.severity is Severity.ERROR
    assert problem.message == (
        "line 201: MEMORY.md has 250 lines; an agent loads only the first 200, "
        "so lines 201–250 are never seen"
    )
    assert index.invisible_lines() == range(201, 251)
    assert index.visible() == long_index(200)


def test_a_200_line_index_is_within_limits() -> None:
    index = MemoryIndex.parse(long_index(200))
    assert index.problems() == []
    assert index.invisible_lines() == range(201, 201)
    assert index.visible() == index.render()


def test_trailing_blank_lines_past_200_are_not_a_breach() -> None:
    assert MemoryIndex.parse(long_index(200) + "\n\n\n").problems() == []


def test_an_index_over_25000_utf16_units_is_flagged_where_the_limit_is_crossed() -> None:
    # 100 lines, so only the size limit is at stake. An emoji is one character to
    # Python, four bytes in UTF-8 and two UTF-16 units, which is what Claude Code counts.
    line = "- [M](m{n:03}.md) — " + "\U0001f600" * 150 + "\n"
    text = "".join(line.format(n=n) for n in range(1, 101))
    size = utf16_len(text)
    assert size > MAX_INDEX_UNITS
    line_units = utf16_len(line.format(n=1))
    crossing = MAX_INDEX_UNITS // line_units + 1
    index = MemoryIndex.parse(text)
    big = [p for p in index.problems() if p.code is ProblemCode.INDEX_TOO_LARGE]
    assert [(p.line, p.severity) for p in big] == [(crossing, Severity.ERROR)]
    assert big[0].message == (
        f"line {crossing}: MEMORY.md is {size:,} characters (UTF-16 units, as Claude Code "
        "counts), over the 25,000 limit; an agent sees nothing from this line on"
    )
    assert index.invisible_lines() == range(crossing, 101)
    assert utf16_len(index.visible()) <= MAX_INDEX_UNITS
    assert index.visible().endswith("\n")
    assert index.visible() == "".join(text.splitlines(keepends=True)[: crossing - 1])


def test_180_lines_of_chinese_over_25000_bytes_load_whole_as_in_claude_code() -> None:
    # Measured: 180 such lines (39,204 UTF-8 bytes, 15,804 UTF-16 units) load with no
    # warning in Claude Code 2.1.332; counting bytes would call lines 116-180 invisible.
    hook = "发布前必须通过全部集成测试并由值班同学确认" * 3
    line = "- [规则{n:03}](rule-{n:03}.md) — " + hook + "\n"
    text = "".join(line.format(n=n) for n in range(180))
    assert len(text.encode()) > 25_000
    index = MemoryIndex.parse(text)
    assert index.problems() == []
    assert index.invisible_lines() == range(181, 181)
    assert index.unit_count == utf16_len(text) < MAX_INDEX_UNITS
    assert index_fits(text)


def test_utf16_len_counts_what_javascript_counts() -> None:
    assert utf16_len("abc") == 3
    assert utf16_len("周五") == 2
    assert utf16_len("\U0001f600") == 2
    assert utf16_len("a\udc80b") == 3  # an undecodable byte carried as a lone surrogate


def test_a_line_ending_exactly_at_25000_units_is_still_visible() -> None:
    filler = "x" * (MAX_INDEX_UNITS - 1)
    index = MemoryIndex.parse(f"#{filler}\nmore\n")
    assert index.invisible_lines() == range(2, 3)
    assert [p.line for p in index.problems()] == [2]


def test_an_over_long_entry_is_a_warning_on_its_line() -> None:
    text = "# Memory\n- [Short](s.md) — fine\n- [Long](l.md) — " + "x" * 190 + "\n"
    (problem,) = MemoryIndex.parse(text).problems()
    assert (problem.code, problem.line, problem.severity) == (
        ProblemCode.INDEX_ENTRY_TOO_LONG,
        3,
        Severity.WARNING,
    )
    assert len(MemoryIndex.parse(text).lines[2]) > MAX_ENTRY_CHARS


def test_an_entry_of_exactly_200_characters_is_fine() -> None:
    entry = "- [A](a.md) — "
    entry += "x" * (MAX_ENTRY_CHARS - len(entry))
    assert MemoryIndex.parse(entry + "\n").problems() == []


def test_frontmatter_in_the_index_is_an_error_on_line_1() -> None:
    index = MemoryIndex.parse("---\nname: index\n---\n- [A](a.md)\n")
    assert codes(index) == [(ProblemCode.INDEX_FRONTMATTER, 1)]
    assert [e.target for e in index.entries] == ["a.md"]


def test_a_horizontal_rule_is_not_frontmatter() -> None:
    assert MemoryIndex.parse("---\n- [A](a.md)\n").problems() == []


def test_two_entries_for_one_file_are_a_warning_on_the_second() -> None:
    index = MemoryIndex.parse("- [A](a.md) — one\n## X\n- [A again](./a.md) — two\n")
    (problem,) = index.problems()
    assert (problem.code, problem.line, problem.severity) == (
        ProblemCode.INDEX_DUPLICATE,
        3,
        Severity.WARNING,
    )
    assert problem.message == "line 3: second entry for a.md (the first is on line 1)"
    assert index.without_entry("a.md").lines == ["## X"]


def test_an_index_that_is_not_utf8_is_reported_and_kept() -> None:
    data = "# Memory\n- [Café](cafe.md) - ok\n".encode("latin-1")
    index = MemoryIndex.parse_bytes(data)
    assert codes(index) == [(ProblemCode.NOT_UTF8, 2)]
    assert index.render_bytes() == data
    assert [entry.target for entry in index.entries] == ["cafe.md"]


def test_problems_are_json_ready() -> None:
    (problem,) = MemoryIndex.parse("- [A](a.md)\n- [A](a.md)\n").problems(path="team/MEMORY.md")
    assert problem.to_dict() == {
        "code": "index-duplicate",
        "path": "team/MEMORY.md",
        "line": 2,
        "message": "line 2: second entry for a.md (the first is on line 1)",
        "severity": "warning",
    }
    assert str(problem) == (
        "team/MEMORY.md:2: warning: line 2: second entry for a.md (the first is on line 1) "
        "[index-duplicate]"
    )
