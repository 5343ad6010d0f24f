"""Run the held-out corpus through memsync's public detector and tally per kind.

A secret counts as detected when `scan_text` reports a secret on one of the lines the
pasted value occupies (a key block's BEGIN line too), and as redacted when `redact`
leaves no 12-character run of it (all of it, if shorter) in the text. A look-alike is a
false positive when any secret is reported in it.

`python -m tests.heldout.secrets.measure` prints the table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from memsync.secrets import FindingKind, redact, scan_text
from tests.heldout.secrets import Sample, lookalikes, secrets

WINDOW = 12


def detected(sample: Sample) -> bool:
    lines = sample.pasted_lines()
    findings = scan_text(sample.path, sample.text)
    return any(f.kind == FindingKind.SECRET and f.line in lines for f in findings)


def redacted(sample: Sample) -> bool:
    text, _ = redact(sample.text, sample.path)
    secret = sample.secret
    width = min(WINDOW, len(secret))
    return not any(secret[i : i + width] in text for i in range(len(secret) - width + 1))


def flagged(sample: Sample) -> bool:
    return any(f.kind == FindingKind.SECRET for f in scan_text(sample.path, sample.text))


@dataclass
class Tally:
    total: int = 0
    hits: int = 0
    redacted: int = 0
    missed_in: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.hits / self.total if self.total else 0.0


@dataclass
class Results:
    secrets: dict[str, Tally]
    lookalikes: dict[str, Tally]

    def detection(self) -> float:
        return _sum(self.secrets.values(), "hits") / _sum(self.secrets.values(), "total")

    def redaction(self) -> float:
        return _sum(self.secrets.values(), "redacted") / _sum(self.secrets.values(), "total")

    def false_positive_rate(self) -> float:
        return _sum(self.lookalikes.values(), "hits") / _sum(self.lookalikes.values(), "total")


def _sum(tallies: Iterable[Tally], name: str) -> int:
    return sum(getattr(t, name) for t in tallies)


def measure() -> Results:
    found: dict[str, Tally] = {}
    for sample in secrets():
        tally = found.setdefault(sample.kind, Tally())
        tally.total += 1
        hit = detected(sample)
        tally.hits += hit
        tally.redacted += redacted(sample)
        if not hit:
            tally.missed_in.append(sample.setting)
    false: dict[str, Tally] = {}
    for sample in lookalikes():
        tally = false.setdefault(sample.kind, Tally())
        tally.total += 1
        if flagged(sample):
            tally.hits += 1
            tally.missed_in.append(f"{sample.setting} ({sample.path})")
    return Results(found, false)


def report(results: Results) -> str:
    lines = ["held-out secrets: kind, detected/total, redacted/total, settings missed"]
    for kind, t in sorted(results.secrets.items()):
        missed = ", ".join(t.missed_in)
        lines.append(
            f"  {kind:26} {t.hits:3}/{t.total:<3} {t.rate:6.0%}  redacted "
            f"{t.redacted:3}/{t.total:<3} {missed}"
        )
    secret_total = _sum(results.secrets.values(), "total")
    lines.append(
        f"held-out detection {results.detection():.1%} of {secret_total} secrets "
        f"in {len(results.secrets)} kinds; redaction {results.redaction():.1%}"
    )
    lines.append("held-out look-alikes: kind, flagged/total, where")
    for kind, t in sorted(results.lookalikes.items()):
        lines.append(f"  {kind:26} {t.hits:3}/{t.total:<3} {'; '.join(t.missed_in)}")
    lookalike_total = _sum(results.lookalikes.values(), "total")
    lines.append(
        f"held-out false-positive rate {results.false_positive_rate():.1%} of "
        f"{lookalike_total} look-alikes in {len(results.lookalikes)} kinds"
    )
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(measure()))
