"""The tuning corpus for duplicate detection (issue 15 item 3): thresholds in
``memsync.dream.dedupe`` are chosen here, never on ``tests/heldout``.

Each pair is (type, first, second): memory texts written the way people and agents
write them, not from memsync's generator templates. `DUPLICATES` say the same thing
(re-worded, re-punctuated, one plus a fact); `LOOKALIKES` share most words and differ
in one fact, so merging them would lose it. `write_corpus` writes them as a memory
directory, with `FILLERS` around them so word frequencies look like a real directory.
``variants`` adds pairs of each kind the issue names (other wording, other templates,
punctuation, other languages, supersets) and a directory of distinct service facts;
`KINDS` tells which kind each duplicate pair is, for the figures the test prints.

The sixth batch, ``first_heldout/<dir>/`` (memory directories with a ``labels.json``,
read with ``tests.heldout.load_duplicate_corpus``), was written apart from the rules as
the first held-out corpus and became tuning on 2026-12-04 once its figures were
recorded there: precision 1.00, recall 0.26 (11 of 43 pairs). A new held-out corpus
took its place in ``tests/heldout/duplicates``. The seventh, ``supersets``, one memory
restated and added to, was written for the rule that reads such a memory as the
sentences restating the other and the sentences it adds (2026-12-04; it merges 12 of
43 pairs of the sixth since). The eighth, ``restated``, one memory restated whole by
another person in Claude Code's layout and look-alikes differing in one fact, was
written for modals said in other words, "only" narrowing, and descriptions summing up
their body (2026-12-04): before those rules 11 of 27 merged and one look-alike ("4
replicas, for EU customers only") merged falsely; after, 14 of 27 and none, the
seventh batch 22 of 37 (21 before), every other batch and the held-out unchanged. The
ninth, ``adversarial``, 95 look-alikes each one fact away from a memory (an antonym, a
number written as a word, a unit, a flag, a role, a tense, a condition) and 22 controls,
was written to hunt false merges (2026-12-04): before the rules it found (opposites,
number words and abbreviated units, a word exchanged between the same words, words
traded, "used to", a condition or "only" added, a word after "every", a URL's scheme)
22 look-alikes merged judged alone, 24 false merges in its directory, and 14 of 22
controls; after, none, and 17 of 22; every other batch and the held-out unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.dream.tuning import facts, independent, variants

DUPLICATES: list[tuple[str, str, str]] = [
    (
        "project",
        "Project database stack: PostgreSQL 16 on RDS",
        "Project database stack - PostgreSQL 16 on RDS\n\nConnections go through PgBouncer.",
    ),
    (
        "feedback",
        "Never force-push to main; open a PR instead.",
        "Never force push to main — open a PR instead.",
    ),
    ("feedback", "Run `make lint` before every commit.", "run `make lint` before every commit!"),
    (
        "project",
        "The Orders service is owned by the Checkout team (lead: Mei Lin).",
        "The Orders service is owned by the Checkout team, lead Mei Lin.",
    ),
    (
        "user",
        "Sam prefers short answers and code over prose.",
        "Sam prefers short answers, and code over prose.",
    ),
    (
        "project",
        "Staging deploys happen every Tuesday at 14:00 UTC.",
        "Staging deploys happen every Tuesday at 14:00 UTC. Ask in #release first.",
    ),
    (
        "reference",
        "Grafana dashboards for Payments live in the Payments folder.",
        'Grafana dashboards for Payments live in the "Payments" folder.',
    ),
    ("feedback", "Use pnpm, not npm, in the web repo.", "Use PNPM, not NPM, in the web repo."),
    (
        "project",
        "API rate limit for partners is 600 requests per minute.",
        "API rate limit for partners: 600 requests per minute.",
    ),
    (
        "feedback",
        "Integration tests must hit a real Postgres, never a mock.",
        "Integration tests must hit a real Postgres — never a mock.\n\n"
        "Why: a mocked migration passed while production broke.",
    ),
    (
        "project",
        "Feature flag for Dark mode: ui.dark_mode_v2",
        "Feature flag for Dark mode - ui.dark_mode_v2",
    ),
    (
        "project",
        "Android min SDK is 26 since release 7.4.",
        "Android min SDK is 26 since release 7.4 (Play Store requirement).",
    ),
    (
        "reference",
        "On-call runbooks are in Confluence under SRE / Runbooks.",
        "On-call runbooks are in Confluence, under SRE/Runbooks.",
    ),
    (
        "feedback",
        "Write commit messages in the imperative mood.",
        "Write commit messages in imperative mood.",
    ),
    (
        "project",
        "订单服务使用 MySQL 8.0，部署在 华东2 区。",
        "订单服务使用 MySQL 8.0, 部署在 华东2 区.",
    ),
    (
        "user",
        "Priya is a data engineer; explain Kafka internals in depth.",
        "Priya is a data engineer. Explain Kafka internals in depth.",
    ),
    (
        "project",
        "Search indexes are rebuilt nightly at 02:00 by the reindex job.",
        "Search indexes are rebuilt nightly at 02:00 by the reindex job.\n\n"
        "The job logs to #search-alerts.",
    ),
    (
        "feedback",
        "Prefer composition over inheritance in the billing code.",
        "Prefer composition over inheritance in billing code.",
    ),
]

# Re-wordings that swap a synonym (squad/team, DB/database, never/don't).
DUPLICATES += [
    ("project", "The Fraud squad maintains the risk rules engine; head: Olu Ade.",
     "The Fraud team owns the risk rules engine, lead Olu Ade."),
    ("feedback", "Never edit generated protobuf files by hand.",
     "Don't edit generated protobuf files by hand."),
    ("project", "The analytics DB is Snowflake; prod credentials are in Vault.",
     "The analytics database is Snowflake; production credentials are in Vault."),
    ("feedback", "Ask Dana before changing the Helm charts.",
     "Request Dana's review before changing the Helm charts."),
]  # fmt: skip

# One memory inside a longer one; a misspelling; a casing variant.
DUPLICATES += [
    ("project", "Mobile releases are cut on Wednesday.",
     "Mobile releases are cut on Wednesday by the release captain. The captain posts "
     "the changelog in #mobile-release and tags the build in Bitrise."),
    ("feedback", "Always recieve webhook payloads through the verifier middleware.",
     "Always receive webhook payloads through the verifier middleware."),
    ("reference", "BUILD LOGS ARE KEPT IN BUILDKITE FOR 30 DAYS.",
     "Build logs are kept in Buildkite for 30 days."),
]  # fmt: skip

LOOKALIKES: list[tuple[str, str, str]] = [
    ("project", "Staging deploys happen every Tuesday at 14:00 UTC.",
     "Production deploys happen every Thursday at 14:00 UTC."),
    ("project", "The Orders service is owned by the Checkout team (lead: Mei Lin).",
     "The Invoices service is owned by the Checkout team (lead: Mei Lin)."),
    ("project", "The Billing service is owned by the Ledger team (lead: Tom Berg).",
     "The Billing service is owned by the Payments team (lead: Ana Ruiz)."),
    ("project", "API rate limit for partners is 600 requests per minute.",
     "API rate limit for partners is 1200 requests per minute."),
    ("project", "Services must run on Python 3.11.", "Services must run on Python 3.12."),
    ("feedback", "Always squash-merge pull requests.", "Never squash-merge pull requests."),
    ("project", "Feature flag for Dark mode: ui.dark_mode_v2",
     "Feature flag for Travel mode: ui.travel_mode_v2"),
    ("project", "the billing service deploys on tuesday via the deploy bot",
     "the dispatch service deploys on tuesday via the deploy bot"),
    ("project", "staging database is reset every night by the cleanup job",
     "production database is backed up every night by the cleanup job"),
    ("reference", "Grafana dashboards for Payments live in the Payments folder.",
     "Grafana dashboards for Search live in the Search folder."),
    ("project", "订单服务使用 MySQL 8.0，部署在 华东2 区。",
     "支付服务使用 MySQL 8.0，部署在 华北1 区。"),
    ("project", "Android min SDK is 26 since release 7.4.",
     "Android min SDK is 28 since release 8.1."),
    ("user", "Priya is a data engineer; explain Kafka internals in depth.",
     "Omar is a data engineer; explain Kafka internals in depth."),
    ("project", "QA test account for Cards: qa+cards@acme.dev",
     "QA test account for Loans: qa+loans@acme.dev"),
    ("project", "On-call for the web app rotates weekly, handover on Monday.",
     "On-call for the mobile app rotates weekly, handover on Monday."),
    ("feedback", "Run the full test suite before merging to main.",
     "Run the smoke tests before merging to main."),
    ("project", "The checkout endpoint is /v2/checkout on the gateway.",
     "The checkout endpoint is /v3/checkout on the gateway."),
    ("project", "Search indexes are rebuilt nightly at 02:00 by the reindex job.",
     "Search indexes are rebuilt weekly at 02:00 by the reindex job."),
    ("project", "Light theme tokens are in the design package.",
     "Night theme tokens are in the design package."),
    ("user", "Jonas prefers reviews in the morning.", "Jonah prefers reviews in the morning."),
]  # fmt: skip

LOOKALIKES += variants.LOOKALIKES + independent.LOOKALIKES + facts.LOOKALIKES

KINDS: dict[tuple[str, str, str], str] = dict.fromkeys(DUPLICATES, "first pairs") | {
    pair: kind
    for kind, pairs in (
        ("reworded", variants.REWORDED),
        ("templated", variants.TEMPLATED + variants.FLEET_COPIES),
        ("punctuated", variants.PUNCTUATED),
        ("languages", variants.LANGUAGES),
        ("supersets", variants.SUPERSETS),
        ("translated", variants.TRANSLATED),
        ("typos", variants.TYPOS),
        ("no frontmatter", variants.PLAIN),
        ("whole files", variants.FILES),
        ("synonyms and order", independent.SYNONYMS_AND_ORDER),
        ("punctuation and case", independent.PUNCTUATION_AND_CASE),
        ("contained", independent.CONTAINED),
        ("chinese", independent.CHINESE),
        ("other languages", independent.OTHER_LANGUAGES),
        ("untyped files", independent.UNTYPED_PAIRS),
        ("whole files reworded", independent.WHOLE_REWORDED),
        ("whole files translated", independent.WHOLE_TRANSLATED),
        ("facts: reworded", facts.REWORDED),
        ("facts: bullets", facts.BULLETS),
        ("facts: chinese", facts.CHINESE),
        ("facts: punctuation", facts.PUNCTUATION),
        ("facts: supersets", facts.SUPERSETS),
        ("facts: typos", facts.TYPOS),
        ("facts: second voice", facts.SECOND_VOICE),
    )
    for pair in pairs
}
DUPLICATES += (
    variants.DUPLICATES + variants.FLEET_COPIES + variants.FILES + independent.DUPLICATES
    + facts.DUPLICATES
)  # fmt: skip

FILLERS: list[tuple[str, str]] = [
    ("project", f"The {service} service runs {count} replicas in {region}.")
    for service, count, region in (
        ("catalog", 3, "eu-west-1"), ("cart", 4, "eu-west-1"), ("payments", 6, "us-east-1"),
        ("search", 2, "eu-central-1"), ("profile", 2, "us-west-2"), ("reviews", 1, "eu-west-1"),
        ("shipping", 3, "ap-south-1"), ("pricing", 5, "us-east-1"), ("auth", 4, "eu-west-1"),
        ("notifications", 2, "us-east-2"),
    )
] + [
    ("feedback", f"When editing {area}, {rule}.")
    for area, rule in (
        ("migrations", "add a down migration too"), ("the CLI", "update the --help text"),
        ("CSS", "keep to the design tokens"), ("SQL", "ask a DBA for review"),
        ("the API", "bump the OpenAPI version"), ("Dockerfiles", "pin base image digests"),
        ("Terraform", "run plan in CI first"), ("translations", "add every locale key"),
    )
] + [
    ("reference", f"{tool} is where {what} are tracked.")
    for tool, what in (
        ("Linear", "bugs"), ("Sentry", "frontend errors"), ("PagerDuty", "incidents"),
        ("Notion", "design docs"), ("Figma", "mockups"), ("Datadog", "SLOs"),
    )
]  # fmt: skip


# Facts about services whose names share words ("Billing API", "Billing webhooks"): every
# one is distinct from every other, as in a team's directory of owners, deploy days and
# on-call rotations, where most words are shared and one name or day differs.
_SERVICES = (
    ("Billing API", "Ledger", "Tom Berg", "Tuesday"),
    ("Billing webhooks", "Ledger", "Ana Ruiz", "Wednesday"),
    ("Search API", "Discovery", "Li Wei", "Tuesday"),
    ("Search indexer", "Discovery", "Li Wei", "Thursday"),
    ("Orders API", "Checkout", "Mei Lin", "Monday"),
    ("Orders worker", "Checkout", "Sam Cole", "Monday"),
    ("Identity API", "Platform", "Ravi Nair", "Friday"),
    ("Notifications API", "Engagement", "Ana Ruiz", "Wednesday"),
)
FILLERS += [
    item
    for service, team, person, day in _SERVICES
    for item in (
        ("project", f"{service} is owned by the {team} team; escalate to {person}."),
        ("project", f"Who is on call for {service}: {person}, rotation changes on {day}."),
        ("project", f"{service} deploys to production every {day} after the {team} sync."),
    )
]
FILLERS += variants.FLEET


@dataclass
class TuningCorpus:
    root: Path
    changed: dict[str, datetime] = field(default_factory=dict)
    duplicates: set[frozenset[str]] = field(default_factory=set)
    lookalikes: set[frozenset[str]] = field(default_factory=set)
    kinds: dict[frozenset[str], str] = field(default_factory=dict)  # duplicate pair → kind


def write_corpus(root: Path, now: datetime | None = None) -> TuningCorpus:
    """The first three batches as a memory directory (`write_pairs`)."""
    return write_pairs(
        root,
        duplicates=DUPLICATES,
        kinds=KINDS,
        lookalikes=LOOKALIKES,
        fillers=FILLERS,
        bare={independent.UNTYPED: "note", variants.NO_FRONTMATTER: ""},
        now=now,
    )


def write_pairs(
    root: Path,
    *,
    duplicates: Sequence[tuple[str, str, str]],
    kinds: Mapping[tuple[str, str, str], str],
    lookalikes: Sequence[tuple[str, str, str]],
    fillers: Sequence[tuple[str, str]],
    bare: Mapping[str, str],
    now: datetime | None = None,
) -> TuningCorpus:
    """Labelled pairs among fillers as a memory directory: one file per text and type,
    the n-th ``<kind>_<n>.md`` written n days before `now`, and a ``MEMORY.md`` line
    each. A text with a line ``---`` has its own description before it; otherwise the
    description is the first paragraph. A text starting with a prefix of `bare` is a
    file without frontmatter (named ``<stem>_<n>.md`` when the prefix gives a stem)."""
    now = now or datetime(2026, 12, 1, tzinfo=UTC)
    root.mkdir(parents=True, exist_ok=True)
    corpus = TuningCorpus(root)
    written: dict[tuple[str, str], str] = {}
    entries: list[str] = []

    def write(kind: str, text: str) -> str:
        if (kind, text) in written:
            return written[(kind, text)]
        number = len(written) + 1
        path = f"{kind}_{number:03d}.md"
        description, own, body = text.partition("\n---\n")
        if not own:
            description, body = text.partition("\n\n")[0], text
        prefix = next((prefix for prefix in bare if text.startswith(prefix)), None)
        if prefix is not None:
            path = f"{bare[prefix] or kind}_{number:03d}.md"
            body = description = text.removeprefix(prefix)
            (root / path).write_text(f"{body}\n", encoding="utf-8")
        else:
            (root / path).write_text(
                f"---\nname: {kind}-{number}\ndescription: {description}\ntype: {kind}\n"
                f"---\n\n{body}\n",
                encoding="utf-8",
            )
        corpus.changed[path] = now - timedelta(days=number)
        entries.append(f"- [{kind} {number}]({path}) — {description[:80]}")
        written[(kind, text)] = path
        return path

    for pair in duplicates:
        kind, first, second = pair
        both = frozenset((write(kind, first), write(kind, second)))
        corpus.duplicates.add(both)
        corpus.kinds[both] = kinds[pair]
    for kind, first, second in lookalikes:
        corpus.lookalikes.add(frozenset((write(kind, first), write(kind, second))))
    for kind, text in fillers:
        write(kind, text)
    (root / "MEMORY.md").write_text("# Memory\n\n" + "\n".join(entries) + "\n", encoding="utf-8")
    return corpus
