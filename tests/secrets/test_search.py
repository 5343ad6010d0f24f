"""The linear-time search finds exactly what each untouched gitleaks pattern finds."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memsync.secrets import load_rules, scan_text
from memsync.secrets.rules import Rule
from memsync.secrets.search import (
    GapBranch,
    IdentifierRunBranch,
    PlainBranch,
    Subject,
    keyword_anchors,
)


def _rewritten_rules() -> list[Rule]:
    return [
        rule
        for rule in load_rules().rules
        if rule.regex is not None and any(not isinstance(b, PlainBranch) for b in rule.branches)
    ]


def _first_group(groups: tuple[str | None, ...]) -> str | None:
    return next((g for g in groups if g), None)


def _as_upstream(rule: Rule, text: str) -> list[tuple[int, int, str | None]]:
    assert rule.regex is not None
    return [(m.start(), m.end(), _first_group(m.groups())) for m in rule.regex.finditer(text)]


def _as_searched(rule: Rule, text: str) -> list[tuple[int, int, str | None]]:
    return [(h.start, h.end, _first_group(h.match.groups())) for h in rule.finditer(text)]


def _pieces() -> list[str]:
    keywords = sorted({k for rule in _rewritten_rules() for k in rule.keywords})
    return [
        *keywords,
        *(k.upper() for k in keywords[::3]),
        *(k.capitalize() for k in keywords[1::3]),
        "curl", "curl -s", " -H ", "--header=", " -u ", "--user ", "Authorization: Bearer ",
        "Authorization: Basic ", "X-Api-Key: ", "\"", "'", "`", " ", "  ", "\t", "\n", "\r\n",
        "\n\n", "\\n", "=", ":", " = ", ": ", "=>", ",", ";", ".", "-", "_", "my_", "app.",
        "abc", "0123456789abcdef", "ABCDEFGHIJKLMNOP", "Zq9xW3vB7nM1kL5j", "deadbeef", "x",
        "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6", "user:pa55w0rd", "$TOKEN", "{{ secret }}",
        "ATATT3", "Jira", "CONFLUENCE", "访问", "~",
    ]  # fmt: skip


PIECES = _pieces()
KEYWORDS = sorted({k for rule in _rewritten_rules() for k in rule.keywords})
HEX = "0123456789abcdef"
ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
SECRET_LENGTHS = [10, 14, 15, 16, 17, 18, 20, 22, 24, 25, 26, 30, 32, 37, 40, 43, 45, 50, 64, 73]


@st.composite
def assignments(draw: st.DrawFn) -> str:
    """`<name> <operator> <quoted value>` the way rules expect secrets to be assigned."""
    keyword = draw(st.sampled_from(KEYWORDS))
    keyword = draw(st.sampled_from([keyword, keyword.upper(), keyword.capitalize()]))
    name = draw(st.sampled_from(["", "my_", "app.", "x-", "访问 "])) + keyword
    name += draw(st.sampled_from(["", "_id", "_secret", " key", "-token", ".value"]))
    operator = draw(st.sampled_from(["=", ": ", " = ", "=>", ":=", ",", " ", "||", "\n"]))
    quote = draw(st.sampled_from(["", "'", '"', "`"]))
    alphabet = draw(st.sampled_from([HEX, ALNUM, ALNUM + "_-", HEX.upper() + "-"]))
    # Lengths the rules' secret groups ask for, and their neighbours.
    length = draw(st.sampled_from(SECRET_LENGTHS)) + draw(st.sampled_from([-1, 0, 0, 0, 1]))
    value = draw(st.text(alphabet=alphabet, min_size=length, max_size=length))
    end = draw(st.sampled_from([quote, "\n", ";", "#", ""]))
    return name + operator + quote + value + end


@st.composite
def curl_commands(draw: st.DrawFn) -> str:
    gap = "".join(draw(st.lists(st.sampled_from([" -s x", "\n", " \\\n  ", "\r\n", " a"]))))
    flag = draw(st.sampled_from([" -H ", " --header=", " -u ", " --user "]))
    quote = draw(st.sampled_from(['"', "'", ""]))
    body = draw(
        st.sampled_from(["Authorization: Bearer ", "Authorization: Basic ", "X-Api-Key: ", "u:"])
    )
    value = draw(st.text(alphabet=ALNUM + "=", min_size=2, max_size=30))
    return "curl" + gap + flag + quote + body + value + quote


TEXTS = st.lists(
    st.one_of(assignments(), curl_commands(), st.sampled_from(PIECES)), min_size=1, max_size=25
).map("\n".join)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=60))
def test_it_finds_the_same_matches_in_any_jumble_of_rule_fragments(pieces: list[str]) -> None:
    text = "".join(pieces)
    for rule in _rewritten_rules():
        assert _as_searched(rule, text) == _as_upstream(rule, text), rule.id


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS)
def test_it_finds_the_same_matches_in_assignments_and_curl_commands(text: str) -> None:
    for rule in _rewritten_rules():
        assert _as_searched(rule, text) == _as_upstream(rule, text), rule.id


def test_it_finds_the_same_matches_in_long_generated_memory_text() -> None:
    rows = []
    for n, piece in enumerate(PIECES):
        value = f"{n:04d}Zq9xW3vB7nM1kL5j{n * 7919:x}a8c3"
        rows.append(f"- {piece}_setting = '{value}'\n  {piece}: {value}; x{piece}y={value}")
        rows.append(f'curl -s https://example.com/{n} \\\n  -H "X-Api-Key: {value}"')
    text = "\n".join(rows)
    for rule in _rewritten_rules():
        assert _as_searched(rule, text) == _as_upstream(rule, text), rule.id


def test_each_rule_finds_the_same_assignments_of_its_keywords_at_every_length() -> None:
    hits = 0
    for rule in _rewritten_rules():
        rows = []
        for keyword in rule.keywords or ("token",):
            for length in SECRET_LENGTHS:
                for alphabet in (HEX, ALNUM + "_-", HEX.upper()):
                    value = (alphabet * 8)[3 : 3 + length]
                    rows.append(f"{keyword}_key = '{value}'")
                    rows.append(f"  my.{keyword.upper()}: {value}\n x")
                    rows.append(f"{keyword}=>`{value}`; {keyword} {value}")
            for uuid in (
                "0f8e2a9c-4b1d-4e6f-9a3b-7c5d1e2f3a4b",
                "0F8E2A9C-4B1D-4E6F-9A3B-7C5D1E2F3A4B",
            ):
                rows.append(f"{keyword}_token: {uuid}")
        text = "\n".join(rows)
        expected = _as_upstream(rule, text)
        assert _as_searched(rule, text) == expected, rule.id
        hits += bool(expected)
    assert hits >= 65


def test_most_rules_are_searched_from_their_keyword_and_the_curl_rules_by_their_tail() -> None:
    rewritten = _rewritten_rules()
    identifier = [
        r for r in rewritten if any(isinstance(b, IdentifierRunBranch) for b in r.branches)
    ]
    gap = {r.id for r in rewritten if any(isinstance(b, GapBranch) for b in r.branches)}
    assert len(identifier) >= 90
    assert gap == {"curl-auth-header", "curl-auth-user"}


def test_keyword_anchors_are_the_literal_beginnings_of_the_alternatives() -> None:
    generic = r"(?i)(?:access|auth|(?-i:[Aa]pi|API)|credential|creds|key|passw(?:or)?d|secret)x"
    assert keyword_anchors(generic) == (
        "access", "api", "auth", "credential", "creds", "key", "passw", "secret",
    )  # fmt: skip
    assert keyword_anchors(r"(?i:(?:(?-i:[Mm]eraki|MERAKI))[ \t]") == ("meraki",)
    assert keyword_anchors(r"(?i)(?:linked[_-]?in)") == ("linked",)
    # No anchors where a match could start otherwise: searched as it is.
    assert keyword_anchors(r"(?i)(?:abc)?def") == ()
    assert keyword_anchors(r"(?i)(?:[ab]x|cd)") == ()
    assert keyword_anchors(r"(?i)(?:a.b|c)") == ("a", "c")


def test_text_that_grows_when_lower_cased_is_searched_without_anchors() -> None:
    # "İ" lower-cases to two code points: offsets in the lower-cased text would drift.
    text = "İstanbul İzmir\napi_key = 'Zq9xW3vB7nM1kL5jH2gF'\nİ token: 'a8c3Zq9xW3vB7nM1kL5j'"
    subject = Subject(text)
    assert len(subject.lowered) != len(text)
    assert subject.anchor_positions(("key",)) is None
    rule = load_rules().rule("generic-api-key")
    assert _as_searched(rule, text) == _as_upstream(rule, text)
    assert len(_as_upstream(rule, text)) == 2


def test_a_long_line_of_shell_commands_is_scanned_in_linear_time() -> None:
    # Backtracking from every `curl` to the end of the line took ~40 s for this blob.
    line = "curl -s https://example.com/api/items && " * 6000
    started = time.perf_counter()
    assert scan_text("transcripts/session.jsonl", line) == []
    assert time.perf_counter() - started < 5
