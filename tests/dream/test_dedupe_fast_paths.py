"""Duplicate detection's shortcuts give what the plain way gives (issue 14 item 3, issue
15 item 6): facts, word sets and candidate pairs, each checked against the slower
reference it replaced, on the generated corpus, the tuning corpus and text built to
hit their edge cases."""

from __future__ import annotations

import difflib
import itertools
import random
import re
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path

from memsync.dream import phrasing, profiles, vocabulary
from memsync.dream.blocking import BLOCKING_WORDS, MAX_BLOCK
from memsync.dream.dedupe import Candidate, _candidate_pairs, duplicate_reason
from memsync.dream.glossary import GLOSSARY, segment
from memsync.dream.profiles import content_words, profile_of
from memsync.dream.rewording import Shape, Word, aligned
from memsync.memory import MemoryDirectory
from tests.dream.corpus import build_corpus
from tests.dream.tuning import (
    adversarial,
    paraphrased,
    restated,
    rewritten,
    supersets,
    write_corpus,
)

TUNING = Path(__file__).parent / "tuning"
SAMPLES = Path(__file__).parents[1] / "secrets" / "samples"
# Each tuning batch written as a memory directory (the first three are one).
_BATCHES = (
    write_corpus,
    adversarial.write_corpus,
    paraphrased.write_corpus,
    restated.write_corpus,
    rewritten.write_corpus,
    supersets.write_corpus,
)

TRICKY = [
    "Deploy v1.2.3 at 10:30 on Friday; 1,000 rows",
    "See /a/b+c.d and /v2/statements/{id} then a.b.c, qa@x.dev, C++ and x/y",
    "Paths: /srv/app/releases/ and https://wiki.acme.dev/billing/runbook.",
    "NEVER FORCE-PUSH TO MAIN ON A FRIDAY, ALWAYS OPEN A PR",
    "The fooBar flag and iOS builds; HTTP API only",
    "Don't deploy; do not merge; dont skip; never ever",
    "Required: must run `make lint` before every commit",
    "Straße is a street; ſtop; ﬁle",
    "周二部署 Payments API；不要在周五发布",
    "Mayday in May, march in March, 2025-07-15",
    "snake_case_name and py311 with v2beta",
    "",
]


def _texts(tmp_path: Path) -> list[str]:
    corpus = build_corpus(tmp_path / "memory", memories=300)
    tuning = write_corpus(tmp_path / "tuning")
    texts = []
    for root in (corpus.root, tuning.root):
        for memory in MemoryDirectory.read(root, links=False).files.values():
            texts.append(f"{memory.description or ''}\n{memory.body}")
    rng = random.Random(5)
    pieces = [*TRICKY, " ", "\n", "`x.y`", "—", "Ledger", "on-call", "3.11", "/a/b", "+"]
    texts += ["".join(rng.choices(pieces, k=rng.randint(1, 9))) for _ in range(500)]
    return texts + TRICKY


_LETTER = re.compile(r"[A-Za-z]")
_UPPER = re.compile(r"[A-Z]")
_CAPITALISED = re.compile(r"(?<![\w.])[A-Z][\w+#]*")
_LATIN_WORD = re.compile(r"[a-z]+")


def _reference_facts(text: str) -> frozenset[str]:
    """`profiles._facts` as it was written first: every pattern over the whole text."""
    found: set[str] = set()
    for match in profiles._BACKTICKED.finditer(text):
        found.add("`" + match.group(1).strip().casefold())
    bare = profiles._BACKTICKED.sub(" ", text)
    found.update(match.group(0).casefold() for match in profiles._SCHEME.finditer(bare))
    found.update(match.group(0).casefold() for match in profiles._CHANNEL.finditer(bare))
    for match in profiles._IDENTIFIER.finditer(bare):
        if _LETTER.search(match.group(0)):
            found.add(match.group(0).casefold().rstrip("/.:"))
    bare = profiles._IDENTIFIER.sub(
        lambda m: " " if _LETTER.search(m.group(0)) else m.group(0), bare
    )
    found.update(match.group(1) for match in profiles._NUMBER.finditer(bare))
    letters = len(_LETTER.findall(bare))
    shouted = letters > 20 and len(_UPPER.findall(bare)) > 0.6 * letters
    for match in () if shouted else _CAPITALISED.finditer(bare):
        word = match.group(0).casefold()
        common = word in profiles.STOPWORDS or word in profiles.DAYS
        if not common and profiles.stem(word) not in profiles.SYNONYMS:
            found.add(profiles.stem(word))
    found.update(match.group(0) for match in profiles._CAMEL.finditer(bare))
    folded = bare.casefold()
    found.update(profiles.DAY_SET.intersection(_LATIN_WORD.findall(folded)))
    found.update(match.group(0) for match in profiles._DAY_ZH.finditer(folded))
    if profiles._NEGATIVE.search(bare):
        found.add("<never>")
    if profiles._POSITIVE.search(bare):
        found.add("<always>")
    return frozenset(found)


def test_facts_are_those_every_pattern_finds(tmp_path: Path) -> None:
    for text in _texts(tmp_path):
        normal = profiles.normalise(text)
        assert profiles._facts(normal) == _reference_facts(normal), text


def test_word_sets_and_exact_text_are_those_of_the_full_patterns(tmp_path: Path) -> None:
    for text in _texts(tmp_path):
        profile = profile_of(text)
        folded = profile.text.casefold()
        if folded.isascii():
            raw = set(profiles._WORD.findall(folded)) - profiles.STOPWORDS
            expected = {profiles.canonical(w) for w in raw} - profiles.FILLER_WORDS
            assert profile.words == expected, text
        assert profile.exact == " ".join(profiles._EXACT_WORD.findall(folded)), text
        spelled = {word.casefold() for word in profiles._SPELLED.findall(profile.text)}
        assert profile.spelled == spelled, text


def _phrased() -> list[str]:
    """Text built of the phrases a re-wording uses, the glossary's hint words and
    characters whose case or width changes: what `reworded`'s shortcut skips."""
    rng = random.Random(7)
    pieces = [*vocabulary.PHRASES, *(phrase.upper() for phrase in vocabulary.PHRASES)]
    pieces += [" ", "-", ".", "_", "1", "x", "Each", "owned", "by", "é", "İ", "\u212a8s", "la"]
    pieces += ["el equipo", "der Dienst", "contact", "weekly", "over", "s", "ms", "min", "three"]
    return ["".join(rng.choices(pieces, k=rng.randint(1, 12))) for _ in range(3000)]


# `phrasing._ABBREVIATED_UNIT` as it was first written: a word boundary, then a number.
_REFERENCE_UNIT = re.compile(r"\b(\d+(?:\.\d+)?) ?(ms|msec|s|sec|secs|min|mins|h|hr|hrs)\b", re.I)

# Phrases found only once another is written ("point of get in touch with" → "point of
# contact", a phrase whose words the text does not hold as written: "contacts"), phrases
# beside word characters, and units after numbers written as words or digits.
_PHRASE_EDGES = [
    "Point of get in touch with Ana; point of contacts",
    "point of point of contact for billing",
    "get in touch with x_point of contact",
    "on callx on call xon call ON CALL_on call on-call",
    "Ops are maintained by is maintained by Ana",
    "fixes for bugs and bug fixes for bugs",
    "Retries wait two s, then three min",
    "Backups run every 2 MIN",
    "Sessions end after 40 Hrs",
    "two s, three min, 2 MIN, 5 mins and 3.5h; 1.5.3 s; x30s; 30s_ok; 40 Hrs",
    "Times out after 30 sec; timed out after 2 minutes; time out after three h",
    "how to apply: How To Apply howto apply",
]


def _tuning_texts(tmp_path: Path) -> list[str]:
    """Every tuning batch's texts (description and body, as the dream reads them) and
    the real memory files of ``tests/secrets/samples``."""
    roots = [tmp_path / name for name in ("first", "adversarial", "paraphrased")]
    roots += [tmp_path / name for name in ("restated", "rewritten", "supersets")]
    for root, write in zip(roots, _BATCHES, strict=True):
        write(root)
    roots += sorted(path for path in TUNING.joinpath("first_heldout").iterdir() if path.is_dir())
    texts = []
    for root in roots:
        for memory in MemoryDirectory.read(root, links=False).files.values():
            texts.append(f"{memory.description or ''}\n{memory.body}")
    texts += [path.read_text(encoding="utf-8") for path in sorted(SAMPLES.glob("*.md"))]
    return texts


def _reference_reworded(text: str) -> str:
    """`phrasing.reworded` as it was first written: a substring test per phrase, then
    the units abbreviated after a number."""
    lower = text.lower()
    for phrase, pattern, word in phrasing._PHRASE_PATTERNS:
        if phrase in lower:
            text = pattern.sub(word, text)
    return _REFERENCE_UNIT.sub(phrasing._spelt_unit, text)


def test_phrases_are_those_a_test_per_phrase_finds(tmp_path: Path) -> None:
    texts = _texts(tmp_path) + _tuning_texts(tmp_path) + _phrased() + _PHRASE_EDGES
    for text in texts:
        normal = profiles.normalise(text)
        assert phrasing.reworded(normal) == _reference_reworded(normal), text


def test_a_phrase_is_found_where_its_pattern_finds_it() -> None:
    # Phrases that overlap themselves, beside word characters or not.
    rng = random.Random(3)
    pieces = ["a", "b", " ", "-", "x", "_", "1", "a b a", "a-a"]
    texts = ["xa b a b a", "a-a-a", "ba-a-a"]
    texts += ["".join(rng.choices(pieces, k=rng.randint(0, 12))) for _ in range(3000)]
    for text in texts:
        for phrase in ("a b a", "aba", "a-a", "b"):
            found = [m.start() for m in re.finditer(rf"\b{re.escape(phrase)}\b", text)]
            assert phrasing._whole(text, phrase) == found, (text, phrase)


def test_each_phrase_starts_and_ends_with_a_letter() -> None:
    # `phrasing._whole` reads "\b" before and after a phrase so.
    for phrase, _, _ in phrasing._PHRASE_PATTERNS:
        assert phrase[0].isalpha() and phrase[-1].isalpha(), phrase


def test_a_profile_of_words_already_read_is_the_profile_read_whole(tmp_path: Path) -> None:
    # "30s" with no phrase word: its unit was once left abbreviated when stale detection
    # had read the words first, so "30s" and "30 seconds" were two things only then.
    units = ["Retry in 30s please", "Builds time out after 20 min.", "Keep 2 hrs of logs"]
    for text in _texts(tmp_path) + _phrased() + units:
        whole, read = profile_of(text), profile_of(text, content_words(text))
        assert (read.words, read.exact, read.text) == (whole.words, whole.exact, whole.text)


def _reference_profile(text: str, content: frozenset[str] | None) -> tuple[object, ...]:
    """`profile_of` as it was written before it read the phrases an ASCII text holds
    once: with `content`, an ASCII text reads as written when neither `in_english` nor
    `reworded` changes it (`may_reword` and the hint words tested whole: no phrase, no
    Spanish, German or French word, no unit abbreviated after a number); else it is
    read whole."""
    normal = profiles.normalise(text)
    if content is not None and normal.isascii():
        lower = normal.lower()
        runs = lower.encode("ascii").translate(phrasing.WORD_RUNS).split()
        held = profiles._FOUND_THROUGH.intersection(runs)
        hinted = not profiles._HINTS.isdisjoint(held)
        latin = hinted and not profiles.LATIN_HINTS.isdisjoint(lower.split())
        phrased = any(
            phrase in lower for word in held for phrase in phrasing._PHRASES_BY_WORD.get(word, ())
        )
        if not (latin or phrased or _REFERENCE_UNIT.search(lower)):
            words = content - profiles.FILLER_WORDS
            return words, b" ".join(runs).decode("ascii"), normal
    written = _reference_reworded(profiles.in_english(normal))
    folded = written.casefold()
    if folded.isascii():
        meant = set(profiles._WORD.findall(folded)) - profiles.STOPWORDS
        words = frozenset({profiles.canonical(word) for word in meant} - profiles.FILLER_WORDS)
    else:
        words = profiles._content_words(folded) - profiles.FILLER_WORDS
    return words, " ".join(profiles._EXACT_WORD.findall(folded)), written


def test_a_profile_is_read_as_before_whether_its_words_were_read_or_not(tmp_path: Path) -> None:
    texts = _texts(tmp_path) + _tuning_texts(tmp_path) + _phrased() + _PHRASE_EDGES
    for text in texts:
        for content in (None, content_words(text)):
            read = profile_of(text, content)
            assert (read.words, read.exact, read.text) == _reference_profile(text, content), text


def _reference_shape(text: str) -> Shape:
    """`profiles._shape` as it was first written: every token read as it comes."""
    words: list[Word] = []
    negative: set[int] = set()
    clause = sentence = part = begins = 0
    starts = True
    said: set[tuple[str, ...]] = set()
    tokens: list[tuple[str, str]] = []
    for match in profiles._SHAPE_TOKEN.finditer(text):
        kind, token = match.lastgroup or "", match.group(0)
        if kind != "cjk":
            tokens.append((kind, token))
            continue
        for piece, english in profiles.segment(token):
            for word in piece.split() if english else [piece]:
                tokens.append(("word", word) if english else ("cjk", word))
    for kind, token in tokens:
        if kind in ("sentence", "clause"):
            clause += 1
            if kind == "sentence":
                sentence, starts = sentence + 1, True
                begins = profiles._once(words, begins, said)
            if kind == "sentence" or token in profiles._PART_ENDS:
                part += 1
            continue
        folded = token.casefold()
        initial, starts = starts, False
        if folded in profiles._PART_WORDS:
            part += 1
        if folded in profiles.GRAMMAR or (kind == "cjk" and folded in profiles.STOPWORDS):
            continue
        if folded in profiles._NEGATIONS:
            negative.add(clause)
        word = folded if kind != "word" else profiles.canonical(folded)
        if kind == "number":
            name = True
        elif kind == "word":
            name = folded in profiles.DAY_SET or (
                token[0].isupper() and not initial and profiles._may_name(folded, word)
            )
        else:
            name = kind == "cjk"
        meaningful = folded not in profiles.STOPWORDS and word not in profiles.FILLER_WORDS
        words.append(Word(word, name, clause, sentence, meaningful, part))
    profiles._once(words, begins, said)
    return Shape(tuple(words), frozenset(negative))


# Tokens whose kind ASCII text decides: numbers with separators, sentence ends before
# spaces of any kind or the end, dashes between spaces, brackets.
_SHAPE_EDGES = [
    "Deploy v1.2.3 at 10:30, 1,000 rows. Then stop!\nNext: (a) [b] x - y\x1c-\x1cz end.",
    "What? Never.\tAnd but while whereas; Monday May 3 -- 4.5. 2.",
    "A.B.C. e.g. i.e. ... !? .\x85 -\u2003- x",
]


def test_word_order_is_read_as_every_token_was(tmp_path: Path) -> None:
    texts = _texts(tmp_path) + _tuning_texts(tmp_path) + _phrased() + _SHAPE_EDGES
    for text in texts:
        for read in (profiles.normalise(text), profile_of(text).text):
            assert profiles._shape(read) == _reference_shape(read), read


def _reference_segment(run: str) -> list[tuple[str, bool]]:
    """`glossary.segment` as it was first written: every length tried, longest first."""
    longest = max(len(word) for word in GLOSSARY)
    found: list[tuple[str, bool]] = []
    at = 0
    while at < len(run):
        for length in range(min(longest, len(run) - at), 0, -1):
            english = GLOSSARY.get(run[at : at + length])
            if english is not None:
                found.append((english, True))
                at += length
                break
        else:
            found.append((run[at], False))
            at += 1
    return found


def test_chinese_is_segmented_as_every_length_tried_finds(tmp_path: Path) -> None:
    rng = random.Random(13)
    pieces = [*GLOSSARY, *"的了是在不一二三四五周星期每天服务团队x"]
    runs = ["".join(rng.choices(pieces, k=rng.randint(1, 10))) for _ in range(3000)]
    for text in _tuning_texts(tmp_path):
        runs += re.findall(rf"[{profiles._CJK}]+", text)
    assert any(not english for run in runs for _, english in segment(run))
    for run in runs:
        assert list(segment(run)) == _reference_segment(run), run


def test_words_aligned_once_are_aligned_as_difflib_aligns_them(tmp_path: Path) -> None:
    shapes = [profile_of(text).shape for text in _tuning_texts(tmp_path)[:120]]
    for one, other in itertools.product(shapes[:40], shapes):
        first, second = [w.text for w in one.words], [w.text for w in other.words]
        expected = difflib.SequenceMatcher(None, first, second, autojunk=False).get_opcodes()
        assert list(aligned(first, second)) == expected
        assert list(aligned(first, second)) == expected  # kept, and as first given


def _reference_pairs(kinds: list[str], words: list[frozenset[str]], exact: list[str]):
    """The blocking rule worked out for every memory, as `_candidate_pairs` first did."""
    pairs: set[tuple[int, int]] = set()
    copies: defaultdict[tuple[str, str], list[int]] = defaultdict(list)
    holding: defaultdict[str, defaultdict[str, set[int]]] = defaultdict(lambda: defaultdict(set))
    for index, (kind, text, held) in enumerate(zip(kinds, exact, words, strict=True)):
        copies[(kind, text)].append(index)
        for word in held:
            holding[kind][word].add(index)
    for members in copies.values():
        pairs.update(itertools.combinations(members, 2))
    spread = Counter(word for held in words for word in held)
    for index, (kind, held) in enumerate(zip(kinds, words, strict=True)):
        rarest = sorted((spread[w], w) for w in held if spread[w] > 1)[:BLOCKING_WORDS]
        blocks = [holding[kind][word] for _, word in rarest]
        small = [block for block in blocks if len(block) <= MAX_BLOCK]
        others = set().union(*small)
        if blocks and not small:
            common = set.intersection(*blocks)
            others |= common if len(common) <= MAX_BLOCK else set()
        pairs.update((min(index, o), max(index, o)) for o in others - {index})
    return pairs


def _common_word_directory() -> list[Candidate]:
    """Memories of a few common words each: the rule pairs them through all of their
    rarest words, and many look alike."""
    rng = random.Random(11)
    vocabulary = "ledger payments orders team owns api deploys friday staging production"
    vocabulary += " never always billing review merge main oncall rotation weekly nightly"
    words = vocabulary.split()
    return [
        Candidate(
            f"m{n}.md",
            rng.choice(["project", "feedback"]),
            None,
            " ".join(rng.sample(words, rng.randint(3, 12))),
            datetime.min,
        )
        for n in range(400)
    ]


def test_candidate_pairs_are_the_rules_pairs_that_can_be_duplicates(tmp_path: Path) -> None:
    corpus = build_corpus(tmp_path / "memory", memories=600, seed=5)
    tuning = write_corpus(tmp_path / "tuning")
    directories = [_common_word_directory()]
    for root in (corpus.root, tuning.root):
        files = MemoryDirectory.read(root, links=False).files
        directories.append(
            [
                Candidate(path, memory.memory_type or "", None, memory.body, datetime.min)
                for path, memory in sorted(files.items())
            ]
        )
    for memories in directories:
        read = [profile_of(memory.text) for memory in memories]
        rule = _reference_pairs(
            [m.type for m in memories], [p.words for p in read], [p.exact for p in read]
        )
        for conservative in (False, True):
            found = _candidate_pairs(memories, read, conservative)
            duplicates = {
                (i, j)
                for i, j in rule
                if duplicate_reason(read[i], read[j], conservative) is not None
            }
            assert duplicates or conservative
            assert duplicates <= found <= rule
