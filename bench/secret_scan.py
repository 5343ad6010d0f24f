"""Benchmark the secret scan against reading the same text, measured in the same run.

    python bench/secret_scan.py [--megabytes 5] [--rounds 5]

Builds N MB of memory-like Markdown (topic files with frontmatter, index lines, prose
that says "token", "API key", "password policy", service names, UUIDs, git SHAs,
base64-looking test data, curl commands with placeholders, some Chinese), writes it to
a temporary file, then prints the median time of:
  * a plain read of that file as text (`Path.read_text`);
  * `re.search` of one simple pattern that does not occur (so it reads everything);
  * `scan_text` over the whole text, as one file, with the rules already imported;
  * every rule's pattern over every line, as detect-secrets scans a file, without
    memsync's prefilter (one round: it is slow);
and the ratios of the scan to the others, plus what importing the rules costs a fresh
interpreter (a pre-receive hook is one). Ratios are the result: the machine is shared.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import string
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

# Run as a script, this file's directory comes first on sys.path, and its name would
# shadow the standard library's `secrets` for every later import.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

from memsync.secrets import RULES, scan_text

SERVICES = [
    "Slack",
    "GitHub",
    "GitLab",
    "Jira",
    "Confluence",
    "Sentry",
    "Heroku",
    "Stripe",
    "Okta",
    "Datadog",
    "Twitter",
    "Discord",
    "Dropbox",
    "Cloudflare",
    "Netlify",
    "Mailgun",
    "Twilio",
    "Linear",
    "Notion",
    "PyPI",
    "npm",
    "Docker Hub",
    "Grafana",
    "Vault",
    "Sumo Logic",
]
PROSE = (
    "the team agreed that deploys wait for review and the staging database is reset every "
    "night so tests never depend on yesterday's rows while the password policy requires "
    "rotation every ninety days and the token cache lives in redis with a short ttl"
)
BASE64 = string.ascii_letters + string.digits + "+/"
CHINESE = "团队约定：发布前必须经过评审。记忆是某一时刻的观察，不是实时状态。"


def _sentence(rnd: random.Random) -> str:
    words = rnd.sample(PROSE.split(), rnd.randint(8, 16))
    return " ".join(words).capitalize() + "."


def _note(rnd: random.Random, n: int) -> str:
    service = rnd.choice(SERVICES)
    sha = f"{rnd.getrandbits(160):040x}"
    blob = "".join(rnd.choice(BASE64) for _ in range(48))
    lines = [
        "---",
        f"name: {service.lower().replace(' ', '-')}-notes-{n}",
        f"description: How the team uses {service} for project {n}; the API key lives in the vault",
        f"type: {rnd.choice(['project', 'feedback', 'reference', 'user'])}",
        f"originSessionId: {uuid.UUID(int=rnd.getrandbits(128))}",
        "---",
        "",
        f"# {service} integration",
        "",
        _sentence(rnd),
        f"The {service} token is read from the environment (`{service.upper()}_TOKEN`), never "
        "from this repository; the auth middleware refreshes the access token when it expires.",
        "",
        f"**Why:** commit {sha[:12]} ({sha}) broke the {service} webhook when the secret "
        "name changed.",
        f'**How to apply:** check the key: `{service.lower()}_key = os.environ["KEY"]` '
        "before deploying.",
        "",
        f"- Test fixture data: `{blob}` (base64 of random bytes, not a credential)",
        f"- Request id {uuid.UUID(int=rnd.getrandbits(128))} reproduced the timeout.",
        '- `curl -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/items`',
        f"- {CHINESE}",
        f"- [{service} notes](notes_{n}.md) — password policy and token rotation for {service}",
        "",
    ]
    return "\n".join(lines)


def memory_corpus(size: int, seed: int = 2026) -> str:
    rnd = random.Random(seed)
    notes: list[str] = []
    total = 0
    while total < size:
        note = _note(rnd, len(notes))
        notes.append(note)
        total += len(note.encode())
    return "\n".join(notes)


def median_seconds(work: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    text = memory_corpus(int(args.megabytes * 1_000_000))
    size = len(text.encode())
    print(f"corpus: {size:,} bytes of memory-like Markdown, {text.count(chr(10)):,} lines")
    with tempfile.TemporaryDirectory() as directory:
        corpus = Path(directory) / "memory.md"
        corpus.write_text(text, encoding="utf-8")
        run(corpus, size, args.rounds)


def every_pattern_on_every_line(text: str) -> int:
    return sum(
        1 for line in text.splitlines() for rule in RULES for _ in rule.pattern.finditer(line)
    )


def interpreter_start(statement: str, rounds: int) -> float:
    command = [sys.executable, "-c", statement]
    return median_seconds(lambda: subprocess.run(command, check=True), rounds)


def run(corpus: Path, size: int, rounds: int) -> None:
    sources = {rule.source for rule in RULES}
    print(f"{len(RULES)} patterns from {len(sources) - 1} detect-secrets detectors and memsync")
    bare = interpreter_start("import re", rounds)
    loaded = interpreter_start("import memsync.secrets", rounds)
    print(f"importing memsync.secrets in a fresh interpreter: {(loaded - bare) * 1000:.0f} ms")

    text = corpus.read_text(encoding="utf-8")
    simple = re.compile(r"AKIA[0-9A-Z]{16}")
    read = median_seconds(lambda: corpus.read_text(encoding="utf-8"), rounds)
    search = median_seconds(lambda: simple.search(text), rounds)
    findings: list[object] = []
    scan = median_seconds(lambda: findings.extend(scan_text("bench.md", text)), rounds)
    unfiltered = median_seconds(lambda: every_pattern_on_every_line(text), 1)

    megabytes = size / 1_000_000
    print(f"plain read                  {read * 1000:9.1f} ms")
    print(f"re.search (1 pat)           {search * 1000:9.1f} ms")
    per_mb = scan / megabytes * 1000
    print(f"scan_text                   {scan * 1000:9.1f} ms  ({per_mb:.1f} ms per MB)")
    print(f"every pattern, line by line {unfiltered * 1000:9.1f} ms")
    print(f"scan_text / plain read = {scan / read:.1f}x")
    print(f"scan_text / re.search  = {scan / search:.1f}x")
    print(f"scan_text / every pattern, line by line = {scan / unfiltered:.2f}x")
    print(f"findings in the corpus: {len(findings) // rounds} (expected 0)")


if __name__ == "__main__":
    main()
