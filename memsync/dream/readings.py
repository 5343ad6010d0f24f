"""Each memory read once per dream, and once across dreams (issue 14 item 3, issue 15
item 6).

Duplicate detection and stale detection read every memory: its words, its profile
(`memsync.dream.profiles.profile_of`), its claims (`memsync.dream.supersession.claims`),
and judge the pairs that look alike (`memsync.dream.dedupe.duplicate_reason`). Each is a
pure function of a memory's text, so `Readings` works each out once per text in a
dream, and keeps them for the next: a project's dreams run daily over memory that has
mostly not changed, and then only what changed is read again. A profile starts from
the words stale detection read of the same text, when it did (`profile_of`).

The saved readings are one JSON file, ``memsync/analysis.json`` in the repository's Git
directory (`AnalysisCache`), keyed by a digest of each text (of the whole file for
claims, which read its type too) and stamped with a digest of the code that reads them
(`analysis_stamp`: every module of `memsync.dream` and `memsync.memory`, and the
Unicode tables), so a change to that code is a miss, never a stale answer. A file
that is damaged, truncated, of another stamp or not a plain file reached without a
symbolic link is a miss, never an error, and is written again after the dream. Only
what the dream read is written (at most `MAX_ENTRIES` readings and verdicts of each
kind): the file follows the directory and never grows past it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import itertools
import json
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from memsync.confined import ConfinedRoot, ConfinementError
from memsync.dream.profiles import Profile, content_words, profile_of
from memsync.memory import MemoryFile
from memsync.store.plumbing import common_dir_of, git_dir_of

if TYPE_CHECKING:
    from memsync.dream.supersession import Claims

# The file's layout; the code that fills it is stamped by `analysis_stamp`.
_FORMAT = 2
CACHE_NAME = "analysis.json"
# The most readings (and verdicts) of each kind kept: a directory of more keeps this many.
MAX_ENTRIES = 50_000
_FOLDER = "memsync"

T = TypeVar("T")
_current: ContextVar[Readings | None] = ContextVar("readings", default=None)


@functools.cache
def analysis_stamp() -> str:
    """A digest of the code whose results are kept: every module of the dream and of
    the memory model (what any of them changes may change a reading), the Unicode
    version (`normalise`) and the file's format."""
    package = Path(__file__).resolve().parents[1]
    return code_digest(package, ("dream", "memory"), str(_FORMAT))


def code_digest(package: Path, folders: Sequence[str], salt: str = "") -> str:
    """A digest of every module in `folders` of `package` (memsync's own directory),
    the Unicode version and `salt`: what results kept between runs were worked out
    with. Whole folders, not a list of the modules that matter: a list misses the
    module someone later moves a rule to, and a kept result must never outlive the
    code that gave it."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{salt} {unicodedata.unidata_version}".encode())
    sources = [source for folder in folders for source in (package / folder).glob("*.py")]
    for source in sorted(sources):
        digest.update(source.relative_to(package).as_posix().encode() + b"\0")
        digest.update(source.read_bytes())
    return digest.hexdigest()


class Readings:
    """The readings of one dream: worked out once per text, or taken from `saved` (the
    last dream's, as `saved_form` gave them)."""

    def __init__(self, saved: dict[str, Any] | None = None) -> None:
        saved = saved or {}
        self._saved_profiles: dict[str, Any] = saved.get("profiles", {})
        self._saved_words: dict[str, Any] = saved.get("words", {})
        self._saved_claims: dict[str, Any] = saved.get("claims", {})
        self._saved_verdicts: dict[str, Any] = saved.get("verdicts", {})
        # This dream's, by text (by file content for claims); digested only to be
        # looked up in `saved` or saved.
        self._profiles: dict[str, Profile] = {}
        self._words: dict[str, frozenset[str]] = {}
        self._claims: dict[bytes, Claims] = {}
        self._verdicts: dict[tuple[str, str, bool], str | None] = {}
        self._keys: dict[str, str] = {}
        self.computed = 0  # readings and verdicts worked out, not taken from `saved`

    # -- the readings ------------------------------------------------------------

    def profile(self, text: str) -> Profile:
        return self._once(self._profiles, self._saved_profiles, text, _profile_from, self._read)

    def _read(self, text: str) -> Profile:
        # Stale detection, which runs first, reads the words of most texts.
        return profile_of(text, self._words.get(text))

    def content_words(self, text: str) -> frozenset[str]:
        return self._once(self._words, self._saved_words, text, _words_from, content_words)

    def _once(
        self,
        known: dict[str, T],
        saved: dict[str, Any],
        text: str,
        from_saved: Callable[[Any], T | None],
        read: Callable[[str], T],
    ) -> T:
        """`read(text)`: from this dream's `known`, else from `saved`, else read."""
        found = known.get(text)
        if found is None:
            if saved:
                found = from_saved(saved.get(self._key(text)))
            if found is None:
                found = read(text)
                self.computed += 1
            known[text] = found
        return found

    def claims(self, memory: MemoryFile, read: Callable[[MemoryFile], Claims]) -> Claims:
        """`read(memory)` (`memsync.dream.supersession.claims`), once per file content."""
        found = self._claims.get(memory.raw)
        if found is None:
            if self._saved_claims:
                found = _claims_from(self._saved_claims.get(_key(memory.raw)))
            if found is None:
                found = read(memory)
                self.computed += 1
            self._claims[memory.raw] = found
        return found

    def verdict(
        self, one: str, other: str, conservative: bool, judge: Callable[[], str | None]
    ) -> str | None:
        """`judge()`'s verdict on the texts `one` and `other` (read with `profile`),
        in that order, once per pair of texts."""
        pair = (one, other, conservative)
        if pair in self._verdicts:
            return self._verdicts[pair]
        saved: Any = False
        if self._saved_verdicts:
            saved = self._saved_verdicts.get(self._verdict_key(pair), False)
        if saved is None or isinstance(saved, str):
            found = saved
        else:
            found = judge()
            self.computed += 1
        self._verdicts[pair] = found
        return found

    def _key(self, text: str) -> str:
        key = self._keys.get(text)
        if key is None:
            key = self._keys[text] = _key(text.encode("utf-8", "surrogatepass"))
        return key

    def _verdict_key(self, pair: tuple[str, str, bool]) -> str:
        one, other, conservative = pair
        return f"{self._key(one)} {self._key(other)} {int(conservative)}"

    # -- saving --------------------------------------------------------------------

    def saved_form(self, most: int = MAX_ENTRIES) -> dict[str, Any]:
        """What this dream read, as JSON data for the next one (at most `most` of each
        kind)."""
        profiles = itertools.islice(self._profiles.items(), most)
        words = itertools.islice(self._words.items(), most)
        claims = itertools.islice(self._claims.items(), most)
        verdicts = itertools.islice(self._verdicts.items(), most)
        return {
            "stamp": analysis_stamp(),
            "profiles": {
                self._key(text): [_words_form(p.words), p.exact, p.text] for text, p in profiles
            },
            "words": {self._key(text): _words_form(found) for text, found in words},
            "claims": {_key(raw): _claims_form(found) for raw, found in claims},
            "verdicts": {self._verdict_key(pair): found for pair, found in verdicts},
        }


def _key(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=12).hexdigest()


def _words_from(saved: Any) -> frozenset[str] | None:
    try:
        return _strings(saved)
    except ValueError:
        return None


def _words_form(words: frozenset[str]) -> str | list[str]:
    """A set of words as JSON data: one string of them, space-separated, when no word
    is empty or holds a space (every word a reading finds), else their list. Reading
    one string back costs a third of reading as many strings, and the file is read
    whole at the start of every dream."""
    ordered = sorted(words)
    joined = " ".join(ordered)
    if "" in words or joined.count(" ") != max(len(ordered) - 1, 0):
        return ordered
    return joined


def _strings(value: Any) -> frozenset[str]:
    """What `_words_form` wrote, back (ValueError for data of another shape)."""
    if isinstance(value, str):
        return frozenset(value.split(" ")) if value else frozenset()
    # Each item's type, read at C speed: a generator stepping through the thousands
    # of words of a directory cost more than the rest of the check.
    if not isinstance(value, list) or not {str}.issuperset(map(type, value)):
        raise ValueError("not a list of strings")
    return frozenset(value)


def _profile_from(saved: Any) -> Profile | None:
    try:
        words, exact, text = saved
        if isinstance(exact, str) and isinstance(text, str):
            return Profile(_strings(words), exact, text)
    except (TypeError, ValueError):
        pass
    return None


def _claims_form(claims: Claims) -> list[Any]:
    """`claims` as JSON data: each field of `Claims` in order, by its declared type."""
    return [_FORMS[field.type][0](getattr(claims, field.name)) for field in _fields("Claims")]


def _claims_from(saved: Any) -> Claims | None:
    from memsync.dream.supersession import Claims

    try:
        fields = _fields("Claims")
        if not isinstance(saved, list) or len(saved) != len(fields):
            return None
        return Claims(*(_FORMS[f.type][1](value) for f, value in zip(fields, saved, strict=True)))
    except (TypeError, ValueError):
        return None


def _fields(name: str) -> tuple[dataclasses.Field[Any], ...]:
    """The fields of `Claims` or `Fact`, each of a type `_FORMS` knows (else ValueError:
    claims are then read, not kept)."""
    # Imported here: `memsync.dream.supersession` reads through `memsync.dream.dedupe`,
    # which reads through this module.
    from memsync.dream import supersession

    fields = dataclasses.fields(getattr(supersession, name))
    unknown = [field.type for field in fields if field.type not in _FORMS]
    if unknown:
        raise ValueError(f"{name} has fields of types not kept: {unknown}")
    return fields


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("not a string")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("not a boolean")
    return value


def _pairs(value: Any) -> frozenset[tuple[str, str]]:
    if not isinstance(value, list):
        raise ValueError("not a list")
    return frozenset((_text(first), _text(second)) for first, second in value)


def _fact_form(facts: list[Any]) -> list[Any]:
    fields = _fields("Fact")
    return [[_FORMS[f.type][0](getattr(fact, f.name)) for f in fields] for fact in facts]


def _facts_from(value: Any) -> list[Any]:
    from memsync.dream.supersession import Fact

    fields = _fields("Fact")
    if not isinstance(value, list):
        raise ValueError("not a list")
    read: list[Any] = []
    for saved in value:
        if not isinstance(saved, list) or len(saved) != len(fields):
            raise ValueError("not a fact")
        read.append(Fact(*(_FORMS[f.type][1](item) for f, item in zip(fields, saved, strict=True))))
    return read


def _same(value: Any) -> Any:
    return value


# Each field type of `Claims` and `Fact` (as written): to JSON data, and back (raising
# ValueError or TypeError on data of another shape).
_FORMS: dict[Any, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    "str": (_same, _text),
    "bool": (_same, _flag),
    "frozenset[str]": (_words_form, _strings),
    "frozenset[tuple[str, str]]": (sorted, _pairs),
    "list[Fact]": (_fact_form, _facts_from),
}


# -- the dream's readings, for the steps that read memories ---------------------------


def current() -> Readings | None:
    return _current.get()


def profile(text: str) -> Profile:
    """`profile_of(text)`, read once per dream (and kept across dreams)."""
    readings = _current.get()
    return profile_of(text) if readings is None else readings.profile(text)


def words(text: str) -> frozenset[str]:
    """`content_words(text)`, read once per dream (and kept across dreams)."""
    readings = _current.get()
    return content_words(text) if readings is None else readings.content_words(text)


def claims(memory: MemoryFile, read: Callable[[MemoryFile], Claims]) -> Claims:
    """`read(memory)`, once per file content per dream (and kept across dreams)."""
    readings = _current.get()
    return read(memory) if readings is None else readings.claims(memory, read)


def verdict(
    one: str, other: str, conservative: bool, judge: Callable[[], str | None]
) -> str | None:
    """`judge()` on the texts `one` and `other`, once per pair (and kept across dreams)."""
    readings = _current.get()
    return judge() if readings is None else readings.verdict(one, other, conservative, judge)


@contextlib.contextmanager
def reading(readings: Readings) -> Iterator[Readings]:
    """`readings` used by every step run in the block."""
    token = _current.set(readings)
    try:
        yield readings
    finally:
        _current.reset(token)


# -- the file --------------------------------------------------------------------------


class AnalysisCache:
    """The readings kept in ``memsync/analysis.json`` under `root` (a repository's Git
    directory), read and written without following any symbolic link below `root`
    (`memsync.confined`): a link planted there is a miss, and nothing is written."""

    def __init__(self, root: Path, folder: str = _FOLDER, *, most: int = MAX_ENTRIES) -> None:
        self.confined = ConfinedRoot(root)
        self.path = f"{folder}/{CACHE_NAME}" if folder else CACHE_NAME
        self.most = most  # readings (and verdicts) of each kind kept

    @classmethod
    def of_worktree(cls, workdir: Path) -> AnalysisCache | None:
        """The cache of the repository `workdir` is a checkout of (its own ``.git``
        directory, or the one a linked worktree's ``.git`` file names), or None."""
        if (workdir / ".git").is_symlink():
            return None  # git makes a directory or a file: a link was planted
        try:
            git_dir = git_dir_of(workdir)
            return cls(common_dir_of(git_dir)) if git_dir is not None else None
        except OSError:
            return None  # a cache: a dream without one reads every memory

    def load(self) -> Readings:
        try:
            data = json.loads(self.confined.read_bytes(self.path))
        except (OSError, ConfinementError, ValueError):
            return Readings()
        if not isinstance(data, dict) or data.get("stamp") != analysis_stamp():
            return Readings()
        tables = ("profiles", "words", "claims", "verdicts")
        if not all(isinstance(data.get(name), dict) for name in tables):
            return Readings()
        return Readings(data)

    def save(self, readings: Readings) -> None:
        # A cache: when it cannot be written the dream goes on without it (a field of
        # `Claims` of a type not kept is a ValueError).
        with contextlib.suppress(OSError, ConfinementError, ValueError):
            saved = readings.saved_form(self.most)
            payload = json.dumps(saved, ensure_ascii=False, separators=(",", ":"))
            self.confined.write(self.path, payload)
