"""Words that make a value or a version in a memory no claim about now ("was 8443",
"no longer Node 16", "instead of Rollbar"): one list for `memsync.dream.supersession`
(the words right before a value) and `memsync.dream.declared_versions` (anywhere in
the clause before a version), each adding the words only its reading needs."""

from __future__ import annotations

import re

# Where a sentence ends (after ".", "!" or "?" and a space, or at a line break): what
# looks away does so within its sentence, so readers split text with this first.
SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|\n+")

# Said of the past or of what is rejected, whatever the value is.
PAST = (
    r"was", r"were", r"not", r"never", r"no longer", r"instead of", r"previously",
    r"formerly", r"old", r"replac\w*",
)  # fmt: skip


def right_before(*more: str) -> re.Pattern[str]:
    """Text ending in one of `PAST` or `more` (and maybe an article): what a value right
    after it is looked away from."""
    words = "|".join((*PAST, *more))
    return re.compile(rf"\b(?:{words})\W*(?:the\s+|a\s+|an\s+)?$", re.IGNORECASE)


def anywhere(*more: str, chinese: str = "") -> re.Pattern[str]:
    """Text holding one of `PAST` or `more` as a word, or any of the `chinese` ones."""
    words = "|".join((*PAST, *more))
    return re.compile(rf"\b(?:{words})\b" + (f"|{chinese}" if chinese else ""), re.IGNORECASE)


# A sentence placing what it says in another repository ("in the infra repo", "its own
# repository", "from the infra checkout", "在 infra 仓库里"): the paths, commands and
# versions it cites are that repository's, and this checkout cannot tell of them.
ELSEWHERE = re.compile(
    r"\b(?:another|other|separate|(?:its|their)\s+own)\s+(?:repo|repository|checkout)\b"
    r"|\bthe\s+(?!(?:this|same|main|whole|entire|root|project|code|git|mono)\b)[\w-]+"
    r"(?:'s)?\s+(?:own\s+)?(?:repo|repository|checkout)\b"
    r"|(?<![这本该])[A-Za-z][\w-]*\s?仓库|(?:其他|另一个|别的)仓库",
    re.IGNORECASE,
)


def here(text: str) -> str:
    """`text` less its sentences about another repository (`ELSEWHERE`)."""
    return without(text, ELSEWHERE)


def without(text: str, pattern: re.Pattern[str]) -> str:
    """`text` less its sentences in which `pattern` is found."""
    if not pattern.search(text):
        return text
    return "\n".join(s for s in SENTENCE_BREAK.split(text) if not pattern.search(s))
