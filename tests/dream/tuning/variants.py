"""More tuning pairs for duplicate detection (issue 15 item 3), one list per kind the
issue names, written for this corpus (not from memsync's generator templates).

A text holding a line ``---`` is a memory whose description (before it) is not its
body's first paragraph (after it), as people write them. Duplicates say the same
thing; look-alikes are about one subject and differ in one fact, so merging them
would confuse two memories.
"""

from __future__ import annotations

# The same facts in other words: verbs a team swaps ("handles", "looks after"),
# active against passive, a list against a sentence.
REWORDED: list[tuple[str, str, str]] = [
    ("project", "The Payments API is owned by the Ledger team.",
     "Ledger team owns the Payments API."),
    ("project", "Deploys of the Reports worker happen on Thursdays.",
     "The Reports worker is deployed on Thursday."),
    ("project", "Page Sam Cole for incidents in the Orders worker.",
     "Orders worker incidents: page Sam Cole."),
    ("user", "Alex works mainly in Go and is new to React.",
     "Alex is new to React; works primarily in Go."),
    ("reference", "Incident postmortems live in the Notion space Reliability.",
     "Postmortems for incidents are kept in Notion, in the Reliability space."),
    ("project", "The Profile API is currently handled by the Growth team.",
     "The Growth team handles the Profile API."),
    ("reference", "Feature flags are managed in LaunchDarkly.",
     "We manage our feature flags in LaunchDarkly."),
    ("feedback", "Always run `terraform plan` before `terraform apply`.",
     "Before any `terraform apply`, always run `terraform plan`."),
    ("project", "Release notes are written by the PM on duty.",
     "The PM on duty writes the release notes."),
    ("user", "Lena reviews frontend PRs; she knows the design system well.",
     "Frontend PRs are reviewed by Lena, who knows the design system well."),
]  # fmt: skip

# Other templates: what one template says as prose another says as "key: value" or
# as a list; the memory's description summarises it in other words.
TEMPLATED: list[tuple[str, str, str]] = [
    ("project", "Accounts API owner: Platform team (escalate to Nia Long)",
     "Accounts API is owned by the Platform team; escalate to Nia Long."),
    ("project", "Deploy window for Billing webhooks: Wednesday after 10:00",
     "Billing webhooks deploy on Wednesday, after 10:00."),
    ("project",
     "On-call for Checkout API\n---\n"
     "On-call for the Checkout API: Kim Ito, rotation changes on Friday.",
     "Checkout API on-call\n---\n- on call: Kim Ito\n- rotation changes: Friday"),
    ("project", "Orders API port\n---\nThe Orders API listens on port 8443.",
     "Port of the Orders API\n---\nOrders API — port 8443"),
    ("reference", "Where the Billing runbook is\n---\nBilling runbook: https://wiki.acme.dev/billing/runbook",
     "Billing runbook link\n---\nThe runbook for Billing is at https://wiki.acme.dev/billing/runbook"),
    ("project", "Node version\n---\nLambdas run on Node 20.",
     "Which Node lambdas use\n---\nNode version for lambdas: 20"),
]  # fmt: skip

# Punctuation variants: ':' against ' - ', brackets, quotes, a trailing full stop.
PUNCTUATED: list[tuple[str, str, str]] = [
    ("project", "Cache TTL for the catalog: 300 seconds",
     "Cache TTL for the catalog - 300 seconds"),
    ("project", "Gift cards API (owner: Loyalty team)", "Gift cards API, owner Loyalty team"),
    ("reference", "Status page: status.acme.dev", "Status page — status.acme.dev."),
    ("feedback", "No Friday deploys; no exceptions.", "No Friday deploys - no exceptions!"),
    ("project", "Staging URL = https://staging.acme.dev", "Staging URL: https://staging.acme.dev"),
]  # fmt: skip

# Other languages: Chinese, Chinese and English mixed, full-width punctuation.
LANGUAGES: list[tuple[str, str, str]] = [
    ("project", "支付服务的负责人：Ana Ruiz", "支付服务的负责人: Ana Ruiz"),
    ("project", "订单服务每周二部署（UTC 14:00）。", "订单服务每周二部署 (UTC 14:00)."),
    ("feedback", "不要在周五发布到 production。", "不要在周五发布到 production!"),
    ("project", "Search API 的 on-call 是 Li Wei，每周二轮换。",
     "Search API 的 on-call 是 Li Wei, 每周二轮换."),
    ("reference", "日志在 Kibana 的 orders-* 索引里。", "日志在 Kibana 的 orders-* 索引里"),
    ("project", "数据库：PostgreSQL 15，部署在 RDS 上。",
     "数据库：PostgreSQL 15，部署在 RDS 上。\n\n连接都经过 PgBouncer。"),
]  # fmt: skip

# One memory inside the other, the other adding a fact (a sentence, a list item).
SUPERSETS: list[tuple[str, str, str]] = [
    ("project", "The Fulfilment API is owned by the Warehouse team.",
     "The Fulfilment API is owned by the Warehouse team.\n\nEscalate to Joe Park after hours."),
    ("feedback", "Use feature flags for every risky change.",
     "Use feature flags for every risky change.\n\n"
     "Why: the checkout rollback in March took an hour without one."),
    ("reference", "Load tests live in the perf repo.",
     "Load tests live in the perf repo.\n\n- run them with `make soak`\n- results go to Grafana"),
    ("project", "Catalog API deploys every Tuesday.",
     "Catalog API deploys every Tuesday, after the Merch sync. Freeze during Black Friday week."),
    ("user", "Mira is the QA lead.", "Mira is the QA lead and owns the release checklist."),
]  # fmt: skip

# About one subject, differing in one fact: none of these may merge.
LOOKALIKES: list[tuple[str, str, str]] = [
    ("project", "The Payments API is owned by the Ledger team.",
     "The Payments API is owned by the Treasury team."),
    ("project", "Payments team owns the Orders service.", "Orders team owns the Payments service."),
    ("project", "On-call for the Billing API: primary Tom Berg, secondary Ana Ruiz.",
     "On-call for the Billing API: primary Ana Ruiz, secondary Tom Berg."),
    ("project", "Staging deploys happen on Tuesday, production deploys on Thursday.",
     "Staging deploys happen on Thursday, production deploys on Tuesday."),
    ("project", "Orders API port\n---\nThe Orders API listens on port 8443.",
     "Orders API port\n---\nThe Orders API listens on port 9443."),
    ("project", "Orders API port\n---\nThe Orders API listens on port 8443.",
     "Orders worker port\n---\nThe Orders worker listens on port 8443."),
    ("project", "Deploy window for Billing webhooks: Wednesday after 10:00",
     "Deploy window for Billing webhooks: Wednesday before 10:00"),
    ("project", "the staging database is restored from backup every night",
     "the production database is restored from backup every night"),
    ("project", "Staging deploy day\n---\nDeploys happen on Tuesday.",
     "Production deploy day\n---\nDeploys happen on Tuesday."),
    ("feedback", "Squash-merge dependency bumps.", "Never squash-merge dependency bumps."),
    ("feedback", "Run the migrations before the deploy.",
     "Review the migrations before the deploy."),
    ("feedback", "Keep the legacy billing flag on.", "Remove the legacy billing flag."),
    ("feedback", "Rebase feature branches on main.", "Rebase feature branches on develop."),
    ("project", "The admin app on-call rotates weekly.", "The admin app on-call rotates daily."),
    ("project", "Cache TTL for the catalog: 300 seconds", "Cache TTL for the catalog: 300 minutes"),
    ("reference", "Status page: status.acme.dev", "Status page: status.acme.io"),
    ("user", "Omar reviews frontend PRs.", "Omar reviews backend PRs."),
    ("project", "Alice reviews Bob's migrations.", "Bob reviews Alice's migrations."),
    ("project", "Escalate Search incidents to Li Wei, then Ana Ruiz.",
     "Escalate Search incidents to Ana Ruiz, then Li Wei."),
    ("project", "支付服务的负责人：Ana Ruiz", "订单服务的负责人：Ana Ruiz"),
    ("project", "订单服务每周二部署（UTC 14:00）。", "订单服务每周四部署（UTC 14:00）。"),
    ("project", "支付组负责订单服务。", "订单组负责支付服务。"),
    ("project", "测试环境的数据库每晚重置。", "生产环境的数据库每晚备份。"),
    ("project", "Search API 的 on-call 是 Li Wei，每周二轮换。",
     "Search indexer 的 on-call 是 Li Wei，每周二轮换。"),
    ("project", "The mobile app is released every other Monday.",
     "The web app is released every other Monday."),
    ("project", "Errors above 1% page the on-call engineer.",
     "Errors above 5% page the on-call engineer."),
    ("project", "The Billing API is deployed to eu-west-1.",
     "The Billing API is deployed to us-east-1."),
    ("project", "Use Node 20 in CI.", "Use Node 22 in CI."),
    ("feedback", "Deploy the API after the database migration.",
     "Deploy the API before the database migration."),
]  # fmt: skip


# A team's directory of distinct facts about services whose names share words: every
# kind of fact in two templates, many services sharing an owner, a day or a port, so
# most pairs of one kind differ in one name or value only. None is a duplicate.
_FLEET = (
    ("Ledger API", "Ledger", "Tom Berg", "Tuesday", 8080, "3.11"),
    ("Ledger worker", "Ledger", "Tom Berg", "Wednesday", 8081, "3.11"),
    ("Catalog API", "Merch", "Ana Ruiz", "Tuesday", 8080, "3.12"),
    ("Catalog importer", "Merch", "Li Wei", "Thursday", 9090, "3.12"),
    ("Pricing API", "Merch", "Ana Ruiz", "Monday", 8443, "3.11"),
    ("Pricing rules", "Merch", "Sam Cole", "Monday", 8444, "3.10"),
    ("Shipping API", "Logistics", "Ravi Nair", "Friday", 8080, "3.11"),
    ("Shipping labels", "Logistics", "Ravi Nair", "Thursday", 7070, "3.12"),
    ("Reviews API", "Community", "Mei Lin", "Wednesday", 8080, "3.11"),
    ("Reviews moderation", "Community", "Mei Lin", "Tuesday", 8088, "3.11"),
)
_FLEET_TEMPLATES = (
    ("{service} is owned by the {team} team.", "Owner of {service}: {team} team"),
    ("{service} deploys every {day}.", "Deploy day for {service}: {day}"),
    ("{person} is on call for {service} this quarter.", "On-call for {service}: {person}"),
    ("{service} listens on port {port}.", "Port of {service}: {port}"),
    ("{service} runs on Python {python}.", "Python version of {service}: {python}"),
    ("Escalate {service} incidents to {person}.", "{service} incidents escalate to {person}"),
)
FLEET: list[tuple[str, str]] = [
    ("project", templates[number % 2].format(
        service=service, team=team, person=person, day=day, port=port, python=python))
    for number, (service, team, person, day, port, python) in enumerate(_FLEET)
    for templates in _FLEET_TEMPLATES
]  # fmt: skip

# Facts of the fleet written once more in the other template: these are duplicates.
FLEET_COPIES: list[tuple[str, str, str]] = [
    ("project", FLEET[number * len(_FLEET_TEMPLATES) + kind][1], _FLEET_TEMPLATES[kind][
        1 - number % 2].format(service=service, team=team, person=person, day=day, port=port,
                               python=python))
    for number, kind in ((0, 0), (3, 1), (4, 2), (7, 3), (8, 4), (9, 5))
    for service, team, person, day, port, python in [_FLEET[number]]
]  # fmt: skip

# Written in English and again in Chinese (or Chinese and English mixed), as a
# bilingual team does: names, numbers and identifiers stay as they are.
TRANSLATED: list[tuple[str, str, str]] = [
    ("project", "The Fulfilment API is owned by the Warehouse team.",
     "Fulfilment API 由 Warehouse 团队负责。"),
    ("project", "Staging deploys go out every Monday at 09:00 UTC.",
     "Staging 每周一 09:00 UTC 部署。"),
    ("feedback", "Never commit directly to develop.", "不要直接提交到 develop。"),
    ("project", "Invoices worker port\n---\nThe Invoices worker listens on port 7443.",
     "Invoices worker 端口\n---\nInvoices worker 监听 7443 端口。"),
    ("project", "On-call for the Loyalty API: Joe Park.", "Loyalty API 的值班：Joe Park"),
    ("project", "Workers must be built with Rust 1.78.", "Worker 必须用 Rust 1.78 构建。"),
    ("user", "Priya prefers short answers.", "Priya 喜欢简短的回答。"),
    ("reference", "The analytics database is Snowflake.", "分析数据库是 Snowflake。"),
    ("feedback", "Run `make lint` before every commit.", "每次提交前运行 `make lint`。"),
    ("project", "Deploy window for Gift cards API: Friday before 16:00",
     "Gift cards API 的部署窗口：周五 16:00 之前"),
]  # fmt: skip

# Harder re-wordings: each memory's description in its own words too, or a noun for
# a verb ("rotates", "rotation").
REWORDED += [
    ("project", "On-call for the Media uploader rotates every Monday.",
     "Media uploader on-call rotation: every Monday."),
    ("project",
     "Refunds API ownership\n---\nThe Ledger team owns the Refunds API; contact Rita Vos.",
     "Who owns the Refunds API\n---\nRefunds API belongs to the Ledger team. Contact: Rita Vos."),
    ("project", "QA deploy schedule\n---\nWe deploy to QA every Thursday around 16:00 CET.",
     "When QA deploys happen\n---\nQA deployments go out on Thursdays at 16:00 CET."),
    ("feedback", "Avoid force pushes\n---\nDo not force-push to shared branches.",
     "No force-pushing\n---\nNever force push to a shared branch."),
    ("reference", "Error tracking\n---\nBackend errors are tracked in Rollbar.",
     "Where backend errors go\n---\nRollbar is where we track errors from the backend."),
    ("user", "Dana's review habits\n---\nDana reviews PRs in the morning and wants small diffs.",
     "How Dana likes to review\n---\nDana does reviews in the mornings and prefers small diffs."),
]  # fmt: skip

# One word misspelt; a file written without frontmatter (its type in its name).
TYPOS: list[tuple[str, str, str]] = [
    ("feedback", "Always rebase before merging to avoid merge comits.",
     "Always rebase before merging to avoid merge commits."),
    ("project", "The reindex job runs in the staging enviroment every night.",
     "The reindex job runs in the staging environment every night."),
]  # fmt: skip
NO_FRONTMATTER = "(no frontmatter) "
PLAIN: list[tuple[str, str, str]] = [
    ("project", "Cache invalidation for the catalog is done by the purge worker.",
     NO_FRONTMATTER + "Cache invalidation for the catalog is done by the purge worker."),
    ("feedback", "Write changelog entries in the past tense.",
     NO_FRONTMATTER + "Changelog entries are written in the past tense."),
]  # fmt: skip

# Supersets whose descriptions differ, or whose extra fact sits in the same sentence.
SUPERSETS += [
    ("project", "Search indexer memory limit\n---\nThe Search indexer has a 4 GiB memory limit.",
     "Search indexer limits\n---\nThe Search indexer has a 4 GiB memory limit and 2 CPUs."),
    ("reference", "Design tokens: packages/tokens",
     "Design tokens - packages/tokens (owned by the Design Systems team)"),
]  # fmt: skip

LOOKALIKES += [
    ("project", "Fulfilment API 由 Warehouse 团队负责。",
     "The Fulfilment API is owned by the Shipping team."),
    ("project", "Staging 每周一 09:00 UTC 部署。",
     "Production deploys go out every Monday at 09:00 UTC."),
    ("project", "Staging 每周一 09:00 UTC 部署。",
     "Staging deploys go out every Friday at 09:00 UTC."),
    ("feedback", "不要直接提交到 develop。", "Always commit directly to develop."),
    ("project", "Loyalty API 的值班：Joe Park", "Loyalty API owner: Joe Park"),
    ("project", "Worker 必须用 Rust 1.78 构建。", "Workers must be built with Rust 1.80."),
    ("reference", "分析数据库是 Snowflake。", "The billing database is Snowflake."),
    ("project", "The reindex job runs in the staging enviroment every night.",
     "The reindex job runs in the production environment every night."),
    ("feedback", "Write changelog entries in the past tense.",
     "Write changelog entries in the present tense."),
    ("project", "Search indexer memory limit\n---\nThe Search indexer has a 4 GiB memory limit.",
     "Search indexer memory limit\n---\nThe Search indexer has an 8 GiB memory limit."),
]  # fmt: skip

DUPLICATES = REWORDED + TEMPLATED + PUNCTUATED + LANGUAGES + SUPERSETS + TRANSLATED + TYPOS + PLAIN

# Whole memories as Claude Code writes them (a rule, then why and how to apply it),
# written twice in other words.
FILES: list[tuple[str, str, str]] = [
    ("feedback",
     "Integration tests must run against a real Postgres\n---\n"
     "Integration tests must run against a real Postgres database, never a mock.\n\n"
     "**Why:** last quarter a mocked suite passed while the production migration failed.\n\n"
     "**How to apply:** use the `pg_db` fixture from `tests/conftest.py`.",
     "Never mock the database in integration tests\n---\n"
     "Never mock the database in integration tests; they must run against a real Postgres.\n\n"
     "**Why:** the mocked suite passed last quarter while the production migration failed.\n\n"
     "**How to apply:** use the `pg_db` fixture (see `tests/conftest.py`)."),
    ("project",
     "Payments service ownership and escalation\n---\n"
     "The Payments service is owned by the Ledger team.\n\n"
     "Escalate to Tom Berg; if he is away, to Ana Ruiz.",
     "Who owns Payments and who to escalate to\n---\n"
     "Owner of the Payments service: Ledger team.\n\n"
     "Escalation: Tom Berg, and Ana Ruiz when he is away."),
    ("user",
     "Noor is a data engineer who wants depth on Pulsar\n---\n"
     "Noor is a data engineer on the Messaging team. She wants in-depth explanations "
     "of Pulsar internals and prefers code samples over prose.",
     "Noor: data engineer, Pulsar depth\n---\n"
     "Noor works as a data engineer in the Messaging team; explain Pulsar internals in "
     "depth and prefer code samples to prose."),
    ("reference",
     "Where the incident playbooks are\n---\n"
     "Incident playbooks live in Confluence under Ops / Playbooks. The Payments one is "
     "the most used.",
     "Incident playbooks location\n---\n"
     "The incident playbooks are kept in Confluence (Ops / Playbooks); the Payments playbook "
     "is the one used most."),
]  # fmt: skip

# The same shape with one fact changed: never merged.
LOOKALIKES += [
    ("feedback", FILES[0][1], FILES[0][1].replace("real Postgres", "real MySQL")),
    ("project", FILES[1][1], FILES[1][1].replace("Tom Berg", "Sam Cole")),
    ("user", FILES[2][1], FILES[2][1].replace("Pulsar", "Flink")),
    ("reference", FILES[3][1], FILES[3][1].replace("Payments", "Search")),
    ("feedback", FILES[0][1], FILES[0][1].replace("integration tests", "end-to-end tests")
     .replace("Integration tests", "End-to-end tests")),
    ("project", FILES[1][2], FILES[1][2].replace("Payments", "Refunds")),
    ("user", FILES[2][2], FILES[2][2].replace("in depth", "briefly")),
    ("reference", FILES[3][2], FILES[3][2].replace("incident playbooks", "release checklists")),
]  # fmt: skip
