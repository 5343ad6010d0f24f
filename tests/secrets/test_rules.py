"""The vendored gitleaks rule set: provenance, translation to Python, what is kept and dropped."""

from __future__ import annotations

import importlib.resources
import re
import tomllib
import warnings

import pytest

from memsync.secrets import DROPPED_RULES, load_rules, scan_text
from memsync.secrets.rules import RuleError, compile_go_regex, parse_rules, translate_go_regex

UPSTREAM_COMMIT = "009e025ad4106ab333aa0b9dc4f2a884390d134c"


def vendored_text() -> str:
    return importlib.resources.files("memsync.secrets").joinpath("gitleaks.toml").read_text()


def test_it_ships_the_gitleaks_file_with_its_license_and_upstream_commit() -> None:
    text = vendored_text()
    header = text[: text.index("title = ")]
    assert "MIT License" in header
    assert "Copyright (c) 2019 Zachary Rice" in header
    assert "github.com/gitleaks/gitleaks" in header
    assert UPSTREAM_COMMIT in header
    assert load_rules().commit == UPSTREAM_COMMIT


def test_it_accounts_for_every_upstream_rule_as_kept_or_dropped_with_a_reason() -> None:
    upstream = {rule["id"] for rule in tomllib.loads(vendored_text())["rules"]}
    rules = load_rules()
    kept = {rule.id for rule in rules.rules}
    assert len(upstream) == 218
    assert kept | set(rules.dropped) == upstream
    assert not kept & set(rules.dropped)
    # Nothing is dropped by accident: only the rules memsync chose to drop, each with a reason.
    assert dict(rules.dropped) == dict(DROPPED_RULES)
    assert all(len(reason) > 40 for reason in rules.dropped.values())


def test_every_kept_rule_compiles_in_python_without_warnings() -> None:
    with warnings.catch_warnings():
        # A FutureWarning ("possible nested set") would mean Python reads a class
        # differently from Go; fail on it rather than scan with a wrong pattern.
        warnings.simplefilter("error")
        rules = parse_rules(vendored_text())
    assert len(rules.rules) == 217
    for rule in rules.rules:
        assert (rule.regex is not None) or (rule.path is not None), rule.id
        if rule.regex is not None:
            assert rule.regex.flags & re.ASCII, rule.id


def test_the_dropped_database_password_rule_would_refuse_ordinary_prose() -> None:
    prose = "Print the pwd, then cd into the memory directory.\n"
    every_rule = parse_rules(vendored_text(), dropped={})
    assert "database-password" in {rule.id for rule in every_rule.rules}
    rule = every_rule.rule("database-password")
    assert rule.regex is not None and rule.regex.search(prose)
    assert scan_text("notes/shell.md", prose) == []


def test_it_keeps_a_mid_pattern_case_flag_to_the_end_of_its_group() -> None:
    # Go: `p8e-(?i)[a-z]` is case-sensitive before the flag, insensitive after it.
    pattern = compile_go_regex(r"\b(p8e-(?i)[a-z0-9]{4})x")
    assert pattern.search("p8e-ABCDx")
    assert not pattern.search("P8E-abcdx")
    # ... and the flag does not leak out of the group.
    assert not pattern.search("p8e-abcdX")


def test_it_carries_a_mid_pattern_flag_across_alternatives_of_its_group() -> None:
    pattern = compile_go_regex(r"(?:ab(?i)cd|ef)Z")
    assert translate_go_regex(r"(?:ab(?i)cd|ef)Z") == r"(?:ab(?i:cd)|(?i:ef))Z"
    assert pattern.fullmatch("abCDZ")
    assert pattern.fullmatch("EFZ")
    assert not pattern.fullmatch("ABcdZ")
    assert not pattern.fullmatch("efz")


def test_it_translates_end_of_text_and_keeps_literal_brackets_in_classes() -> None:
    end = compile_go_regex(r"key\z")
    assert end.search("the key")
    # Go's \z is the very end of the text, not before a final line break as `$` is.
    assert not end.search("the key\n")
    bracket = compile_go_regex(r"x:\[[^]]+]")
    assert bracket.fullmatch("x:[abc]")


def test_it_reads_word_classes_the_way_go_does_ascii_only() -> None:
    # Go's \w is [0-9A-Za-z_]: a Chinese sentence must not run into an identifier.
    pattern = compile_go_regex(r"[\w.-]{0,50}?token\b")
    found = pattern.search("访问令牌token")
    assert found is not None and found.group(0) == "token"


def test_it_refuses_flags_python_cannot_express() -> None:
    with pytest.raises(RuleError):
        translate_go_regex(r"a(?U)b+")


def test_a_rule_that_stops_compiling_is_dropped_with_the_reason() -> None:
    text = vendored_text().replace(
        "regex = '''ghp_[0-9a-zA-Z]{36}'''", "regex = '''ghp_[0-9a-zA-Z]{36}(?U)'''"
    )
    rules = parse_rules(text)
    assert "github-pat" not in {rule.id for rule in rules.rules}
    assert "does not translate to Python re" in rules.dropped["github-pat"]


def test_it_loads_the_rules_once_per_process() -> None:
    assert load_rules() is load_rules()


def test_keyword_runs_find_exactly_the_keywords_a_substring_test_finds() -> None:
    rules = load_rules()
    text = (
        "Slack webhooks post to #deploys; the heroku-app and xoxb-like ids are fine. "
        '<add key="x"> sk_test placeholder, akia? no. 访问 jira-123 hooks.slack.com'
    ).lower()
    expected = {k for rule in rules.rules for k in rule.keywords if k in text}
    assert rules.keywords_in(text) == expected
    assert {"hooks.slack.com", "<add key=", "jira", "sk_test", "xoxb"} <= expected
