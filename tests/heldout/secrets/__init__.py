"""A held-out corpus of secrets and look-alikes, written apart from memsync's detector.

memsync's secret detection was tuned on tests/secrets/corpus.py. This corpus only checks
it: it was written from the providers' documented token formats without reading
memsync/secrets' rules or the tuning corpus's generators, with its own generator code,
settings and look-alikes. If a rule is changed because of a result here, add the kind to
the tuning corpus and tune there; a kind tuned on here stops being held out.

`secrets()` gives every kind (`kinds.KINDS`) in each of its settings (`settings.SETTINGS`),
a fresh random body each time, from one seed; `lookalikes()` gives the look-alikes
(`lookalikes.LOOKALIKES`). A `Sample` knows where its secret sits, so a finding counts
only if it is on the pasted value's lines and redaction is checked on the secret itself.
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass

from tests.heldout.secrets.kinds import KINDS, Kind
from tests.heldout.secrets.lookalikes import LOOKALIKES
from tests.heldout.secrets.settings import SETTINGS

SEED = 20261203
# Look-alikes drawn at random (hashes, ids, base64) are drawn twice; the rest are fixed text.
DRAWN_TWICE = ("commit-sha", "uuid", "digest", "base64-data", "lockfile-hash", "public-key")


@dataclass(frozen=True)
class Sample:
    kind: str
    setting: str
    path: str
    text: str
    start: int  # text[start:end] is the secret as written (escaped); empty for a look-alike
    end: int
    shown: tuple[int, int] = (0, 0)  # the whole pasted value: a key block with its armour

    @property
    def secret(self) -> str:
        return self.text[self.start : self.end]

    def line_of(self, offset: int) -> int:
        """1-based, as findings count lines."""
        starts = [0] + [i + 1 for i, c in enumerate(self.text) if c == "\n"]
        return bisect.bisect_right(starts, offset)

    def pasted_lines(self) -> range:
        """Where a finding may point: a key block is reported at its BEGIN line."""
        start, end = self.shown
        return range(self.line_of(start), self.line_of(max(start, end - 1)) + 1)


def _sample(kind: Kind, setting: str, rng: random.Random) -> Sample:
    pasted = kind.make(rng)
    frame = SETTINGS[setting](kind.where, rng)
    before = frame.escape(pasted.before)
    secret = frame.escape(pasted.secret)
    after = frame.escape(pasted.after)
    text = frame.head + before + secret + after + frame.tail
    start = len(frame.head) + len(before)
    shown = (len(frame.head), start + len(secret) + len(after))
    return Sample(kind.name, setting, frame.path, text, start, start + len(secret), shown)


def secrets(seed: int = SEED) -> list[Sample]:
    rng = random.Random(seed)
    return [_sample(kind, setting, rng) for kind in KINDS for setting in kind.settings]


def lookalikes(seed: int = SEED) -> list[Sample]:
    rng = random.Random(seed + 1)
    samples: list[Sample] = []
    for kind, generate in LOOKALIKES.items():
        rounds = 2 if kind in DRAWN_TWICE else 1
        for _ in range(rounds):
            samples += [
                Sample(kind, setting, path, text, 0, 0) for setting, path, text in generate(rng)
            ]
    return samples
