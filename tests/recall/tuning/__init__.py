"""The recall tuning corpus: where the ranking's weights and floors are chosen.

Issue 15 keeps two corpora apart: this one, written for memsync's recall, to choose
field weights, alternative factors and the score floor; and ``tests/heldout``, written
independently, only to check them. Nothing here copies the held-out corpus's wording.

A small platform team's memories (hand-written below: rules, decisions, places, people,
with identifiers, versions and abbreviations as engineers write them) among a
background of generated service facts ("the ledger-sync job runs hourly"), and
questions in other words than the memories use. Some questions have no answer at all:
recall should show nothing for them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from memsync.recall.rank import RecallDocument

NOW = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Question:
    text: str
    answers: tuple[str, ...]  # empty: nothing answers it


# (path, type, name, description, body)
MEMORIES: list[tuple[str, str, str, str, str]] = [
    (
        "feedback_go_version.md",
        "feedback",
        "Go toolchain",
        "All Go services build with Go 1.22",
        "Upgrade go.mod to go1.22 before adding generics-heavy code. The CI image pins it.",
    ),
    (
        "feedback_node_lts.md",
        "feedback",
        "Node runtime",
        "Frontends run on Node 20 LTS only",
        "Do not use Node 21 features; the Lambda runtime is nodejs20.x.",
    ),
    (
        "feedback_no_orm_raw.md",
        "feedback",
        "No raw SQL in handlers",
        "Handlers never embed raw SQL; queries live in the repository layer",
        "Reviewers reject PRs with SQL strings in HTTP handlers. Use the sqlc-generated package.",
    ),
    (
        "feedback_kotlin_nullsafety.md",
        "feedback",
        "Kotlin null safety",
        "Never use the !! operator in KotlinAndroid code",
        "Crash reports traced to !! on nullable intents."
        " Use ?.let or requireNotNull with a message.",
    ),
    (
        "feedback_react_hooks.md",
        "feedback",
        "React hooks rule",
        "useEffect must list every dependency; the exhaustive-deps lint is an error",
        "Stale closures in the checkout form came from a missing dependency.",
    ),
    (
        "feedback_commit_style.md",
        "feedback",
        "Commit messages",
        "Commit subjects use the imperative mood and stay under 72 characters",
        "The changelog generator reads the subject line only.",
    ),
    (
        "feedback_feature_flags.md",
        "feedback",
        "Feature flags",
        "Every user-facing change ships behind a LaunchDarkly flag",
        "Flags are named team.area.change and removed within two sprints.",
    ),
    (
        "feedback_logging_pii.md",
        "feedback",
        "No PII in logs",
        "Log lines must not contain e-mail addresses or phone numbers",
        "Use the redact() helper from pkg/logx; the SIEM alerts on PII patterns.",
    ),
    (
        "feedback_rust_unsafe.md",
        "feedback",
        "Unsafe Rust",
        "unsafe blocks need a SAFETY comment and a second reviewer",
        "The audit in March found two unsound unsafe blocks in the codec crate.",
    ),
    (
        "feedback_terraform_plan.md",
        "feedback",
        "Terraform plans",
        "Attach the terraform plan output to every infra PR",
        "Run `make plan ENV=staging` and paste the summary; applies happen from Atlantis only.",
    ),
    (
        "project_db_upgrade.md",
        "project",
        "Database upgrade",
        "The orders database moves from PostgreSQL 13 to 16 in Q3",
        "Logical replication to the new cluster starts in July; cutover is planned for August 19.",
    ),
    (
        "project_mobile_release.md",
        "project",
        "Mobile release train",
        "iOS and Android apps release every second Wednesday",
        "The release branch is cut on Monday; QA signs off Tuesday.",
    ),
    (
        "project_observability.md",
        "project",
        "Tracing rollout",
        "We are moving tracing from Jaeger to OpenTelemetry (OTel) collectors",
        "New services emit OTLP; Jaeger agents are removed by the end of the quarter.",
    ),
    (
        "project_k8s_migration.md",
        "project",
        "Cluster migration",
        "Workloads move from ECS to Kubernetes (EKS) by October",
        "Helm charts live in infra/charts; each team migrates its own services.",
    ),
    (
        "project_search_engine.md",
        "project",
        "Search backend",
        "Product search switched from Elasticsearch to OpenSearch 2.11",
        "Index templates are in search/templates; the old ES cluster is read-only.",
    ),
    (
        "project_auth_provider.md",
        "project",
        "Identity provider",
        "Single sign-on (SSO) moves to Okta; Auth0 is retired in September",
        "SAML apps are migrated first, then the OIDC clients.",
    ),
    (
        "project_payments_vendor.md",
        "project",
        "Payments vendor",
        "Card payments go through Adyen; Stripe handles only the marketplace payouts",
        "The contract with Adyen runs until 2027.",
    ),
    (
        "project_data_warehouse.md",
        "project",
        "Warehouse",
        "Analytics data lands in BigQuery; the Redshift cluster is frozen",
        "dbt models run nightly at 02:00 UTC from the analytics repo.",
    ),
    (
        "project_api_versioning.md",
        "project",
        "API versioning",
        "Public REST API versions are in the URL path, /v2 is current",
        "v1 is deprecated and answers with a Sunset header until December.",
    ),
    (
        "project_code_freeze.md",
        "project",
        "Holiday code freeze",
        "No production changes from December 20 to January 3",
        "Only incident fixes approved by the on-call lead may ship.",
    ),
    (
        "reference_runbooks.md",
        "reference",
        "Runbooks",
        "Incident runbooks are in the ops-handbook Notion space",
        "Each alert links its runbook in the annotation runbook_url.",
    ),
    (
        "reference_dashboards.md",
        "reference",
        "Dashboards",
        "Service dashboards live in Grafana under the folder Platform",
        "SLO burn-rate panels are at the top of each dashboard.",
    ),
    (
        "reference_status_page.md",
        "reference",
        "Status page",
        "Customer-facing incidents are posted on status.example.com via Statuspage",
        "The incident commander posts the first update within 15 minutes.",
    ),
    (
        "reference_design_system.md",
        "reference",
        "Design system",
        "UI components come from the @acme/ui package, documented in Storybook",
        "Storybook is deployed at ui.acme.dev on every merge to main.",
    ),
    (
        "reference_secrets_store.md",
        "reference",
        "Secrets store",
        "Application secrets are kept in HashiCorp Vault under kv/apps/<service>",
        "Never commit .env files; the pre-commit hook blocks them.",
    ),
    (
        "reference_ci_system.md",
        "reference",
        "Continuous integration",
        "CI runs on GitHub Actions; self-hosted runners carry the GPU jobs",
        "Workflow files are in .github/workflows; reusable ones in acme/ci-templates.",
    ),
    (
        "reference_error_tracking.md",
        "reference",
        "Error tracking",
        "Exceptions are reported to Sentry, project per service",
        "Release health is tagged with the git SHA.",
    ),
    (
        "reference_feature_store.md",
        "reference",
        "Feature store",
        "ML features are served from Feast backed by Redis",
        "Offline features come from the warehouse snapshots.",
    ),
    (
        "user_role.md",
        "user",
        "User role",
        "Priya is the staff engineer for the payments domain",
        "She prefers short answers with code first, explanation after.",
    ),
    (
        "user_timezone.md",
        "user",
        "Working hours",
        "The user works from Lisbon, UTC+0/UTC+1, mornings are for deep work",
        "Schedule reviews after 14:00 Lisbon time.",
    ),
    (
        "user_editor.md",
        "user",
        "Editor",
        "The user edits in Neovim with LazyVim",
        "Suggest keymaps in Lua, not Vimscript.",
    ),
    (
        "feedback_timezone_storage.md",
        "feedback",
        "Timestamps",
        "Store timestamps in UTC; convert to the user's time zone only in the UI",
        "A daylight-saving bug double-billed subscriptions in March.",
    ),
    (
        "feedback_typescript_strict.md",
        "feedback",
        "TypeScript strictness",
        "TypeScript projects keep strict mode; no implicit any",
        "Prefer unknown with a type guard over a cast.",
    ),
    (
        "feedback_python_typing.md",
        "feedback",
        "Python typing",
        "Python services run on Python 3.12 with mypy --strict in CI",
        "New modules need full annotations; Any needs a comment saying why.",
    ),
    (
        "feedback_dependency_pinning.md",
        "feedback",
        "Dependency pins",
        "Renovate opens dependency PRs on Mondays; merge them within a week",
        "Major upgrades need a changelog review by the owning team.",
    ),
    (
        "feedback_db_migrations.md",
        "feedback",
        "Schema migrations",
        "Migrations must be backward compatible for one release (expand, then contract)",
        "Drop columns only in the release after the code stopped reading them.",
    ),
    (
        "project_rate_limits.md",
        "project",
        "Rate limiting",
        "The public API allows 600 requests per minute per token",
        "Limits are enforced at the Envoy edge; enterprise tokens get 3000.",
    ),
    (
        "project_gdpr_deletion.md",
        "project",
        "Data deletion",
        "Account deletion requests must complete within 30 days (GDPR)",
        "The erasure job runs daily and reports to the privacy team.",
    ),
    (
        "reference_on_call.md",
        "reference",
        "On-call tool",
        "Pages go through PagerDuty; the schedule is Platform Primary",
        "Escalation after 10 minutes to the secondary.",
    ),
    (
        "project_cdn.md",
        "project",
        "CDN",
        "Static assets are served by CloudFront with a 1-day TTL",
        "Invalidate with `make cdn-purge`; never purge the whole distribution.",
    ),
    (
        "feedback_code_review_zh.md",
        "feedback",
        "代码评审",
        "合并请求至少需要两位评审者批准",
        "安全相关的改动还需要安全团队的一位成员批准。",
    ),
    (
        "project_release_zh.md",
        "project",
        "发布窗口",
        "生产环境只在周二和周四发布",
        "周五下午禁止发布；紧急修复除外。",
    ),
    (
        "reference_wiki_zh.md",
        "reference",
        "团队文档",
        "团队的设计文档放在 Confluence 的 PLAT 空间",
        "每份设计文档都要写明负责人和评审日期。",
    ),
    (
        "feedback_staging_deploy.md",
        "feedback",
        "Staging deploys",
        "Staging deploys happen automatically on every merge to main",
        "Production deploys are manual from the release dashboard.",
    ),
    (
        "feedback_prod_deploy.md",
        "feedback",
        "Production deploys",
        "Production deploys need a green canary for 30 minutes",
        "Roll back with the release dashboard, not by reverting commits.",
    ),
    (
        "project_ipv6.md",
        "project",
        "IPv6",
        "The load balancers serve IPv6 since May",
        "Internal services still use IPv4 only.",
    ),
    (
        "reference_grpc_protos.md",
        "reference",
        "Protobuf definitions",
        "gRPC service definitions live in the acme/protos repository",
        "Generated stubs are published as packages by buf on each tag.",
    ),
]

# Questions phrased apart from the memories' wording.
QUESTIONS: list[Question] = [
    Question("which golang version do we build with", ("feedback_go_version.md",)),
    Question("can i use node 21", ("feedback_node_lts.md",)),
    Question("where should sql queries go", ("feedback_no_orm_raw.md",)),
    Question(
        "is the double bang operator ok in android kotlin", ("feedback_kotlin_nullsafety.md",)
    ),
    Question("useEffect dependency array lint", ("feedback_react_hooks.md",)),
    Question("how long can a commit subject be", ("feedback_commit_style.md",)),
    Question("do new features need a flag", ("feedback_feature_flags.md",)),
    Question("may I log the customer's email", ("feedback_logging_pii.md",)),
    Question("rules for unsafe code in rust", ("feedback_rust_unsafe.md",)),
    Question("what do infra pull requests need", ("feedback_terraform_plan.md",)),
    Question("when does the orders db get upgraded to postgres 16", ("project_db_upgrade.md",)),
    Question("pg16 cutover date", ("project_db_upgrade.md",)),
    Question("how often do the mobile apps ship", ("project_mobile_release.md",)),
    Question("are we still on jaeger for traces", ("project_observability.md",)),
    Question("otel collector plan", ("project_observability.md",)),
    Question("k8s migration deadline", ("project_k8s_migration.md",)),
    Question("where are the helm charts", ("project_k8s_migration.md",)),
    Question("which search engine backs product search", ("project_search_engine.md",)),
    Question("sso provider", ("project_auth_provider.md",)),
    Question("who processes card payments", ("project_payments_vendor.md",)),
    Question("where does analytics data go, bigquery or redshift", ("project_data_warehouse.md",)),
    Question("is api v1 still supported", ("project_api_versioning.md",)),
    Question("can we deploy over christmas", ("project_code_freeze.md",)),
    Question("where are the incident runbooks", ("reference_runbooks.md",)),
    Question("grafana dashboards folder", ("reference_dashboards.md",)),
    Question("how do we tell customers about an outage", ("reference_status_page.md",)),
    Question("where is the storybook for ui components", ("reference_design_system.md",)),
    Question("where do app secrets live", ("reference_secrets_store.md",)),
    Question("what ci do we use, gh actions?", ("reference_ci_system.md",)),
    Question("where do exceptions get reported", ("reference_error_tracking.md",)),
    Question("what serves ml features", ("reference_feature_store.md",)),
    Question("who owns payments engineering", ("user_role.md",)),
    Question("what tz is the user in", ("user_timezone.md",)),
    Question("which editor does the user use", ("user_editor.md",)),
    Question("how should we store dates and times", ("feedback_timezone_storage.md",)),
    Question("is implicit any allowed in ts", ("feedback_typescript_strict.md",)),
    Question("py312 and mypy strict", ("feedback_python_typing.md",)),
    Question("which python version do services run on", ("feedback_python_typing.md",)),
    Question("when to merge renovate prs", ("feedback_dependency_pinning.md",)),
    Question("can I drop a column in the same release", ("feedback_db_migrations.md",)),
    Question("api rate limit per token", ("project_rate_limits.md",)),
    Question("how fast must account deletion happen", ("project_gdpr_deletion.md",)),
    Question("who gets paged, pagerduty schedule", ("reference_on_call.md",)),
    Question("how do i purge the cdn cache", ("project_cdn.md",)),
    Question("the ledgerSync job schedule", ("svc_ledger_sync_schedule.md",)),
    Question("who owns image-resizer", ("svc_image_resizer_owner.md",)),
    Question("what port does the billing api listen on", ("svc_billing_api_port.md",)),
    Question("which team owns the fraud scorer", ("svc_fraud_scorer_owner.md",)),
    Question("how often does taxCalc run", ("svc_tax_calc_schedule.md",)),
    Question("geo lookup port number", ("svc_geo_lookup_port.md",)),
    Question("where is the mail relay code", ("svc_mail_relay_repo.md",)),
    Question("what database does quota_keeper use", ("svc_quota_keeper_storage.md",)),
    Question("loyalty points alerting channel", ("svc_loyalty_points_alerts.md",)),
    Question("who to ask about the session store", ("svc_session_store_owner.md",)),
    Question("when does the report builder job run", ("svc_report_builder_schedule.md",)),
    Question("ledger-sync 由哪个团队负责", ("svc_ledger_sync_owner.md",)),
    Question("billing-api 监听哪个端口", ("svc_billing_api_port.md",)),
    Question("OpenSearch 是哪个版本", ("project_search_engine.md",)),
    Question("Python 版本要求是什么", ("feedback_python_typing.md",)),
    Question("合并请求需要几个人批准", ("feedback_code_review_zh.md",)),
    Question("周五可以上线吗", ("project_release_zh.md",)),
    Question("设计文档在哪里", ("reference_wiki_zh.md",)),
    Question("does staging deploy on its own after a merge", ("feedback_staging_deploy.md",)),
    Question("how long must the canary stay green before prod", ("feedback_prod_deploy.md",)),
    Question("do internal services support ipv6", ("project_ipv6.md",)),
    Question("where are the proto files for grpc", ("reference_grpc_protos.md",)),
    Question("SLO burn rate panels", ("reference_dashboards.md",)),
    Question("gql schema location", ()),
    # Nothing answers these.
    Question("how do we rotate the kafka tls certificates", ()),
    Question("what is the wifi password in the office", ()),
    Question("which font does the marketing site use", ()),
    Question("who approves vacation requests", ()),
    Question("how do i configure the printer", ()),
    Question("what's our policy on cobol", ()),
    Question("when is the next offsite", ()),
    Question("how big is the snowflake warehouse", ()),
    Question("who wrote the elixir chat service", ()),
    Question("what is the budget for conference travel", ()),
    Question("can i expense a standing desk", ()),
    Question("which mongodb version do we run", ()),
    Question("how do we deploy the kafka connect cluster", ()),
    Question("which vpn client should I install", ()),
    Question("what's the jenkins url", ()),
    Question("tabs or spaces in the python style guide", ()),
    Question("fraud-scorer gpu quota", ()),
    Question("谁负责办公室的打印机", ()),
    Question("年假怎么申请", ()),
    Question("what is the sla for the enterprise support desk", ()),
]

# The generated background: facts about services, in this corpus's own wording.
_SERVICES = [
    "ledger-sync",
    "image-resizer",
    "billing-api",
    "notify-hub",
    "geo-lookup",
    "cart-service",
    "fraud-scorer",
    "invoice-pdf",
    "user-profile",
    "audit-trail",
    "quota-keeper",
    "mail-relay",
    "price-engine",
    "stock-watch",
    "ticket-desk",
    "route-planner",
    "video-encoder",
    "tax-calc",
    "search-indexer",
    "report-builder",
    "session-store",
    "webhook-fanout",
    "media-cdn",
    "consent-manager",
    "loyalty-points",
]
_FACTS = [
    (
        "owner",
        "project",
        "{s} owner",
        "{S} is owned by the {team} team",
        "Questions about {s} go to #{team}-team.",
    ),
    (
        "schedule",
        "project",
        "{s} schedule",
        "The {s} job runs {when}",
        "It is triggered by a CronJob in the {team} namespace.",
    ),
    (
        "port",
        "reference",
        "{s} port",
        "{S} listens on port {port}",
        "Health checks hit /healthz on the same port.",
    ),
    (
        "repo",
        "reference",
        "{s} repository",
        "{S} source code is in github.com/acme/{s}",
        "Releases are tagged vX.Y.Z.",
    ),
    (
        "alerts",
        "reference",
        "{s} alerts",
        "{S} alerts go to the {team} Slack channel",
        "Warning alerts do not page.",
    ),
    (
        "storage",
        "project",
        "{s} storage",
        "{S} keeps its state in {store}",
        "Backups are taken by the platform team.",
    ),
]
_TEAMS = ["atlas", "beacon", "comet", "delta", "ember", "falcon", "glacier", "harbor"]
_WHEN = ["hourly", "every night at 01:00", "every 15 minutes", "on Sundays", "twice a day"]
_STORES = ["DynamoDB", "PostgreSQL", "Redis", "S3", "Cassandra"]


def _camel(service: str) -> str:
    head, *rest = service.split("-")
    return head + "".join(part.title() for part in rest)


def build() -> tuple[list[RecallDocument], list[Question]]:
    """The tuning memories and questions, the same on every call."""
    rng = random.Random(20260601)
    documents = [
        RecallDocument(
            path, name, description, body, kind, NOW - timedelta(days=rng.randint(1, 400))
        )
        for path, kind, name, description, body in MEMORIES
    ]
    for service in _SERVICES:
        values = {
            "s": _camel(service) if rng.random() < 0.3 else service,
            "team": rng.choice(_TEAMS),
            "when": rng.choice(_WHEN),
            "port": rng.randint(3000, 9999),
            "store": rng.choice(_STORES),
        }
        values["S"] = values["s"][0].upper() + values["s"][1:]
        for slug, kind, name, description, body in _FACTS:
            path = f"svc_{service.replace('-', '_')}_{slug}.md"
            documents.append(
                RecallDocument(
                    path,
                    name.format(**values),
                    description.format(**values),
                    body.format(**values),
                    kind,
                    NOW - timedelta(days=rng.randint(1, 400)),
                )
            )
    return documents, list(QUESTIONS)
