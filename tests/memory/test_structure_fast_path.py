"""A structured memory's **Why:** and **How to apply:** lines are found at a glance
when written as labelled; the answer is the pattern's either way."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memsync.memory.topic import _HOW, _WHY, _has_line

from .real_files import SAMPLES

_PIECES = [
    "**Why:**", "**How to apply:**", "**why**:", "**HOW  to apply:**", "- ", "> ", "  ", "\t",
    "\n", "\r\n", "*", "**", "Why:", "text ", "x**Why:**", "* **Why:** ",
]  # fmt: skip
_BODY = st.lists(st.sampled_from(_PIECES), max_size=10).map("".join)


@settings(max_examples=3000, deadline=None)
@given(_BODY)
def test_a_line_found_at_a_glance_is_one_the_pattern_finds(body):
    for label, pattern in (("**Why:**", _WHY), ("**How to apply:**", _HOW)):
        assert _has_line(body, label, pattern) == (pattern.search(body) is not None), body


def test_the_sample_files():
    for path in sorted(SAMPLES.iterdir()):
        body = path.read_text(encoding="utf-8")
        for label, pattern in (("**Why:**", _WHY), ("**How to apply:**", _HOW)):
            assert _has_line(body, label, pattern) == (pattern.search(body) is not None)
