"""A second batch of tuning pairs for duplicate detection (issue 15 item 3), written
after the first batch was fitted, to widen what the judge is chosen on: other verbs and
nouns for one relation, clauses in another order, one memory inside the other with its
punctuation changed, English and Chinese, English and Spanish, German or French, and
memories written without frontmatter in files whose names say no type.

Written for this corpus from scratch; nothing here is taken from ``tests/heldout``.
`LOOKALIKES` are the same shapes with one fact changed: none of them may merge.
"""

from __future__ import annotations

# Marks a text written as a file without frontmatter whose name has no type prefix
# (``note_012.md``); `write_corpus` strips it.
UNTYPED = "(untyped) "

# The same fact with other verbs and nouns, and clauses in another order.
SYNONYMS_AND_ORDER: list[tuple[str, str, str]] = [
    ("project", "The Wallet API is maintained by the Fintech squad.",
     "Fintech team looks after the Wallet API."),
    ("project", "Kai Moreno is the point of contact for the Vendor portal.",
     "For the Vendor portal, reach out to Kai Moreno."),
    ("project", "The nightly export job writes to the reports bucket at 03:30 UTC.",
     "At 03:30 UTC every night, the export job writes to the reports bucket."),
    ("feedback", "Don't merge your own pull requests.",
     "Never merge a PR you opened yourself."),
    ("feedback", "Always add a migration when you change a Django model.",
     "When changing a Django model, always add a migration."),
    ("reference", "API docs for the Partner gateway are hosted on Stoplight.",
     "The Partner gateway's API documentation is on Stoplight."),
    ("project", "The Tax service talks to Avalara over HTTPS.",
     "Tax service communicates with Avalara via HTTPS."),
    ("user", "Hugo is a junior backend developer learning Elixir.",
     "Hugo, a junior backend dev, is learning Elixir."),
    ("project", "Inventory sync is triggered every 15 minutes by a cron job.",
     "A cron job kicks off the inventory sync every 15 minutes."),
    ("feedback", "Use UTC for every timestamp stored in the database.",
     "Timestamps in the DB are always stored in UTC."),
    ("reference", "Architecture decision records are kept in the adr folder of the platform repo.",
     "We keep ADRs in the adr folder of the platform repository."),
    ("project", "The Coupons API has been moved to Kubernetes.",
     "Coupons API was migrated to k8s."),
    ("user", "Ines likes terse replies without emojis.",
     "Ines prefers short answers and no emojis."),
    ("project", "Contact Bo Chen if the Metrics pipeline breaks.",
     "If the Metrics pipeline fails, contact Bo Chen."),
    ("feedback", "Tag the Security team on any change to the auth middleware.",
     "Any change to the auth middleware needs the Security team tagged."),
    ("project", "The Recommendations service is written in Scala and runs on Spark.",
     "Recommendations service: written in Scala, runs on Spark."),
]  # fmt: skip

# Punctuation and case: lists, colons, quotes, brackets, shouting, a title case.
PUNCTUATION_AND_CASE: list[tuple[str, str, str]] = [
    ("project", "Redis for sessions: 6 GB, eviction policy allkeys-lru.",
     "Redis for sessions (6 GB; eviction policy: allkeys-lru)"),
    ("feedback", "Do NOT run migrations on Friday afternoons.",
     "Do not run migrations on Friday afternoons."),
    ("reference", "Sentry Project For The Mobile App: mobile-prod",
     "Sentry project for the mobile app - mobile-prod"),
    ("project", "Release branch naming: release/YYYY-MM-DD",
     "Release branch naming → `release/YYYY-MM-DD`"),
]  # fmt: skip

# One memory inside the other, with the punctuation changed too, plus a fact.
CONTAINED: list[tuple[str, str, str]] = [
    ("project", "The Quotes API is owned by the Pricing team.",
     "Quotes API - owned by the Pricing team. Its dashboards are in Grafana."),
    ("feedback", "Never log full card numbers.",
     "Never log full card numbers!\n\nWhy: PCI audit finding in 2025."),
    ("reference", "Runbook for the Ledger worker: https://wiki.acme.dev/ledger-worker",
     "Runbook for the Ledger worker - https://wiki.acme.dev/ledger-worker (updated after "
     "the May incident)"),
    ("user", "Femi is the iOS lead.",
     "Femi is the iOS lead; ask him about TestFlight builds."),
]  # fmt: skip

# English and Chinese: the same fact, names and numbers as they are.
CHINESE: list[tuple[str, str, str]] = [
    ("project", "The Vault API is owned by the Treasury team.", "Vault API 由 Treasury 团队负责。"),
    ("project", "Production deploys of the Cart service happen every Thursday.",
     "Cart 服务每周四部署到生产环境。"),
    ("feedback", "Never push directly to the main branch.", "不要直接推送到主分支。"),
    ("project", "The Media API listens on port 8088.", "Media API 监听 8088 端口。"),
    ("project", "Escalate Ledger incidents to Tom Berg.", "Ledger 故障上报给 Tom Berg。"),
    ("reference", "Alerts for the Search API go to the #search-oncall channel.",
     "Search API 的告警发到 #search-oncall 频道。"),
    ("project", "The Coupons database is backed up every night.", "Coupons 数据库每晚备份。"),
    ("user", "Wen prefers answers in Chinese.", "Wen 喜欢用中文回答。"),
    # Written in the first batch in each language as separate pairs: one fact.
    ("project", "production database is backed up every night by the cleanup job",
     "生产环境的数据库每晚备份。"),
    ("project", "Payments team owns the Orders service.", "支付组负责订单服务。"),
    ("project", "Orders team owns the Payments service.", "订单组负责支付服务。"),
    ("feedback", "Run the unit tests before every push.", "每次推送前运行单元测试。"),
    ("project", "The rate limit for the Public API is 100 requests per minute.",
     "Public API 的速率限制是每分钟 100 个请求。"),
]  # fmt: skip

# English and another language written in Latin letters.
OTHER_LANGUAGES: list[tuple[str, str, str]] = [
    ("project", "The Loans API is owned by the Credit team.",
     "La API Loans es propiedad del equipo Credit."),
    ("project", "The Basket service is deployed every Thursday.",
     "Der Basket-Service wird jeden Donnerstag deployt."),
    ("feedback", "Never run migrations on Sundays.",
     "Ne jamais lancer les migrations le dimanche."),
    ("project", "The Avatar API listens on port 8099.", "La API Avatar escucha en el puerto 8099."),
    ("project", "The Rewards database is backed up every night.",
     "Die Rewards-Datenbank wird jede Nacht gesichert."),
    ("feedback", "Always write tests for bug fixes.",
     "Toujours écrire des tests pour les corrections de bugs."),
]  # fmt: skip

# Memories written without frontmatter, in files named without a type.
UNTYPED_PAIRS: list[tuple[str, str, str]] = [
    ("project", "The Notifications worker is owned by the Engagement team.",
     UNTYPED + "The Notifications worker is owned by the Engagement team."),
    ("feedback", "Squash commits before merging feature branches.",
     UNTYPED + "Squash commits before merging feature branches!"),
    ("reference", "The design system lives in Storybook at https://ui.acme.dev.",
     UNTYPED + "Design system: Storybook, https://ui.acme.dev"),
    # A Markdown file as people write one by hand: a heading, then the text.
    ("project",
     "Search indexer schedule\n---\nThe Search indexer rebuilds every night at 02:30 UTC.",
     UNTYPED + "# Search indexer schedule\n\nThe Search indexer rebuilds nightly at 02:30 UTC."),
    ("feedback", "Small PRs\n---\nKeep pull requests under 400 lines.",
     UNTYPED + "# Keep PRs small\n\nPull requests stay under 400 lines."),
]  # fmt: skip

DUPLICATES = (
    SYNONYMS_AND_ORDER + PUNCTUATION_AND_CASE + CONTAINED + CHINESE + OTHER_LANGUAGES
    + UNTYPED_PAIRS
)  # fmt: skip

# The same shapes, one fact changed: never merged.
LOOKALIKES: list[tuple[str, str, str]] = [
    ("project", "The Wallet API is maintained by the Fintech squad.",
     "Fintech team looks after the Vault API."),
    ("project", "Kai Moreno is the point of contact for the Vendor portal.",
     "For the Vendor portal, reach out to Kai Romero."),
    ("project", "The nightly export job writes to the reports bucket at 03:30 UTC.",
     "At 04:30 UTC every night, the export job writes to the reports bucket."),
    ("feedback", "Don't merge your own pull requests.", "Always merge your own pull requests."),
    ("project", "The Tax service talks to Avalara over HTTPS.",
     "Tax service communicates with Vertex via HTTPS."),
    ("project", "Inventory sync is triggered every 15 minutes by a cron job.",
     "A cron job kicks off the inventory sync every 30 minutes."),
    ("project", "The Coupons API has been moved to Kubernetes.",
     "Coupons API was migrated to Nomad."),
    ("project", "Contact Bo Chen if the Metrics pipeline breaks.",
     "If the Logging pipeline fails, contact Bo Chen."),
    ("project", "The Recommendations service is written in Scala and runs on Spark.",
     "Recommendations service: written in Kotlin, runs on Spark."),
    ("project", "Redis for sessions: 6 GB, eviction policy allkeys-lru.",
     "Redis for sessions (8 GB; eviction policy: allkeys-lru)"),
    ("feedback", "Do NOT run migrations on Friday afternoons.",
     "Do not run migrations on Monday mornings."),
    ("project", "The Quotes API is owned by the Pricing team.",
     "Quotes API - owned by the Billing team. Its dashboards are in Grafana."),
    ("project", "The Vault API is owned by the Treasury team.", "Vault API 由 Payments 团队负责。"),
    ("project", "Production deploys of the Cart service happen every Thursday.",
     "Cart 服务每周四部署到预发布环境。"),
    ("project", "The Media API listens on port 8088.", "Media API 监听 9088 端口。"),
    ("project", "Escalate Ledger incidents to Tom Berg.", "Ledger 故障上报给 Ana Ruiz。"),
    ("project", "The Coupons database is backed up every night.", "Coupons 数据库每周备份。"),
    ("project", "The rate limit for the Public API is 100 requests per minute.",
     "Public API 的速率限制是每小时 100 个请求。"),
    ("project", "The Loans API is owned by the Credit team.",
     "La API Loans es propiedad del equipo Payments."),
    ("project", "The Basket service is deployed every Thursday.",
     "Der Basket-Service wird jeden Dienstag deployt."),
    ("feedback", "Never run migrations on Sundays.", "Toujours lancer les migrations le dimanche."),
    ("project", "The Rewards database is backed up every night.",
     "Die Rewards-Datenbank wird jede Woche gesichert."),
    ("project", "The Notifications worker is owned by the Engagement team.",
     UNTYPED + "The Notifications worker is owned by the Growth team."),
    ("feedback", "Squash commits before merging feature branches.",
     UNTYPED + "Never squash commits before merging feature branches."),
    ("project",
     "Search indexer schedule\n---\nThe Search indexer rebuilds every night at 02:30 UTC.",
     UNTYPED + "# Search indexer schedule\n\nThe Search indexer rebuilds nightly at 03:30 UTC."),
    ("project", "Ana Ruiz is on call for the Wallet API.", "Ana Ruiz owns the Wallet API."),
    ("project", "Tom Berg reviews Ledger API migrations.",
     "Tom Berg writes Ledger API migrations."),
]  # fmt: skip

# Whole memories as an agent writes them (a rule or fact, then why and how to apply
# it), said again in other words or in Chinese: what a re-worded or translated memory
# looks like in a real directory, longer than one line.
WHOLE_REWORDED: list[tuple[str, str, str]] = [
    ("feedback",
     "Keep database migrations backwards compatible\n---\n"
     "Every migration must be backwards compatible with the previous release.\n\n"
     "**Why:** the Orders API runs old and new pods side by side during a rollout.\n\n"
     "**How to apply:** add columns as nullable first; drop them one release later.",
     "Migrations must work with the previous release\n---\n"
     "Migrations have to stay compatible with the release before them.\n\n"
     "**Why:** during a rollout the Orders API has old and new pods running together.\n\n"
     "**How to apply:** first add new columns as nullable, and drop columns a release later."),
    ("project",
     "Ledger nightly reconciliation\n---\n"
     "The reconciliation job for Ledger runs nightly at 01:00 UTC and compares Stripe "
     "payouts with our ledger.\n\n"
     "If it fails, Tom Berg gets paged.",
     "When the Ledger reconciliation runs\n---\n"
     "Every night at 01:00 UTC the Ledger reconciliation job checks our ledger against "
     "Stripe payouts.\n\n"
     "Tom Berg is paged when it fails."),
    ("user",
     "How Ines likes code reviews\n---\n"
     "Ines wants review comments grouped by file, with the blocking ones marked.\n"
     "She reads reviews in the afternoon.",
     "Ines's review preferences\n---\n"
     "Ines prefers review comments grouped per file and the blocking ones flagged.\n"
     "She goes through reviews in the afternoons."),
    ("reference",
     "Where feature flags are defined\n---\n"
     "Feature flags are defined in `config/flags.yaml` and read through the Flagsmith "
     "client. The dashboard is https://flags.acme.dev.",
     "Feature flag definitions\n---\n"
     "We define feature flags in `config/flags.yaml`; they are read via the Flagsmith "
     "client. Dashboard: https://flags.acme.dev"),
]  # fmt: skip

WHOLE_TRANSLATED: list[tuple[str, str, str]] = [
    ("feedback",
     "Never skip the pre-commit hooks\n---\n"
     "Never skip the pre-commit hooks with `--no-verify`.\n\n"
     "**Why:** a skipped hook let a secret into the Billing API repo.",
     "不要跳过 pre-commit 钩子\n---\n"
     "不要用 `--no-verify` 跳过 pre-commit 钩子。\n\n"
     "**Why:** 有一次跳过钩子，密钥被提交进了 Billing API 仓库。"),
    ("project",
     "Search API deploys\n---\n"
     "The Search API deploys to production every Wednesday at 15:00 UTC.\n"
     "Li Wei approves each deploy.",
     "Search API 部署\n---\n"
     "Search API 每周三 15:00 UTC 部署到生产环境。\n"
     "每次部署由 Li Wei 批准。"),
    ("reference",
     "Payments runbook\n---\n"
     "The runbook for the Payments service is https://wiki.acme.dev/payments/runbook.\n"
     "Alerts go to the #payments-oncall channel.",
     "支付服务运行手册\n---\n"
     "Payments 服务的运行手册：https://wiki.acme.dev/payments/runbook。\n"
     "告警发到 #payments-oncall 频道。"),
]  # fmt: skip

DUPLICATES += WHOLE_REWORDED + WHOLE_TRANSLATED

LOOKALIKES += [
    ("feedback", WHOLE_REWORDED[0][1], WHOLE_REWORDED[0][1].replace("Orders API", "Search API")),
    ("project", WHOLE_REWORDED[1][2], WHOLE_REWORDED[1][2].replace("01:00", "02:00")),
    ("project", WHOLE_REWORDED[1][1], WHOLE_REWORDED[1][2].replace("Tom Berg", "Ana Ruiz")),
    ("user", WHOLE_REWORDED[2][1], WHOLE_REWORDED[2][2].replace("afternoons", "mornings")),
    ("reference", WHOLE_REWORDED[3][1],
     WHOLE_REWORDED[3][2].replace("config/flags.yaml", "config/toggles.yaml")),
    ("feedback", WHOLE_TRANSLATED[0][1],
     WHOLE_TRANSLATED[0][2].replace("Billing API", "Orders API")),
    ("project", WHOLE_TRANSLATED[1][1], WHOLE_TRANSLATED[1][2].replace("每周三", "每周四")),
    ("project", WHOLE_TRANSLATED[1][1], WHOLE_TRANSLATED[1][2].replace("生产环境", "预发布环境")),
    ("reference", WHOLE_TRANSLATED[2][1],
     WHOLE_TRANSLATED[2][2].replace("#payments-oncall", "#billing-oncall")),
]  # fmt: skip
