"""The relative-date search's shortcuts find what the full search finds: a text
without a date hint is not searched, and a code span, URL or link target is looked
for only where the text holds what every one of them holds. Checked on phrases built to hit the
patterns' edges, on the real sample files and on the benchmark corpus."""

from __future__ import annotations

from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from memsync.memory import dates
from memsync.memory.dates import _find_relative_dates, find_relative_dates

from .real_files import SAMPLES

WEDNESDAY = date(2026, 12, 2)

# Every kind of phrase the search handles, spelt in odd cases and spacings, with what
# protects or blocks one (code, URLs, links, quotes, ISO dates) and near misses.
_PIECES = [
    "today",
    "TODAY",
    "Yesterday",
    "tomorrow",
    "the day before yesterday",
    "the day after  tomorrow",
    "3 days ago",
    "two\nweeks ago",
    "a month ago",
    "12 years ago",
    "last week",
    "This Month",
    "next year",
    "last Friday",
    "thıs friday",
    "laſt week",
    "thİs week",
    "Laſt Friday",
    "İn 3 days ago",
    "next  mon",
    "the last week",
    "agony",
    "todays",
    "today's",
    "today.md",
    "ago",
    "上周",
    "上周五",
    "上个月",
    "去年",
    "3天前",
    "两个星期前",
    "昨天",
    "说明天",
    "以下周期",
    "每天",
    "后天",
    "`today`",
    "```\nyesterday\n```",
    "https://x.io/today",
    "www.today.com",
    "<today>",
    "[a](today.md)",
    "](x)",
    '"today"',
    "2026-12-01 (yesterday)",
    "yesterday, 2026-12-01",
    " ",
    "\n",
    "\n\n",
    ", ",
    "word",
    "the ",
    "-",
    "/",
    "#",
]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=10).map("".join)


def _every_inline_span(text: str) -> list[tuple[int, int]]:
    """`_inline_spans` without its shortcuts: every pattern searched over every text."""
    patterns = (dates._INLINE_CODE, dates._URL, dates._LINK_TARGET)
    return [match.span() for pattern in patterns for match in pattern.finditer(text)]


def _outcome(find, text: str) -> object:
    try:
        return find(text, WEDNESDAY)
    except Exception as error:  # the same failure both ways, should there be one
        return type(error)


def _check(text: str) -> None:
    assert _outcome(find_relative_dates, text) == _outcome(_find_relative_dates, text), text
    assert dates._inline_spans(text) == _every_inline_span(text), text


@settings(max_examples=3000, deadline=None)
@given(_TEXT)
def test_the_shortcuts_find_what_the_full_search_finds(text):
    _check(text)


def test_each_piece_alone_and_in_a_sentence():
    for piece in _PIECES:
        _check(piece)
        _check(f"We did it {piece}.")
    assert find_relative_dates("We shipped it yesterday.", WEDNESDAY)  # found at all


def test_the_sample_files_and_the_benchmark_corpus(tmp_path):
    from tests.dream.corpus import build_corpus

    corpus = build_corpus(tmp_path / "memory", memories=300)
    texts = [path.read_text(encoding="utf-8") for path in sorted(corpus.root.glob("*.md"))]
    texts += [path.read_text(encoding="utf-8") for path in sorted(SAMPLES.iterdir())]
    assert any(find_relative_dates(text, WEDNESDAY) for text in texts)
    for text in texts:
        _check(text)
