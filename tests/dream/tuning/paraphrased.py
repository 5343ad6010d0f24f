"""A fifth tuning batch for duplicate detection (issue 15 item 3): whole memories as
Claude Code saves them (a description line, a body of a few sentences, often with
**Why:** and **How to apply:**), each restated whole by a teammate who saved the same
thing again: another description and file name, the sentences reordered, other verbs
and synonyms, the passive for the active, bullets for prose or prose for bullets, the
body in Chinese for an English memory or in English for a Chinese one (translated
whole, not word for word), the memory plus a fact of its own, no frontmatter, a typo.

`LOOKALIKES` are the same memories restated the same way with exactly one fact changed
(a name, a number, a day, an owner, a service, an environment, a denial, a version):
none may merge. Written by hand after reading real memory files; nothing here is taken
from ``tests/heldout``. `write_corpus` writes the pairs among the fourth batch's
directory of service facts, so names are held by many memories, as in a real one.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.dream.tuning import TuningCorpus

# Marks a text saved as a file without frontmatter and with no type in its name
# (``note_<n>.md``); `write_corpus` strips it.
BARE = "(bare) "

LEDGER_TESTS = (
    "Integration tests for the Ledger service hit a real Postgres\n---\nIntegration tests "
    "for the Ledger service must run against a real Postgres 16 database, not mocks.\n\n"
    "**Why:** in May a mocked suite passed while migration 0042 broke production.\n\n"
    "**How to apply:** start the database with `docker compose up ledger-db` before "
    "running `make itest`."
)
KESTREL_DEPLOYS = (
    "Kestrel deploy window\n---\nThe Kestrel service is deployed to production every "
    "Wednesday at 15:00 UTC by the Orbit team. Deploys are frozen during the last week of "
    "each quarter.\n\n**Why:** finance closes the books that week and Kestrel feeds their "
    "reports."
)
RUTH_RUST = (
    "Ruth Okafor is a data scientist new to Rust\n---\nRuth Okafor is a data scientist who "
    "knows Python and pandas well but is new to Rust. Explain ownership and borrowing when "
    "they come up; skip the Python basics."
)
HERON_DASHBOARD = (
    "Heron latency dashboard\n---\nThe Heron latency dashboard is in Grafana at "
    "https://grafana.example.org/d/heron-latency. Alerts from it are posted to "
    "#heron-alerts, and the runbook is linked from the dashboard header."
)
MARLIN_RELEASES = (
    "Marlin release branches are cut from main\n---\nRelease branches for the Marlin app "
    "are cut from main every second Monday and named release/YYYY-MM-DD. Only Priya Shah "
    "can merge into a release branch.\n\n**How to apply:** send hotfixes to Priya as a PR "
    "against the release branch, never a direct push."
)
FALCON_CACHE = (
    "Falcon API caching\n---\nThe Falcon API caches catalogue responses in Redis 7.2 for "
    "300 seconds. The cache is flushed on every deploy by the `falcon-flush` job."
)
PELICAN_BACKUPS = (
    "Pelican database backups\n---\nThe Pelican database is backed up every night at "
    "02:30 UTC to the pelican-backups bucket in eu-west-1. Backups are kept for 35 days; "
    "restores are tested on the first Monday of each month."
)
OSPREY_STYLE = (
    "Code style for the Osprey backend\n---\nThe Osprey backend is formatted with ruff "
    "format and type-checked with mypy in strict mode. CI rejects a PR that fails either "
    "check.\n\n**Why:** the team spent a sprint on untyped code in 2025."
)
CONDOR_TIMEOUTS = (
    "Condor payment provider timeouts\n---\nCalls from the Condor integration to the "
    "payment provider time out after 8 seconds and are retried twice with backoff. A "
    "third failure pages the Payments on-call."
)
SWAN_ONCALL = (
    "Swan on-call rotation\n---\nThe Swan on-call rotation changes every Tuesday at 10:00. "
    "Hugo Lind is primary this month and Ines Vidal is secondary. Pages come through "
    "PagerDuty service swan-prod."
)
DANA_ANSWERS = (
    "Dana prefers terse answers\n---\nDana Kim wants short answers: the command or the "
    "diff first, the explanation after, and no summary at the end.\n\n**Why:** she reads "
    "answers on her phone between meetings."
)
TANAGER_FRIDAY = (
    "No Friday deploys for Tanager\n---\nDo not deploy the Tanager service on Fridays.\n\n"
    "**Why:** a Friday release in March broke checkout over the weekend while nobody was "
    "on call.\n\n**How to apply:** if a Tanager change is ready on Friday, merge it and "
    "deploy it on Monday."
)
QUARTZ_FLAGS = (
    "Quartz feature flags live in LaunchDarkly\n---\nFeature flags for the Quartz app are "
    "managed in LaunchDarkly, project quartz-web. Flags are removed from the code within "
    "two sprints of reaching 100%; Lena Park reviews the removals."
)
GULL_SECRETS = (
    "Where the Gull secrets are\n---\nSecrets for the Gull worker are kept in Vault under "
    "secret/gull/prod and injected at start-up by the vault-agent sidecar. Never put them "
    "in the Helm values file."
)
IBIS_MIGRATIONS = (
    "Ibis migrations run before the deploy\n---\nDatabase migrations for the Ibis worker "
    "run as a separate Kubernetes job before the new pods roll out. The job is "
    "ibis-migrate and it times out after 10 minutes."
)
TEAL_API_VERSIONS = (
    "Teal API versioning\n---\nThe Teal API keeps two versions live: v3 is current and v2 "
    "is deprecated until 2027-03-31. Breaking changes go into v4 only."
)
STORK_REVIEWS = (
    "Stork payment flow needs Omar's review\n---\nEvery change to the Stork payment flow "
    "needs a review from Omar Haddad before it is merged.\n\n**Why:** the flow handles "
    "card data and Omar is the PCI owner."
)
CRANE_LOGS = (
    "Crane logs are in Kibana\n---\nLogs of the Crane service are shipped to Kibana, index "
    "crane-logs-*, and kept for 14 days. Debug logging is off in production."
)
MEI_REVIEWS = (
    "Mei Lin reviews in the morning\n---\nMei Lin does code reviews between 09:00 and "
    "11:00 CET. Requests after that wait until the next day, so tag her early."
)
WREN_STACK = (
    "Wren backend stack\n---\nThe Wren backend runs Django 5.0 on Python 3.12, served by "
    "gunicorn with 4 workers behind nginx."
)

# The same whole memory restated in other words by a teammate.
REWORDED: list[tuple[str, str, str]] = [
    ("feedback", LEDGER_TESTS,
     "No database mocks in Ledger's integration tests\n---\nDon't mock the database in the "
     "Ledger service's integration tests; use a real Postgres 16 instead. Bring it up with "
     "`docker compose up ledger-db`, then run `make itest`.\n\nReason: mocked tests were "
     "green in May while migration 0042 broke production."),
    ("project", KESTREL_DEPLOYS,
     "When Kestrel ships\n---\nThe Orbit team ships Kestrel to production on Wednesdays at "
     "15:00 UTC. Nothing is deployed in the final week of a quarter, because finance closes "
     "its books then and relies on Kestrel's reports."),
    ("user", RUTH_RUST,
     "Ruth Okafor: fluent in Python, learning Rust\n---\nWhen helping Ruth Okafor, don't "
     "explain Python or pandas; she is fluent in both. She is only starting with Rust, so "
     "walk her through borrowing and ownership."),
    ("project", MARLIN_RELEASES,
     "How Marlin releases are branched\n---\nEvery second Monday a release branch named "
     "release/YYYY-MM-DD is created from main for the Marlin app. Merges into it are done "
     "by Priya Shah alone; hotfixes reach her as PRs against that branch, not as direct "
     "pushes."),
    ("project", FALCON_CACHE,
     "Falcon catalogue cache\n---\nCatalogue responses of the Falcon API are kept in Redis "
     "7.2 for 300 seconds. Every deploy flushes the cache through the `falcon-flush` job."),
    ("project", PELICAN_BACKUPS,
     "Backup schedule for Pelican\n---\nEach night at 02:30 UTC the Pelican database is "
     "copied to the pelican-backups bucket (eu-west-1) and kept for 35 days. On the first "
     "Monday of every month a restore is tested."),
    ("feedback", OSPREY_STYLE,
     "Osprey: ruff and strict mypy\n---\nCI turns down any PR to the Osprey backend that is "
     "not ruff-formatted or that fails mypy in strict mode.\n\nWhy: untyped code cost the "
     "team a whole sprint in 2025."),
    ("project", CONDOR_TIMEOUTS,
     "Timeouts when Condor calls the payment provider\n---\nThe Condor integration gives "
     "the payment provider 8 seconds per call, then retries twice with backoff. If the "
     "third attempt fails too, the Payments on-call is paged."),
    ("project", SWAN_ONCALL,
     "Who is on call for Swan\n---\nHugo Lind is the primary on-call for Swan this month, "
     "with Ines Vidal as secondary; the rotation changes on Tuesdays at 10:00. Pages arrive "
     "through the PagerDuty service swan-prod."),
    ("feedback", TANAGER_FRIDAY,
     "Tanager never ships on a Friday\n---\nTanager service releases must not happen on a "
     "Friday: a change that is ready then gets merged and waits until Monday to be deployed."
     "\n\nThe reason is the March incident, when a Friday release broke checkout for the "
     "whole weekend and no one was on call."),
    ("project", QUARTZ_FLAGS,
     "Feature flags of the Quartz app\n---\nThe Quartz app's feature flags are kept in the "
     "LaunchDarkly project quartz-web. Once a flag is at 100% it has to leave the code "
     "within two sprints, and Lena Park reviews each removal."),
    ("project", IBIS_MIGRATIONS,
     "How Ibis schema changes are applied\n---\nBefore the Ibis worker's new pods roll out, "
     "a Kubernetes job called ibis-migrate applies the database migrations. It gives up "
     "after 10 minutes."),
    ("project", TEAL_API_VERSIONS,
     "Live versions of the Teal API\n---\nTwo versions of the Teal API are served: v3, the "
     "current one, and v2, deprecated until 2027-03-31. Only v4 may receive breaking "
     "changes."),
    ("feedback", STORK_REVIEWS,
     "Omar Haddad signs off on Stork payment changes\n---\nNo change to the Stork payment "
     "flow is merged until Omar Haddad has reviewed it. He is the PCI owner, and the flow "
     "touches card data."),
    ("reference", CRANE_LOGS,
     "Finding Crane's logs\n---\nThe Crane service ships its logs to Kibana (index "
     "crane-logs-*), where they stay for 14 days. In production, debug logging is turned "
     "off."),
    ("user", MEI_REVIEWS,
     "When to ask Mei Lin for a review\n---\nAsk Mei Lin for reviews early: she reviews "
     "code from 09:00 to 11:00 CET, and a request that arrives later waits for the next "
     "day."),
]  # fmt: skip

# Bullets for prose, or prose for bullets.
LISTED: list[tuple[str, str, str]] = [
    ("reference", HERON_DASHBOARD,
     "Where to look when Heron is slow\n---\n- Grafana: "
     "https://grafana.example.org/d/heron-latency\n- alerts channel: #heron-alerts\n- "
     "runbook: linked from the dashboard header"),
    ("project", WREN_STACK,
     "Wren backend\n---\n- Python 3.12\n- Django 5.0\n- gunicorn, 4 workers\n- nginx in "
     "front"),
    ("project",
     "Robin upload service\n---\n- bucket: robin-uploads (S3, us-east-1)\n- max file size: "
     "25 MB\n- owner: Harbor team",
     "Robin uploads\n---\nThe Robin upload service stores files in the robin-uploads S3 "
     "bucket in us-east-1, accepts files up to 25 MB and is owned by the Harbor team."),
    ("feedback",
     "Checklist before a Gannet release\n---\n- run `make e2e`\n- update CHANGELOG.md\n- "
     "tag the release as gannet-vX.Y.Z",
     "Before releasing Gannet\n---\nBefore a Gannet release, run `make e2e`, update "
     "CHANGELOG.md and tag it gannet-vX.Y.Z."),
]  # fmt: skip

# English and Chinese, each a whole translation of the other.
TRANSLATED: list[tuple[str, str, str]] = [
    ("project", KESTREL_DEPLOYS,
     "Kestrel 部署窗口\n---\nKestrel 服务由 Orbit 团队每周三 15:00 UTC 部署到生产环境。每个季度"
     "的最后一周冻结部署，因为财务在那一周结账，而 Kestrel 为他们的报表提供数据。"),
    ("feedback", GULL_SECRETS,
     "Gull 的密钥放在哪里\n---\nGull worker 的密钥保存在 Vault 的 secret/gull/prod 下，启动时由 "
     "vault-agent sidecar 注入。永远不要把它们写进 Helm values 文件。"),
    ("project", PELICAN_BACKUPS,
     "Pelican 数据库备份\n---\nPelican 数据库每晚 02:30 UTC 备份到 eu-west-1 的 pelican-backups "
     "桶，备份保留 35 天；每月第一个周一测试一次恢复。"),
    ("project", IBIS_MIGRATIONS,
     "Ibis 迁移在部署前执行\n---\nIbis worker 的数据库迁移在新 pod 上线前作为单独的 Kubernetes "
     "任务执行。任务名是 ibis-migrate，10 分钟后超时。"),
    ("reference", CRANE_LOGS,
     "Crane 日志在 Kibana\n---\nCrane 服务的日志发送到 Kibana 的 crane-logs-* 索引，保留 14 天。"
     "生产环境关闭 debug 日志。"),
    ("user", MEI_REVIEWS,
     "Mei Lin 上午做代码审查\n---\nMei Lin 在 09:00 到 11:00 CET 之间做代码审查。之后提交的请求"
     "要等到第二天，所以请尽早找她。"),
    # Written in Chinese first; the English is the teammate's translation.
    ("project",
     "Heron API 端口和部署\n---\nHeron API 监听 9090 端口，用 Helm 部署到 prod-eu 集群。负责人是 "
     "Li Wei。",
     "Heron API port and deployment\n---\nThe Heron API listens on port 9090 and is deployed "
     "with Helm to the prod-eu cluster. Li Wei owns it."),
    ("feedback",
     "Marlin 仓库禁止直接推送 main\n---\n在 Marlin 仓库里不要直接推送到 main 分支，必须开 PR，"
     "并等待至少一个批准后再合并。",
     "No direct pushes to main in Marlin\n---\nIn the Marlin repo, never push directly to "
     "the main branch: open a PR and merge only after at least one approval."),
    ("project",
     "Condor API 超时设置\n---\nCondor API 的请求超时是 30 秒，客户端最多重试 3 次。",
     "Condor API timeout settings\n---\nRequests to the Condor API time out after 30 "
     "seconds, and clients retry at most 3 times."),
    ("user",
     "Yuki 喜欢用日语回答\n---\nYuki 讨论 Vue 和 Nuxt 的时候更喜欢用日语回答，代码注释保留英文。",
     "Yuki prefers answers in Japanese\n---\nWhen talking about Vue and Nuxt, Yuki prefers "
     "answers in Japanese, with code comments kept in English."),
]  # fmt: skip

# One memory restated, plus a fact of its own.
SUPERSETS: list[tuple[str, str, str]] = [
    ("project", FALCON_CACHE,
     "Falcon catalogue cache\n---\nCatalogue responses of the Falcon API are kept in Redis "
     "7.2 for 300 seconds, and every deploy flushes them through the `falcon-flush` job.\n\n"
     "Cache hit rate is on the falcon-cache Grafana board."),
    ("user", DANA_ANSWERS,
     "How Dana Kim likes answers\n---\nDana Kim reads answers on her phone between "
     "meetings, so keep them short: lead with the command or diff, explain after, and skip "
     "the closing summary. She also prefers British spelling."),
    ("feedback", TANAGER_FRIDAY,
     "Tanager: no releases on Friday\n---\nNever deploy the Tanager service on a Friday; "
     "merge the change and deploy it on Monday. A Friday release in March broke checkout "
     "over a weekend with nobody on call.\n\nThe same holds for the day before a public "
     "holiday."),
    ("project", SWAN_ONCALL,
     "Swan on-call\n---\nSwan's rotation changes on Tuesdays at 10:00; this month Hugo Lind "
     "is primary and Ines Vidal secondary, paged through the PagerDuty service swan-prod. "
     "Escalations after 30 minutes go to Kai Moreno."),
    ("reference", HERON_DASHBOARD,
     "Heron latency: where to look\n---\nHeron's latency dashboard is the Grafana board "
     "https://grafana.example.org/d/heron-latency; its header links the runbook and its "
     "alerts go to #heron-alerts. Traces are in Tempo under service heron-api."),
]  # fmt: skip

# A memory saved as a bare file (no frontmatter), in other words.
BARE_PAIRS: list[tuple[str, str, str]] = [
    ("feedback", OSPREY_STYLE,
     BARE + "Osprey backend PRs must pass ruff format and mypy --strict in CI, or they are "
     "rejected. Why: a sprint went on untyped code in 2025."),
    ("project", CONDOR_TIMEOUTS,
     BARE + "Condor -> payment provider: 8 second timeout per call, two retries with "
     "backoff; on the third failure the Payments on-call gets paged."),
    ("project", TEAL_API_VERSIONS,
     BARE + "Teal API versions: v3 current, v2 deprecated until 2027-03-31; breaking "
     "changes only in v4."),
]  # fmt: skip

# A misspelling on top of other wording.
TYPOS: list[tuple[str, str, str]] = [
    ("feedback", STORK_REVIEWS,
     "Stork payment flow: Omar Haddad reviews\n---\nEvery change to the Stork payment flow "
     "needs a reveiw from Omar Haddad before it is merged, since the flow handles card data "
     "and Omar is the PCI owner."),
    ("project", QUARTZ_FLAGS,
     "Quartz flags in LaunchDarkly\n---\nFeature flags for the Quartz app are managed in "
     "LaunchDarkly, project quartz-web. Flags are removed from the code within two sprints "
     "of reaching 100%; Lena Park reviews the removls."),
    ("user", RUTH_RUST,
     "Ruth Okafor, data scientist learning Rust\n---\nRuth Okafor is a data scientist who "
     "knows Python and pandas well but is new to Rust. Explain ownership and borowing when "
     "they come up and skip the Python basics."),
]  # fmt: skip

KINDS: dict[tuple[str, str, str], str] = {
    pair: kind
    for kind, pairs in (
        ("reworded", REWORDED),
        ("listed", LISTED),
        ("translated", TRANSLATED),
        ("superset", SUPERSETS),
        ("no frontmatter", BARE_PAIRS),
        ("typo", TYPOS),
    )
    for pair in pairs
}

# Each memory above restated the same way with exactly one fact changed: none merges.
LOOKALIKES: list[tuple[str, str, str]] = [
    # a version, a number, a time
    ("feedback", LEDGER_TESTS,
     "No database mocks in Ledger's integration tests\n---\nDon't mock the database in the "
     "Ledger service's integration tests; use a real Postgres 15 instead. Bring it up with "
     "`docker compose up ledger-db`, then run `make itest`.\n\nReason: mocked tests were "
     "green in May while migration 0042 broke production."),
    ("project", KESTREL_DEPLOYS,
     "When Kestrel ships\n---\nThe Orbit team ships Kestrel to production on Wednesdays at "
     "17:00 UTC. Nothing is deployed in the final week of a quarter, because finance closes "
     "its books then and relies on Kestrel's reports."),
    ("project", FALCON_CACHE,
     "Falcon catalogue cache\n---\nCatalogue responses of the Falcon API are kept in Redis "
     "7.2 for 600 seconds. Every deploy flushes the cache through the `falcon-flush` job."),
    ("project", FALCON_CACHE,
     "Falcon catalogue cache\n---\nCatalogue responses of the Falcon API are kept in Redis "
     "6.2 for 300 seconds. Every deploy flushes the cache through the `falcon-flush` job."),
    ("project", PELICAN_BACKUPS,
     "Backup schedule for Pelican\n---\nEach night at 02:30 UTC the Pelican database is "
     "copied to the pelican-backups bucket (eu-west-1) and kept for 90 days. On the first "
     "Monday of every month a restore is tested."),
    ("project", CONDOR_TIMEOUTS,
     "Timeouts when Condor calls the payment provider\n---\nThe Condor integration gives "
     "the payment provider 15 seconds per call, then retries twice with backoff. If the "
     "third attempt fails too, the Payments on-call is paged."),
    ("project", IBIS_MIGRATIONS,
     "How Ibis schema changes are applied\n---\nBefore the Ibis worker's new pods roll out, "
     "a Kubernetes job called ibis-migrate applies the database migrations. It gives up "
     "after 30 minutes."),
    ("project", TEAL_API_VERSIONS,
     "Live versions of the Teal API\n---\nTwo versions of the Teal API are served: v3, the "
     "current one, and v2, deprecated until 2027-06-30. Only v4 may receive breaking "
     "changes."),
    ("reference", CRANE_LOGS,
     "Finding Crane's logs\n---\nThe Crane service ships its logs to Kibana (index "
     "crane-logs-*), where they stay for 30 days. In production, debug logging is turned "
     "off."),
    ("user", MEI_REVIEWS,
     "When to ask Mei Lin for a review\n---\nAsk Mei Lin for reviews early: she reviews "
     "code from 13:00 to 15:00 CET, and a request that arrives later waits for the next "
     "day."),
    ("project", WREN_STACK,
     "Wren backend\n---\n- Python 3.11\n- Django 5.0\n- gunicorn, 4 workers\n- nginx in "
     "front"),
    ("project", WREN_STACK,
     "Wren backend\n---\n- Python 3.12\n- Django 5.0\n- gunicorn, 8 workers\n- nginx in "
     "front"),
    ("project",
     "Robin upload service\n---\n- bucket: robin-uploads (S3, us-east-1)\n- max file size: "
     "25 MB\n- owner: Harbor team",
     "Robin uploads\n---\nThe Robin upload service stores files in the robin-uploads S3 "
     "bucket in us-east-1, accepts files up to 50 MB and is owned by the Harbor team."),
    ("project",
     "Condor API 超时设置\n---\nCondor API 的请求超时是 30 秒，客户端最多重试 3 次。",
     "Condor API timeout settings\n---\nRequests to the Condor API time out after 30 "
     "seconds, and clients retry at most 5 times."),
    ("project", PELICAN_BACKUPS,
     "Pelican 数据库备份\n---\nPelican 数据库每晚 03:30 UTC 备份到 eu-west-1 的 pelican-backups "
     "桶，备份保留 35 天；每月第一个周一测试一次恢复。"),
    # a name, an owner, a person
    ("user", RUTH_RUST,
     "Rita Okafor: fluent in Python, learning Rust\n---\nWhen helping Rita Okafor, don't "
     "explain Python or pandas; she is fluent in both. She is only starting with Rust, so "
     "walk her through borrowing and ownership."),
    ("project", KESTREL_DEPLOYS,
     "When Kestrel ships\n---\nThe Vega team ships Kestrel to production on Wednesdays at "
     "15:00 UTC. Nothing is deployed in the final week of a quarter, because finance closes "
     "its books then and relies on Kestrel's reports."),
    ("project", MARLIN_RELEASES,
     "How Marlin releases are branched\n---\nEvery second Monday a release branch named "
     "release/YYYY-MM-DD is created from main for the Marlin app. Merges into it are done "
     "by Bo Chen alone; hotfixes reach him as PRs against that branch, not as direct "
     "pushes."),
    ("project", SWAN_ONCALL,
     "Who is on call for Swan\n---\nInes Vidal is the primary on-call for Swan this month, "
     "with Hugo Lind as secondary; the rotation changes on Tuesdays at 10:00. Pages arrive "
     "through the PagerDuty service swan-prod."),
    ("project", QUARTZ_FLAGS,
     "Feature flags of the Quartz app\n---\nThe Quartz app's feature flags are kept in the "
     "LaunchDarkly project quartz-web. Once a flag is at 100% it has to leave the code "
     "within two sprints, and Noor Aziz reviews each removal."),
    ("feedback", STORK_REVIEWS,
     "Omar Haddad signs off on Stork payment changes\n---\nNo change to the Stork payment "
     "flow is merged until Sofia Reyes has reviewed it. She is the PCI owner, and the flow "
     "touches card data."),
    ("user", MEI_REVIEWS,
     "When to ask Sam Cole for a review\n---\nAsk Sam Cole for reviews early: he reviews "
     "code from 09:00 to 11:00 CET, and a request that arrives later waits for the next "
     "day."),
    ("project",
     "Heron API 端口和部署\n---\nHeron API 监听 9090 端口，用 Helm 部署到 prod-eu 集群。负责人是 "
     "Li Wei。",
     "Heron API port and deployment\n---\nThe Heron API listens on port 9090 and is deployed "
     "with Helm to the prod-eu cluster. Tom Berg owns it."),
    ("project",
     "Robin upload service\n---\n- bucket: robin-uploads (S3, us-east-1)\n- max file size: "
     "25 MB\n- owner: Harbor team",
     "Robin uploads\n---\nThe Robin upload service stores files in the robin-uploads S3 "
     "bucket in us-east-1, accepts files up to 25 MB and is owned by the Delta team."),
    # a day, a month
    ("project", KESTREL_DEPLOYS,
     "When Kestrel ships\n---\nThe Orbit team ships Kestrel to production on Thursdays at "
     "15:00 UTC. Nothing is deployed in the final week of a quarter, because finance closes "
     "its books then and relies on Kestrel's reports."),
    ("project", SWAN_ONCALL,
     "Who is on call for Swan\n---\nHugo Lind is the primary on-call for Swan this month, "
     "with Ines Vidal as secondary; the rotation changes on Mondays at 10:00. Pages arrive "
     "through the PagerDuty service swan-prod."),
    ("feedback", TANAGER_FRIDAY,
     "Tanager never ships on a Thursday\n---\nTanager service releases must not happen on a "
     "Thursday: a change that is ready then gets merged and waits until Monday to be "
     "deployed.\n\nThe reason is the March incident, when a Thursday release broke checkout "
     "for the whole weekend and no one was on call."),
    ("project", MARLIN_RELEASES,
     "How Marlin releases are branched\n---\nEvery second Friday a release branch named "
     "release/YYYY-MM-DD is created from main for the Marlin app. Merges into it are done "
     "by Priya Shah alone; hotfixes reach her as PRs against that branch, not as direct "
     "pushes."),
    ("project", KESTREL_DEPLOYS,
     "Kestrel 部署窗口\n---\nKestrel 服务由 Orbit 团队每周四 15:00 UTC 部署到生产环境。每个季度"
     "的最后一周冻结部署，因为财务在那一周结账，而 Kestrel 为他们的报表提供数据。"),
    # a service or a thing
    ("feedback", LEDGER_TESTS,
     "No database mocks in Billing's integration tests\n---\nDon't mock the database in the "
     "Billing service's integration tests; use a real Postgres 16 instead. Bring it up with "
     "`docker compose up ledger-db`, then run `make itest`.\n\nReason: mocked tests were "
     "green in May while migration 0042 broke production."),
    ("project", IBIS_MIGRATIONS,
     "How Ibis schema changes are applied\n---\nBefore the Ibis API's new pods roll out, a "
     "Kubernetes job called ibis-migrate applies the database migrations. It gives up "
     "after 10 minutes."),
    ("feedback", OSPREY_STYLE,
     "Osprey: ruff and strict mypy\n---\nCI turns down any PR to the Osprey frontend that "
     "is not ruff-formatted or that fails mypy in strict mode.\n\nWhy: untyped code cost "
     "the team a whole sprint in 2025."),
    ("reference", HERON_DASHBOARD,
     "Where to look when Heron is slow\n---\n- Grafana: "
     "https://grafana.example.org/d/heron-errors\n- alerts channel: #heron-alerts\n- "
     "runbook: linked from the dashboard header"),
    ("reference", HERON_DASHBOARD,
     "Where to look when Heron is slow\n---\n- Grafana: "
     "https://grafana.example.org/d/heron-latency\n- alerts channel: #heron-oncall\n- "
     "runbook: linked from the dashboard header"),
    ("feedback", GULL_SECRETS,
     "Gull 的密钥放在哪里\n---\nGull worker 的密钥保存在 Vault 的 secret/gull/staging 下，启动时由 "
     "vault-agent sidecar 注入。永远不要把它们写进 Helm values 文件。"),
    ("project", FALCON_CACHE,
     "Falcon catalogue cache\n---\nCatalogue responses of the Falcon API are kept in "
     "Memcached for 300 seconds. Every deploy flushes the cache through the `falcon-flush` "
     "job."),
    ("feedback",
     "Checklist before a Gannet release\n---\n- run `make e2e`\n- update CHANGELOG.md\n- "
     "tag the release as gannet-vX.Y.Z",
     "Before releasing Gannet\n---\nBefore a Gannet release, run `make smoke`, update "
     "CHANGELOG.md and tag it gannet-vX.Y.Z."),
    ("reference", CRANE_LOGS,
     "Finding Crane's logs\n---\nThe Crane service ships its logs to Datadog (index "
     "crane-logs-*), where they stay for 14 days. In production, debug logging is turned "
     "off."),
    ("user", RUTH_RUST,
     "Ruth Okafor: fluent in Python, learning Go\n---\nWhen helping Ruth Okafor, don't "
     "explain Python or pandas; she is fluent in both. She is only starting with Go, so "
     "walk her through goroutines and channels."),
    # an environment
    ("project", KESTREL_DEPLOYS,
     "When Kestrel ships\n---\nThe Orbit team ships Kestrel to staging on Wednesdays at "
     "15:00 UTC. Nothing is deployed in the final week of a quarter, because finance closes "
     "its books then and relies on Kestrel's reports."),
    ("reference", CRANE_LOGS,
     "Finding Crane's logs\n---\nThe Crane service ships its logs to Kibana (index "
     "crane-logs-*), where they stay for 14 days. In staging, debug logging is turned off."),
    ("feedback", GULL_SECRETS,
     "Gull secrets\n---\nThe Gull worker's secrets live in Vault at secret/gull/prod and "
     "the vault-agent sidecar injects them when it starts. Never put them in the Helm "
     "values file.\n\nThis holds for staging only."),
    ("project",
     "Heron API 端口和部署\n---\nHeron API 监听 9090 端口，用 Helm 部署到 prod-eu 集群。负责人是 "
     "Li Wei。",
     "Heron API port and deployment\n---\nThe Heron API listens on port 9090 and is deployed "
     "with Helm to the staging-eu cluster. Li Wei owns it."),
    ("project", PELICAN_BACKUPS,
     "Backup schedule for Pelican\n---\nEach night at 02:30 UTC the Pelican database is "
     "copied to the pelican-backups bucket (us-east-1) and kept for 35 days. On the first "
     "Monday of every month a restore is tested."),
    # a denial, a rule turned around
    ("feedback", LEDGER_TESTS,
     "Database mocks are fine in Ledger's integration tests\n---\nMock the database in the "
     "Ledger service's integration tests rather than starting a real Postgres 16 with "
     "`docker compose up ledger-db` before `make itest`.\n\nReason: real databases were "
     "slow in May when migration 0042 broke production."),
    ("feedback", TANAGER_FRIDAY,
     "Tanager ships on Fridays too\n---\nTanager service releases may happen on a Friday: "
     "a change that is ready then gets merged and deployed without waiting until Monday.\n\n"
     "The March incident, when a Friday release broke checkout over the weekend, was fixed "
     "by putting someone on call."),
    ("feedback", GULL_SECRETS,
     "Gull secrets\n---\nThe Gull worker's secrets live in Vault at secret/gull/prod; put "
     "them in the Helm values file too so the vault-agent sidecar can inject them at "
     "start-up."),
    ("feedback",
     "Marlin 仓库禁止直接推送 main\n---\n在 Marlin 仓库里不要直接推送到 main 分支，必须开 PR，"
     "并等待至少一个批准后再合并。",
     "Direct pushes to main are fine in Marlin\n---\nIn the Marlin repo, push directly to "
     "the main branch; open a PR only when you want at least one approval."),
    ("user", DANA_ANSWERS,
     "How Dana Kim likes answers\n---\nDana Kim reads answers on her desktop after "
     "meetings, so make them long: explain first, then the command or diff, and end with a "
     "summary."),
    ("feedback", STORK_REVIEWS,
     "Stork payment changes no longer need Omar\n---\nChanges to the Stork payment flow no "
     "longer need a review from Omar Haddad before they are merged; he stopped being the "
     "PCI owner."),
    ("project", MARLIN_RELEASES,
     "How Marlin releases are branched\n---\nEvery second Monday a release branch named "
     "release/YYYY-MM-DD is created from main for the Marlin app. Anyone may merge into it; "
     "Priya Shah takes hotfixes as direct pushes."),
    ("user",
     "Yuki 喜欢用日语回答\n---\nYuki 讨论 Vue 和 Nuxt 的时候更喜欢用日语回答，代码注释保留英文。",
     "Yuki prefers answers in English\n---\nWhen talking about Vue and Nuxt, Yuki prefers "
     "answers in English, with code comments kept in Japanese."),
    # the same names in other roles
    ("project", SWAN_ONCALL,
     "Who is on call for Swan\n---\nKai Moreno is the primary on-call for Swan this month, "
     "with Ines Vidal as secondary; the rotation changes on Tuesdays at 10:00. Pages arrive "
     "through the PagerDuty service swan-prod."),
    ("user", MEI_REVIEWS,
     "When Mei Lin writes code\n---\nMei Lin writes code from 09:00 to 11:00 CET and does "
     "not review then; a review request that arrives in that window waits for the next "
     "day."),
    ("project", QUARTZ_FLAGS,
     "Feature flags of the Quartz app\n---\nThe Quartz app's feature flags are kept in the "
     "LaunchDarkly project quartz-web. Once a flag is at 100% it has to leave the code "
     "within two sprints, and Lena Park writes each removal."),
    # a typo's look-alike: one letter that is a fact
    ("feedback", OSPREY_STYLE,
     BARE + "Osprey backend PRs must pass ruff format and mypy --strict in CI, or they are "
     "rejected. Why: a sprint went on untyped code in 2024."),
    ("project", TEAL_API_VERSIONS,
     BARE + "Teal API versions: v3 current, v2 deprecated until 2027-03-31; breaking "
     "changes only in v5."),
    ("project", CONDOR_TIMEOUTS,
     BARE + "Condor -> payment provider: 8 second timeout per call, two retries with "
     "backoff; on the third failure the Search on-call gets paged."),
    # superset look-alikes: the added fact contradicts one kept
    ("project", FALCON_CACHE,
     "Falcon catalogue cache\n---\nCatalogue responses of the Falcon API are kept in Redis "
     "7.2 for 300 seconds, and every deploy flushes them through the `falcon-flush` job.\n\n"
     "Since October the cache is kept in Redis 7.4."),
    ("reference", HERON_DASHBOARD,
     "Heron latency: where to look\n---\nHeron's latency dashboard is the Grafana board "
     "https://grafana.example.org/d/heron-latency; its header links the runbook and its "
     "alerts go to #heron-pages. Traces are in Tempo under service heron-api."),
    ("user", DANA_ANSWERS,
     "How Dana Kim likes answers\n---\nDana Kim reads answers on her phone between "
     "meetings, so keep them short: lead with the explanation, then the command or diff, "
     "and skip the closing summary."),
    ("project", WREN_STACK,
     "Wren backend stack\n---\nThe Wren backend runs Flask 3.0 on Python 3.12, served by "
     "gunicorn with 4 workers behind nginx."),
    ("project",
     "Condor API 超时设置\n---\nCondor API 的请求超时是 30 秒，客户端最多重试 3 次。",
     "Condor API timeout settings\n---\nRequests to the Condor API time out after 30 "
     "minutes, and clients retry at most 3 times."),
    ("reference", CRANE_LOGS,
     "Crane 日志在 Kibana\n---\nCrane 服务的日志发送到 Kibana 的 crane-logs-* 索引，保留 14 天。"
     "生产环境开启 debug 日志。"),
    ("user", MEI_REVIEWS,
     "Mei Lin 上午做代码审查\n---\nMei Lin 在 09:00 到 11:00 CET 之间做代码审查。之后提交的请求"
     "当天处理，不用提前找她。"),
]  # fmt: skip


def write_corpus(root: Path, now: datetime | None = None) -> TuningCorpus:
    """The pairs as a memory directory (`write_among_services`)."""
    return write_among_services(root, KINDS, LOOKALIKES, BARE, now)


def write_among_services(
    root: Path,
    kinds: dict[tuple[str, str, str], str],
    lookalikes: list[tuple[str, str, str]],
    bare: str,
    now: datetime | None = None,
) -> TuningCorpus:
    """Labelled pairs (`kinds`' duplicates, `lookalikes`) as a memory directory, among
    the first batch's fillers and the fourth batch's directory of services, so names
    are held by many memories, as in a real one; a text starting with `bare` is a file
    without frontmatter named ``note_<n>.md`` (`tests.dream.tuning.write_pairs`)."""
    from tests.dream.tuning import FILLERS, rewritten, write_pairs

    return write_pairs(
        root,
        duplicates=list(kinds),
        kinds=kinds,
        lookalikes=lookalikes,
        fillers=FILLERS + rewritten.DIRECTORY,
        bare={bare: "note"},
        now=now,
    )
