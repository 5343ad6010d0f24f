"""A name a memory cites that the code checkout lacks, and the checkout's name that took
its place (issue 15 item 4; `memsync.dream.staleness` asks `Kin.of` for each symbol or
environment variable a memory cites that the checkout's text never writes).

A checkout lacking a name is evidence that a memory is stale only when the name was
the checkout's own: a team renames ``STRIPE_API_KEY`` to ``STRIPE_SECRET_KEY`` or
``sync_customers`` to ``import_customers``, and the memory still says the old one. Many
names memories cite never were the checkout's: a library's (``useQuery``, ``TypedDict``,
``structlog.get_logger()``) or a tool's environment (``AWS_PROFILE``, ``NODE_OPTIONS``,
``GITHUB_TOKEN``), which the code need not write for them to hold. A checkout that
never had a name cannot tell whether a memory about it still holds, so a missing name
counts only when the checkout has a kin of it: a name of two words or more, of the same
kind (both written in capitals, as constants and environment variables are, or
neither; both React hooks, ``use…``, or neither), that shares one of its own words with
it: a word not in `COMMON_WORDS` (what every code base names things with: "get",
"query", "token", "logger", and verbs and participles that say what a name does, not
what it is about: "invalidate", "related", "commit") nor in `TOOL_WORDS` (the tools
whose environment a name sets: "aws", "node", "github"). A name that opens with a
tool's word (``UV_CACHE_DIR``, ``SENTRY_ENVIRONMENT``) is that tool's: tools name their
settings after themselves, so it has no kin. The flag names the kin, so a reviewer sees
what the memory should say instead. (A member of an object the checkout never names,
``queryClient.invalidateQueries``, is a library's: `memsync.dream.staleness` leaves it.)

A file name cited alone (``seed_db.py``) is the same: it counts as gone only beside a
file of the same extension sharing a word of its own (`nearest_file`), never for
``settings.json`` or ``float.h``, which are a tool's or a library's as often as the
checkout's, nor beside a file it is a variant of (``tsconfig.base.json`` beside
``tsconfig.json``, ``docker-compose.ci.yml`` beside ``docker-compose.yml``): tools read
such variants beside the base file, from a shared package or a user's copy, so the base
file is no evidence that the variant was renamed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memsync.dream.code_values import NAME_PIECE, name_words


def _singular(words: str) -> frozenset[str]:
    """`words` as `name_words` gives them: case-folded, without a plural's "s"."""
    return frozenset(word.removesuffix("s") for word in words.split())


# Words of names in every code base and library: sharing one says nothing of a rename.
COMMON_WORDS = _singular("""
get set use is has can should to from of by on in at for with and or not no all new old
key token secret id uuid name type typed dict list map array string str int bool num
number value data query result response request req res client server service handler
manager factory helper util base main app init test mock spec fixture log logger logging
error err exception path file dir folder url uri host port api http json xml yaml time
date module class function func method object obj create read update delete load save
parse make build run start stop fetch send receive effect state ref memo callback context
provider component prop hook env environment var variable option setting mode flag level
invalidate refresh refetch prefetch related select filter sort validate render handle
process check apply reset clear remove add find lookup compute format convert merge commit
enable disable enabled disabled
""")
# Tools that read environment variables of their own: ``AWS_PROFILE``, ``NODE_OPTIONS``.
TOOL_WORDS = _singular("""
aws amazon gcp gcloud google azure arm github gitlab bitbucket ci cd node npm yarn pnpm
bun deno pip python py django flask rails ruby bundle gem java jvm gradle maven go cargo
rust docker compose kube kubernetes k8s helm terraform tf ssh git xdg lc lang tz proxy
vite next nuxt react expo vercel netlify heroku cloudflare otel opentelemetry dd datadog
home shell term editor pager uv pipx poetry pytest ruff mypy sentry claude anthropic
playwright vitest jest
""")


class Kin:
    """The checkout's names of two words or more, by each of their own words."""

    def __init__(self, identifiers: Iterable[str]) -> None:
        self._by_word: dict[str, list[str]] = {}
        for identifier in identifiers:
            if len(name_words(identifier)) < 2:
                continue  # a word of prose, or a name of one word: no code base's own
            for word in _own_words(identifier):
                self._by_word.setdefault(word, []).append(identifier)

    def of(self, name: str) -> str | None:
        """The checkout's name most like `name` (sharing most of its words, then written
        the same way, joined by "_" or not, then the shortest, then the first in order)
        among those of its kind sharing a word of its own with it, or None when there is
        none: ``sync_invoices`` → ``import_invoices`` before ``InvoiceTable``."""
        if _first_word(name) in TOOL_WORDS:
            return None  # a tool's own: ``UV_CACHE_DIR``
        words = _own_words(name)
        kind = _kind(name)
        snake = "_" in name
        best: tuple[int, bool, int, str] | None = None
        for word in words:
            for other in self._by_word.get(word, ()):
                if _kind(other) != kind or other == name:
                    continue
                key = (-len(words & name_words(other)), ("_" in other) != snake, len(other), other)
                if best is None or key < best:
                    best = key
        return None if best is None else best[3]


def nearest_file(name: str, paths: Iterable[str]) -> str | None:
    """The checkout file most like the file name `name` that it lacks: of the same
    extension, sharing a word of its own with it (``seed_db.py`` → ``scripts/seed.py``),
    most words first, then the shortest path; None when there is none. A file name with
    no such kin (``settings.json``, ``float.h``) is as likely the user's or a library's."""
    stem, _, suffix = name.rpartition(".")
    words = _own_words(stem)
    best: tuple[int, int, str] | None = None
    for path in paths:
        other_stem, dot, other_suffix = path.rsplit("/", 1)[-1].rpartition(".")
        if not dot or other_suffix != suffix or not (shared := words & name_words(other_stem)):
            continue
        if stem.startswith(other_stem + ".") or other_stem.startswith(stem + "."):
            continue  # a variant of it: ``tsconfig.base`` of ``tsconfig``
        key = (-len(shared), len(path), path)
        if best is None or key < best:
            best = key
    return None if best is None else best[2]


_HOOK = re.compile(r"^use[A-Z]")


def _first_word(name: str) -> str:
    first = NAME_PIECE.search(name)
    return first.group(0).casefold() if first else ""


def _kind(name: str) -> tuple[bool, bool]:
    """In capitals (a constant, an environment variable), and a React hook."""
    return name.isupper(), bool(_HOOK.match(name))


def _own_words(name: str) -> frozenset[str]:
    return frozenset(
        word
        for word in name_words(name)
        if len(word) > 2 and word not in COMMON_WORDS and word not in TOOL_WORDS
    )
