"""An eighth tuning batch for duplicate detection (issue 15 item 3): one memory restated
whole by another person, in Claude Code's layout (a description, a body, ``**Why:**``
and ``**How to apply:**`` lines). The restatement says every fact again and nothing
more, in words of its own: another description, another sentence order, synonyms,
"must" as "has to", "needs to" or "is required to", "never" as "do not ever", a Why or
How line paraphrased or folded into the body.

`LOOKALIKES` are the same restatements with exactly one fact changed: another service,
number, day, environment, person, tool or command, a denial added, a scope narrowed
("for the EU cluster only"). None may merge. Each is the restatement with one phrase
replaced (`changed`), so it differs from a duplicate only in that fact. Written by
hand after reading real memory files; nothing here is taken from ``tests/heldout``.
`write_corpus` writes the pairs among the first batch's fillers and the fourth batch's
directory of services.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.dream.tuning import TuningCorpus

BIRCH = (
    "Birch deploy window\n---\nThe Birch billing service is deployed to production every "
    "Wednesday at 10:00 UTC.\n\n**Why:** support is fully staffed mid-week.\n\n**How to "
    "apply:** have Birch changes merged by Tuesday evening."
)
BIRCH_RESTATED = (
    "When Birch ships\n---\nBirch billing goes out to production on Wednesdays, 10:00 UTC."
    "\n\n**Why:** mid-week is when support has everyone in.\n\n**How to apply:** Birch "
    "changes need to be merged by Tuesday evening."
)
CEDAR = (
    "No mocks in Cedar integration tests\n---\nCedar integration tests must hit a real "
    "PostgreSQL database, never a mock.\n\n**Why:** a mocked suite passed while a migration "
    "broke production in March.\n\n**How to apply:** start the database with `docker "
    "compose up cedar-db` before running `make itest`."
)
CEDAR_RESTATED = (
    "Cedar integration tests use a real database\n---\nRun `docker compose up cedar-db` "
    "before `make itest`: Cedar's integration tests have to talk to a real PostgreSQL "
    "database, not a mock.\n\n**Why:** in March the mocked suite stayed green while a "
    "migration broke production."
)
INES = (
    "Ines Duarte, Hazel tech lead\n---\nInes Duarte is the tech lead of the Hazel mobile "
    "app. She reviews pull requests in the morning, Lisbon time.\n\n**How to apply:** "
    "request her review before noon; requests sent later wait until the next day."
)
INES_RESTATED = (
    "Hazel app: Ines Duarte leads\n---\nThe Hazel mobile app's tech lead is Ines Duarte; "
    "she does PR reviews in the mornings (Lisbon time).\n\n**How to apply:** ask for her "
    "review before noon, otherwise it waits for the next day."
)
JUNIPER = (
    "Small PRs for Juniper\n---\nKeep pull requests to the Juniper backend under 400 "
    "changed lines.\n\n**Why:** reviews of bigger ones dragged on for days.\n\n**How to "
    "apply:** split refactors from behaviour changes."
)
JUNIPER_RESTATED = (
    "Keep Juniper PRs small\n---\nPull requests to the Juniper backend have to stay below "
    "400 changed lines.\n\n**Why:** larger ones took days to review.\n\n**How to apply:** "
    "put refactors and behaviour changes in separate PRs."
)
LARCH = (
    "Larch local port\n---\nRun the Larch geocoder locally on port 8321.\n\n**How to "
    "apply:** point local callers at http://localhost:8321."
)
LARCH_RESTATED = (
    "Larch geocoder local setup\n---\nLocally, the Larch geocoder listens on port 8321.\n\n"
    "**How to apply:** anything calling it on your machine should use "
    "http://localhost:8321."
)
LINDEN = (
    "Sign Linden release tags\n---\nEvery release tag in the Linden repo must be signed "
    "with the team GPG key.\n\n**Why:** the deploy pipeline refuses unsigned tags.\n\n"
    "**How to apply:** tag with `git tag -s`."
)
LINDEN_RESTATED = (
    "Linden release tags need signing\n---\nRelease tags in the Linden repo are required "
    "to be signed with the team GPG key; tag with `git tag -s`.\n\n**Why:** unsigned tags "
    "are rejected by the deploy pipeline."
)
MAPLE = (
    "Never force-push Maple main\n---\nNever force-push to the main branch of the Maple "
    "repo.\n\n**Why:** the release bot tags commits on main and loses them on a rewrite."
    "\n\n**How to apply:** revert with a new commit instead."
)
MAPLE_RESTATED = (
    "Maple main is never rewritten\n---\nDo not ever force-push to the Maple repo's main "
    "branch; revert with a new commit instead.\n\n**Why:** commits on main are tagged by "
    "the release bot, which loses them when history is rewritten."
)
ROWAN = (
    "Rowan on-call rotation\n---\nOn-call for the Rowan payments API rotates weekly; the "
    "handover is on Monday at 09:00 CET.\n\n**How to apply:** check the PagerDuty "
    "schedule before swapping shifts."
)
ROWAN_RESTATED = (
    "Who is on call for Rowan\n---\nThe Rowan payments API on-call rotation changes every "
    "week, with the handover on Mondays at 09:00 CET.\n\n**How to apply:** before "
    "swapping a shift, look at the schedule in PagerDuty."
)
SORREL = (
    "Sorrel dashboards\n---\nGrafana dashboards for the Sorrel search service are in the "
    "folder Search / Sorrel.\n\n**How to apply:** link the latency panel when reporting a "
    "slowdown."
)
SORREL_RESTATED = (
    "Where Sorrel's Grafana dashboards are\n---\nThe Sorrel search service has its Grafana "
    "dashboards in the Search / Sorrel folder.\n\n**How to apply:** when you report a "
    "slowdown, include a link to the latency panel."
)
TOBIAS = (
    "Tobias Lind prefers short answers\n---\nTobias Lind prefers short answers with code "
    "over long explanations.\n\n**Why:** he reads on his phone between meetings.\n\n**How "
    "to apply:** lead with the command or the diff; explain only when asked."
)
TOBIAS_RESTATED = (
    "Short answers for Tobias Lind\n---\nTobias Lind likes brief answers, code first, "
    "rather than long explanations.\n\n**Why:** he mostly reads them on his phone between "
    "meetings.\n\n**How to apply:** start with the diff or the command and explain only if "
    "he asks."
)
ASPEN = (
    "Aspen runs in eu-west-1\n---\nThe Aspen ledger service runs in AWS eu-west-1 with 4 "
    "replicas.\n\n**Why:** customer data must stay in the EU.\n\n**How to apply:** never "
    "create Aspen resources in another region."
)
ASPEN_RESTATED = (
    "Aspen ledger hosting\n---\nAspen's ledger service is hosted in AWS eu-west-1, 4 "
    "replicas.\n\n**Why:** customer data has to remain in the EU.\n\n**How to apply:** do "
    "not create Aspen resources in any other region."
)
ELM = (
    "Run the Elm linter before pushing\n---\nRun `npm run lint` in the Elm web client "
    "before every push.\n\n**Why:** CI takes 20 minutes and fails on the first lint error."
    "\n\n**How to apply:** add it to a pre-push hook."
)
ELM_RESTATED = (
    "Lint Elm before you push\n---\nBefore each push to the Elm web client, run `npm run "
    "lint`.\n\n**Why:** the first lint error fails CI, which takes 20 minutes.\n\n**How to "
    "apply:** put it in a pre-push hook."
)
HORNBEAM = (
    "Hornbeam owners\n---\nThe Hornbeam notifications service is owned by the Engagement "
    "team; the lead is Sara Kim.\n\n**How to apply:** route Hornbeam incidents to "
    "#engagement-oncall."
)
HORNBEAM_RESTATED = (
    "Who owns Hornbeam\n---\nSara Kim leads the Engagement team, which owns the Hornbeam "
    "notifications service.\n\n**How to apply:** send incidents about Hornbeam to "
    "#engagement-oncall."
)
YEW = (
    "Ask Dana before changing Yew Helm charts\n---\nAlways ask Dana Whitfield for a review "
    "before changing the Helm charts of the Yew cluster.\n\n**Why:** a bad values file took "
    "the cluster down in May."
)
YEW_RESTATED = (
    "Yew Helm charts need Dana\n---\nChanges to the Yew cluster's Helm charts need a review "
    "from Dana Whitfield first.\n\n**Why:** in May a broken values file took the cluster "
    "down."
)
SPRUCE = (
    "Spruce backups\n---\nThe Spruce orders database is backed up every night at 02:00 UTC "
    "to the spruce-backups bucket and kept for 30 days.\n\n**How to apply:** restore with "
    "`spruce-restore --date <day>`."
)
SPRUCE_RESTATED = (
    "Nightly Spruce backup\n---\nEvery night at 02:00 UTC the Spruce orders database is "
    "backed up to the spruce-backups bucket; backups are kept 30 days.\n\n**How to "
    "apply:** to restore, run `spruce-restore --date <day>`."
)
POPLAR = (
    "No any in Poplar\n---\nDo not use `any` in the Poplar TypeScript code; use `unknown` "
    "and narrow it.\n\n**Why:** an `any` hid a null bug that reached customers."
)
POPLAR_RESTATED = (
    "Poplar TypeScript: unknown, not any\n---\nIn the Poplar TypeScript code, never use "
    "`any`: use `unknown` and narrow it.\n\n**Why:** a null bug hidden by an `any` reached "
    "customers."
)
CYPRESS = (
    "Cypress dark mode flag\n---\nDark mode in the Cypress web app is behind the feature "
    "flag `ui.dark_mode_v3`.\n\n**How to apply:** turn it on per account in LaunchDarkly, "
    "not globally."
)
CYPRESS_RESTATED = (
    "Feature flag for Cypress dark mode\n---\nThe Cypress web app hides dark mode behind "
    "the feature flag `ui.dark_mode_v3`.\n\n**How to apply:** enable it for one account at "
    "a time in LaunchDarkly, never globally."
)
MAGNOLIA = (
    "Magnolia runbooks\n---\nRunbooks for the Magnolia queue are in Confluence, space MAG."
    "\n\n**How to apply:** link the runbook from every new alert."
)
MAGNOLIA_RESTATED = (
    "Where the Magnolia runbooks are\n---\nThe Magnolia queue's runbooks are kept in "
    "Confluence (space MAG).\n\n**How to apply:** each new alert should link its runbook."
)
OMAR = (
    "Omar Nasser, data engineer\n---\nOmar Nasser is a data engineer on the Acacia team; "
    "he knows Spark well but is new to Kubernetes.\n\n**How to apply:** explain cluster "
    "details, not Spark basics."
)
OMAR_RESTATED = (
    "Acacia's Omar Nasser\n---\nOmar Nasser works on the Acacia team as a data engineer. "
    "He is new to Kubernetes but knows Spark well.\n\n**How to apply:** don't explain "
    "Spark basics; do explain cluster details."
)
BAOBAB = (
    "Baobab deploy freeze\n---\nProduction deploys of Baobab stop at 15:00 CET on Fridays."
    "\n\n**Why:** nobody is around to roll back over the weekend.\n\n**How to apply:** "
    "hotfixes after that need an approval from Jonas Weber."
)
BAOBAB_RESTATED = (
    "No Baobab deploys late on Friday\n---\nBaobab production deploys stop every Friday "
    "at 15:00 CET; after that, hotfixes require Jonas Weber's approval.\n\n**Why:** there "
    "is nobody to roll back during the weekend."
)
CATALPA = (
    "Conventional Commits in Catalpa\n---\nCommit messages in the Catalpa repo must follow "
    "Conventional Commits.\n\n**Why:** the changelog is generated from them.\n\n**How to "
    "apply:** prefix them with feat:, fix: or chore:."
)
CATALPA_RESTATED = (
    "Catalpa commit message format\n---\nIn the Catalpa repo, commit messages need to "
    "follow Conventional Commits, prefixed with feat:, fix: or chore:.\n\n**Why:** the "
    "changelog is built from them."
)
HICKORY = (
    "Hickory partner rate limit\n---\nThe Hickory partner API allows 600 requests per "
    "minute per key.\n\n**How to apply:** batch calls when syncing catalogues."
)
HICKORY_RESTATED = (
    "Rate limit of the Hickory partner API\n---\nEach key gets 600 requests per minute on "
    "the Hickory partner API.\n\n**How to apply:** when syncing catalogues, batch the calls."
)
HOLLY = (
    "Holly runs on Python 3.12\n---\nThe Holly workers must run on Python 3.12.\n\n**Why:** "
    "they use the new type parameter syntax."
)
HOLLY_RESTATED = (
    "Python version for Holly\n---\nHolly's workers have to run on Python 3.12.\n\n**Why:** "
    "the code relies on the new type parameter syntax."
)
SEQUOIA = (
    "Sequoia staging reset\n---\nSequoia staging is reset every Sunday at 03:00 UTC from a "
    "masked production snapshot.\n\n**How to apply:** don't keep test accounts you need on "
    "staging."
)
SEQUOIA_RESTATED = (
    "Weekly reset of Sequoia staging\n---\nEvery Sunday at 03:00 UTC, Sequoia staging is "
    "reset from a masked production snapshot.\n\n**How to apply:** never leave test "
    "accounts you rely on in staging."
)
LENA = (
    "Lena Vogt works in Berlin\n---\nLena Vogt is in Berlin (CET) and is online from 08:00 "
    "to 16:00.\n\n**How to apply:** don't schedule her reviews after 16:00 CET."
)
LENA_RESTATED = (
    "Lena Vogt's hours\n---\nLena Vogt works from Berlin, CET, and is online 08:00 to "
    "16:00.\n\n**How to apply:** avoid scheduling reviews with her after 16:00 CET."
)
ALDER = (
    "Customer bugs in Linear\n---\nBugs reported by customers of the Alder app are tracked "
    "in Linear, project ALD.\n\n**How to apply:** label them `customer` so support can "
    "follow."
)
ALDER_RESTATED = (
    "Where Alder customer bugs go\n---\nThe Alder app's customer-reported bugs are tracked "
    "in Linear under project ALD.\n\n**How to apply:** give them the `customer` label, so "
    "support can follow them."
)
OAK = (
    "Oak secrets in Vault\n---\nSecrets for the Oak services must be stored in Vault, never "
    "in environment files.\n\n**Why:** an .env file with prod keys leaked in a screenshot."
)
OAK_RESTATED = (
    "Keep Oak secrets in Vault\n---\nOak service secrets are required to be stored in Vault "
    "and never in environment files.\n\n**Why:** prod keys in an .env file once leaked "
    "through a screenshot."
)

# One memory restated whole in another person's words: the same facts, nothing added.
RESTATED: list[tuple[str, str, str]] = [
    ("project", BIRCH, BIRCH_RESTATED),
    ("feedback", CEDAR, CEDAR_RESTATED),
    ("user", INES, INES_RESTATED),
    ("feedback", JUNIPER, JUNIPER_RESTATED),
    ("project", LARCH, LARCH_RESTATED),
    ("feedback", LINDEN, LINDEN_RESTATED),
    ("feedback", MAPLE, MAPLE_RESTATED),
    ("project", ROWAN, ROWAN_RESTATED),
    ("reference", SORREL, SORREL_RESTATED),
    ("user", TOBIAS, TOBIAS_RESTATED),
    ("project", ASPEN, ASPEN_RESTATED),
    ("feedback", ELM, ELM_RESTATED),
    ("project", HORNBEAM, HORNBEAM_RESTATED),
    ("feedback", YEW, YEW_RESTATED),
    ("project", SPRUCE, SPRUCE_RESTATED),
    ("feedback", POPLAR, POPLAR_RESTATED),
    ("project", CYPRESS, CYPRESS_RESTATED),
    ("reference", MAGNOLIA, MAGNOLIA_RESTATED),
    ("user", OMAR, OMAR_RESTATED),
    ("project", BAOBAB, BAOBAB_RESTATED),
    ("feedback", CATALPA, CATALPA_RESTATED),
    ("project", HICKORY, HICKORY_RESTATED),
    ("project", HOLLY, HOLLY_RESTATED),
    ("project", SEQUOIA, SEQUOIA_RESTATED),
    ("user", LENA, LENA_RESTATED),
    ("reference", ALDER, ALDER_RESTATED),
    ("feedback", OAK, OAK_RESTATED),
]

KINDS: dict[tuple[str, str, str], str] = dict.fromkeys(RESTATED, "restated whole")


def changed(restated: str, old: str, new: str) -> str:
    """`restated` with every `old` written `new`: one fact changed, all else the same."""
    assert old in restated, old
    return restated.replace(old, new)


# The restatements with exactly one fact changed: none may merge with the original.
LOOKALIKES: list[tuple[str, str, str]] = [
    # another day, number, version, identifier or unit
    ("project", BIRCH, changed(BIRCH_RESTATED, "Wednesdays", "Thursdays")),
    ("feedback", JUNIPER, changed(JUNIPER_RESTATED, "400", "250")),
    ("project", LARCH, changed(LARCH_RESTATED, "8321", "8322")),
    ("project", ROWAN, changed(ROWAN_RESTATED, "Mondays", "Fridays")),
    ("project", ASPEN, changed(ASPEN_RESTATED, "4 replicas", "6 replicas")),
    ("project", SPRUCE, changed(SPRUCE_RESTATED, "30 days", "14 days")),
    ("project", CYPRESS, changed(CYPRESS_RESTATED, "dark_mode_v3", "dark_mode_v2")),
    ("reference", MAGNOLIA, changed(MAGNOLIA_RESTATED, "MAG)", "MGQ)")),
    ("project", BAOBAB, changed(BAOBAB_RESTATED, "15:00", "17:00")),
    ("project", HICKORY, changed(HICKORY_RESTATED, "600", "1200")),
    ("project", HICKORY, changed(HICKORY_RESTATED, "per minute", "per second")),
    ("project", HOLLY, changed(HOLLY_RESTATED, "3.12", "3.11")),
    ("project", SEQUOIA, changed(SEQUOIA_RESTATED, "Sunday", "Saturday")),
    ("user", LENA, changed(LENA_RESTATED, "16:00", "17:00")),
    ("feedback", ELM, changed(ELM_RESTATED, "npm run lint", "npm run test")),
    # another service, tool, database, person, team or place
    ("feedback", CEDAR, changed(CEDAR_RESTATED, "PostgreSQL", "MySQL")),
    ("user", INES, changed(INES_RESTATED, "Lisbon", "Madrid")),
    ("reference", SORREL, changed(SORREL_RESTATED, "Grafana", "Datadog")),
    ("user", TOBIAS, changed(TOBIAS_RESTATED, "Tobias Lind", "Tobias Berg")),
    ("project", HORNBEAM, changed(HORNBEAM_RESTATED, "Engagement team", "Growth team")),
    ("feedback", YEW, changed(YEW_RESTATED, "Dana Whitfield", "Dana Okafor")),
    ("feedback", POPLAR, changed(POPLAR_RESTATED, "use `unknown`", "use `object`")),
    ("user", OMAR, changed(OMAR_RESTATED, "Spark", "Flink")),
    ("reference", ALDER, changed(ALDER_RESTATED, "Linear", "Jira")),
    ("feedback", OAK, changed(OAK_RESTATED, "in Vault", "in AWS Secrets Manager")),
    ("feedback", MAPLE, changed(MAPLE_RESTATED, "main", "develop")),
    # another environment or component
    ("project", BIRCH, changed(BIRCH_RESTATED, "to production", "to staging")),
    ("project", BAOBAB, changed(BAOBAB_RESTATED, "production deploys", "staging deploys")),
    ("project", CYPRESS, changed(CYPRESS_RESTATED, "web app", "mobile app")),
    ("feedback", JUNIPER, changed(JUNIPER_RESTATED, "backend", "frontend")),
    # a denial added
    ("feedback", LINDEN, changed(LINDEN_RESTATED, "are required", "are not required")),
    ("feedback", CATALPA, changed(CATALPA_RESTATED, "need to follow", "do not need to follow")),
    ("project", HOLLY, changed(HOLLY_RESTATED, "have to run", "do not have to run")),
    # a scope narrowed
    ("project", SEQUOIA,
     changed(SEQUOIA_RESTATED, "Sequoia staging is reset", "Sequoia staging is reset, for "
              "the EU cluster only,")),
    ("project", ASPEN, changed(ASPEN_RESTATED, "4 replicas.", "4 replicas, for EU customers "
                                "only.")),
]  # fmt: skip


def write_corpus(root: Path, now: datetime | None = None) -> TuningCorpus:
    """The pairs as a memory directory, as the fifth batch's are
    (`tests.dream.tuning.paraphrased.write_among_services`)."""
    from tests.dream.tuning import paraphrased

    return paraphrased.write_among_services(root, KINDS, LOOKALIKES, "(bare) ", now)
