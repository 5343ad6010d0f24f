"""A fourth tuning set for stale marking (issue 15 item 4), written apart from the
three before it and in another style: the memories a team accumulates on one project
(``tidepool``, a Django backend and a React front end in one repository) over a year,
as Claude Code writes them — a frontmatter ``name`` (snake_case or kebab-case), a
``description`` line, the type at the top or nested under ``metadata:``, and a body of
mixed length with ``**Why:**`` and ``**How to apply:**`` lines, paths and commands cited
in prose, in backticks and in fenced code blocks. Never written from ``tests/heldout``.

The checkout (`CODE_FILES`) is the project *after* a year of changes the older
memories predate: files moved or renamed (``backend/tidepool/sync/ingest.py`` is
``importer.py``, ``tools/`` went into ``ops/``), scripts dropped from package.json and
the Makefile, environment variables renamed (``DATABASE_URL`` is
``TIDEPOOL_DATABASE_URL``), versions bumped in the manifests and compose file, a host
port moved.

- `CODE_STALE`: kind → memories the checkout contradicts;
- `SUPERSEDED`: (older, newer) in one directory, the newer worded otherwise;
- `CONTRADICTED`: (mine, a teammate's newer memory in ``team/``);
- `LOOK_ALIKES`: memories that look stale and are not — the cited file exists under
  another folder that also exists, a path under a build folder, a past-tense or
  planned mention, an unchanged version said otherwise, a URL, an API route, a
  placeholder, a port inside the compose network, a command of another repository;
- `LOOK_ALIKE_PAIRS`: (older, newer) where neither is stale: a newer memory about
  another service, environment or team, or one adding detail.

A memory is (type, name, description, body); pairs are (older, newer).
"""

from __future__ import annotations

Memory = tuple[str, str, str, str]


def _m(kind: str, name: str, description: str, body: str) -> Memory:
    return kind, name, description, body


CODE_FILES: dict[str, str] = {
    "Makefile": """.PHONY: bootstrap up down test lint migrate shell

bootstrap:
\t./scripts/bootstrap.sh

up:
\tdocker compose up -d

down:
\tdocker compose down

test:
\tcd backend && pytest -q

lint:
\tcd backend && ruff check . && cd ../web && pnpm lint

migrate:
\tcd backend && python manage.py migrate

shell:
\tcd backend && python manage.py shell_plus
""",
    "docker-compose.yml": """services:
  db:
    image: postgres:17
    ports:
      - "5434:5432"
  redis:
    image: redis:7.4
    ports:
      - "6380:6379"
  mailpit:
    image: axllent/mailpit:v1.21
    ports:
      - "8025:8025"
  api:
    build: ./backend
    ports:
      - "8000:8000"
""",
    ".tool-versions": "python 3.13.1\nnodejs 22.12.0\n",
    ".env.example": "TIDEPOOL_DATABASE_URL=postgres://tidepool@localhost:5434/tidepool\n"
    "REDIS_URL=redis://localhost:6380/0\nSTRIPE_SECRET_KEY=sk_test_change_me\n"
    "SENTRY_DSN=\nTIDEPOOL_EMAIL_FROM=billing@tidepool.test\n",
    ".github/workflows/ci.yml": "name: ci\non: [push]\n",
    "scripts/bootstrap.sh": "#!/bin/sh\nset -e\ncp -n .env.example .env\nmake up migrate\n",
    "scripts/check_env.py": "import os\n\nREQUIRED = ['TIDEPOOL_DATABASE_URL', 'REDIS_URL']\n",
    "ops/deploy.sh": "#!/bin/sh\nset -e\nfly deploy --config ops/fly.$1.toml\n",
    "ops/rotate_keys.py": "def rotate_stripe_keys():\n    pass\n",
    "ops/fly.staging.toml": 'app = "tidepool-staging"\n',
    "ops/fly.production.toml": 'app = "tidepool"\n',
    "docs/runbooks/incident.md": "# Incident runbook\n",
    "docs/adr/0007-celery-beat.md": "# Celery beat in its own container\n",
    "backend/pyproject.toml": """[project]
name = "tidepool"
requires-python = ">=3.13"
dependencies = [
    "django==5.1.4",
    "celery==5.4.0",
    "psycopg==3.2.3",
    "stripe>=11.1",
]

[project.scripts]
tidepool-admin = "tidepool.cli:main"
""",
    "backend/manage.py": "import os\n\n"
    'os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tidepool.settings")\n',
    "backend/tidepool/__init__.py": "",
    "backend/tidepool/settings.py": """import os

DATABASE = os.environ["TIDEPOOL_DATABASE_URL"]
STRIPE_SECRET_KEY = os.environ["STRIPE_SECRET_KEY"]
SESSION_COOKIE_AGE = 1209600
CELERY_TASK_TIME_LIMIT = 300
INVOICE_DUE_DAYS = 14
""",
    "backend/tidepool/billing/__init__.py": "",
    "backend/tidepool/billing/invoices.py": """class InvoiceBuilder:
    def build(self, order):
        return build_invoice(order)


def build_invoice(order):
    return order
""",
    "backend/tidepool/billing/tasks.py": "def send_dunning_emails():\n    pass\n",
    "backend/tidepool/billing/webhooks.py": "def handle_stripe_event(event):\n    pass\n",
    "backend/tidepool/sync/__init__.py": "",
    "backend/tidepool/sync/importer.py": "def import_customers(since):\n    pass\n",
    "backend/tidepool/cli.py": "def main():\n    pass\n",
    "backend/tidepool/billing/views.py": """def invoice_list(request):
    return Invoice.objects.select_related("customer")
""",
    "backend/tidepool/middleware.py": "MIDDLEWARE = [\n"
    '    "django.contrib.auth.middleware.LoginRequiredMiddleware",\n]\n',
    "web/package.json": """{
  "name": "tidepool-web",
  "private": true,
  "engines": {"node": ">=22"},
  "scripts": {
    "dev": "vite",
    "build": "vite build",
    "test": "vitest run",
    "lint": "eslint src",
    "typecheck": "tsc --noEmit",
    "storybook": "storybook dev -p 6006"
  },
  "dependencies": {
    "react": "^19.0.0",
    "react-dom": "^19.0.0",
    "@tanstack/react-query": "^5.62.0",
    "zod": "^3.24.1"
  },
  "devDependencies": {
    "vite": "^6.0.3",
    "vitest": "^2.1.8",
    "typescript": "~5.7.2"
  }
}
""",
    "web/.nvmrc": "22.12.0\n",
    "web/pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
    "backend/uv.lock": "version = 1\n",
    "web/vite.config.ts": "export default {};\n",
    "web/scripts/generate-icons.mjs": "// builds the icon sprite\n",
    "web/src/main.tsx": "import './api/client';\n",
    "web/src/config.ts": "export const API_TIMEOUT_MS = 15000;\nexport const PAGE_SIZE = 50;\n",
    "web/src/api/client.ts": "export function apiFetch(path: string) {\n  return fetch(path);\n}\n",
    "web/src/features/billing/InvoiceTable.tsx": "export function InvoiceTable() {}\n",
    "web/src/features/billing/useInvoices.ts": """import { useQuery } from "@tanstack/react-query";

export function useInvoices() {
  return useQuery({ queryKey: ["invoices"], staleTime: 30_000 });
}
""",
}

# Kind → memories the checkout says are stale.
CODE_STALE: dict[str, list[Memory]] = {
    "path": [
        _m(
            "project",
            "customer_sync",
            "Nightly customer sync from the CRM lives in the sync app",
            "The nightly CRM → Postgres customer sync is implemented in "
            "backend/tidepool/sync/ingest.py. It pages through the CRM API 200 records at "
            "a time.\n\n"
            "**Why:** the CRM rate-limits at 5 req/s, so the page size matters more than "
            "the query.\n"
            "**How to apply:** when the sync is slow, look at the paging loop there first, "
            "not at the database.\n",
        ),
        _m(
            "project",
            "web-api-client",
            "All front-end HTTP calls go through one fetch wrapper",
            "Every request from the web app goes through `web/src/lib/api.ts`, which adds "
            "the CSRF header and retries once on a 502.\n\n"
            "**How to apply:** never call `fetch` directly in a component; import the "
            "wrapper.\n",
        ),
        _m(
            "project",
            "deploying_staging",
            "How to deploy staging by hand",
            "Staging is deployed from a laptop:\n\n"
            "```bash\n./scripts/deploy.sh staging\n```\n\n"
            "It needs `flyctl` logged in to the tidepool org.\n",
        ),
        _m(
            "project",
            "stripe-key-rotation",
            "Rotating the Stripe keys",
            "Stripe keys are rotated every quarter with the helper in tools/rotate_keys.py; "
            "it writes the new key to Doppler and revokes the old one after an hour.\n\n"
            "**Why:** a leaked restricted key in March.\n",
        ),
        _m(
            "project",
            "reindex",
            "Rebuilding the search index",
            "If invoice search returns stale results, rebuild the index with "
            "`./scripts/reindex.sh --all`; it takes about ten minutes on a laptop.\n",
        ),
        _m(
            "reference",
            "ci_workflow",
            "Where the CI pipeline is defined",
            "CI is the single workflow in `.github/workflows/test.yml` (lint, backend "
            "tests, web tests in parallel).\n",
        ),
    ],
    "module": [
        _m(
            "project",
            "manual_import",
            "Running the customer import by hand",
            "To re-run the import for one day outside the schedule:\n\n"
            "```\ncd backend\npython -m tidepool.sync.ingest --since 2025-06-01\n```\n",
        ),
        _m(
            "reference",
            "reminder-task",
            "Name of the payment reminder task",
            "The beat entry points at `tidepool.billing.tasks.send_payment_reminders`; "
            "rename it there too if the task moves.\n",
        ),
    ],
    "npm-script": [
        _m(
            "project",
            "e2e_suite",
            "Playwright end-to-end suite",
            "The e2e suite is Playwright, under web/e2e. Run it with `npm run e2e` while "
            "`make up` is running.\n\n"
            "**Why:** it hits the real API, not mocks.\n",
        ),
        _m(
            "feedback",
            "watch-mode",
            "Use watch mode while editing front-end tests",
            "The user likes a tight loop on front-end work. Keep the tests running in a "
            "second terminal:\n\n"
            "```sh\ncd web\npnpm test:watch\n```\n\n"
            "**How to apply:** suggest it whenever we touch a component with tests.\n",
        ),
        _m(
            "project",
            "web_format",
            "Formatting the web code",
            "Front-end code is formatted with Prettier through `pnpm format`; CI does not "
            "check it, so run it before pushing.\n",
        ),
        _m(
            "feedback",
            "e2e_before_release",
            "Run the smoke tests before a release",
            "Before tagging a release, run yarn smoke against staging and paste the "
            "summary into the release PR.\n",
        ),
    ],
    "make-target": [
        _m(
            "project",
            "reset_local_db",
            "Resetting the local database",
            "When migrations get tangled locally, `make reset-db` drops and recreates the "
            "dev database and reloads the fixtures.\n",
        ),
        _m(
            "project",
            "demo-data",
            "Loading demo data",
            "For a demo account with invoices, subscriptions and a failed payment:\n\n"
            "```\nmake up\nmake seed\n```\n\n"
            "**Why:** the empty dashboard hides most of the UI.\n",
        ),
        _m(
            "project",
            "api_docs_build",
            "Building the API docs locally",
            "Run make docs to rebuild the OpenAPI docs before a release.\n",
        ),
    ],
    "console-script": [
        _m(
            "project",
            "admin_cli",
            "The admin CLI for one-off support tasks",
            "Support fixes (refunds, re-sending an invoice) are done with the admin CLI, "
            "e.g. `tidepool_admin resend-invoice INV-1042`, never in the Django shell.\n\n"
            "**Why:** the CLI writes an audit row; the shell does not.\n",
        ),
    ],
    "symbol": [
        _m(
            "project",
            "customer_import_entry",
            "Entry point of the customer import",
            "The import is started by `sync_customers(since)`; pass a timezone-aware "
            "datetime or it silently imports nothing.\n",
        ),
        _m(
            "project",
            "invoice-numbering",
            "Where invoice numbers are assigned",
            "Invoice numbers are assigned in the InvoiceGenerator class when the PDF is "
            "rendered, not at checkout.\n\n"
            "**How to apply:** a missing number means the PDF step failed.\n",
        ),
        _m(
            "project",
            "db_env",
            "Database connection setting",
            "The backend reads its database from `DATABASE_URL`; with it unset it falls "
            "back to SQLite, which hides migration bugs.\n",
        ),
        _m(
            "project",
            "stripe_env",
            "Stripe key in local .env",
            "For local billing work put a test key in STRIPE_API_KEY in backend/.env. "
            "Never a live key.\n",
        ),
        _m(
            "project",
            "sentry-env",
            "Tagging local Sentry events",
            "Local runs report to Sentry under their own environment:\n\n"
            "```bash\nexport SENTRY_ENVIRONMENT=local-$USER\n```\n",
        ),
    ],
    "version": [
        _m(
            "project",
            "node_runtime",
            "Node version for the web app",
            "The web app is built and tested on Node 20 LTS; use nvm.\n",
        ),
        _m(
            "project",
            "python-runtime",
            "Backend Python version",
            "The backend runs on Python 3.12.\n\n"
            "**How to apply:** don't suggest 3.13-only syntax in backend code.\n",
        ),
        _m(
            "project",
            "local_postgres",
            "Local Postgres version",
            "Local Postgres in compose is PostgreSQL 16, same major as production RDS.\n",
        ),
    ],
    "port": [
        _m(
            "project",
            "psql_local",
            "Connecting to the local database with psql",
            "The compose Postgres is published on localhost:5433, so:\n\n"
            "```\npsql -h localhost -p 5433 -U tidepool\n```\n",
        ),
        _m(
            "project",
            "redis-local-port",
            "Local Redis port",
            "Locally, Redis from docker compose answers on port 6379; redis-cli works "
            "without flags.\n",
        ),
    ],
    "compose-service": [
        _m(
            "project",
            "flower",
            "Watching Celery tasks locally",
            "Flower shows the local Celery queues:\n\n"
            "```\ndocker compose up -d flower\n```\n\n"
            "then open http://localhost:5555.\n",
        ),
    ],
    "package-manager": [
        _m(
            "project",
            "web_install",
            "Installing the front-end dependencies",
            "After pulling, reinstall the web dependencies with `npm ci` inside web/; "
            "a stale node_modules breaks Vite in odd ways.\n",
        ),
        _m(
            "project",
            "backend-deps",
            "Backend dependencies",
            "Backend dependencies are managed with Poetry:\n\n"
            "```bash\ncd backend\npoetry install --with dev\n```\n\n"
            "**How to apply:** add packages with `poetry add`, never pip.\n",
        ),
    ],
    "value": [
        _m(
            "project",
            "web_timeout",
            "Front-end request timeout",
            "`API_TIMEOUT_MS` in web/src/config.ts is 10000; slow report endpoints time "
            "out in the browser before the server gives up.\n",
        ),
        _m(
            "project",
            "celery_limit",
            "Hard time limit for Celery tasks",
            "`CELERY_TASK_TIME_LIMIT` is 600 seconds in backend/tidepool/settings.py; long "
            "exports must be split.\n",
        ),
        _m(
            "project",
            "page-size",
            "List page size",
            "List endpoints return 25 rows per page (PAGE_SIZE in the web config).\n",
        ),
    ],
    "dependency": [
        _m(
            "project",
            "django_version",
            "Django version of the backend",
            "We are on Django 5.0, so `GeneratedField` is available but not the 5.1 "
            "`LoginRequiredMiddleware`.\n",
        ),
        _m(
            "project",
            "react-version",
            "React major in the web app",
            "The web app is on React 18; `use()` and the new form actions are not available yet.\n",
        ),
        _m(
            "project",
            "celery_pin",
            "Celery version pin",
            "Celery is pinned to celery 5.3.6 because of a beat scheduler bug.\n",
        ),
        _m(
            "project",
            "query_lib",
            "Server state library",
            "Server state lives in React Query v4; its devtools are on in development.\n",
        ),
    ],
}

# (older, newer): the newer, in the same directory, replaces the older in other words.
SUPERSEDED: list[tuple[Memory, Memory]] = [
    (
        _m(
            "feedback",
            "python_formatter",
            "Python formatting tool",
            "Format Python with Black (line length 100).\n\n"
            "**Why:** the team agreed on it in the first week.\n",
        ),
        _m(
            "feedback",
            "ruff-format",
            "Ruff does formatting now",
            "We dropped Black; `ruff format` formats the backend and CI checks it.\n\n"
            "**How to apply:** don't add Black back to the pre-commit config.\n",
        ),
    ),
    (
        _m(
            "project",
            "release_cadence",
            "When releases are cut",
            "Releases are cut every second Wednesday after the sprint review.\n",
        ),
        _m(
            "project",
            "weekly-releases",
            "Release train",
            "Since the team grew we release weekly; the release is cut on Monday morning.\n",
        ),
    ),
    (
        _m(
            "project",
            "qa_signoff",
            "Who signs off a release",
            "Lena Ortiz does the QA sign-off before every production release.\n",
        ),
        _m(
            "project",
            "qa-owner",
            "Release sign-off",
            "Release QA sign-off passed to Tomasz Wojcik after Lena Ortiz left in June.\n",
        ),
    ),
    (
        _m(
            "project",
            "feature_flags",
            "Feature flag service",
            "Feature flags are managed in Unleash; the admin UI is behind the VPN.\n",
        ),
        _m(
            "project",
            "flags-in-settings",
            "Feature flags moved into settings",
            "Unleash was shut down. Feature flags are plain settings now, read from the "
            "environment at start-up.\n",
        ),
    ),
    (
        _m(
            "project",
            "analytics_export",
            "Nightly export to the analytics bucket",
            "The nightly export to the analytics bucket starts at 02:00 UTC.\n",
        ),
        _m(
            "project",
            "export-window",
            "Analytics export time",
            "The analytics export was moved to 04:30 UTC so it stops overlapping the backups.\n",
        ),
    ),
    (
        _m(
            "project",
            "upload_limit",
            "Attachment upload limit",
            "Invoice attachments are capped at 25 MB each.\n",
        ),
        _m(
            "project",
            "upload-limit-raised",
            "Bigger attachments",
            "Customers asked for scans of whole contracts, so the attachment cap went up "
            "to 100 MB.\n",
        ),
    ),
    (
        _m(
            "project",
            "trace_sampling",
            "Sentry traces sample rate",
            "Sentry traces sample rate is 0.2 in production.\n",
        ),
        _m(
            "project",
            "trace-sampling-cut",
            "Less tracing",
            "We lowered the Sentry traces sample rate to 0.05 after the quota warning.\n",
        ),
    ),
    (
        _m(
            "reference",
            "status_page",
            "Public status page",
            "The public status page is on Statuspage (status.tidepool.io).\n",
        ),
        _m(
            "reference",
            "status-page-move",
            "Status page provider",
            "We moved the public status page from Statuspage to Instatus to save money.\n",
        ),
    ),
    (
        _m(
            "project",
            "staging_deploys",
            "How staging gets deployed",
            "Staging deploys are manual: whoever merged runs the deploy from a laptop.\n",
        ),
        _m(
            "project",
            "staging-deploys-ci",
            "How staging gets deployed",
            "Staging deploys automatically from main through GitHub Actions; nobody deploys "
            "it by hand.\n",
        ),
    ),
    (
        _m(
            "project",
            "invoice_due",
            "Invoice payment terms",
            "Invoices are due 30 days after issue.\n\n"
            "**How to apply:** the dunning emails key off this.\n",
        ),
        _m(
            "project",
            "invoice-terms-change",
            "Shorter payment terms",
            "Payment terms on invoices are now 14 days after issue, agreed with finance in "
            "the autumn.\n",
        ),
    ),
]

# (mine, a teammate's newer memory in team/ that says otherwise).
CONTRADICTED: list[tuple[Memory, Memory]] = [
    (
        _m(
            "project",
            "api_slo",
            "Public API availability target",
            "The public API SLO is 99.9% monthly availability.\n",
        ),
        _m(
            "project",
            "slo-revised",
            "Public API SLO",
            "The public API SLO is 99.5% monthly; 99.9 was never realistic on one region.\n",
        ),
    ),
    (
        _m(
            "feedback",
            "backend_reviews",
            "Reviews on backend PRs",
            "Backend PRs need 2 approvals before merge.\n",
        ),
        _m(
            "feedback",
            "backend-review-rule",
            "Backend review rule",
            "Backend PRs need 1 approval now; the second reviewer was a bottleneck.\n",
        ),
    ),
    (
        _m(
            "reference",
            "paging",
            "How on-call gets paged",
            "Pages go through PagerDuty; the schedule is 'Tidepool primary'.\n",
        ),
        _m(
            "reference",
            "paging-tool",
            "Paging tool",
            "We no longer use PagerDuty for paging; on-call is paged through Opsgenie.\n",
        ),
    ),
    (
        _m(
            "project",
            "staging_refresh",
            "Staging database refresh",
            "The staging database is refreshed from an anonymised prod snapshot every Sunday.\n",
        ),
        _m(
            "project",
            "staging-refresh-day",
            "Staging refresh schedule",
            "The staging database refresh from the prod snapshot runs on Saturday night.\n",
        ),
    ),
    (
        _m(
            "project",
            "session_length",
            "How long a login lasts",
            "Dashboard sessions last 7 days.\n",
        ),
        _m(
            "project",
            "session-length-policy",
            "Session length",
            "Dashboard sessions last 14 days after the security review.\n",
        ),
    ),
]

# Memories that look stale against `CODE_FILES` and are not.
LOOK_ALIKES: list[Memory] = [
    _m(
        "project",
        "icon_sprite",
        "Regenerating the icon sprite",
        "In web/, `scripts/generate-icons.mjs` rebuilds the SVG sprite from the icons "
        "folder; commit the result.\n",
    ),
    _m(
        "project",
        "billing-hook",
        "Where the billing UI gets its data",
        "Inside the web app, src/features/billing/useInvoices.ts is the only place that "
        "calls the invoices endpoint.\n",
    ),
    _m(
        "project",
        "web_build_output",
        "Where the web build goes",
        "`pnpm build` writes to web/dist/, which Django serves in production; never commit it.\n",
    ),
    _m(
        "project",
        "deploy_history",
        "How deploys changed",
        "Back when deploys were manual we ran `./scripts/deploy.sh staging`; it lives in "
        "ops/ now and CI calls it.\n",
    ),
    _m(
        "project",
        "seed_history",
        "Demo data",
        "Until the Makefile was trimmed, `make seed` loaded demo data; the bootstrap "
        "script does it now.\n",
    ),
    _m(
        "project",
        "pg-upgrade-plan",
        "Planned Postgres upgrade",
        "We plan to move to Postgres 18 once RDS supports it; nothing to do before then.\n",
    ),
    _m(
        "project",
        "pg_now",
        "Local Postgres major",
        "Compose runs PostgreSQL 17.2 locally.\n",
    ),
    _m(
        "project",
        "node-now",
        "Node for the web app",
        "Web needs Node.js v22 or newer (see web/.nvmrc).\n",
    ),
    _m("project", "python_now", "Backend Python", "The backend targets Python 3.13.\n"),
    _m(
        "project",
        "django-now",
        "Django release line",
        "Backend is on Django 5.1 (the 5.1.4 patch).\n",
    ),
    _m("project", "react_now", "React version", "The web app uses React 19 and Vite 6.\n"),
    _m(
        "reference",
        "invoice_pdf_route",
        "Invoice PDF endpoint",
        "PDFs come from `/api/v2/invoices/{id}/pdf`; see "
        "https://docs.tidepool.io/api/invoices/pdf.html for the query parameters.\n",
    ),
    _m(
        "project",
        "app-tasks-layout",
        "Where Celery tasks go",
        "Each Django app keeps its Celery tasks in `backend/tidepool/<app>/tasks.py`; "
        "React hooks go in web/src/features/*/use*.ts.\n",
    ),
    _m(
        "project",
        "pg_inside",
        "Postgres from other containers",
        "Inside the compose network the API reaches Postgres on port 5432 (host db).\n",
    ),
    _m(
        "project",
        "psql-now",
        "psql against the local database",
        "Compose publishes Postgres on localhost:5434:\n\n"
        "```\npsql -h localhost -p 5434 -U tidepool\n```\n",
    ),
    _m(
        "project",
        "redis_url",
        "Redis connection",
        "The backend reads Redis from `REDIS_URL`; locally it is redis://localhost:6380/0.\n",
    ),
    _m(
        "project",
        "invoice-builder",
        "Building invoices",
        "`build_invoice()` in backend/tidepool/billing/invoices.py is what the "
        "InvoiceBuilder class calls; keep the PDF step out of it.\n",
    ),
    _m(
        "project",
        "storybook",
        "Component previews",
        "Component previews: `pnpm storybook`, then open port 6006.\n",
    ),
    _m(
        "project",
        "typecheck_before_push",
        "Type-check before pushing",
        "CI type-checks the web app, so run it locally first:\n\n"
        "```sh\ncd web && npm run typecheck\n```\n\n"
        "**Why:** a red CI run blocks the merge queue for everyone.\n",
    ),
    _m(
        "project",
        "make_targets",
        "Everyday make targets",
        "`make up`, `make migrate` and `make test` are all most days need.\n",
    ),
    _m(
        "reference",
        "infra_repo",
        "Infrastructure repository",
        "RDS and the VPC are in the separate infra repo; its module for the database is "
        "terraform/modules/rds/main.tf, applied with `terraform apply` from CI only.\n",
    ),
    _m(
        "user",
        "editor",
        "User's editor setup",
        "The user works in Neovim; their config is in ~/.config/nvim/lua/plugins.lua.\n",
    ),
    _m(
        "project",
        "timeout_now",
        "Front-end timeout value",
        "`API_TIMEOUT_MS` is 15000 (15 s) in web/src/config.ts.\n",
    ),
    _m(
        "project",
        "stripe-key-now",
        "Stripe key setting",
        "Set STRIPE_SECRET_KEY in .env to a test key; the example file has a placeholder.\n",
    ),
    _m(
        "project",
        "rotation_now",
        "Key rotation script",
        "Quarterly Stripe key rotation is ops/rotate_keys.py (`rotate_stripe_keys`).\n",
    ),
    _m(
        "project",
        "mail-capture",
        "Seeing outgoing mail locally",
        "Mailpit catches local mail; its UI is on localhost:8025.\n",
    ),
    _m(
        "project",
        "ingest_rename",
        "The sync module's name",
        "backend/tidepool/sync/ingest.py was renamed to importer.py when the CRM changed.\n",
    ),
    _m(
        "project",
        "redis-version",
        "Redis version",
        "Compose runs Redis 7 (7.4 at the moment).\n",
    ),
    _m(
        "project",
        "adr_beat",
        "Why Celery beat runs alone",
        "See docs/adr/0007-celery-beat.md: beat runs in its own container so a deploy "
        "never runs two schedulers.\n",
    ),
    _m(
        "feedback",
        "n_plus_one",
        "Avoid N+1 queries on the invoice list",
        "The invoice list view must `select_related('customer')`; without it the page "
        "makes one query per row.\n\n"
        "**Why:** the list timed out for the biggest customer in September.\n",
    ),
    _m(
        "project",
        "data-fetching",
        "How the web app fetches data",
        "Components fetch through `useQuery` from TanStack Query, with `staleTime` set "
        "per hook; no hand-rolled loading state.\n",
    ),
    _m(
        "project",
        "login_required",
        "Login enforcement on the dashboard",
        "Since Django 5.1 the dashboard relies on `LoginRequiredMiddleware`; mark public "
        "views with `@login_not_required`.\n",
    ),
    _m(
        "project",
        "pnpm_install",
        "Front-end install",
        "`pnpm install` in web/ after every pull that touches the lockfile.\n",
    ),
    _m(
        "project",
        "uv-sync",
        "Backend install",
        "```sh\ncd backend && uv sync\n```\n\nThat is all the backend setup there is.\n",
    ),
    _m(
        "project",
        "query-devtools",
        "React Query devtools",
        "React Query v5 devtools are mounted only in development builds.\n",
    ),
    _m(
        "project",
        "webhook-entry",
        "Where Stripe webhooks start",
        "Stripe events enter at `backend/tidepool/billing/webhooks.py:1` "
        "(`handle_stripe_event`); the signature check happens before it.\n",
    ),
    _m(
        "project",
        "env_check",
        "Checking the local environment",
        "`python scripts/check_env.py` lists the variables .env is missing.\n",
    ),
    _m(
        "reference",
        "dunning-task",
        "Name of the dunning task",
        "Celery beat runs `tidepool.billing.tasks.send_dunning_emails` every morning; the "
        "CLI is `python -m tidepool.cli`.\n",
    ),
    _m(
        "project",
        "django-settings",
        "Settings module",
        "`DJANGO_SETTINGS_MODULE` is `tidepool.settings`; tests use "
        "`django.contrib.auth.middleware` as is.\n",
    ),
    _m(
        "project",
        "mail-logs",
        "Seeing what the API sends",
        "`docker compose logs -f api mailpit` shows the API and the mail it sends; "
        "`docker compose exec -u postgres db psql` opens a database shell.\n",
    ),
    _m(
        "feedback",
        "yarn-words",
        "Package manager talk",
        "When the user says they will run yarn later, they mean the web install, "
        "which is pnpm now; with pnpm storybook the previews open on port 6006.\n",
    ),
    _m(
        "project",
        "terraform-version",
        "Terraform version",
        "The infra repo pins Terraform 1.9; upgrade it there, not here.\n",
    ),
]

# (older, newer): neither is stale. Also tried with the newer as a teammate's.
LOOK_ALIKE_PAIRS: list[tuple[Memory, Memory]] = [
    (
        _m(
            "project",
            "billing_retries",
            "Billing worker retries",
            "The billing worker retries a failed Stripe call 5 times with backoff.\n",
        ),
        _m(
            "project",
            "notifications-retries",
            "Notifications worker retries",
            "The notifications worker retries a failed send 3 times, then gives up.\n",
        ),
    ),
    (
        _m(
            "project",
            "staging_sample",
            "Staging Sentry sampling",
            "On staging the Sentry traces sample rate is 1.0.\n",
        ),
        _m(
            "project",
            "prod-sample",
            "Production Sentry sampling",
            "In production the Sentry traces sample rate is 0.05.\n",
        ),
    ),
    (
        _m(
            "project",
            "release_day",
            "Release day",
            "Releases are cut on Monday morning.\n",
        ),
        _m(
            "project",
            "release-notes",
            "Release notes",
            "Monday releases also need release notes in #announcements before noon.\n",
        ),
    ),
    (
        _m(
            "feedback",
            "formatter_history",
            "Why Black is gone",
            "We dropped Black when ruff gained a formatter.\n",
        ),
        _m(
            "feedback",
            "ruff_config",
            "Ruff line length",
            "Ruff format uses line length 100 for the backend.\n",
        ),
    ),
    (
        _m(
            "project",
            "web-owner",
            "Web app owner",
            "Priya Nair owns the web app.\n",
        ),
        _m(
            "project",
            "backend-owner",
            "Backend owner",
            "Tomasz Wojcik owns the backend.\n",
        ),
    ),
    (
        _m(
            "project",
            "api_slo_internal",
            "Internal API target",
            "The internal admin API has no SLO; best effort.\n",
        ),
        _m(
            "project",
            "api_slo_public",
            "Public API target",
            "The public API SLO is 99.5% monthly.\n",
        ),
    ),
    (
        _m(
            "reference",
            "stripe_dashboard",
            "Stripe dashboard",
            "Billing disputes are handled in the Stripe dashboard, never through the API.\n",
        ),
        _m(
            "reference",
            "stripe_webhooks",
            "Stripe webhooks",
            "Stripe webhook events land in backend/tidepool/billing/webhooks.py.\n",
        ),
    ),
    (
        _m(
            "project",
            "upload_scan",
            "Attachment virus scan",
            "Attachments are virus-scanned with ClamAV before they are stored.\n",
        ),
        _m(
            "project",
            "upload_cap",
            "Attachment cap",
            "Attachments are capped at 100 MB.\n",
        ),
    ),
    (
        _m(
            "project",
            "mobile_sessions",
            "Mobile app sessions",
            "Mobile app sessions last 30 days.\n",
        ),
        _m(
            "project",
            "dashboard_sessions",
            "Dashboard sessions",
            "Dashboard sessions last 14 days.\n",
        ),
    ),
    (
        _m(
            "project",
            "status_history",
            "Status page history",
            "We used Statuspage until the price went up.\n",
        ),
        _m(
            "reference",
            "status_now",
            "Status page",
            "The status page is on Instatus.\n",
        ),
    ),
]
