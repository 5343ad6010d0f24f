"""A seventh tuning batch for duplicate detection (issue 15 item 3): one memory restated
and added to. A teammate (or an agent) saves again what another memory says and adds
what they learnt: a sentence, a ``**Why:**`` or ``**How to apply:**`` line in Claude
Code's layout, a denial said in passing ("never edit it by hand", "she cannot read
code"), a backticked command. The restated part is sometimes re-punctuated or lightly
re-worded ("Don't" / "Do not", a comma for brackets).

`LOOKALIKES` look the same and must not merge: what is added contradicts or changes the
other (a denial of a sentence the other says, "no longer", "formerly", "until March",
an exception), or the repeated part names another number, day, owner, channel,
version, environment or unit. Written by hand after reading real memory files; nothing
here is taken from ``tests/heldout``. `write_corpus` writes the pairs among the first
batch's fillers and the fourth batch's directory of services.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.dream.tuning import TuningCorpus

# Marks a text saved as a file without frontmatter; `write_corpus` strips it.
BARE = "(bare) "

MIGRATE = (
    "Run migrations through the make wrapper\n---\nRun database migrations with "
    "`make migrate`, not with `alembic upgrade` directly."
)
AUK_SEARCH = (
    "Auk search stack\n---\nThe Auk search service runs on Elasticsearch 8.11 in eu-central-1."
)
NADIA = (
    "Nadia Petrova, frontend engineer\n---\nNadia Petrova is a frontend engineer who works "
    "mostly in TypeScript and React."
)
SQUASH = (
    "Squash-merge into main\n---\nSquash-merge every PR into main, so that each change is "
    "one commit."
)
FREEZE = "Deploys to production stop at 16:00 CET on Fridays."
PETREL_SPEC = (
    "Petrel API spec\n---\nThe Petrel API spec is in the petrel-openapi repo, file openapi/v2.yaml."
)
SNIPE = "Snipe worker input\n---\nThe Snipe worker consumes the orders.created topic from Kafka."
TEST_FIRST = (
    "Failing test before the fix\n---\nFor every bug fix, add a failing test first, then the fix."
)
TOMAS = "Tomás is the product manager for the Grebe mobile app."
LARK_PORT = "The Lark API listens on port 8443 behind the internal load balancer."
POSTMORTEMS = (
    "Where postmortems go\n---\nIncident postmortems are written in Notion under "
    "Engineering / Postmortems."
)
UV = (
    "Python dependencies with uv\n---\nAdd and update Python dependencies with `uv add`, "
    "and commit `uv.lock` with the change."
)
EXPORT = (
    "Sandpiper nightly export\n---\nThe Sandpiper nightly export runs at 01:00 UTC and "
    "writes to the sandpiper-exports bucket."
)
PR_TEXT = "Keep PR descriptions short: what changed, why, and how it was tested."
AMA = (
    "Ama Mensah likes one-liners\n---\nAma Mensah is on the SRE team and prefers shell "
    "one-liners over scripts."
)
TERN_SSO = (
    "Tern admin sign-in\n---\nThe Tern admin portal signs people in through Okta SSO; local "
    "accounts are disabled."
)
CUST_REQUESTS = "Feature requests from customers are tracked in Linear, project CUST."
KITE_DEPS = (
    "Kite SDK dependencies need Lea\n---\nDon't add new dependencies to the Kite SDK "
    "without asking Lea Moser first."
)
STAGING_RESET = (
    "Staging reset\n---\nStaging is reset every Sunday at 03:00 UTC from a masked "
    "production snapshot."
)
HERON_BUILD = (
    "Heron build pipeline\n---\n- builds run on GitHub Actions\n- images are pushed to GHCR\n"
    "- Argo CD deploys them"
)
COMMITS = "Commit messages follow Conventional Commits (feat:, fix:, chore:)."
ROHAN = "Rohan Das reviews infrastructure PRs for the Dunlin platform."
AVOCET = "Avocet job queue\n---\nThe Avocet job queue is Redis-backed (RQ) and runs 3 workers."
PLOVER_E2E = "Plover end-to-end suite\n---\nRun the Plover end-to-end suite before every release."

# One memory restated, plus sentences of its own.
SUPERSETS: list[tuple[str, str, str]] = [
    ("feedback", MIGRATE,
     "Run migrations through the make wrapper\n---\nRun database migrations with "
     "`make migrate`, not with `alembic upgrade` directly.\n\n**Why:** the wrapper takes "
     "an advisory lock first; two deploys once migrated at the same time and deadlocked."
     "\n\n**How to apply:** locally and in CI, call `make migrate`; it reads the DSN from "
     "`.env`."),
    ("project", AUK_SEARCH,
     "Auk search stack\n---\nThe Auk search service runs on Elasticsearch 8.11, in "
     "eu-central-1. Index templates are kept in the auk-infra repo."),
    ("user", NADIA,
     "Nadia Petrova, frontend engineer\n---\nNadia Petrova is a frontend engineer who works "
     "mostly in TypeScript and React. She is not familiar with Kubernetes, so explain "
     "cluster details when they come up."),
    ("feedback", SQUASH,
     "Squash-merge into main\n---\nSquash-merge every PR into main, so that each change is "
     "one commit.\n\n**Why:** bisecting was painful when merge commits piled up; nobody "
     "could tell which commit shipped a bug.\n\n**How to apply:** pick \"Squash and "
     "merge\" in GitHub."),
    ("project", FREEZE,
     "Deploys to production stop at 16:00 CET on Fridays. Hotfixes after that need an "
     "approval from Jonas Weber in #release-desk."),
    ("reference", PETREL_SPEC,
     "Petrel API spec\n---\nThe Petrel API spec is in the petrel-openapi repo, file "
     "openapi/v2.yaml. Regenerate the client with `npm run gen:client` after changing it."),
    ("project", SNIPE,
     "Snipe worker input\n---\nThe Snipe worker consumes the orders.created topic from "
     "Kafka.\n\n**Why:** it drafts the invoices the Billing team sends out.\n\n**How to "
     "apply:** when invoices lag, look at the consumer lag on the Kafka dashboard first."),
    ("feedback", TEST_FIRST,
     "Failing test before the fix\n---\nFor every bug fix, add a failing test first, then "
     "the fix.\n\n**Why:** Karin wants proof that the test catches the bug; a test written "
     "after the fix often passes either way.\n\n**How to apply:** commit the failing test "
     "on its own, then the fix in a second commit."),
    ("user", TOMAS,
     "Tomás is the product manager for the Grebe mobile app. He cannot read code, so "
     "summarise changes in plain language."),
    ("project", LARK_PORT,
     "The Lark API listens on port 8443, behind the internal load balancer. Health checks "
     "hit `/healthz` every 10 seconds."),
    ("reference", POSTMORTEMS,
     "Where postmortems go\n---\nIncident postmortems are written in Notion under "
     "Engineering / Postmortems. Use the template pinned at the top; a draft doesn't need "
     "sign-off before it is shared."),
    ("feedback", UV,
     "Python dependencies with uv\n---\nAdd and update Python dependencies with `uv add`, "
     "and commit `uv.lock` with the change.\n\n**Why:** pip-tools was dropped in 2025 and "
     "its requirements files are no longer read by CI."),
    ("project", EXPORT,
     "Sandpiper nightly export\n---\nThe Sandpiper nightly export runs at 01:00 UTC and "
     "writes to the sandpiper-exports bucket. It takes about 40 minutes; when it fails, "
     "the data team is paged through Opsgenie."),
    ("feedback", PR_TEXT,
     "Keep PR descriptions short: what changed, why, and how it was tested.\n\n**Why:** "
     "reviewers on the Curlew team skim dozens of PRs a day and never read past the first "
     "screen."),
    ("user", AMA,
     "Ama Mensah likes one-liners\n---\nAma Mensah is on the SRE team and prefers shell "
     "one-liners over scripts. Don't explain basic Linux commands to her."),
    ("project", TERN_SSO,
     "Tern admin sign-in\n---\nThe Tern admin portal signs people in through Okta SSO; "
     "local accounts are disabled.\n\n**How to apply:** to give someone access, ask IT to "
     "add them to the tern-admins group in Okta."),
    ("reference", CUST_REQUESTS,
     "Feature requests from customers are tracked in Linear (project CUST). Triage is on "
     "Mondays at 10:00 with Ravi Menon."),
    ("feedback", KITE_DEPS,
     "Kite SDK dependencies need Lea\n---\nDo not add new dependencies to the Kite SDK "
     "without asking Lea Moser first.\n\n**Why:** the SDK ships inside customer apps, and "
     "every dependency grows their bundle.\n\n**How to apply:** open an issue with the "
     "package name and its size before the PR."),
    ("project", STAGING_RESET,
     "Staging reset\n---\nStaging is reset every Sunday at 03:00 UTC from a masked "
     "production snapshot. Anything created there during the week is lost, so never keep "
     "test accounts you need on it."),
    ("project", HERON_BUILD,
     "Heron build pipeline\n---\n- builds run on GitHub Actions\n- images are pushed to "
     "GHCR\n- Argo CD deploys them\n- release notes come from `git cliff`"),
    ("feedback", COMMITS,
     "Commit messages follow Conventional Commits (feat:, fix:, chore:).\n\n**Why:** the "
     "Shrike CLI changelog is generated from them.\n\n**How to apply:** a commit without a "
     "type prefix fails the commit-msg hook; never bypass it with `--no-verify`."),
    ("user", ROHAN,
     "Rohan Das reviews infrastructure PRs for the Dunlin platform. He works from "
     "Bangalore and answers after 14:00 CET."),
    ("project", AVOCET,
     "Avocet job queue\n---\nThe Avocet job queue is Redis-backed - RQ - and runs 3 "
     "workers. Failed jobs stay in the failed registry for 7 days."),
    ("feedback", PLOVER_E2E,
     "Plover end-to-end suite\n---\nRun the Plover end-to-end suite before every release."
     "\n\n**Why:** unit tests missed the broken checkout in the 4.2 release.\n\n**How to "
     "apply:** `make e2e` runs it against a local stack; it takes about 25 minutes."),
    ("project", TERN_SSO,
     BARE + "The Tern admin portal signs people in through Okta SSO, local accounts are "
     "disabled. MFA is enforced by Okta, not by the portal."),
]  # fmt: skip

WIGEON_TESTS = (
    "No mocks in Wigeon integration tests\n---\nIntegration tests for the Wigeon service "
    "must use a real Postgres database, not mocks."
)
GADWALL_DEPLOYS = (
    "Gadwall deploys on Tuesdays\n---\nThe Gadwall service is deployed to production every "
    "Tuesday at 11:00 UTC."
)
KEIKO = (
    "Keiko prefers answers in Japanese\n---\nKeiko Sato prefers answers in Japanese, with "
    "code and identifiers left in English."
)
SHOVELER_RUNBOOKS = (
    "Shoveler runbooks\n---\nRunbooks for the Shoveler service are in Confluence, space SHOV."
)
EIDER_PRS = (
    "Small PRs for Eider\n---\nKeep pull requests to the Eider frontend under 300 changed lines."
)
SCOTER_DB = (
    "Scoter database\n---\nThe Scoter API stores its data in PostgreSQL 15 on RDS, reached "
    "through PgBouncer."
)
MERGANSER_PORT = "Merganser local port\n---\nRun the Merganser geo service locally on port 8214."
SMEW_ANY = "Don't use `any` in the Smew TypeScript code; use `unknown` and narrow it."
LIOR = "Lior Ben-David is on the mobile team and writes Swift."
PINTAIL_ERRORS = (
    "Pintail error tracking\n---\nFrontend errors of the Pintail app are reported to "
    "Sentry, project pintail-web."
)
GARGANEY_TRAIN = (
    "Garganey release train\n---\nGarganey releases to production every second Thursday."
)
BRANT_SIGNING = (
    "Sign commits\n---\nAll commits to the Brant repos must be signed with your SSH key."
)

# One memory restated in a few words of the writer's own (another description, a
# synonym, another word order), plus Why/How lines or a sentence of its own.
RESTATED: list[tuple[str, str, str]] = [
    ("feedback", WIGEON_TESTS,
     "Wigeon integration tests hit real Postgres\n---\nWigeon's integration tests must run "
     "against a real Postgres database, never mocks.\n\n**Why:** a mocked suite passed in "
     "April while a migration broke production.\n\n**How to apply:** start it with "
     "`docker compose up wigeon-db` before `make itest`; don't point the tests at a shared "
     "database."),
    ("project", GADWALL_DEPLOYS,
     "Gadwall deploy day\n---\nGadwall is deployed to production on Tuesdays at 11:00 UTC."
     "\n\n**Why:** the Payments team reads the release notes on Monday.\n\n**How to "
     "apply:** merge Gadwall changes by Monday evening, or they wait a week."),
    ("user", KEIKO,
     "Answer Keiko in Japanese\n---\nAnswer Keiko Sato in Japanese; keep code and "
     "identifiers in English.\n\n**Why:** she reads English slowly but code in any "
     "language.\n\n**How to apply:** never translate error messages she pastes; quote "
     "them as they are."),
    ("reference", SHOVELER_RUNBOOKS,
     "Shoveler runbook location\n---\nThe Shoveler service runbooks are in Confluence "
     "(space SHOV).\n\n**How to apply:** link the runbook from every new alert; an alert "
     "without a runbook is not merged."),
    ("feedback", EIDER_PRS,
     "Eider PR size\n---\nPull requests to the Eider frontend should stay under 300 changed "
     "lines.\n\n**Why:** reviews of larger ones took days and missed bugs.\n\n**How to "
     "apply:** split refactors from behaviour changes; generated files don't count toward "
     "the limit."),
    ("project", SCOTER_DB,
     "Scoter datastore\n---\nScoter API data is kept in PostgreSQL 15 on RDS; connections "
     "go through PgBouncer.\n\n**Why:** the API opens a connection per request and RDS "
     "caps connections at 500.\n\n**How to apply:** avoid session-level state such as "
     "temp tables or `SET` outside a transaction."),
    ("project", MERGANSER_PORT,
     "Merganser geo service: local setup\n---\nLocally, the Merganser geo service runs on "
     "port 8214.\n\n**How to apply:** `docker run -p 8214:8214 merganser-geo` starts it; "
     "whatever calls it locally should use http://localhost:8214."),
    ("feedback", SMEW_ANY,
     "No any in Smew TypeScript\n---\nIn the Smew TypeScript code, avoid `any`: use "
     "`unknown` and narrow it.\n\n**Why:** `any` hid a null bug that reached customers "
     "in 3.4.\n\n**How to apply:** the lint rule `no-explicit-any` is an error in CI; "
     "don't silence it with a comment."),
    ("user", LIOR,
     "Lior Ben-David, iOS\n---\nLior Ben-David is on the mobile team, writing Swift.\n\n"
     "He does not know Android, so explain Kotlin snippets line by line."),
    ("reference", PINTAIL_ERRORS,
     "Pintail errors in Sentry\n---\nThe Pintail app reports its frontend errors to "
     "Sentry (project pintail-web). Source maps are uploaded by `npm run sentry:upload` in "
     "the release job."),
    ("project", GARGANEY_TRAIN,
     "Garganey release cadence\n---\nGarganey releases to production every other "
     "Thursday.\n\n**Why:** QA needs a full week to test each release.\n\n**How to "
     "apply:** anything merged after the Monday cut waits for the next train."),
    ("feedback", BRANT_SIGNING,
     "Commit signing for Brant\n---\nEvery commit to the Brant repos has to be signed "
     "with an SSH key.\n\n**Why:** branch protection rejects unsigned commits.\n\n**How "
     "to apply:** set `git config commit.gpgsign true` and `gpg.format ssh` once per "
     "machine."),
]  # fmt: skip

KINDS: dict[tuple[str, str, str], str] = dict.fromkeys(SUPERSETS, "superset") | dict.fromkeys(
    RESTATED, "superset restated"
)

# The same memories "added to" with a fact changed or taken back: none may merge.
LOOKALIKES: list[tuple[str, str, str]] = [
    # the added sentence denies or ends what the other says
    ("user", NADIA,
     "Nadia Petrova, frontend engineer\n---\nNadia Petrova is a frontend engineer who works "
     "mostly in TypeScript and React. She no longer works in React; her team moved to "
     "Svelte in June."),
    ("user", TOMAS,
     "Tomás is no longer the product manager for the Grebe mobile app; Inés took over in "
     "June."),
    ("user", ROHAN,
     "Rohan Das formerly reviewed infrastructure PRs for the Dunlin platform. He works "
     "from Bangalore and answers after 14:00 CET."),
    ("project", AUK_SEARCH,
     "Auk search stack\n---\nThe Auk search service ran on Elasticsearch 8.11 in "
     "eu-central-1 until March. It has since moved to OpenSearch 2.13."),
    ("feedback", UV,
     "Python dependencies with uv\n---\nAdd and update Python dependencies with `uv add`. "
     "Never commit `uv.lock` with the change; CI regenerates it.\n\n**Why:** lock files "
     "from laptops kept conflicting."),
    ("user", AMA,
     "Ama Mensah likes one-liners\n---\nAma Mensah is on the SRE team and prefers shell "
     "one-liners over scripts. That changed in May: she now wants scripts she can check "
     "in, not one-liners."),
    ("feedback", PLOVER_E2E,
     "Plover end-to-end suite\n---\nRun the Plover end-to-end suite before every release."
     "\n\n**How to apply:** skip it for patch releases; it takes about 25 minutes."),
    ("project", STAGING_RESET,
     "Staging reset\n---\nStaging is reset every Sunday at 03:00 UTC from a masked "
     "production snapshot. This holds for the EU cluster only; US staging is not reset."),
    ("feedback", SQUASH,
     "Squash-merge into main\n---\nDo not squash-merge PRs into main; each change keeps "
     "its commits.\n\n**Why:** bisecting needs the small commits."),
    ("project",
     "Contractors can merge PRs into the Kite SDK repo.",
     "Contractors cannot merge PRs into the Kite SDK repo; Lea Moser merges for them."),
    ("project",
     "Failed Avocet jobs are retried automatically.",
     "Failed Avocet jobs are not retried automatically. They stay in the failed registry "
     "for 7 days; requeue them with `rq requeue`."),
    # a sentence of its own that has nothing of its own to deny, take away or end
    ("project", FREEZE, FREEZE + " Not this month."),
    ("project", STAGING_RESET, STAGING_RESET + " Except in December."),
    ("reference", CUST_REQUESTS, CUST_REQUESTS + "\n\nIgnore this note."),
    ("project", LARK_PORT, LARK_PORT + " Obsolete."),
    ("feedback", PR_TEXT, PR_TEXT + "\n\n**Why:** this no longer applies."),
    # the repeated part names another number, day, owner, channel, version or place
    ("project", LARK_PORT,
     "The Lark API listens on port 9443, behind the internal load balancer. Health checks "
     "hit `/healthz` every 10 seconds."),
    ("project", FREEZE,
     "Deploys to production stop at 16:00 CET on Thursdays. Hotfixes after that need an "
     "approval from Jonas Weber in #release-desk."),
    ("user", TOMAS,
     "Inés is the product manager for the Grebe mobile app. She cannot read code, so "
     "summarise changes in plain language."),
    ("feedback", KITE_DEPS,
     "Kite SDK dependencies need Omar\n---\nDo not add new dependencies to the Kite SDK "
     "without asking Omar Farouk first.\n\n**Why:** the SDK ships inside customer apps, "
     "and every dependency grows their bundle."),
    ("project", EXPORT,
     "Sandpiper nightly export\n---\nThe Sandpiper nightly export runs at 02:00 UTC and "
     "writes to the sandpiper-exports bucket. It takes about 40 minutes; when it fails, "
     "the data team is paged through Opsgenie."),
    ("project", SNIPE,
     "Snipe worker input\n---\nThe Snipe worker consumes the orders.updated topic from "
     "Kafka.\n\n**Why:** it drafts the invoices the Billing team sends out."),
    ("project", AUK_SEARCH,
     "Auk search stack\n---\nThe Auk search service runs on Elasticsearch 7.17 in "
     "eu-central-1. Index templates are kept in the auk-infra repo."),
    ("project", AUK_SEARCH,
     "Auk search stack\n---\nThe Auk search service runs on Elasticsearch 8.11 in "
     "us-east-1. Index templates are kept in the auk-infra repo."),
    ("user", ROHAN,
     "Priya Nair reviews infrastructure PRs for the Dunlin platform. Rohan Das is her "
     "backup when she is away."),
    ("reference", CUST_REQUESTS,
     "Feature requests from customers are tracked in Linear, project CORE. Triage is on "
     "Mondays at 10:00 with Ravi Menon."),
    ("project",
     "Triage of customer feature requests is every Monday at 10:00.",
     "Triage of customer feature requests is every Tuesday at 10:00.\n\n**Why:** product "
     "plans on Monday and wants the list the day after."),
    ("project",
     "Hotfixes to production need an approval in #release-desk.",
     "Hotfixes to production need an approval in #release-ops. Jonas Weber approves most "
     "of them."),
    ("project",
     "Hotfixes to production need an approval in #release-desk.",
     "Hotfixes to staging need an approval in #release-desk. Jonas Weber approves most "
     "of them."),
    ("project",
     "Failed Avocet jobs stay in the failed registry for 7 days.",
     "Failed Avocet jobs stay in the failed registry for 7 hours. Requeue them with "
     "`rq requeue` before then."),
    ("project", AVOCET,
     "Avocet job queue\n---\nThe Avocet job queue is Redis-backed (RQ) and runs 5 workers. "
     "Failed jobs stay in the failed registry for 7 days."),
    ("feedback", PR_TEXT,
     "Keep PR descriptions long: what changed, why, and how it was tested.\n\n**Why:** "
     "reviewers on the Curlew team read them before the diff."),
    ("feedback", MIGRATE,
     "Run migrations through alembic\n---\nRun database migrations with `alembic upgrade` "
     "directly, not with `make migrate`.\n\n**Why:** the wrapper hid errors."),
]  # fmt: skip

# The restated memories above with a fact changed, or taken back in the added lines.
LOOKALIKES += [
    ("feedback", WIGEON_TESTS,
     "Wigeon integration tests hit real MySQL\n---\nWigeon's integration tests must run "
     "against a real MySQL database, never mocks.\n\n**Why:** a mocked suite passed in "
     "April while a migration broke production."),
    ("feedback", WIGEON_TESTS,
     "Wigeon integration tests hit real Postgres\n---\nWigeon's integration tests must run "
     "against a real Postgres database, never mocks.\n\n**How to apply:** this does not "
     "hold for the Wigeon CLI tests, which may mock it."),
    ("project", GADWALL_DEPLOYS,
     "Gadwall deploy day\n---\nGadwall is deployed to staging on Tuesdays at 11:00 UTC."
     "\n\n**Why:** the Payments team reads the release notes on Monday."),
    ("project", GADWALL_DEPLOYS,
     "Gadwall deploy day\n---\nGadwall is deployed to production on Thursdays at 11:00 UTC."
     "\n\n**How to apply:** merge Gadwall changes by Tuesday evening, or they wait a week."),
    ("user", KEIKO,
     "Answer Keiko in English\n---\nAnswer Keiko Sato in English, not Japanese; keep code "
     "and identifiers in English too.\n\n**Why:** her team switched to English in 2026."),
    ("feedback", EIDER_PRS,
     "Eider PR size\n---\nPull requests to the Eider frontend should stay under 500 changed "
     "lines.\n\n**Why:** reviews of larger ones took days and missed bugs."),
    ("project", SCOTER_DB,
     "Scoter datastore\n---\nScoter API data is kept in PostgreSQL 16 on RDS; connections "
     "go through PgBouncer.\n\n**Why:** the API opens a connection per request."),
    ("project", MERGANSER_PORT,
     "Merganser geo service: local setup\n---\nLocally, the Merganser geo service runs on "
     "port 8215.\n\n**How to apply:** `docker run -p 8215:8215 merganser-geo` starts it."),
    ("feedback", SMEW_ANY,
     "Any in Smew TypeScript tests\n---\nIn the Smew TypeScript code, `any` is allowed in "
     "test files; elsewhere use `unknown` and narrow it."),
    ("user", LIOR,
     "Lior Ben-David, Android\n---\nLior Ben-David is on the mobile team, writing Kotlin."
     "\n\nHe does not know Swift, so explain iOS snippets line by line."),
    ("reference", PINTAIL_ERRORS,
     "Pintail errors in Sentry\n---\nThe Pintail app reports its frontend errors to "
     "Sentry (project pintail-admin). Source maps are uploaded in the release job."),
    ("project", GARGANEY_TRAIN,
     "Garganey release cadence\n---\nGarganey releases to production every other "
     "Wednesday.\n\n**Why:** QA needs a full week to test each release."),
    ("feedback", BRANT_SIGNING,
     "Commit signing for Brant\n---\nCommits to the Brant repos no longer have to be "
     "signed with an SSH key.\n\n**Why:** branch protection was relaxed in May."),
    ("reference", SHOVELER_RUNBOOKS,
     "Shoveler runbook location\n---\nThe Shoveler service runbooks were in Confluence "
     "(space SHOV) until 2026; they are in Backstage now."),
]  # fmt: skip


def write_corpus(root: Path, now: datetime | None = None) -> TuningCorpus:
    """The pairs as a memory directory, as the fifth batch's are
    (`tests.dream.tuning.paraphrased.write_among_services`)."""
    from tests.dream.tuning import paraphrased

    return paraphrased.write_among_services(root, KINDS, LOOKALIKES, BARE, now)
