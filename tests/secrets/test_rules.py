"""The rule set: detect-secrets' detectors as installed, two own rules, sound prefilters."""

from __future__ import annotations

import base64
import re
import string

import pytest
from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.ip_public import IPPublicDetector
from detect_secrets.plugins.keyword import KeywordDetector
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memsync.secrets import EXCLUDED_DETECTORS, RULES, Rule, scan_text
from memsync.secrets.contextual import CONTEXT_RULES
from memsync.secrets.formats import FORMAT_RULES
from memsync.secrets.rules import LINEAR_REPLACEMENTS, OWN_RULES
from memsync.secrets.scan import MAX_SPACES, secret_spans, shape_of

DETECTORS = {cls.__name__: cls for cls in get_mapping_from_secret_type_to_class().values()}
# Printable ASCII on one line, without the backslash the scan reads as a JSON escape.
ONE_LINE = [c for c in string.printable if c not in "\n\r\x0b\x0c\\"]


def _rule_ids(rule: Rule) -> set[str]:
    return {rule.id} | {variant.id for variant in rule.variants}


def test_it_runs_every_detect_secrets_detector_but_the_excluded_ones() -> None:
    used = {rule.source.removeprefix("detect-secrets ") for rule in RULES} - {"memsync"}
    assert used | set(EXCLUDED_DETECTORS) == set(DETECTORS)
    assert not used & set(EXCLUDED_DETECTORS)
    assert len(used) >= 23


def test_the_excluded_detectors_are_the_keyword_entropy_and_ip_ones_each_with_a_reason() -> None:
    assert set(EXCLUDED_DETECTORS) == {
        "KeywordDetector",
        "Base64HighEntropyString",
        "HexHighEntropyString",
        "IPPublicDetector",
    }
    assert all(len(reason) > 40 for reason in EXCLUDED_DETECTORS.values())


def test_each_pattern_of_a_used_detector_is_a_rule_as_the_package_ships_it() -> None:
    # The compiled pattern objects themselves: nothing of detect-secrets is copied here,
    # and an upgrade that adds a pattern to a detector fails this test.
    for name, cls in DETECTORS.items():
        if name in EXCLUDED_DETECTORS:
            continue
        assert issubclass(cls, RegexBasedDetector), name
        ours = [rule.pattern for rule in RULES if rule.source == f"detect-secrets {name}"]
        theirs = list(cls().denylist)
        assert len(ours) == len(theirs), name
        for index, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            replaced = LINEAR_REPLACEMENTS.get((name, index))
            assert a is (replaced[0] if replaced else b), (name, index)


def test_only_the_quadratic_patterns_are_replaced_and_they_find_what_the_originals_find() -> None:
    assert set(LINEAR_REPLACEMENTS) == {("JwtTokenDetector", 0), ("NpmDetector", 0)}
    header = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    payload = base64.urlsafe_b64encode(b'{"sub":"x","iat":1}').decode().rstrip("=")
    jwt = f"{header}.{payload}.c2lnbmF0dXJlc2lnbmF0dXJl"
    npm = "//registry.npmjs.org/:_authToken=" + "np" + "m_" + "a1B2" * 9
    for (name, index), (pattern, why) in LINEAR_REPLACEMENTS.items():
        original = DETECTORS[name]().denylist[index]
        line = jwt if name == "JwtTokenDetector" else npm
        assert original.search(line) and pattern.search(line), name
        assert len(why) > 30


def test_memsync_adds_documented_formats_and_secret_named_assignments() -> None:
    own = [rule for rule in RULES if rule.source == "memsync"]
    assert own == [*OWN_RULES, *FORMAT_RULES, *CONTEXT_RULES]
    assert [rule.id for rule in CONTEXT_RULES] == [
        "secret-assignment",
        "secret-assignment",
        "secret-option",
    ]
    assert len({rule.id for rule in FORMAT_RULES}) >= 40


def test_rule_ids_are_readable_stable_names() -> None:
    ids = set().union(*(_rule_ids(rule) for rule in RULES))
    assert all(re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", rule_id) for rule_id in ids), ids
    # The ids the sync layer, the client and stored transcripts already show.
    assert {"aws-access-token", "github-pat", "anthropic-api-key", "private-key", "jwt"} <= ids
    descriptions: dict[str, set[str]] = {}
    for rule in RULES:
        descriptions.setdefault(rule.id, set()).add(rule.description)
    # One id, one kind of secret (PyPI and TestPyPI tokens share theirs).
    assert {i: d for i, d in descriptions.items() if len(d) > 1} == {
        "pypi-upload-token": {"PyPI upload token", "TestPyPI upload token"}
    }


def test_every_rule_has_a_prefilter_that_can_be_looked_up() -> None:
    for rule in RULES:
        assert rule.literals or rule.shape, rule.id
        assert all(literal.isascii() and literal for literal in rule.literals), rule.id
        if rule.folded:
            assert all(literal == literal.lower() for literal in rule.literals), rule.id
        assert set(rule.shape) <= {"a", ".", ":"}, rule.id


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_match_holds_its_rules_literal_and_shape(rule: Rule, data: st.DataObject) -> None:
    match = data.draw(st.from_regex(rule.pattern, fullmatch=True, alphabet=ONE_LINE))
    if rule.literals:
        folded = match.lower() if rule.folded else match
        assert any(literal in folded for literal in rule.literals), match
    assert rule.shape.encode() in shape_of(match), match


# A JWT must also decode to JSON, which generated matches never do: tests/secrets/
# test_scan.py finds a real one.
# The secret-named assignment rule judges the value (tests/secrets/test_corpus.py).
UNCHECKED = [rule for rule in RULES if rule.valid is None and rule.locate is None]


@pytest.mark.parametrize("rule", UNCHECKED, ids=lambda r: r.id)
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_match_on_a_line_of_its_own_is_found(rule: Rule, data: st.DataObject) -> None:
    match = data.draw(st.from_regex(rule.pattern, fullmatch=True, alphabet=ONE_LINE))
    assume(" " * (MAX_SPACES + 1) not in match)
    text = f"# Notes\n\n{match}\n\nThe end.\n"
    spans = secret_spans(text, rules=[rule])
    assert spans, match
    assert all(text.index(match) <= s.start and s.end <= text.index(match) + len(match) + 1
               for s in spans if rule.reach.value != "key-block")  # fmt: skip


def test_the_excluded_keyword_and_ip_detectors_would_refuse_ordinary_notes() -> None:
    note = 'password: "in the team vault" — the release is 1.2.3.4 and DNS is 8.8.8.8\n'
    assert list(KeywordDetector().analyze_string(note))
    assert list(IPPublicDetector().analyze_string(note))
    assert scan_text("notes/release.md", note) == []


def test_a_jwt_shaped_string_that_is_not_json_is_not_a_finding() -> None:
    # detect-secrets' own check: header and payload must decode to JSON.
    not_json = "eyJ" + "notjsonatall" + "." + "c29tZXRoaW5n" + "." + "c2lnbmF0dXJl"
    assert scan_text("notes/x.md", f"value {not_json}\n") == []
