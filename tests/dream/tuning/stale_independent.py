"""A third tuning set for stale marking (issue 15 item 4), written by another hand than
``stale_variants`` and ``stale_rewritten`` and shaped like Claude Code's own memory
files: frontmatter with a snake_case ``name`` and a one-line ``description``, a body
with ``**Why:**`` and ``**How to apply:**`` lines. Never written from ``tests/heldout``.

Three ways a memory goes stale, and look-alikes that must not be flagged:

- the code it cites changed (`CODE_FILES` is the checkout; `CODE_STALE` memories
  contradict it, `CODE_FRESH` ones cite what it has or speak of the past);
- a newer memory of the same directory replaces it, worded otherwise (`SUPERSEDED`);
- a teammate's newer memory says otherwise (`CONTRADICTED`);
- `HARD_NEGATIVES`: pairs where neither is stale (the past told as history, staging
  against production, two services, a newer memory adding detail, one value twice).

A memory is (type, name, description, body); pairs are (older, newer).
"""

from __future__ import annotations

Memory = tuple[str, str, str, str]


def _m(kind: str, name: str, description: str, body: str) -> Memory:
    return kind, name, description, body


# The checkout the code memories speak of.
CODE_FILES: dict[str, str] = {
    "package.json": """{
  "name": "shopfront",
  "private": true,
  "engines": {"node": ">=20.11"},
  "scripts": {
    "dev": "vite",
    "build": "vite build",
    "test:unit": "vitest run",
    "lint": "eslint ."
  }
}
""",
    ".nvmrc": "20.11.1\n",
    "Makefile": "setup:\n\tnpm ci\n\nmigrate-db:\n\t./scripts/migrate.sh\n\nseed:\n\t"
    "python scripts/seed.py\n",
    "pyproject.toml": '[project]\nname = "shop-backend"\nrequires-python = ">=3.12"\n\n'
    '[project.scripts]\nshop-sync = "shop.sync:main"\n',
    "docker-compose.yml": """services:
  db:
    image: postgres:16
    ports:
      - "5433:5432"
  cache:
    image: redis:7.2
""",
    "scripts/migrate.sh": "#!/bin/sh\nalembic upgrade head\n",
    "scripts/seed.py": "print('seeding')\n",
    "src/billing/invoice.py": "class InvoiceRenderer:\n    pass\n\n\n"
    "def render_invoice_pdf(order):\n    return InvoiceRenderer()\n",
    "src/flags/flags.ts": "export const FLAGS = {};\n",
    "config/settings.py": "REQUEST_TIMEOUT_SECONDS = 45\nMAX_RETRY_COUNT = 5\n",
    ".env.example": "PAYMENTS_API_URL=http://localhost:9000\nSESSION_SECRET=change-me\n",
}

CODE_STALE: list[Memory] = [
    _m(
        "project",
        "seed_local_db",
        "How to seed the local database",
        "Run `scripts/seed_db.sh` after a fresh clone to load fixtures.\n\n"
        "**Why:** the app 500s on an empty catalog.\n",
    ),
    _m(
        "project",
        "e2e_tests",
        "Playwright end-to-end tests",
        "End-to-end tests run with `npm run test:e2e`; they need the dev server up.\n",
    ),
    _m(
        "project",
        "migrations_cmd",
        "Applying DB migrations locally",
        "Apply migrations with `make migrate` before starting the API.\n",
    ),
    _m(
        "project",
        "invoice_pdf_fn",
        "Where invoice PDFs are produced",
        "Invoice PDFs come from `generate_invoice_pdf()` in src/billing/invoice.py.\n\n"
        "**How to apply:** change the template there, not in the view.\n",
    ),
    _m(
        "project",
        "node_version",
        "Node version for the shopfront",
        "The shopfront builds on Node 18 (see .nvmrc); don't use newer syntax.\n",
    ),
    _m(
        "project",
        "python_version",
        "Backend Python version",
        "The backend targets Python 3.11, so no `type` statements yet.\n",
    ),
    _m(
        "project",
        "local_pg_port",
        "Local Postgres port",
        "The docker-compose Postgres is reachable on localhost port 5432.\n",
    ),
    _m(
        "project",
        "request_timeout",
        "Backend request timeout",
        "`REQUEST_TIMEOUT_SECONDS` in config/settings.py is 30.\n",
    ),
    _m(
        "project",
        "flags_file",
        "Where feature flags are declared",
        "Feature flags are declared in `src/flags/registry.ts`; add new ones at the end.\n",
    ),
    _m(
        "project",
        "payments_env",
        "Env var for the payments service URL",
        "The backend reads the payments service location from `PAYMENTS_URL`.\n",
    ),
    _m(
        "project",
        "postgres_major",
        "Postgres version used locally",
        "Local dev runs Postgres 14 in docker-compose, same as prod.\n",
    ),
    _m(
        "project",
        "invoice_total_fn",
        "Invoice total computation",
        "Invoice totals are computed by the compute_invoice_total function; taxes are "
        "added there too.\n",
    ),
    _m(
        "project",
        "retry_count",
        "Outbound retry count",
        "Outbound HTTP calls retry `MAX_RETRY_COUNT` = 3 times before giving up.\n",
    ),
]

CODE_FRESH: list[Memory] = [
    _m(
        "project",
        "build_cmd",
        "Building the shopfront",
        "Build with `npm run build`; the output goes to dist/.\n",
    ),
    _m("project", "setup_cmd", "First-time setup", "`make setup` installs the JS dependencies.\n"),
    _m(
        "project",
        "invoice_renderer",
        "Invoice rendering entry point",
        "`render_invoice_pdf()` in src/billing/invoice.py wraps `InvoiceRenderer`.\n",
    ),
    _m(
        "project",
        "node_now",
        "Node version",
        "The shopfront needs Node 20 or newer (engines field).\n",
    ),
    _m(
        "project",
        "pg_port_now",
        "Local Postgres port",
        "Local Postgres is published on port 5433 so it does not clash with a host install.\n",
    ),
    _m(
        "project",
        "timeout_now",
        "Backend request timeout value",
        "`REQUEST_TIMEOUT_SECONDS` is 45 in config/settings.py.\n",
    ),
    _m(
        "user",
        "editor_config",
        "User's editor settings",
        "The user keeps their settings in ~/.config/nvim/init.lua and /etc/hosts has the "
        "local aliases; see https://github.com/acme/dotfiles/blob/main/setup/install.sh.\n",
    ),
    _m(
        "project",
        "migrations_history",
        "History of the migrate target",
        "We used to run `make migrate` before the Makefile was reorganised; it is "
        "`make migrate-db` now.\n",
    ),
    _m(
        "project",
        "renderer_bare",
        "Invoice renderer",
        "render_invoice_pdf() builds an InvoiceRenderer class instance; call it from the "
        "view, never print() the PDF.\n",
    ),
    _m(
        "project",
        "seed_now",
        "Seeding fixtures",
        "`make seed` runs scripts/seed.py to load fixtures.\n",
    ),
    _m(
        "project",
        "pg_container_port",
        "Postgres inside compose",
        "Inside the compose network the API reaches Postgres on container port 5432.\n",
    ),
    _m(
        "project",
        "vite_port",
        "Vite dev server port",
        "The Vite dev server runs locally on port 5173.\n",
    ),
    _m(
        "project",
        "redis_local",
        "Local Redis",
        "Locally the Redis cache answers on port 6379 to the other compose services.\n",
    ),
    _m(
        "project",
        "payments_env_now",
        "Payments URL setting",
        "Set `PAYMENTS_API_URL` in .env; the example file has the local default.\n",
    ),
]

# (older, newer): the newer, in the same directory, replaces the older.
SUPERSEDED: list[tuple[Memory, Memory]] = [
    (
        _m(
            "project",
            "deploy_day",
            "Release deploys go out on Tuesdays",
            "We deploy to production on Tuesdays after standup.\n",
        ),
        _m(
            "project",
            "deploy_day_change",
            "Production deploy day moved",
            "Deploy day is Thursday now, so QA gets two full days.\n\n"
            "**How to apply:** don't merge risky changes on Wednesday evening.\n",
        ),
    ),
    (
        _m(
            "project",
            "unit_test_runner",
            "Unit tests use Jest",
            "Unit tests in web/ run on Jest with jsdom.\n",
        ),
        _m(
            "project",
            "vitest_switch",
            "Vitest for web unit tests",
            "Jest was replaced by Vitest in web/ for the faster watch mode.\n",
        ),
    ),
    (
        _m(
            "project",
            "error_tracking",
            "Error tracking service",
            "Errors are reported to Sentry; the DSN is in the vault.\n",
        ),
        _m(
            "project",
            "honeybadger",
            "Error tracking moved",
            "We no longer use Sentry; errors go to Honeybadger since the contract ended.\n",
        ),
    ),
    (
        _m(
            "project",
            "prod_deploy_pipeline",
            "How production deploys run",
            "Production deploys go through the Jenkins pipeline.\n",
        ),
        _m(
            "project",
            "argocd_deploys",
            "Deploys via ArgoCD",
            "Since March, production deploys go through ArgoCD instead of Jenkins.\n",
        ),
    ),
    (
        _m("project", "log_store_zh", "日志存储", "服务日志保存在 Elasticsearch。\n"),
        _m(
            "project",
            "log_store_zh_new",
            "日志存储变更",
            "服务日志不再存到 Elasticsearch，换成了 Loki。\n",
        ),
    ),
    (
        _m(
            "project",
            "review_approvals",
            "Code review approvals",
            "Every PR needs 2 approvals before merge.\n",
        ),
        _m(
            "project",
            "review_approvals_new",
            "Approval rule relaxed",
            "PRs now need only 1 approval before merge; the second reviewer slowed us down.\n",
        ),
    ),
    (
        _m(
            "project",
            "staging_snapshot",
            "Staging database snapshot refresh",
            "The staging database snapshot is refreshed weekly.\n",
        ),
        _m(
            "project",
            "staging_snapshot_daily",
            "Staging snapshot cadence",
            "The staging database snapshot refresh is daily since the data team asked.\n",
        ),
    ),
    (
        _m(
            "feedback",
            "merge_style",
            "Merge style for feature branches",
            "Feature branches are squash-merged.\n\n**Why:** keeps main's history linear.\n",
        ),
        _m(
            "feedback",
            "rebase_merges",
            "Rebase merges for feature branches",
            "We switched feature branches to rebase merges; no more squash.\n",
        ),
    ),
    (
        _m(
            "project",
            "rc_retention",
            "Release candidate build retention",
            "Release candidate builds are kept for 30 days.\n",
        ),
        _m(
            "project",
            "rc_retention_new",
            "RC build retention changed",
            "RC builds are now kept for 90 days for compliance.\n",
        ),
    ),
    (
        _m(
            "project",
            "primary_region",
            "Primary AWS region",
            "Our primary AWS region is us-east-1.\n",
        ),
        _m(
            "project",
            "region_migration",
            "Primary region migration",
            "We migrated the primary AWS region to eu-central-1 in Q2.\n",
        ),
    ),
    (
        _m(
            "project",
            "api_docs_tool",
            "API docs tool",
            "API docs are served with Swagger UI at /docs.\n",
        ),
        _m(
            "project",
            "api_docs_redoc",
            "API docs moved to Redoc",
            "We moved API docs from Swagger UI to Redoc.\n",
        ),
    ),
    (
        _m(
            "project",
            "python_deps",
            "Python dependency management",
            "Python dependencies are managed with pip-tools.\n",
        ),
        _m(
            "project",
            "uv_deps",
            "uv for dependencies",
            "Python dependencies are managed with uv now; pip-tools is gone.\n",
        ),
    ),
    (
        _m(
            "feedback",
            "pr_size",
            "PR size guideline",
            "Keep PRs under 400 changed lines.\n\n**Why:** reviews over that get skimmed.\n",
        ),
        _m(
            "feedback",
            "pr_size_new",
            "Smaller PRs",
            "The PR size guideline changed: keep PRs under 250 changed lines.\n",
        ),
    ),
    (
        _m(
            "project",
            "nightly_backup",
            "Nightly backup time",
            "The nightly backup runs at 01:00 UTC.\n",
        ),
        _m(
            "project",
            "backup_schedule",
            "Backup schedule",
            "Nightly backup: 03:00 UTC (moved off the batch window).\n",
        ),
    ),
    (
        _m(
            "project",
            "coverage_gate",
            "CI coverage threshold",
            "CI fails under 80% line coverage.\n",
        ),
        _m(
            "project",
            "coverage_gate_raised",
            "Coverage gate raised",
            "The CI coverage gate was raised to 85% line coverage.\n",
        ),
    ),
    (
        _m("project", "celery_broker", "Celery broker", "Celery uses RabbitMQ as its broker.\n"),
        _m(
            "project",
            "celery_broker_redis",
            "Celery broker changed",
            "Celery now uses Redis as its broker; RabbitMQ was decommissioned.\n",
        ),
    ),
    (
        _m("project", "ci_runner_zh", "CI 运行器", "CI 在 Jenkins 上运行。\n"),
        _m(
            "project",
            "ci_runner_zh_new",
            "CI 迁移",
            "CI 改为在 GitHub Actions 上运行，不再用 Jenkins。\n",
        ),
    ),
    (
        _m("project", "standup_time", "Daily standup time", "Standup is at 09:30 every weekday.\n"),
        _m(
            "project",
            "standup_time_new",
            "Standup moved",
            "Standup is at 10:00 every weekday since the new hires in Lisbon joined.\n",
        ),
    ),
    (
        _m("project", "infra_reviewer", "Infra PR reviewer", "Maya Chen reviews all infra PRs.\n"),
        _m(
            "project",
            "infra_reviewer_new",
            "Infra PR reviews",
            "Infra PRs are reviewed by Omar Haddad now that Maya Chen moved teams.\n",
        ),
    ),
    (
        _m(
            "project",
            "feature_flags_tool",
            "Feature flag service",
            "Feature flags are managed in Flagsmith.\n",
        ),
        _m(
            "project",
            "flags_deprecated",
            "Flagsmith deprecated",
            "Flagsmith is deprecated here; new flags go into GrowthBook.\n",
        ),
    ),
]

# Written after the first measurement, to probe wordings the first list lacks; kept
# apart so the first list's figures stay comparable.
SUPERSEDED_LATER: list[tuple[Memory, Memory]] = [
    (
        _m("project", "bundler", "Web app bundler", "We bundle the web app with Webpack.\n"),
        _m("project", "bundler_vite", "Bundler change", "We've moved web app bundling to Vite.\n"),
    ),
    (
        _m(
            "project",
            "package_manager",
            "Monorepo package manager",
            "The monorepo uses npm workspaces.\n",
        ),
        _m(
            "project", "pnpm", "pnpm in the monorepo", "npm was replaced by pnpm in the monorepo.\n"
        ),
    ),
    (
        _m("project", "deploy_weekday", "Deploy day", "Deploys happen on Tuesdays.\n"),
        _m("project", "deploy_weekday_new", "Deploy day", "Since March we deploy on Thursdays.\n"),
    ),
    (
        _m("project", "deploy_day_zh", "部署日", "每周二部署。\n"),
        _m("project", "deploy_day_zh_new", "部署日变更", "部署日改为每周四。\n"),
    ),
    (
        _m("project", "session_cache_zh", "会话缓存", "会话缓存使用 Memcached。\n"),
        _m(
            "project",
            "session_cache_zh_new",
            "会话缓存变更",
            "会话缓存换成了 Redis，不再使用 Memcached。\n",
        ),
    ),
    (
        _m("project", "job_runner", "Background job runner", "Background jobs run on Sidekiq.\n"),
        _m(
            "project",
            "job_runner_new",
            "Background job runner",
            "Sidekiq is deprecated; background jobs now run on GoodJob.\n",
        ),
    ),
    (
        _m(
            "reference", "docs_host", "Internal docs host", "Internal docs are hosted on GitBook.\n"
        ),
        _m(
            "reference",
            "docs_host_new",
            "Internal docs host",
            "Internal docs: GitBook replaced by Docusaurus on Vercel.\n",
        ),
    ),
    (
        _m("reference", "staging_host", "Staging URL", "Staging is at staging.acme.dev.\n"),
        _m(
            "reference",
            "staging_host_new",
            "Staging URL",
            "Staging URL changed to stage.acme.dev.\n",
        ),
    ),
    (
        _m(
            "project",
            "integration_db",
            "Integration test database",
            "Integration tests use SQLite.\n",
        ),
        _m(
            "project",
            "integration_db_new",
            "Integration test database",
            "Integration tests no longer use SQLite; they run against Postgres in Docker.\n",
        ),
    ),
    (
        _m(
            "project",
            "webhook_payload",
            "Webhook max payload",
            "The webhook max payload is 1 MB.\n",
        ),
        _m(
            "project",
            "webhook_payload_new",
            "Webhook payload limit",
            "Webhook payload limit is now 5 MB.\n",
        ),
    ),
    (
        _m("project", "default_branch", "Default branch", "The default branch is master.\n"),
        _m(
            "project",
            "default_branch_new",
            "Default branch rename",
            "We renamed the default branch from master to main.\n",
        ),
    ),
    (
        _m(
            "project",
            "search_team",
            "Search service owner",
            "The Search service is owned by Team Atlas.\n",
        ),
        _m(
            "project",
            "search_team_new",
            "Search ownership",
            "Search service ownership moved to the Discovery team.\n",
        ),
    ),
]

# (mine, a teammate's newer memory that says otherwise).
CONTRADICTED: list[tuple[Memory, Memory]] = [
    (
        _m(
            "reference",
            "staging_api_url",
            "Staging API base URL",
            "The staging API base URL is https://staging-api.acme.io.\n",
        ),
        _m(
            "reference",
            "staging_api",
            "Staging API endpoint",
            "Staging API base URL: https://api.staging.acme.io\n",
        ),
    ),
    (
        _m(
            "project",
            "code_freeze",
            "Weekly code freeze",
            "Code freeze starts Thursday at 17:00.\n",
        ),
        _m(
            "project",
            "freeze_day",
            "Code freeze day",
            "Code freeze starts Wednesday at 17:00, not Thursday.\n",
        ),
    ),
    (
        _m(
            "project",
            "store_uploads",
            "Mobile store uploads",
            "Mobile store uploads go through Fastlane.\n",
        ),
        _m(
            "project",
            "codemagic",
            "Mobile store upload tool",
            "Mobile store uploads no longer go through Fastlane; we use Codemagic.\n",
        ),
    ),
    (
        _m(
            "project",
            "audit_retention",
            "Audit log retention",
            "Audit logs are retained for 365 days.\n",
        ),
        _m(
            "project",
            "audit_retention_legal",
            "Audit log retention (legal)",
            "Audit logs are retained for 2555 days because of the legal hold policy.\n",
        ),
    ),
    (
        _m(
            "project",
            "oncall_handover",
            "On-call handover day",
            "The on-call rotation hands over every Monday.\n",
        ),
        _m(
            "project",
            "oncall_handover_wed",
            "On-call handover",
            "The on-call rotation hands over on Wednesday.\n",
        ),
    ),
    (
        _m(
            "project",
            "lambda_timeout",
            "Lambda timeout cap",
            "We cap Lambda timeouts at 30 seconds.\n",
        ),
        _m(
            "project",
            "lambda_timeout_cap",
            "Lambda timeout limit",
            "The Lambda timeout cap is 60 seconds.\n",
        ),
    ),
    (
        _m(
            "project",
            "prod_pg_version",
            "Production Postgres version",
            "Production runs Postgres 14 on RDS.\n",
        ),
        _m(
            "project",
            "prod_pg_upgrade",
            "Prod Postgres upgraded",
            "Production Postgres runs 16 on RDS since the upgrade.\n",
        ),
    ),
    (
        _m("project", "design_tokens_zh", "设计令牌", "设计令牌放在 Figma 里。\n"),
        _m(
            "project",
            "design_tokens_zh_new",
            "设计令牌位置",
            "设计令牌不再放在 Figma，改为放在 Tokens Studio。\n",
        ),
    ),
]

# (older, newer): neither is stale. Also tried as (mine, a teammate's newer).
HARD_NEGATIVES: list[tuple[Memory, Memory]] = [
    (
        _m(
            "project",
            "ci_history",
            "CI history",
            "We used to use CircleCI before migrating to GitHub Actions.\n",
        ),
        _m(
            "project",
            "ci_matrix",
            "CI test matrix",
            "GitHub Actions runs the test matrix on 3 Python versions.\n",
        ),
    ),
    (
        _m(
            "project",
            "staging_deploy_day",
            "Staging deploy day",
            "Staging deploys happen on Monday.\n",
        ),
        _m(
            "project",
            "prod_deploy_day",
            "Production deploy day",
            "Production deploys happen on Thursday.\n",
        ),
    ),
    (
        _m("project", "orders_port", "Orders API port", "The Orders API listens on port 8001.\n"),
        _m(
            "project", "billing_port", "Billing API port", "The Billing API listens on port 8002.\n"
        ),
    ),
    (
        _m("project", "thursday_deploys", "Deploy day", "Deploys go out on Thursday.\n"),
        _m(
            "project",
            "thursday_changelog",
            "Thursday deploy changelog",
            "Thursday deploys also need a changelog entry in #releases.\n",
        ),
    ),
    (
        _m("project", "cache_ttl", "Redis cache TTL", "The Redis cache TTL is 10 minutes.\n"),
        _m("project", "session_ttl", "Redis session TTL", "The Redis session TTL is 24 hours.\n"),
    ),
    (
        _m("project", "web_node", "Web app Node version", "The web app runs on Node 20.\n"),
        _m(
            "project",
            "lambda_node",
            "Lambda Node version",
            "The Lambda functions still run Node 18.\n",
        ),
    ),
    (
        _m(
            "feedback",
            "frontend_approvals",
            "Frontend PR approvals",
            "Frontend PRs need one approval.\n",
        ),
        _m("feedback", "infra_approvals", "Infra PR approvals", "Infra PRs need two approvals.\n"),
    ),
    (
        _m("project", "test_env_port_zh", "测试环境端口", "测试环境的端口是 8080。\n"),
        _m("project", "prod_env_port_zh", "生产环境端口", "生产环境的端口是 443。\n"),
    ),
    (
        _m(
            "project",
            "db_migration_history",
            "Database history",
            "We migrated from MySQL to Postgres in 2024.\n",
        ),
        _m(
            "project", "pg_pool", "Postgres pool size", "The Postgres connection pool size is 20.\n"
        ),
    ),
    (
        _m("project", "admin_jest", "Admin app tests", "The legacy admin app still uses Jest.\n"),
        _m("project", "packages_vitest", "New packages' tests", "New packages use Vitest.\n"),
    ),
    (
        _m(
            "project",
            "web_alerts",
            "Web alert channel",
            "Sentry alerts for the web app go to #web-alerts.\n",
        ),
        _m(
            "project",
            "mobile_alerts",
            "Mobile alert channel",
            "Sentry alerts for the mobile app go to #mobile-alerts.\n",
        ),
    ),
    (
        _m(
            "project",
            "deploy_approvals",
            "Deploy approvals",
            "Deploys need approval from a tech lead.\n",
        ),
        _m(
            "project",
            "deploy_approvals_canary",
            "Deploy approvals and canary",
            "Deploys need approval from a tech lead and a green canary for 20 minutes.\n",
        ),
    ),
    (
        _m("project", "region_primary", "Primary region", "Our primary region is eu-central-1.\n"),
        _m(
            "project",
            "region_restated",
            "Where we run",
            "We run in eu-central-1 as the primary region, with us-east-1 as the DR site.\n",
        ),
    ),
    (
        _m(
            "project",
            "backup_retention",
            "Backup retention",
            "Database backups are kept for 30 days.\n",
        ),
        _m(
            "project",
            "warehouse_backups",
            "Warehouse backup retention",
            "Backups of the analytics warehouse are kept for 7 days.\n",
        ),
    ),
    (
        _m(
            "user",
            "user_role",
            "User is a backend engineer",
            "The user is a backend engineer, new to the frontend code.\n",
        ),
        _m(
            "user",
            "user_prefs",
            "User prefers terse answers",
            "The user prefers terse answers with code first.\n",
        ),
    ),
    (
        _m(
            "project",
            "search_owner",
            "Search service owner",
            "The Search service is owned by the Discovery team.\n",
        ),
        _m(
            "project",
            "search_oncall",
            "Search service on-call",
            "Search service on-call is Priya Nair this quarter.\n",
        ),
    ),
    (
        _m(
            "feedback",
            "release_merges",
            "Release branch merges",
            "Release branches are squash-merged so the changelog stays short.\n",
        ),
        _m(
            "feedback",
            "feature_merges",
            "Feature branch merges",
            "No more squash merges on feature branches; rebase instead.\n",
        ),
    ),
    (
        _m(
            "project",
            "admin_unit_tests",
            "Admin app unit tests",
            "The legacy admin app still runs its unit tests on Jest.\n",
        ),
        _m(
            "project",
            "web_unit_tests",
            "Web app unit tests",
            "Jest was replaced by Vitest in the web app.\n",
        ),
    ),
    (
        _m(
            "project",
            "mobile_crashes",
            "Mobile crash reporting",
            "Mobile crash reports go to Rollbar.\n",
        ),
        _m(
            "project",
            "web_errors",
            "Web error tracking",
            "We no longer use Rollbar for the web app; web errors go to Honeybadger.\n",
        ),
    ),
    (
        _m(
            "project",
            "prod_pg",
            "Production Postgres version",
            "Production Postgres runs 16 on RDS.\n",
        ),
        _m(
            "project",
            "staging_pg",
            "Staging Postgres version",
            "Staging Postgres runs 15 on RDS.\n",
        ),
    ),
    (
        _m(
            "project",
            "billing_owner",
            "Billing service owner",
            "Maya Chen owns the billing service.\n",
        ),
        _m(
            "project",
            "billing_owner_note",
            "Billing ownership note",
            "Maya Chen moved teams; she still owns the billing service until Q3.\n",
        ),
    ),
    (
        _m("project", "test_ci_zh", "测试环境 CI", "测试环境使用 Jenkins 运行 CI。\n"),
        _m(
            "project",
            "prod_deploy_zh",
            "生产部署工具",
            "生产环境的部署不再用 Jenkins，改为 ArgoCD。\n",
        ),
    ),
    (
        _m(
            "project",
            "cra_history",
            "How the web app was built",
            "The web app was built with Create React App before we moved to Vite.\n",
        ),
        _m(
            "project",
            "vite_config",
            "Vite config location",
            "The Vite config lives in web/vite.config.ts.\n",
        ),
    ),
    (
        _m(
            "project",
            "backup_bucket",
            "Backup bucket",
            "Backups are written to the bucket acme-backups-eu.\n",
        ),
        _m("project", "log_bucket", "Log bucket", "Logs are written to the bucket acme-logs-eu.\n"),
    ),
    (
        _m("reference", "docs_site", "Docs site", "Docs live at https://docs.acme.io.\n"),
        _m(
            "reference",
            "docs_site_again",
            "Where the docs are",
            "The docs site is https://docs.acme.io and it rebuilds on every merge.\n",
        ),
    ),
    (
        _m(
            "project",
            "redis_broker_staging",
            "Staging Celery broker",
            "Staging Celery uses RabbitMQ as its broker.\n",
        ),
        _m(
            "project",
            "redis_broker_prod",
            "Production Celery broker",
            "Production Celery moved from RabbitMQ to Redis as its broker.\n",
        ),
    ),
    (
        _m("project", "hotfix_day", "Hotfix day", "Hotfixes happen on Thursdays.\n"),
        _m("project", "retro_day", "Retro day", "Retros happen on Fridays.\n"),
    ),
    (
        _m(
            "project",
            "release_cut",
            "Where releases are cut from",
            "Release branches are cut from master.\n",
        ),
        _m(
            "project",
            "main_rename",
            "Docs repo branch rename",
            "We renamed the docs repo's default branch from master to main.\n",
        ),
    ),
    (
        _m(
            "project",
            "invoices_table",
            "Invoice storage",
            "Invoices are stored in the invoices table.\n",
        ),
        _m(
            "project",
            "invoice_column",
            "Invoice amount column",
            "We renamed the column from total to amount_cents in the invoices table.\n",
        ),
    ),
    (
        _m(
            "project",
            "web_sidekiq",
            "Web app mailer jobs",
            "The web app sends mail from Sidekiq jobs.\n",
        ),
        _m(
            "project",
            "reports_goodjob",
            "Reports jobs",
            "Reports no longer run on Sidekiq; report jobs moved to GoodJob.\n",
        ),
    ),
]
