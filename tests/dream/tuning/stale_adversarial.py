"""An adversarial tuning set for stale marking (issue 15 item 4): memories that are
still true and were written to look stale to one rule or another, beside a few that are
stale, on one project (``quayside``, a Django API in ``api/`` and a TypeScript front end
in ``web/``). Written apart from the four sets before it, after those rules, to find
their false flags; never from ``tests/heldout``.

Each look-alike holds against the checkout (`CODE_FILES`) as it is: it cites a
library's API or a tool's environment variable the code never writes, a file a user or
another repository holds (``~/.claude/settings.json``, ``.vscode/settings.json``, "in
the infra repo, ``scripts/rotate_certs.sh``"), a file the checkout ignores, a URL, an
API route, a glob or a placeholder, a command of a tool the checkout does not declare
(``brew``, ``gh``, ``kubectl``, ``terraform``), a version as a range ("Node 20 or
later") or of another thing than the one declared ("React Native 0.74"), a port of
another service, a value in another unit ("30s" for 30000 ms), or a past it cites on
purpose; some are in Chinese.

- `LOOK_ALIKES`: memories the checkout must not make stale;
- `CODE_STALE`: kind → memories it does make stale (controls);
- `LOOK_ALIKE_PAIRS`: (older, newer, a teammate's) where neither is stale: two services
  or environments worded alike, a newer memory adding to an older one, another team's;
- `STALE_PAIRS`: (older, newer, a teammate's) where the older is stale (controls).

A memory is (type, name, description, body).
"""

from __future__ import annotations

from tests.dream.tuning.stale_fourth import Memory, _m

CODE_FILES: dict[str, str] = {
    "Makefile": """.PHONY: up down test lint fmt migrate shell

up:
\tdocker compose up -d

down:
\tdocker compose down

test:
\tcd api && uv run pytest -q && cd ../web && pnpm test

lint:
\tcd api && uv run ruff check . && cd ../web && pnpm lint

fmt:
\tcd api && uv run ruff format .

migrate:
\tcd api && uv run python manage.py migrate

shell:
\tcd api && uv run python manage.py shell
""",
    "docker-compose.yml": """services:
  db:
    image: postgres:16.3
    ports:
      - "5433:5432"
  redis:
    image: redis:7.2
    ports:
      - "6379:6379"
  mailpit:
    image: axllent/mailpit:v1.19
    ports:
      - "8025:8025"
  api:
    build: ./api
    ports:
      - "8000:8000"
  worker:
    build: ./api
    command: celery -A quayside worker
""",
    ".env.example": "QUAYSIDE_DATABASE_URL=postgres://quayside@localhost:5433/quayside\n"
    "REDIS_URL=redis://localhost:6379/0\nSTRIPE_SECRET_KEY=sk_test_change_me\nSENTRY_DSN=\n",
    ".gitignore": ".env\napi/.env\nweb/.env.local\n.claude/settings.local.json\n"
    "node_modules/\n__pycache__/\n.venv/\n",
    ".claude/settings.json": '{"permissions": {"allow": ["Bash(make test)"]}}\n',
    ".github/workflows/ci.yml": "name: ci\non: [push]\n",
    "deploy/fly.toml": 'app = "quayside"\n',
    "scripts/bootstrap.sh": "#!/bin/sh\nset -e\ncp -n .env.example .env\nmake up migrate\n",
    "scripts/rotate_keys.py": "def rotate_stripe_keys():\n    pass\n",
    "api/Dockerfile": "FROM python:3.11-slim\nWORKDIR /app\nCOPY . .\n",
    "api/pyproject.toml": """[project]
name = "quayside"
requires-python = ">=3.11"
dependencies = [
    "django==5.0.6",
    "celery==5.4.0",
    "httpx>=0.27",
    "sentry-sdk==2.8.0",
    "stripe>=10.0",
]
""",
    "api/uv.lock": "version = 1\n",
    "api/manage.py": "import os\n\n"
    'os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quayside.settings")\n',
    "api/quayside/__init__.py": "",
    "api/quayside/settings.py": """import os

DATABASE = os.environ["QUAYSIDE_DATABASE_URL"]
STRIPE_SECRET_KEY = os.environ["STRIPE_SECRET_KEY"]
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
SENTRY_TRACES_SAMPLE_RATE = 0.1
REQUEST_TIMEOUT_MS = 30000
SESSION_COOKIE_AGE = 1209600
CELERY_TASK_SOFT_TIME_LIMIT = 240
MAX_UPLOAD_BYTES = 10485760
CACHE_TTL_SECONDS = 86400
""",
    "api/quayside/billing/__init__.py": "",
    "api/quayside/billing/importer.py": "def import_invoices(since):\n    pass\n",
    "api/quayside/billing/search.py": "def search_invoices(query):\n    pass\n",
    "api/quayside/billing/tasks.py": """from quayside.billing.importer import import_invoices


def schedule_import(since):
    import_invoices.delay_on_commit(since)
""",
    "api/quayside/billing/views.py": """def invoice_list(request):
    return Invoice.objects.select_related("customer")
""",
    "api/quayside/billing/tests/test_importer.py": "def test_import_invoices():\n    pass\n",
    "web/package.json": """{
  "name": "quayside-web",
  "private": true,
  "engines": {"node": ">=20.11"},
  "scripts": {
    "dev": "vite",
    "build": "tsc -b && vite build",
    "preview": "vite preview",
    "test": "vitest run",
    "lint": "eslint src",
    "typecheck": "tsc --noEmit"
  },
  "dependencies": {
    "react": "^18.3.1",
    "react-dom": "^18.3.1",
    "@tanstack/react-query": "^5.51.0",
    "zod": "^3.23.8"
  },
  "devDependencies": {
    "vite": "^5.3.4",
    "vitest": "^2.0.3",
    "typescript": "~5.5.3",
    "eslint": "^9.7.0"
  }
}
""",
    "web/pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
    "web/tsconfig.json": '{"compilerOptions": {"strict": true}}\n',
    "web/.env.example": "VITE_API_URL=http://localhost:8000\n",
    "web/src/main.tsx": "import './api/client';\n",
    "web/src/config.ts": "export const API_TIMEOUT_MS = 15000;\nexport const PAGE_SIZE = 50;\n",
    "web/src/api/client.ts": "export function apiFetch(path: string) {\n  return fetch(path);\n}\n",
    "web/src/features/invoices/InvoiceTable.tsx": "export function InvoiceTable() {}\n",
    "web/src/features/invoices/searchInvoices.ts": "export function searchInvoices() {}\n",
    "web/src/features/invoices/useInvoiceMutation.ts": "import { useMutation } from "
    """"@tanstack/react-query";

export function invalidateInvoiceCache() {}

export function useInvoiceMutation() {
  return useMutation({ onSuccess: invalidateInvoiceCache });
}
""",
}

LOOK_ALIKES: list[Memory] = [
    # A library's API, which the checkout need not write for the memory to hold.
    _m(
        "feedback",
        "prefetch-lines",
        "Loading invoice lines",
        'Load invoice lines with `prefetch_related("lines")`, not a query per row; '
        "the customer stays a join.\n",
    ),
    _m(
        "feedback",
        "invalidate_after_mutation",
        "Refreshing lists after a mutation",
        "After a mutation succeeds, call `queryClient.invalidateQueries({ queryKey: "
        "['invoices'] })` rather than refetching by hand.\n",
    ),
    _m(
        "feedback",
        "filters-in-url",
        "Where list filters live",
        "Keep list filters in the URL with `useSearchParams`, never in component "
        "state, so a filtered view can be shared.\n",
    ),
    _m(
        "feedback",
        "on_commit",
        "Enqueueing from a view",
        "Enqueue Celery work from a view inside `transaction.on_commit()`, or the worker "
        "may read a row that is not committed yet.\n",
    ),
    _m(
        "reference",
        "zod-parse",
        "Validating API responses",
        "Responses are validated with zod's `safeParse`; log the issues and show the "
        "empty state instead of throwing.\n",
    ),
    _m(
        "feedback",
        "freeze_time",
        "Tests that depend on the clock",
        "Tests that depend on today's date use `freeze_time` from freezegun.\n",
    ),
    _m(
        "feedback",
        "async-client",
        "HTTP client in async code",
        "In async views use one shared `httpx.AsyncClient`; never open one per request.\n",
    ),
    # A tool's environment, which the checkout need not write either.
    _m(
        "reference",
        "sentry-environment",
        "How Sentry knows the environment",
        "The Sentry SDK reads SENTRY_ENVIRONMENT and SENTRY_RELEASE from the "
        "environment; Fly sets both on deploy.\n",
    ),
    _m(
        "user",
        "aws_profile",
        "AWS credentials on the laptop",
        "I keep the company account under a named profile; export AWS_PROFILE=quayside "
        "before any aws command.\n",
    ),
    _m(
        "reference",
        "uv-cache",
        "uv cache in CI",
        "CI caches the uv downloads by pointing UV_CACHE_DIR at the workspace cache folder.\n",
    ),
    _m(
        "feedback",
        "node_memory",
        "Large type checks",
        "If `pnpm typecheck` runs out of memory, set NODE_OPTIONS=--max-old-space-size=4096.\n",
    ),
    _m(
        "reference",
        "claude-bedrock",
        "Claude Code through Bedrock",
        "On the work laptop Claude Code goes through Bedrock: CLAUDE_CODE_USE_BEDROCK=1 "
        "and ANTHROPIC_MODEL are set in my shell profile.\n",
    ),
    _m(
        "reference",
        "pytest_addopts",
        "Extra pytest flags locally",
        "I set PYTEST_ADDOPTS='-x --ff' in my shell; CI does not.\n",
    ),
    _m(
        "reference",
        "pip-index",
        "Private package index",
        "The internal wheels come from our Artifactory; PIP_INDEX_URL and "
        "UV_INDEX_URL point at it on every laptop.\n",
    ),
    # Files a user, an editor or another repository holds, or the checkout ignores.
    _m(
        "user",
        "claude_settings",
        "My Claude Code permissions",
        "My own allow-list for Claude Code is in ~/.claude/settings.json; the project's "
        "shared one is .claude/settings.json.\n",
    ),
    _m(
        "user",
        "local-claude-settings",
        "Personal Claude Code overrides for this repo",
        "Personal overrides for this repository go in `.claude/settings.local.json`, "
        "which git ignores.\n",
    ),
    _m(
        "user",
        "vscode_settings",
        "Editor formatting",
        "Format on save is set in `.vscode/settings.json` on my machine with the Ruff extension.\n",
    ),
    _m(
        "project",
        "api-dotenv",
        "Local secrets for the API",
        "Local secrets for the API go in api/.env (copied from .env.example); never commit it.\n",
    ),
    _m(
        "project",
        "web_env_local",
        "Pointing the web app at staging",
        "To point the local web app at staging, set VITE_API_URL in web/.env.local.\n",
    ),
    _m(
        "reference",
        "tsconfig-base",
        "Shared TypeScript settings",
        "Strict flags come from `tsconfig.json` in web/; the path aliases every front "
        "end shares are in `tsconfig.base.json` of the @acme/config package.\n",
    ),
    _m(
        "reference",
        "infra_certs",
        "Certificate rotation",
        "In the infra repo, `scripts/rotate_certs.sh` renews the wildcard certificate; "
        "run it from there, not from this repository.\n",
    ),
    _m(
        "reference",
        "infra-vpc",
        "Where the VPC is defined",
        "The VPC and its subnets are in the infra repo, terraform/modules/vpc.\n",
    ),
    _m(
        "reference",
        "mobile_navigation",
        "Mobile navigation",
        "The mobile app's navigation lives in its own repo, in `src/navigation/RootStack.tsx`.\n",
    ),
    _m(
        "reference",
        "docs_site_preview",
        "Previewing the docs site",
        "The docs site is its own repository (acme/quayside-docs); there, `npm run "
        "preview` serves the built site.\n",
    ),
    # URLs, API routes, globs and placeholders.
    _m(
        "reference",
        "export-route",
        "Invoice export endpoint",
        "Exports are started with `POST api/v2/exports` and polled at "
        "`GET api/v2/exports/{id}`; see https://docs.quayside.io/api/exports.html.\n",
    ),
    _m(
        "reference",
        "health_check",
        "Health check",
        "Fly checks http://localhost:8000/healthz every 15 seconds.\n",
    ),
    _m(
        "feedback",
        "test-globs",
        "Where tests go",
        "Web tests sit next to the code as `web/src/**/*.test.ts`; API tests go in "
        "api/quayside/<app>/tests/.\n",
    ),
    _m(
        "feedback",
        "feature_folders",
        "Front-end feature folders",
        "Each feature gets a folder, `web/src/features/[feature]/`, with its hooks and "
        "components side by side.\n",
    ),
    _m(
        "feedback",
        "app-layout",
        "Django app layout",
        "A new Django app follows api/quayside/APP_NAME/ with models.py, views.py and tests/.\n",
    ),
    # Commands of tools the checkout does not declare, or of another place.
    _m(
        "user",
        "brew_setup",
        "Laptop setup",
        "On a new Mac: `brew install pnpm uv flyctl`, then `make up`.\n",
    ),
    _m(
        "feedback",
        "gh-pr",
        "Opening pull requests",
        "Open PRs with `gh pr create --fill --draft` and mark them ready once CI is green.\n",
    ),
    _m(
        "reference",
        "kubectl_restart",
        "Restarting the shared worker",
        "The shared ETL workers run on the data platform's cluster, not Fly; restart "
        "them with `kubectl -n etl rollout restart deploy/worker`.\n",
    ),
    _m(
        "reference",
        "terraform-plan",
        "Planning infra changes",
        "Infra changes are planned with `terraform plan -var-file=envs/prod.tfvars` in "
        "the infra repo and applied by Atlantis.\n",
    ),
    _m(
        "feedback",
        "make_targets",
        "Prefer make over raw commands",
        "Use make targets rather than raw docker compose commands; run make from the "
        "repository root.\n",
    ),
    _m(
        "reference",
        "observability-compose",
        "Local Grafana",
        "For dashboards locally, start the observability stack from the infra checkout: "
        "`docker compose -f ../infra/compose.observability.yml up -d grafana`.\n",
    ),
    _m(
        "feedback",
        "vitest_ui",
        "Debugging a web test",
        "To debug one web test, run `pnpm vitest --ui src/features/invoices` in web/.\n",
    ),
    _m(
        "reference",
        "claude-install",
        "Installing Claude Code",
        "Install Claude Code with `npm install -g @anthropic-ai/claude-code`; it needs "
        "nothing from this repo.\n",
    ),
    # Versions as ranges, or of another thing than the one declared.
    _m("project", "node_range", "Node for the web app", "The web app needs Node 20 or later.\n"),
    _m(
        "project",
        "python-range",
        "Supported Python",
        "The API supports Python 3.11+ (requires-python >= 3.11); CI also runs 3.12.\n",
    ),
    _m(
        "project",
        "pg_minor",
        "Local Postgres version",
        "Compose runs Postgres 16.x; any 16 minor works with the dumps.\n",
    ),
    _m(
        "project",
        "mobile-react-native",
        "Mobile stack",
        "The mobile app is React Native 0.74 on Expo 51, separate from the web app's React 18.\n",
    ),
    _m(
        "project",
        "prod_redis",
        "Redis in production",
        "Production uses ElastiCache Redis 6.2; local compose runs a newer Redis, which "
        "is fine for what we use.\n",
    ),
    _m(
        "project",
        "metabase-db",
        "Metabase's database",
        "Metabase keeps its own metadata in a separate Postgres 14 that the data team "
        "runs; we only read from it.\n",
    ),
    _m(
        "project",
        "typescript_mobile",
        "TypeScript in the mobile repo",
        "The mobile repo is still on TypeScript 5.3 because of Expo; the web app here is newer.\n",
    ),
    _m(
        "project",
        "lambda-node",
        "Node in the edge function",
        "The image-resize Lambda is deployed from the infra repo on the Node 18 runtime.\n",
    ),
    # Ports of other services, or on the compose network.
    _m(
        "reference",
        "grafana_port",
        "Local Grafana port",
        "Grafana from the observability stack is on localhost:3000.\n",
    ),
    _m(
        "reference",
        "redis-network",
        "Redis from the worker",
        "Locally the worker reaches Redis on port 6379 over the compose network.\n",
    ),
    _m(
        "reference",
        "pgbouncer_local",
        "Testing connection pooling",
        "To test pooling locally, run PgBouncer from the infra repo in front of "
        "Postgres and point the API at port 6432.\n",
    ),
    # Values said in other units.
    _m(
        "reference",
        "request_timeout",
        "API request timeout",
        "`REQUEST_TIMEOUT_MS` is 30s; the load balancer gives up at 60.\n",
    ),
    _m(
        "reference",
        "session-age",
        "Session length",
        "`SESSION_COOKIE_AGE` is 2 weeks, so people sign in twice a month at most.\n",
    ),
    _m(
        "reference",
        "upload_limit",
        "Upload limit",
        "`MAX_UPLOAD_BYTES` is 10 MB; larger CSVs go through the S3 presigned upload.\n",
    ),
    _m(
        "reference",
        "traces-sample",
        "Sentry sampling",
        "`SENTRY_TRACES_SAMPLE_RATE` is 10% in every environment.\n",
    ),
    _m(
        "reference",
        "soft_limit",
        "Celery soft time limit",
        "`CELERY_TASK_SOFT_TIME_LIMIT` is 4 minutes; the exports task catches it and "
        "saves a partial file.\n",
    ),
    _m(
        "reference",
        "cache-ttl",
        "Cache lifetime",
        "CACHE_TTL_SECONDS is 24 hours for the exchange rates.\n",
    ),
    _m(
        "reference",
        "stripe_timeout",
        "Stripe API timeout",
        "The Stripe API timeout in their SDK is 80s by default; we never change it.\n",
    ),
    _m(
        "reference",
        "search-page-size",
        "Search results page size",
        "The page size of the search results is 20, set by the search service.\n",
    ),
    _m(
        "reference",
        "erp_timeout",
        "ERP timeout",
        "The ERP API timeout is 5 seconds on their side; our retries cover it.\n",
    ),
    _m(
        "reference",
        "importer-soft-limit",
        "Importer time limit",
        "Celery's soft time limit for the importer is 10 minutes, set on the task itself.\n",
    ),
    # The past, cited on purpose.
    _m(
        "project",
        "outage-2024",
        "The March outage",
        "In March we ran `make reindex` by hand for six hours to recover search; that "
        "target is gone and search rebuilds itself now.\n",
    ),
    _m(
        "project",
        "old_importer",
        "History of the importer",
        "The first importer lived in api/quayside/billing/ingest.py and had no retries; "
        "it became importer.py.\n",
    ),
    _m(
        "project",
        "postgres-history",
        "Postgres history",
        "We started on Postgres 12 in 2021 and moved up one major a year.\n",
    ),
    # In Chinese.
    _m(
        "reference",
        "infra_certs_zh",
        "证书轮换在 infra 仓库",
        "在 infra 仓库里，`scripts/renew_certs.sh` 负责续期通配符证书，不在这个仓库。\n",
    ),
    _m("project", "node-range-zh", "前端 Node 版本", "前端需要 Node 20 以上。\n"),
    _m(
        "user",
        "claude_local_zh",
        "个人 Claude Code 设置",
        "我个人的 Claude Code 覆盖设置写在 `.claude/settings.local.json`，git 会忽略它。\n",
    ),
    _m(
        "project",
        "timeout-zh",
        "API 请求超时",
        "`REQUEST_TIMEOUT_MS` 是 30 秒。\n",
    ),
    _m(
        "feedback",
        "query_zh",
        "列表刷新",
        "改动成功后用 `invalidateQueries` 让列表重新取数，别手动 refetch。\n",
    ),
    _m(
        "project",
        "outage-zh",
        "三月事故",
        "三月那次事故里我们手动跑了 `make reindex`，这个 target 现在已经删掉了。\n",
    ),
    # A version named to say it is not supported, and another environment's port.
    _m(
        "project",
        "python_unsupported",
        "Python 3.10",
        "Python 3.10 is not supported any more: the API uses `typing.Self`.\n",
    ),
    _m(
        "project",
        "node-eol",
        "Node 18",
        "Node 18 reached end of life in April, and the web app no longer builds on it.\n",
    ),
    _m(
        "reference",
        "ci_postgres",
        "Postgres in CI",
        "In CI, Postgres is a GitHub Actions service on localhost port 5432.\n",
    ),
    _m(
        "reference",
        "upload-mib",
        "Upload limit in MiB",
        "`MAX_UPLOAD_BYTES` is 10 MiB.\n",
    ),
    _m(
        "project",
        "stack_versions",
        "Front-end stack",
        "The web app is React 18.3 with TypeScript 5.5, Vite 5 and zod 3.23.\n",
    ),
    # What the checkout does not have yet, on purpose.
    _m(
        "project",
        "fixtures-folder",
        "Billing fixtures",
        "Billing fixtures go in `api/quayside/billing/fixtures/` (create it if missing).\n",
    ),
    _m(
        "project",
        "fly_production",
        "Fly config per environment",
        "Production config will move to `deploy/fly.production.toml` once we add "
        "staging; until then `deploy/fly.toml` is production.\n",
    ),
    _m(
        "project",
        "hooks-zh",
        "前端 hooks 目录",
        "以后新的 hooks 放在 `web/src/features/invoices/hooks/`，现在还没有这个目录。\n",
    ),
    # Still true and citing the checkout as it is.
    _m(
        "project",
        "importer",
        "Where invoice import lives",
        "Invoice import is api/quayside/billing/importer.py (`import_invoices(since)`).\n",
    ),
    _m(
        "project",
        "pg_now",
        "Local Postgres",
        "Local Postgres is on localhost port 5433 (compose publishes 5433:5432).\n",
    ),
]

# Kind → memories the checkout makes stale.
CODE_STALE: dict[str, list[Memory]] = {
    "path": [
        _m(
            "project",
            "ingest-file",
            "Where invoice import lives",
            "Invoice import is implemented in api/quayside/billing/ingest.py; it pages "
            "through the ERP 100 rows at a time.\n",
        ),
        _m(
            "project",
            "rotate_tool",
            "Rotating the Stripe keys",
            "Stripe keys are rotated with `tools/rotate_keys.py` once a quarter.\n",
        ),
    ],
    "module": [
        _m(
            "project",
            "import_by_hand",
            "Re-running the import",
            "```\ncd api\nuv run python -m quayside.billing.ingest --since 2025-01-01\n```\n",
        ),
    ],
    "npm-script": [
        _m(
            "feedback",
            "storybook",
            "Component previews",
            "Check new components in Storybook with `pnpm run storybook` before review.\n",
        ),
    ],
    "make-target": [
        _m("project", "seed", "Demo data", "Load demo data with `make seed` after `make up`.\n"),
    ],
    "compose-service": [
        _m(
            "project",
            "scheduler_logs",
            "Beat logs",
            "Scheduled jobs log to the scheduler container: `docker compose logs -f scheduler`.\n",
        ),
    ],
    "package-manager": [
        _m("project", "web_install", "Installing the web app", "In web/, run `npm ci` first.\n"),
    ],
    "symbol": [
        _m(
            "project",
            "db_url",
            "Database URL variable",
            "The API reads its database from QUAYSIDE_DB_URL.\n",
        ),
        _m(
            "project",
            "sync-call",
            "Importing from a shell",
            "From `make shell`, call `sync_invoices(since)` to import by hand.\n",
        ),
    ],
    "version": [
        _m("project", "python_old", "API Python", "The API runs on Python 3.10.\n"),
        _m("project", "pg-old", "Local Postgres major", "Compose runs Postgres 15 locally.\n"),
        _m("project", "node_old", "Node for the web app", "The web app builds on Node 18.\n"),
        _m("project", "django-old", "Django line", "The API is on Django 4.2 LTS.\n"),
    ],
    "port": [
        _m(
            "reference",
            "pg_port_old",
            "Local Postgres port",
            "Local Postgres is on localhost port 5432.\n",
        ),
    ],
    "value": [
        _m(
            "reference",
            "timeout_old",
            "API request timeout",
            "`REQUEST_TIMEOUT_MS` is 10000.\n",
        ),
    ],
}

LOOK_ALIKE_PAIRS: list[tuple[Memory, Memory, bool]] = [
    (
        _m(
            "project",
            "invoices_cache",
            "Invoices endpoint caching",
            "The invoices endpoint is cached for 60 seconds.\n",
        ),
        _m(
            "project",
            "customers-cache",
            "Customers endpoint caching",
            "The customers endpoint is cached for 300 seconds.\n",
        ),
        False,
    ),
    (
        _m(
            "project",
            "staging_window",
            "Staging deploy window",
            "Staging deploys go out at 14:00 UTC.\n",
        ),
        _m(
            "project",
            "prod-window",
            "Production deploy window",
            "Production deploys go out at 16:00 UTC.\n",
        ),
        False,
    ),
    (
        _m(
            "project",
            "api_latency",
            "api latency budget",
            "api: the p95 latency budget is 300 ms.\n",
        ),
        _m(
            "project",
            "search-latency",
            "search latency budget",
            "search: the p95 latency budget is 800 ms.\n",
        ),
        False,
    ),
    (
        _m(
            "project",
            "backups",
            "Database backups",
            "Postgres backups run nightly at 02:00 UTC and are kept 14 days.\n",
        ),
        _m(
            "project",
            "weekly-snapshot",
            "Weekly database snapshot",
            "On top of the nightly backups, a full snapshot is also taken every Sunday at "
            "03:00 UTC and kept 90 days.\n",
        ),
        False,
    ),
    (
        _m(
            "project",
            "review_rule",
            "Reviews on API PRs",
            "API PRs need 1 approval from the backend group.\n",
        ),
        _m(
            "project",
            "migration-reviews",
            "Reviews on migrations",
            "PRs with a migration also need an approval from the DBA, in addition to the "
            "usual backend review.\n",
        ),
        False,
    ),
    (
        _m(
            "project",
            "our_oncall",
            "On-call handover",
            "Our on-call hands over on Monday at 10:00.\n",
        ),
        _m(
            "project",
            "data-oncall",
            "Data team on-call handover",
            "The data team's on-call hands over on Thursday at 09:00.\n",
        ),
        True,
    ),
    (
        _m(
            "project",
            "eu_replicas",
            "EU API replicas",
            "The EU region runs 3 API replicas.\n",
        ),
        _m(
            "project",
            "us-replicas",
            "US API replicas",
            "The US region runs 6 API replicas.\n",
        ),
        True,
    ),
    (
        _m(
            "project",
            "staging_zh",
            "预发部署时间",
            "预发环境每天 14:00 部署。\n",
        ),
        _m(
            "project",
            "prod-zh",
            "生产部署时间",
            "生产环境每天 16:00 部署。\n",
        ),
        False,
    ),
    (
        _m(
            "feedback",
            "retries_emails",
            "Email worker retries",
            "The email worker retries a failed send 3 times.\n",
        ),
        _m(
            "feedback",
            "retries-webhooks",
            "Webhook worker retries",
            "The webhook worker retries a failed delivery 8 times with backoff.\n",
        ),
        True,
    ),
]

LOOK_ALIKE_PAIRS += [
    (
        _m(
            "project",
            "frontend_reviews",
            "Front-end PR reviews",
            "Frontend PRs need 1 approval.\n",
        ),
        _m(
            "project",
            "backend-reviews",
            "Back-end PR reviews",
            "Backend PRs need 2 approvals.\n",
        ),
        True,
    ),
    (
        _m(
            "project",
            "importer_retries",
            "Importer retries",
            "The importer retries a failed page 3 times.\n",
        ),
        _m(
            "project",
            "importer-backoff",
            "Importer backoff",
            "The importer retries a failed page 3 times, waiting 10 seconds, then 30, then 90.\n",
        ),
        False,
    ),
]

STALE_PAIRS: list[tuple[Memory, Memory, bool]] = [
    (
        _m(
            "project",
            "freeze",
            "Deploy freeze",
            "The weekly deploy freeze starts Thursday at 18:00.\n",
        ),
        _m(
            "project",
            "freeze-moved",
            "Deploy freeze moved",
            "The weekly deploy freeze now starts Friday at 12:00.\n",
        ),
        False,
    ),
    (
        _m(
            "project",
            "replicas",
            "API replicas",
            "Production runs 3 API replicas.\n",
        ),
        _m(
            "project",
            "replicas-up",
            "API replicas raised",
            "Production runs 5 API replicas since the Black Friday load test.\n",
        ),
        True,
    ),
]
