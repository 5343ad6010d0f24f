"""A fourth tuning batch for duplicate detection (issue 15 item 3), written after the
rules were fitted to the first three and by another hand: the way an engineer or an
agent restates a memory someone else saved — a synonym, clauses reordered, the passive
for the active, a rule as an instruction or as a statement, an abbreviation, a list for
a sentence, the same note in Chinese, German or Spanish, one note plus a fact, a
misspelling, a file without frontmatter.

`LOOKALIKES` are at least as many hard negatives in the same voices: the wording kept
and one fact changed (a name, a number, a version, a day, an owner, a service, staging
for production, "always" for "never", a wider or narrower scope). None may merge.

Nothing here is taken from ``tests/heldout``; `write_corpus` writes the pairs as a
memory directory among the first batch's fillers, and `KINDS` names each duplicate.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.dream.tuning import TuningCorpus

# Marks a text saved as a file without frontmatter; `write_corpus` strips it.
BARE = "(bare) "

# The same facts in other words on both sides.
REWORDED: list[tuple[str, str, str]] = [
    ("project", "We use Terraform 1.7 for all infrastructure in the Atlas account.",
     "All infrastructure in the Atlas account is managed with Terraform 1.7."),
    ("feedback", "Never commit secrets to the Tanager repo.",
     "Secrets must never be committed to the Tanager repo."),
    ("project", "The Kestrel service is deployed by the Orbit team every Wednesday.",
     "Every Wednesday the Orbit team deploys the Kestrel service."),
    ("feedback", "Run `tox -e lint` before pushing a branch.",
     "Before you push a branch, run `tox -e lint`."),
    ("project", "Redis 7.2 is used as the cache for the Falcon API.",
     "The Falcon API uses Redis 7.2 as its cache."),
    ("reference", "The Heron runbook lives at https://wiki.example.org/heron.",
     "Runbook for Heron: https://wiki.example.org/heron"),
    ("user", "Lena Park is the product manager for the Quartz app.",
     "Quartz app PM: Lena Park."),
    ("project", "Builds for the Marlin repo run on GitHub Actions with Node 20.",
     "The Marlin repo is built on GitHub Actions using Node 20."),
    ("feedback", "Prefer `pytest` fixtures over setUp methods in the Osprey tests.",
     "In the Osprey tests, use `pytest` fixtures instead of setUp methods."),
    ("project", "The Pelican database is backed up nightly at 01:00 UTC to bucket pelican-backups.",
     "Nightly at 01:00 UTC, the Pelican DB gets backed up to bucket pelican-backups."),
    ("project", "Sofia Reyes owns the Condor billing integration.",
     "The Condor billing integration is owned by Sofia Reyes."),
    ("feedback", "Keep PRs for the Lynx frontend under 400 lines.",
     "Pull requests to the Lynx frontend should stay below 400 lines."),
]  # fmt: skip

# Freer paraphrases: a summary sentence against the way a teammate would say it.
PARAPHRASED: list[tuple[str, str, str]] = [
    ("project", "Production deploys of the Kite app happen on Thursdays.",
     "We ship the Kite app to prod every Thursday."),
    ("feedback", "Don't use the ORM for bulk inserts in the Swift importer; use raw SQL.",
     "For bulk inserts in the Swift importer, write raw SQL rather than going through the ORM."),
    ("user", "Hana Sato is new to Go and wants explanations of idioms.",
     "Hana Sato just started with Go, so explain Go idioms when they come up."),
    ("project", "The Robin service stores uploads in S3 bucket robin-uploads.",
     "Uploads for Robin go to the robin-uploads S3 bucket."),
    ("feedback", "The user wants integration tests to run against a real Postgres database.",
     "Integration tests should hit a real Postgres DB, not a mock."),
    ("project", "Wren is on Django 5.0 and Python 3.12.",
     "The Wren backend uses Python 3.12 with Django 5.0."),
    ("reference", "Incidents for Finch are tracked in the FIN project in Jira.",
     "Finch incidents: Jira project FIN."),
    ("feedback", "Always ask before running database migrations on the Raven cluster.",
     "Check with the user first before you migrate the Raven cluster's database."),
    ("project", "The Crane release train leaves every two weeks on Tuesday.",
     "Crane releases go out fortnightly, on Tuesdays."),
    ("user", "Omar Haddad reviews all changes to the Stork payment flow.",
     "Any change to Stork's payment flow needs a review from Omar Haddad."),
]  # fmt: skip

# A sentence against a list, or a heading and fields.
LISTED: list[tuple[str, str, str]] = [
    ("project", "The Puffin API runs Python 3.12 on port 8443 and is owned by the Harbor team.",
     "Puffin API\n---\n- Python 3.12\n- port 8443\n- owner: Harbor team"),
    ("reference", "Dashboards for Ibis: Grafana board ibis-overview, alerts in #ibis-alerts.",
     "Ibis dashboards\n---\n* Grafana: ibis-overview\n* alerts: #ibis-alerts"),
]  # fmt: skip

# English and Chinese, German or Spanish; names, numbers and paths as they are.
TRANSLATED: list[tuple[str, str, str]] = [
    ("project", "The Kestrel service is deployed every Wednesday.", "Kestrel 服务每周三部署。"),
    ("project", "The Falcon API uses PostgreSQL 15.", "Falcon API 使用 PostgreSQL 15。"),
    ("feedback", "Never deploy the Nebula service on Friday.", "不要在周五部署 Nebula 服务。"),
    ("project", "The Pelican database is backed up every day.", "Pelican 数据库每天备份。"),
    ("project", "The Marlin service is owned by the Orbit team.",
     "Der Marlin-Dienst gehört dem Orbit-Team."),
    ("project", "The Heron API uses Redis 7.2.", "La API de Heron usa Redis 7.2."),
    ("feedback", "Always write tests for the Osprey service.",
     "Escribe siempre pruebas para el servicio Osprey."),
]  # fmt: skip

# One memory holds the other and adds a fact, sometimes re-punctuated too.
SUPERSETS: list[tuple[str, str, str]] = [
    ("project", "The Kestrel service runs on Kubernetes.",
     "The Kestrel service runs on Kubernetes. Its Helm chart is in the infra repo."),
    ("feedback", "Squash commits before merging into main.",
     "Squash commits before merging into main; keep the PR title as the commit message."),
    ("project", "Gannet API: Python 3.11, owned by the Delta team.",
     "Gannet API - Python 3.11, owned by the Delta team. Metrics go to Prometheus."),
    ("user", "Lena Park prefers answers with code samples.",
     "Lena Park prefers answers with code samples.\n\nShe reads them on mobile, so keep "
     "them short."),
]  # fmt: skip

# A misspelling, and a memory saved without frontmatter.
TYPOS: list[tuple[str, str, str]] = [
    ("feedback", "Always rebase feature branches on develop before opening a PR.",
     "Always rebase feature branches on develop before openning a PR."),
    ("project", "The Condor integration retries failed payments three times.",
     "The Condor integration retries failed paymnets three times."),
]  # fmt: skip
BARE_PAIRS: list[tuple[str, str, str]] = [
    ("project", "The Ibis worker is deployed with Argo CD from the gitops repo.",
     BARE + "Ibis worker is deployed with Argo CD from the gitops repo."),
    ("feedback", "Use structured logging (JSON) in the Quartz backend.",
     BARE + "Use structured logging, JSON, in the Quartz backend."),
]  # fmt: skip

# Whole files as Claude Code saves them: a description that sums up, a body of a few
# sentences with **Why:** and **How to apply:**; the copy written by someone else.
FILES: list[tuple[str, str, str]] = [
    ("feedback",
     "No deploys of the Tanager service on Fridays\n---\nDo not deploy the Tanager service "
     "on a Friday.\n\n**Why:** a Friday release in March broke checkout over the weekend "
     "and nobody was on call.\n\n**How to apply:** if a Tanager change is ready on Friday, "
     "merge it and wait for Monday.",
     "Tanager: never ship on Friday\n---\nTanager service releases must not happen on "
     "Fridays; they wait until Monday.\n\nReason: the March Friday release broke checkout "
     "for the whole weekend with no one on call."),
    ("project",
     "Kestrel service ownership and deploy schedule\n---\nThe Kestrel service belongs to "
     "the Orbit team. It is deployed every Wednesday after the 10:00 standup.\n\nQuestions "
     "go to Priya Shah, the Orbit tech lead.",
     "Who owns Kestrel and when it ships\n---\nOrbit team owns Kestrel; tech lead is Priya "
     "Shah.\n\nDeploys: Wednesdays, after the 10:00 standup."),
    ("user",
     "Ruth Okafor's preferred answer style\n---\nRuth Okafor likes short answers with a code "
     "sample first and the explanation after.\n\n**How to apply:** lead with code when "
     "answering Ruth.",
     "How to answer Ruth Okafor\n---\nRuth Okafor prefers replies that begin with a code sample "
     "and keep the explanation short."),
    ("reference",
     "Where the Heron on-call runbook is\n---\nThe on-call runbook for Heron is at "
     "https://wiki.example.org/heron and alerts arrive in #heron-alerts.",
     "Heron runbook and alerts\n---\n- runbook: https://wiki.example.org/heron\n- alerts "
     "channel: #heron-alerts"),
    ("project",
     "Swan search cluster\n---\nThe Swan search cluster runs Elasticsearch 8.11 with 3 "
     "nodes in eu-central-1. Index snapshots are taken every 6 hours.",
     "Elasticsearch for Swan\n---\nSwan uses a 3-node Elasticsearch 8.11 cluster "
     "(eu-central-1); snapshots of the indexes happen every 6 hours."),
    ("feedback",
     "Mock nothing in the Gull integration tests\n---\nThe Gull integration tests must run "
     "against real Redis and real Postgres.\n\n**Why:** mocked tests hid a broken migration "
     "in 2025.",
     "Gull integration tests: no mocks\n---\nUse real Postgres and real Redis in Gull's "
     "integration tests, not mocks. A migration broke in 2025 while mocked tests passed."),
    ("user",
     "Dana Kim, platform engineer\n---\nDana Kim is a platform engineer who knows Terraform "
     "well; skip the basics and go straight to the plan output.",
     "About Dana Kim\n---\nPlatform engineer, very fluent in Terraform. Don't explain the "
     "basics, show the plan output directly."),
    ("reference",
     "Teal API docs\n---\nThe OpenAPI spec for the Teal API is in docs/openapi.yaml and is "
     "published to https://api.example.org/teal/docs on every release.",
     "Where Teal's API spec lives\n---\nTeal API: spec at docs/openapi.yaml, published on "
     "each release to https://api.example.org/teal/docs."),
    ("project",
     "Falcon API database\n---\nThe Falcon API stores its data in PostgreSQL 15 on RDS. "
     "Connections go through PgBouncer.",
     "Falcon API 数据库\n---\nFalcon API 的数据存放在 RDS 上的 PostgreSQL 15，连接经过 "
     "PgBouncer。"),
]  # fmt: skip

# Whole files and their translation by a teammate who writes Chinese, German or Spanish.
TRANSLATED_FILES: list[tuple[str, str, str]] = [
    ("project",
     "Pelican database backups\n---\nThe Pelican database is backed up every night at "
     "01:00 UTC. Backups are kept for 14 days in the pelican-backups bucket.",
     "Pelican 数据库备份\n---\nPelican 数据库每晚 01:00 UTC 备份，备份在 pelican-backups "
     "桶中保留 14 天。"),
    ("feedback",
     "Do not push directly to main in the Marlin repo\n---\nNever push directly to main in "
     "the Marlin repo; open a PR and wait for one approval.",
     "Marlin 仓库不要直接推送到 main\n---\n在 Marlin 仓库中不要直接推送到 main，要开 PR 并等待"
     "一个批准。"),
    ("project",
     "Condor API timeout\n---\nThe Condor API times out after 30 seconds; clients retry "
     "three times.",
     "Condor API 超时\n---\nCondor API 的超时是 30 秒，客户端重试三次。"),
    ("user",
     "Mateo Ruiz works on the Ibis worker\n---\nMateo Ruiz is a backend engineer on the "
     "Ibis worker and prefers answers in Spanish.",
     "Mateo Ruiz trabaja en el Ibis worker\n---\nMateo Ruiz es ingeniero backend del Ibis "
     "worker y prefiere respuestas en español."),
    ("project",
     "Heron API port\n---\nThe Heron API listens on port 9090 and is deployed with Helm.",
     "Heron API Port\n---\nDie Heron API lauscht auf Port 9090 und wird mit Helm "
     "ausgerollt."),
]  # fmt: skip

KINDS: dict[tuple[str, str, str], str] = {
    pair: kind
    for kind, pairs in (
        ("reworded", REWORDED),
        ("paraphrased", PARAPHRASED),
        ("listed", LISTED),
        ("translated", TRANSLATED),
        ("superset", SUPERSETS),
        ("typo", TYPOS),
        ("no frontmatter", BARE_PAIRS),
        ("whole files", FILES),
        ("translated files", TRANSLATED_FILES),
    )
    for pair in pairs
}
DUPLICATES: list[tuple[str, str, str]] = list(KINDS)

# The same wording with one fact changed; never duplicates.
LOOKALIKES: list[tuple[str, str, str]] = [
    # a version, a number
    ("project", "We use Terraform 1.7 for all infrastructure in the Atlas account.",
     "All infrastructure in the Atlas account is managed with Terraform 1.6."),
    ("project", "Redis 7.2 is used as the cache for the Falcon API.",
     "The Falcon API uses Redis 6.2 as its cache."),
    ("feedback", "Keep PRs for the Lynx frontend under 400 lines.",
     "Pull requests to the Lynx frontend should stay below 200 lines."),
    ("project", "The Condor integration retries failed payments three times.",
     "The Condor integration retries failed payments five times."),
    ("project", "The Pelican database is backed up nightly at 01:00 UTC to bucket pelican-backups.",
     "Nightly at 03:00 UTC, the Pelican DB gets backed up to bucket pelican-backups."),
    ("project", "Builds for the Marlin repo run on GitHub Actions with Node 20.",
     "The Marlin repo is built on GitHub Actions using Node 18."),
    # a name, an owner, a service
    ("user", "Lena Park is the product manager for the Quartz app.", "Quartz app PM: Noor Aziz."),
    ("project", "Sofia Reyes owns the Condor billing integration.",
     "The Condor billing integration is owned by Marco Diaz."),
    ("project", "The Kestrel service is deployed by the Orbit team every Wednesday.",
     "Every Wednesday the Orbit team deploys the Plover service."),
    ("reference", "The Heron runbook lives at https://wiki.example.org/heron.",
     "Runbook for Egret: https://wiki.example.org/egret"),
    ("project", "The Marlin service is owned by the Orbit team.",
     "Der Marlin-Dienst gehört dem Vega-Team."),
    ("feedback", "Prefer `pytest` fixtures over setUp methods in the Osprey tests.",
     "In the Tern tests, use `pytest` fixtures instead of setUp methods."),
    ("project", "The Falcon API uses PostgreSQL 15.", "Merlin API 使用 PostgreSQL 15。"),
    # a day
    ("project", "The Kestrel service is deployed every Wednesday.", "Kestrel 服务每周四部署。"),
    ("feedback", "Never deploy the Nebula service on Friday.", "不要在周一部署 Nebula 服务。"),
    ("project", "The Kestrel service is deployed by the Orbit team every Wednesday.",
     "Every Monday the Orbit team deploys the Kestrel service."),
    # staging against production, another environment or region
    ("project", "The Ibis worker is deployed with Argo CD from the gitops repo.",
     "The Ibis worker is deployed to staging with Argo CD from the gitops repo."),
    ("project", "Production builds of the Marlin repo run on GitHub Actions with Node 20.",
     "Staging builds of the Marlin repo run on GitHub Actions with Node 20."),
    ("project", "The Pelican production database is backed up every day.",
     "The Pelican staging database is backed up every day."),
    ("project", "Puffin API runs in us-east-1 on port 8443.",
     "Puffin API runs in eu-west-1 on port 8443."),
    # a rule turned around
    ("feedback", "Never commit secrets to the Tanager repo.",
     "Secrets must always be committed to the Tanager repo encrypted."),
    ("feedback", "Always rebase onto release before tagging a build.",
     "Never rebase onto release before tagging a build."),
    ("feedback", "Always write tests for the Osprey service.",
     "Nunca escribas pruebas para el servicio Osprey."),
    ("feedback", "Use structured logging (JSON) in the Quartz backend.",
     "Do not use structured logging (JSON) in the Quartz backend."),
    ("feedback", "Run `tox -e lint` before pushing a branch.",
     "Don't run `tox -e lint` before pushing a branch."),
    # another command, identifier or path
    ("feedback", "Run `tox -e lint` before pushing a branch.",
     "Before you push a branch, run `tox -e typecheck`."),
    ("reference", "Dashboards for Ibis: Grafana board ibis-overview, alerts in #ibis-alerts.",
     "Dashboards for Ibis: Grafana board ibis-latency, alerts in #ibis-alerts."),
    ("reference", "Dashboards for Ibis: Grafana board ibis-overview, alerts in #ibis-alerts.",
     "Dashboards for Ibis: Grafana board ibis-overview, alerts in #ibis-oncall."),
    ("project", "The Jacana service runs on Kubernetes. Its Helm chart is in the infra repo.",
     "The Jacana service runs on Kubernetes. Its Helm chart is in the platform repo."),
    # a scope wider or narrower, another thing of the same kind
    ("feedback", "Squash commits before merging into main.",
     "Squash commits before merging into release branches."),
    ("user", "Lena Park prefers answers with code samples.",
     "Lena Park prefers answers without code samples."),
    ("user", "Lena Park prefers answers with code samples.",
     "Lena Park prefers answers that leave code samples out."),
    ("project", "The Falcon API uses Redis 7.2 as its cache.",
     "The Falcon API uses Redis 7.2 as its queue."),
    ("project", "The Kestrel service runs on Kubernetes.", "The Kestrel service runs on Nomad."),
    ("feedback", "Keep PRs for the Lynx frontend under 400 lines.",
     "Keep PRs for the Lynx backend under 400 lines."),
    ("project", "The Pelican database is backed up every day.",
     "The Pelican database is vacuumed every day."),
    ("project", "We use Terraform 1.7 for all infrastructure in the Atlas account.",
     "We use Pulumi for all infrastructure in the Atlas account."),
    ("feedback", "Always rebase feature branches on develop before opening a PR.",
     "Always rebase feature branches on main before opening a PR."),
    ("project", "The Condor integration retries failed payments three times.",
     "The Condor integration refunds failed payments three times."),
    ("project", "Sofia Reyes owns the Condor billing integration.",
     "Sofia Reyes reviews the Condor billing integration."),
    ("project", "The Puffin API runs Python 3.12 on port 8443 and is owned by the Harbor team.",
     "Puffin API\n---\n- Python 3.12\n- port 9443\n- owner: Harbor team"),
    ("project", "The Heron API uses Redis 7.2.", "La API de Heron usa Memcached 1.6."),
    ("project", "The Pelican database is backed up every day.", "Pelican 数据库每周备份。"),
    # one names the service, the other none; a value beside its label replaced
    ("project", "The staging database is PostgreSQL 14 on RDS.",
     "Dove service database\n---\nThe Dove service uses PostgreSQL 14 on RDS in staging."),
    ("project", "Owl DB\n---\n- engine: PostgreSQL 15\n- host: RDS\n- pooler: RDS Proxy",
     "Owl DB\n---\n- engine: PostgreSQL 15\n- host: Cloud SQL\n- pooler: RDS Proxy"),
    # the same names trading places
    ("project", "The Puffin team owns the Gannet API; the lead is Ana Ruiz, on call on Monday.",
     "The Gannet team owns the Puffin API; the lead is Ana Ruiz, on call on Monday."),
    ("project", "Egret API: owner Hugo Lind, escalation Bo Chen, deploys on Friday.",
     "Egret API: owner Bo Chen, escalation Hugo Lind, deploys on Friday."),
    ("project", "Hugo Lind owns the Tern API. Bo Chen is on call for it on Friday.",
     "Bo Chen owns the Tern API. Hugo Lind is on call for it on Friday."),
    # paraphrases, one fact changed
    ("project", "Production deploys of the Kite app happen on Thursdays.",
     "We ship the Kite app to staging every Thursday."),
    ("project", "Production deploys of the Kite app happen on Thursdays.",
     "We ship the Kite app to prod every Tuesday."),
    ("project", "The Robin service stores uploads in S3 bucket robin-uploads.",
     "Uploads for Robin go to the robin-archive S3 bucket."),
    ("project", "Wren is on Django 5.0 and Python 3.12.",
     "The Wren backend uses Python 3.11 with Django 5.0."),
    ("project", "The Robin service stores uploads in S3 bucket robin-uploads.",
     "The Robin worker stores uploads in S3 bucket robin-uploads."),
    ("project", "Uploads for Robin go to the robin-uploads S3 bucket.",
     "The Robin importer stores uploads in S3 bucket robin-uploads."),
    ("project", "Uploads for Robin go to the robin-uploads S3 bucket.",
     "Uploads for the Robin app go to the robin-uploads S3 bucket on staging."),
    ("reference", "Incidents for Finch are tracked in the FIN project in Jira.",
     "Finch feature requests: Jira project FIN."),
    ("feedback", "Always ask before running database migrations on the Raven cluster.",
     "Never ask before running database migrations on the Raven test cluster."),
    ("project", "The Crane release train leaves every two weeks on Tuesday.",
     "Crane releases go out weekly, on Tuesdays."),
    ("user", "Omar Haddad reviews all changes to the Stork payment flow.",
     "Any change to Stork's payment flow needs a review from Ana Ruiz."),
    ("user", "Hana Sato is new to Go and wants explanations of idioms.",
     "Hana Sato is new to Rust and wants explanations of idioms."),
    # translated files, one fact changed
    ("project", TRANSLATED_FILES[0][1],
     "Pelican 数据库备份\n---\nPelican 数据库每晚 02:00 UTC 备份，备份在 pelican-backups "
     "桶中保留 14 天。"),
    ("project", TRANSLATED_FILES[0][1],
     "Pelican 数据库备份\n---\nPelican 数据库每晚 01:00 UTC 备份，备份在 pelican-backups "
     "桶中保留 30 天。"),
    ("feedback", TRANSLATED_FILES[1][1],
     "Marlin 仓库可以直接推送到 main\n---\n在 Marlin 仓库中可以直接推送到 main，不需要开 PR。"),
    ("project", TRANSLATED_FILES[2][1],
     "Condor API 超时\n---\nCondor API 的超时是 30 分钟，客户端重试三次。"),
    ("project", TRANSLATED_FILES[2][1],
     "Condor API 超时\n---\nCondor API 的超时曾经是 30 秒，客户端重试三次。"),
    ("user", TRANSLATED_FILES[3][1],
     "Mateo Ruiz trabaja en el Ibis worker\n---\nMateo Ruiz es ingeniero frontend del Ibis "
     "worker y prefiere respuestas en español."),
    ("project", TRANSLATED_FILES[4][1],
     "Heron API Port\n---\nDie Heron API lauscht auf Port 9091 und wird mit Helm "
     "ausgerollt."),
    # whole files, one fact changed
    ("feedback", FILES[0][1],
     "Tanager: never ship on Thursday\n---\nTanager service releases must not happen on "
     "Thursdays; they wait until Monday.\n\nReason: the March Thursday release broke "
     "checkout for the whole weekend with no one on call."),
    ("project", FILES[1][1],
     "Who owns Kestrel and when it ships\n---\nOrbit team owns Kestrel; tech lead is Omar "
     "Haddad.\n\nDeploys: Wednesdays, after the 10:00 standup."),
    ("project", FILES[1][1],
     "Who owns Plover and when it ships\n---\nOrbit team owns Plover; tech lead is Priya "
     "Shah.\n\nDeploys: Wednesdays, after the 10:00 standup."),
    ("reference", FILES[3][1],
     "Heron staging runbook and alerts\n---\n- runbook: https://wiki.example.org/heron-staging"
     "\n- alerts channel: #heron-alerts"),
    ("project", FILES[8][1],
     "Falcon API 数据库\n---\nFalcon API 的数据存放在 RDS 上的 PostgreSQL 14，连接经过 "
     "PgBouncer。"),
    ("project", FILES[4][1],
     "Elasticsearch for Swan\n---\nSwan uses a 5-node Elasticsearch 8.11 cluster "
     "(eu-central-1); snapshots of the indexes happen every 6 hours."),
    ("project", FILES[4][1],
     "Elasticsearch for Swan staging\n---\nSwan staging uses a 3-node Elasticsearch 8.11 "
     "cluster (eu-central-1); snapshots of the indexes happen every 6 hours."),
    ("feedback", FILES[5][1],
     "Gull integration tests: mocks are fine\n---\nUse mocks for Postgres and Redis in "
     "Gull's integration tests. A migration broke in 2025 while real tests were slow."),
    ("reference", FILES[7][1],
     "Where Teal's API spec lives\n---\nTeal API: spec at docs/openapi.json, published on "
     "each release to https://api.example.org/teal/docs."),
    ("user", FILES[6][1],
     "About Dana Kim\n---\nPlatform engineer, new to Terraform. Explain the basics before "
     "showing the plan output."),
    ("user", FILES[2][1],
     "How to answer Ruth Okafor\n---\nRuth Okafor prefers replies that begin with the "
     "explanation and leave code samples out."),
]  # fmt: skip


# A team's directory of distinct facts about forty services (eight kinds each), among
# which the pairs above are written: a service's name is then held by many memories,
# not only by a pair, as in a directory people keep. None of them is a duplicate.
_BIRDS = [
    "Kestrel", "Falcon", "Pelican", "Marlin", "Osprey", "Heron", "Lynx", "Condor", "Puffin",
    "Ibis", "Quartz", "Tanager", "Gannet", "Jacana", "Plover", "Egret", "Tern", "Merlin",
    "Nebula", "Atlas", "Orbit", "Harbor", "Delta", "Vega", "Kite", "Swift", "Robin", "Wren",
    "Finch", "Raven", "Crane", "Stork", "Swan", "Hawk", "Eagle", "Owl", "Lark", "Dove", "Gull",
    "Teal",
]  # fmt: skip
_PEOPLE = (
    "Ana Ruiz",
    "Tom Berg",
    "Li Wei",
    "Mei Lin",
    "Sam Cole",
    "Ravi Nair",
    "Pia Holm",
    "Olga Sand",
    "Kai Moreno",
    "Bo Chen",
    "Hugo Lind",
    "Ines Vidal",
    "Femi Ade",
)
_CHANNELS = ("alerts", "oncall", "deploys", "incidents", "builds")
_REGIONS = ("eu-west-1", "us-east-1", "eu-central-1", "ap-south-1", "us-west-2")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
DIRECTORY: list[tuple[str, str]] = [
    item
    for number, bird in enumerate(_BIRDS)
    for item in (
        ("project", f"{bird} pager rotation: {_PEOPLE[number % 13]} this month, handover "
                    f"on {_DAYS[number % 5]}."),
        ("project", f"The {bird} SLO is {99 + (number % 9) / 10:.1f}% availability over 30 days."),
        ("project", f"{bird} runs in {_REGIONS[number % 5]} with {2 + number % 6} replicas."),
        ("reference", f"Alerts for {bird} are posted to #{bird.lower()}-{_CHANNELS[number % 5]}."),
        ("project", f"Error budget policy for {bird}: freeze feature work after "
                    f"{3 + number % 4} incidents in a quarter."),
        ("reference", f"Logs of {bird} are in the Kibana index {bird.lower()}-logs-*."),
        ("project", f"{bird} code owners: {_PEOPLE[(number + 5) % 13]} and "
                    f"{_PEOPLE[(number + 7) % 13]}."),
        ("feedback", f"When touching {bird} config, ping {_PEOPLE[(number + 3) % 13]} "
                     f"in #{bird.lower()}-dev first."),
    )
]  # fmt: skip


def write_corpus(root: Path, now: datetime | None = None) -> TuningCorpus:
    """The pairs as a memory directory, among the first batch's fillers and this
    batch's directory of services (`tests.dream.tuning.write_pairs`)."""
    from tests.dream.tuning import FILLERS, write_pairs

    return write_pairs(
        root,
        duplicates=DUPLICATES,
        kinds=KINDS,
        lookalikes=LOOKALIKES,
        fillers=FILLERS + DIRECTORY,
        bare={BARE: ""},
        now=now,
    )
