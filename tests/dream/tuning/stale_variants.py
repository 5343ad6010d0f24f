"""Tuning material for stale marking (issue 15 item 4): memories made stale by a newer
memory, by a teammate's memory or by the code, and look-alikes that must stay unflagged.

Written for this purpose, in the ways teams write such memories (other verbs than the
older memory's, "no longer", "moved from X to Y", "we switched to", "now", the subject
first or last, "key: value" against prose), never from ``tests/heldout``. Rules and word
lists in ``memsync.dream.supersession`` and ``memsync.dream.code_values`` are chosen
here; the held-out corpus only checks them.

Each pair is (type, older, newer). A text holding a line ``---`` has its own
description before it; otherwise its first sentence is the description.
"""

from __future__ import annotations

# A newer memory of the same directory says otherwise about the same thing.
SUPERSEDED: list[tuple[str, str, str]] = [
    ("project", "The Payments API listens on port 8443.",
     "We moved the Payments API to port 9443 when the load balancer changed."),
    ("project", "Search indexer deploys go out on Tuesday.",
     "Search indexer deploys now happen on Thursday instead."),
    ("project", "The request timeout for the Orders API is 30 seconds.",
     "Orders API request timeout was raised to 60 seconds after the January incidents."),
    ("project", "Redis for the session cache runs on cache-01.internal.",
     "The session cache moved from cache-01.internal to cache-02.internal."),
    ("project", "Ledger team owns the Billing API.",
     "Billing API ownership passed to the Platform team in March."),
    ("project", "Staging database host: db-staging-1.acme.dev",
     "Staging database is now at db-staging-2.acme.dev (old host retired)."),
    ("project", "The Notifications worker runs 3 replicas.",
     "We scaled the Notifications worker to 6 replicas."),
    ("project", "Mobile releases are cut every Wednesday.",
     "Mobile release cut day changed from Wednesday to Monday."),
    ("project", "Log retention in Loki is 14 days.",
     "Loki log retention is no longer 14 days; it is 30 days since the audit."),
    ("project", "Reports API on-call: Tom Berg",
     "Ana Ruiz took over Reports API on-call from Tom Berg."),
    ("project", "The catalog cache TTL is 300 seconds.",
     "We cut the catalog cache TTL to 120 seconds to show price changes sooner."),
    ("reference", "Build artifacts are uploaded to the bucket acme-artifacts-eu.",
     "Build artifacts now go to the bucket acme-builds-eu; acme-artifacts-eu is read-only."),
    ("project", "Max upload size for the Media API: 25 MB",
     "Media API uploads are capped at 50 MB now."),
    ("project", "Analytics exports run nightly at 02:00 UTC.",
     "Analytics exports were rescheduled to 04:30 UTC."),
    ("project", "The Gateway rate limit is 600 requests per minute per partner.",
     "Partner rate limit on the Gateway went up to 1200 requests per minute."),
    ("project", "Incidents for the Checkout API go to the channel #checkout-alerts.",
     "Checkout API incidents are posted in #payments-incidents since the team merge."),
    ("project", "Frontend code freeze starts Friday at 18:00.",
     "The frontend code freeze now starts at 12:00 on Friday."),
    ("reference", "Support escalations go to support-leads@acme.dev.",
     "Escalations from support are sent to escalations@acme.dev these days."),
    ("project", "The Fraud model retrains every 7 days.",
     "We switched Fraud model retraining to every 3 days."),
    ("project", "Kafka consumer group for the Orders worker: orders-v1",
     "Orders worker consumes as group orders-v2 after the re-partitioning."),
    ("project", "The Accounts API uses 20 database connections per pod.",
     "Database connections per pod for the Accounts API: 40"),
    ("project", "Deploy window for the Identity API\n---\nIdentity API deploys happen on "
     "Monday between 10:00 and 12:00.",
     "Identity API deploy window\n---\nThe Identity API deploy window moved to Tuesday."),
]  # fmt: skip

# A tool, place or person replaced by another: the newer memory names the old one as
# the past ("from X to Y", "no longer X", "instead of X"), or states another value in a
# "key: value" description the older wrote as prose.
SUPERSEDED += [
    ("project", "We use yarn for the web repo.", "The web repo switched from yarn to pnpm."),
    ("project", "Feature flags are managed in LaunchDarkly.",
     "We moved feature flags off LaunchDarkly; they are in Unleash now."),
    ("project", "CI for the monorepo runs on Jenkins.",
     "Monorepo CI no longer runs on Jenkins; it is all GitHub Actions."),
    ("reference", "Runbooks are in Confluence under SRE.",
     "Runbooks moved from Confluence to Notion last quarter."),
    ("project", "Session store: Redis",
     "Sessions are no longer kept in Redis; they live in Postgres."),
    ("project", "The web app runs on Node 18.", "We upgraded the web app to Node 20."),
    ("project", "Releases are tagged by the release bot every Friday.",
     "The release bot tags releases on Thursday now, not Friday."),
    ("project", "Payments API owner\n---\nOwner: Ledger team",
     "Who owns the Payments API\n---\nThe Treasury team owns the Payments API now."),
    ("project", "Nightly backups of the orders database start at 01:00.",
     "Orders database backups: nightly, 03:00"),
]  # fmt: skip

# Written as agents write them: a description of its own, then the rule, a "Why:" and a
# "How to apply:" paragraph, each with words the other memory does not have.
SUPERSEDED += [
    ("project",
     "Where preview builds are deployed\n---\nPreview builds for pull requests deploy to "
     "preview.acme.dev.\n\n**Why:** the QA team tests every PR there before merge.\n\n"
     "**How to apply:** link the preview URL in the PR description.",
     "Preview deploy host changed\n---\nPR preview builds now deploy to "
     "previews.acme.cloud; preview.acme.dev was shut down in October.\n\n"
     "**Why:** the old cluster was retired."),
    ("feedback",
     "Max PR size\n---\nKeep pull requests under 400 changed lines.\n\n**Why:** reviews of "
     "bigger PRs took days.\n\n**How to apply:** split refactors from behaviour changes.",
     "PR size limit\n---\nThe pull request limit is 250 changed lines since the review "
     "retro.\n\n**How to apply:** the CI bot labels bigger PRs too-large."),
    ("project",
     "Who approves schema migrations\n---\nSchema migrations need an approval from Joe Park "
     "before they run in production.\n\n**Why:** a migration locked the orders table once.",
     "Migration approvals\n---\nProduction schema migrations are approved by Lena Ortiz "
     "now (Joe Park moved to the mobile team)."),
    ("reference",
     "Metrics dashboards\n---\nService dashboards are in Grafana at grafana.acme.dev, "
     "folder Services.",
     "Grafana moved\n---\nThe Services dashboards live at grafana.acme.io since the "
     "migration; bookmarks to the old address break."),
]  # fmt: skip

# A tool named where the older named another, the newer saying it changed; a frequency
# or a state that changed.
SUPERSEDED += [
    ("project", "Unit tests for the checkout service run on Jest.",
     "We switched the checkout service's unit tests to Vitest."),
    ("project", "Billing API logs are shipped to Datadog.",
     "Billing API logs are now shipped to Grafana Loki."),
    ("project", "Database backups for the ledger run nightly.",
     "Ledger database backups now run hourly."),
    ("project", "Two-factor login is optional for contractors.",
     "Two-factor login is now required for contractors."),
    ("project", "The legacy export endpoint is enabled in production.",
     "We disabled the legacy export endpoint in production."),
]  # fmt: skip

# A teammate's newer memory (team/) says otherwise than one of mine.
CONTRADICTED: list[tuple[str, str, str]] = [
    ("project", "The Inventory API runs on port 7001.",
     "Inventory API port is 7101 since the mesh rollout."),
    ("project", "Warehouse sync runs every 15 minutes.",
     "The warehouse sync interval is 5 minutes now."),
    ("project", "The Loyalty team owns the Gift cards API.",
     "Gift cards API is owned by the Checkout team."),
    ("project", "Production deploys of the Shipping API happen on Thursday.",
     "Shipping API goes to production on Tuesdays."),
    ("reference", "The status page lives at status.acme.dev.",
     "Our status page moved to status.acme.io."),
    ("project", "Pricing API keeps 4 workers per node.",
     "The Pricing API runs 8 workers per node."),
    ("project", "Escalate Profile API incidents to Nia Long.",
     "Profile API incidents escalate to Ravi Nair, not Nia Long."),
    ("project", "Backups of the orders database are kept for 35 days.",
     "The orders database backups are retained 90 days."),
    ("project", "Maximum retries for the Webhooks sender: 5",
     "The Webhooks sender gives up after 3 retries."),
    ("project", "The Search API is served from eu-west-1.",
     "Search API serving region changed to eu-central-1."),
    ("project", "Error tracking for the web app is in Rollbar.",
     "The web app reports errors to Sentry instead of Rollbar."),
    ("project", "The design system package is published to npm on Mondays.",
     "Design system releases to npm happen on Wednesdays."),
    ("project",
     "Staging reset schedule\n---\nThe staging database is reset from a production "
     "snapshot every Sunday night.\n\n**Why:** tests need realistic data.\n\n"
     "**How to apply:** don't keep test accounts on staging over the weekend.",
     "Staging database reset day\n---\nStaging gets its production snapshot every Saturday "
     "night now.\n\n**How to apply:** plan long QA runs for weekdays."),
    ("feedback",
     "Code review turnaround\n---\nReview requests should get a first response within "
     "24 hours.\n\n**Why:** PRs waiting longer went stale.",
     "Review turnaround\n---\nWe aim for a first review response within 4 hours on "
     "weekdays.\n\n**Why:** the team moved to smaller PRs."),
]  # fmt: skip

# A teammate who files the same fact under another type ("reference" for "project").
CONTRADICTED_ACROSS_TYPES: list[tuple[str, str, str, str]] = [
    ("project", "The Orders API sandbox is at sandbox.orders.acme.dev.",
     "reference", "Orders API sandbox moved to orders-sandbox.acme.dev."),
    ("reference", "Vendor status for the SMS gateway: status.smsco.com",
     "project", "The SMS gateway vendor's status page is now status.textly.io."),
]  # fmt: skip

# Pairs that share words, or a subject, without one replacing the other: never flagged,
# whichever is newer, in one directory or as a teammate's memory.
NEAR_MISSES: list[tuple[str, str, str]] = [
    # Different subjects, same shape.
    ("project", "Staging deploys happen on Tuesday.", "Production deploys happen on Thursday."),
    ("project", "The Billing API listens on port 8080.", "The Search API listens on port 8081."),
    ("project", "The web app on-call rotates on Monday.",
     "The mobile app on-call rotates on Friday."),
    ("project", "Orders API request timeout: 30 seconds",
     "Orders API idle connection timeout: 90 seconds"),
    ("project", "The Payments team deploys on Tuesday.",
     "The Payments team holds its retro on Thursday."),
    ("project", "Log retention in Loki is 14 days.", "Trace retention in Tempo is 7 days."),
    ("project", "The catalog cache TTL is 300 seconds.",
     "The catalog search results are paginated at 50 items."),
    ("project", "Mei Lin leads the Checkout team.", "Mei Lin reviews all Checkout API migrations."),
    ("project", "The Orders worker runs 3 replicas in eu-west-1.",
     "The Orders worker runs 5 replicas in us-east-1."),
    ("project", "Reports API on-call: Tom Berg", "Reports API owner: Ledger team"),
    # The newer adds a fact and changes none.
    ("project", "The Payments API listens on port 8443.",
     "The Payments API listens on port 8443; its metrics are on port 9100."),
    ("project", "Search indexer deploys go out on Tuesday.",
     "Search indexer deploys go out on Tuesday, after the 10:00 sync."),
    ("project", "Ledger team owns the Billing API.",
     "Ledger team owns the Billing API; escalate to Tom Berg."),
    ("project", "The Notifications worker runs 3 replicas.",
     "The Notifications worker runs 3 replicas, each with 2 GB of memory."),
    ("project", "Analytics exports run nightly at 02:00 UTC.",
     "Analytics exports run nightly at 02:00 UTC and take about 40 minutes."),
    # The same fact, re-worded or re-punctuated (duplicates, not stale).
    ("project", "Gateway rate limit: 600 requests per minute",
     "The Gateway allows 600 requests per minute."),
    ("reference", "Runbooks are in Confluence under SRE.",
     "Our runbooks live in Confluence, in the SRE space."),
    # A newer memory on a neighbouring subject, with numbers.
    ("project", "The Accounts API uses 20 database connections per pod.",
     "The Accounts API pods restart every 24 hours."),
    ("project", "Android min SDK is 26.", "iOS minimum version is 15."),
    ("feedback", "Never deploy the Billing API on Friday.",
     "Never deploy the Search API on Monday morning."),
    ("project", "Kafka consumer group for the Orders worker: orders-v1",
     "Kafka consumer group for the Invoices worker: invoices-v1"),
    ("user", "Priya prefers reviews in the morning.", "Omar prefers reviews in the afternoon."),
    # A tool left behind by another subject: not this one.
    ("project", "We use yarn for the web repo.", "The docs site switched from yarn to pnpm."),
    ("reference", "Runbooks are in Confluence under SRE.",
     "Design docs moved from Confluence to Notion."),
    ("project", "Deploys of the web app go through Jenkins.",
     "The mobile app moved from Jenkins to Bitrise."),
    ("project", "CI for the monorepo runs on Jenkins.", "Nightly load tests run on Jenkins too."),
    # A tool or a frequency of another subject, a change said of something else.
    ("project", "Billing API logs are shipped to Datadog.",
     "Search API metrics moved to Grafana."),
    ("project", "Billing API logs are shipped to Datadog.",
     "Billing API traces now go to Honeycomb."),
    ("project", "Unit tests for the checkout service run on Jest.",
     "We switched the search service's unit tests to Vitest."),
    ("project", "Database backups for the ledger run nightly.",
     "Search index rebuilds for the ledger now run hourly."),
    ("project", "Two-factor login is optional for contractors.",
     "Two-factor login is now required for employees."),
    # The newer names a narrower subject ("for exports").
    ("project", "The Orders API timeout is 30 seconds.",
     "The Orders API timeout for exports is 120 seconds."),
    ("project", "Grafana for the platform is at grafana.acme.dev.",
     "Grafana dashboards for billing are at grafana.acme.dev/billing."),
]  # fmt: skip

# Code values: a checkout file declares a value; a memory states it (right or wrong).
CODE_FILES: dict[str, str] = {
    "config/settings.py": (
        "import os\n\nREQUEST_TIMEOUT = 45\nMAX_RETRIES = 3\n"
        "DEFAULT_PAGE_SIZE = 50\nCACHE_TTL_SECONDS = 600\n"
        'SUPPORT_EMAIL = "help@acme.dev"\n'
    ),
    "deploy/app.yaml": "service: orders\nreplicas: 4\nport: 9090\nlog_level: info\n",
    ".env.example": "WORKER_CONCURRENCY=8\nQUEUE_NAME=orders-high\n",
    "internal/limits/limits.go": (
        "package limits\n\nconst MaxBatchSize = 500\n\nvar defaultWorkers = 16\n"
    ),
    "src/client.ts": "export const API_VERSION = 'v3';\nexport const pollIntervalMs = 2000;\n",
    "package.json": '{"dependencies": {"react": "^18.2.0", "zod": "3.22.4"}, '
    '"devDependencies": {"vitest": "~1.6.0"}}\n',
    "go.mod": "module acme.dev/relay\n\ngo 1.22\n\nrequire (\n"
    "\tgoogle.golang.org/grpc v1.62.0\n\tgithub.com/jackc/pgx/v5 v5.5.4\n)\n",
    "internal/server/server.go": (
        "package server\n\nfunc New() *http.Server {\n\treturn &http.Server{\n"
        "\t\tReadTimeout:  15 * time.Second,\n\t\tIdleTimeout: 120 * time.Second,\n\t}\n}\n"
    ),
}
# (memory text, what the code says instead) for stale ones.
CODE_STALE: list[tuple[str, str]] = [
    ("`REQUEST_TIMEOUT` is 30 seconds in config/settings.py.", "45"),
    ("We retry failed calls up to 5 times (`MAX_RETRIES = 5`).", "3"),
    ("Default page size: `DEFAULT_PAGE_SIZE` = 25", "50"),
    ("deploy/app.yaml sets `replicas: 2` for the orders service.", "4"),
    ("The worker concurrency is `WORKER_CONCURRENCY=4`.", "8"),
    ("`MaxBatchSize` is 1000 rows per insert.", "500"),
    ("Clients poll every 5000 ms (`pollIntervalMs`).", "2000"),
    ("Jobs go to the `orders-default` queue (`QUEUE_NAME`).", "orders-high"),
    # The setting named in words, in a file the memory cites.
    ("The default request timeout in config/settings.py is 30 seconds.", "45"),
    ("deploy/app.yaml runs the orders service with 2 replicas.", "4"),
    ("Per internal/limits/limits.go the max batch size is 1000.", "500"),
    ("The client in src/client.ts polls every 5 seconds (poll interval).", "2000"),
    # A dependency's version; a setting named in words, the file not cited.
    ("The web app is on React 17.", "^18.2.0"),
    ("The relay pins grpc v1.58.", "v1.62.0"),
    ("Unit tests run on Vitest 0.34.", "~1.6.0"),
    ("The HTTP server's read timeout is 10 seconds.", "15"),
]
CODE_FRESH: list[str] = [
    "`REQUEST_TIMEOUT` is 45 seconds in config/settings.py.",
    "`MAX_RETRIES` is 3; raising it needs a review from the Payments team.",
    "deploy/app.yaml sets `replicas: 4` for the orders service.",
    "`MaxBatchSize` is 500 rows per insert.",
    "Tune `CACHE_TTL_SECONDS` before changing the 2 caches of the catalog.",
    "`WORKER_CONCURRENCY` was 4 before the autumn; it is 8 now.",
    "Keep `DEFAULT_PAGE_SIZE` under 100 to protect the database.",
    "The `API_VERSION` constant in src/client.ts must match the gateway's.",
    "Orders listen on port 9090 per deploy/app.yaml.",
    "config/settings.py sets the request timeout to 45 seconds.",
    "deploy/app.yaml runs the orders service with 4 replicas on port 9090.",
    "internal/limits/limits.go caps a batch at 500 rows; the max batch size was 200 in 2024.",
    "config/settings.py: the admin pages through results 20 at a time.",
    "Support mail in config/settings.py gets about 40 messages a day.",
    "The client in src/client.ts polls every 2 seconds (poll interval).",
    "The web app runs React 18 with hooks everywhere.",
    "We upgraded from React 16 to 18 last year.",
    "pgx v5 is the Postgres driver; grpc 1.62 for the API.",
    "The HTTP server's read timeout is 15 seconds; its idle timeout 2 minutes.",
    "Requests time out after 10 seconds at the load balancer.",
    "Next 3 days: no deploys.",
]

# One service's directory, as a small team keeps it: nearly every memory names the
# service ("courier"), so its name tells no two memories apart. (background, changes)
# where each change is (index into the background it replaces, newer text).
ONE_SERVICE: list[tuple[str, str]] = [
    ("project", "Courier listens on port 7070 for gRPC traffic."),
    ("project", "Courier's health check is served at /healthz on port 7071."),
    ("project", "Courier is deployed with Helm from the deploy/helm folder."),
    ("project", "The courier worker pool has 12 goroutines per pod."),
    ("project", "Courier retries failed deliveries 4 times with exponential backoff."),
    ("project", "Courier writes delivery receipts to the receipts table in Postgres."),
    ("feedback", "Never log full message payloads in courier; log the message id."),
    ("project", "Courier releases are cut on Tuesdays by the platform on-call."),
    ("project", "Courier's dead-letter queue is courier-dlq in RabbitMQ."),
    ("reference", "Courier dashboards: grafana.internal/d/courier"),
    ("project", "Courier protobuf definitions live in proto/courier/v1."),
    ("project", "Load tests for courier run from the loadtest folder every Friday."),
    ("project", "Courier's rate limit per tenant is 200 messages per second."),
    ("user", "Mika maintains courier and prefers small PRs."),
]
ONE_SERVICE_CHANGES: list[tuple[int, str, str]] = [
    (0, "project", "Courier's gRPC port changed to 7443 with the TLS rollout."),
    (3, "project", "We raised the courier worker pool to 32 goroutines per pod."),
    (4, "project", "Courier now retries failed deliveries 6 times."),
    (7, "project", "Courier release day moved from Tuesday to Wednesday."),
    (8, "project", "The courier dead-letter queue was renamed to courier-dead-letters."),
    (12, "project", "Per-tenant rate limit for courier is now 500 messages per second."),
]
# Newer memories about the same service that change nothing of the background.
ONE_SERVICE_ADDITIONS: list[tuple[str, str]] = [
    ("project", "Courier's metrics are exported on port 9102."),
    ("project", "Courier pods need 512 MB of memory; the worker pool is sized for it."),
    ("project", "Courier retries are logged with the attempt number."),
    ("project", "The courier staging deploy happens on Mondays."),
    ("project", "Courier's admin API listens on port 7072, internal only."),
    ("project", "Webhook deliveries in courier time out after 10 seconds."),
]
