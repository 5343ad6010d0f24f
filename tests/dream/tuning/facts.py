"""A third batch of tuning pairs for duplicate detection (issue 15 item 3), written to
choose the rule that judges two memories by the facts they state rather than by their
wording (`memsync.dream.agreement`).

Written from scratch for this corpus, in the voices of several authors: a terse one
("Owner: X. Deploys Tue."), a chatty one ("Heads up — if you need ..."), one who writes
bullet lists, one who writes Chinese (names, numbers and paths left as they are), one
who punctuates oddly, and one who later adds a fact to a memory someone else wrote.
Every duplicate says the same facts in words of its own on *both* sides, which is what
the word-set judge alone cannot merge. Nothing here is taken from ``tests/heldout``.

`LOOKALIKES` are the hard negatives: one template with another service, owner, day,
number, environment or role; one subject with other facts; a translation that changes
one fact. None of them may merge.
"""

from __future__ import annotations

# Terse against chatty: the same facts, different words on both sides.
REWORDED: list[tuple[str, str, str]] = [
    ("project", "Owner of Geo API: Atlas team. Escalations go to Pia Holm.",
     "Heads up: the Atlas folks are the ones responsible for the Geo API, and if "
     "something is on fire you should escalate to Pia Holm."),
    ("project", "Ticketing worker ships every Thursday, 11:00 CET.",
     "We usually release the Ticketing worker on Thursdays at 11:00 CET."),
    ("project", "Ruby 3.3 is what the Storefront monolith runs on.",
     "Storefront monolith: Ruby 3.3"),
    ("reference", "Grafana board for Checkout latency: https://grafana.acme.dev/d/chk-lat",
     "If you want the Checkout latency graphs, they are at "
     "https://grafana.acme.dev/d/chk-lat in Grafana."),
    ("project", "The Uploads bucket is s3://acme-uploads-prod in eu-west-1.",
     "Uploads are stored in the s3://acme-uploads-prod bucket (region eu-west-1)."),
    ("feedback", "Bump the Helm chart version whenever values.yaml changes.",
     "Any edit to values.yaml means the Helm chart version gets bumped too."),
    ("user", "Marta is a staff engineer who mostly writes Kotlin.",
     "Marta: staff engineer, spends most of her time in Kotlin."),
    ("project", "Pager rotation for the Loyalty API switches every Monday at 09:00.",
     "Loyalty API pager rotation changes hands Mondays, 09:00."),
    ("reference", "Vendor contracts sit in the Legal drive, folder Vendors/2026.",
     "You'll find vendor contracts in Legal's drive under Vendors/2026."),
    ("project", "Max upload size for the Media API is 50 MB.",
     "Media API rejects uploads above 50 MB."),
    ("feedback", "Pin GitHub Actions to a commit SHA, not a tag.",
     "In workflows, reference GitHub Actions by commit SHA rather than by tag."),
    ("project", "Kafka topic orders.v2 holds 7 days of events.",
     "Retention on the orders.v2 Kafka topic: 7 days."),
    ("project", "The Ledger team maintains the Refund worker; Olga Sand is its tech lead.",
     "Refund worker -> Ledger team (tech lead Olga Sand)."),
    ("user", "Tariq wants PR descriptions to list the manual test steps.",
     "Tariq asks that every PR description spells out how it was tested by hand."),
]  # fmt: skip

# The same facts as a bullet list against a sentence.
BULLETS: list[tuple[str, str, str]] = [
    ("project", "Geo API\n---\n- owner: Atlas team\n- deploys: Tuesday\n- port: 7011",
     "Geo API facts\n---\nThe Atlas team owns the Geo API, which deploys on Tuesdays "
     "and listens on port 7011."),
    ("reference", "Ops links\n---\n* status: https://status.acme.cloud\n"
     "* runbooks: https://wiki.acme.dev/ops",
     "Where ops things are\n---\nStatus page at https://status.acme.cloud; the runbooks "
     "are on https://wiki.acme.dev/ops."),
    ("project", "Billing cron\n---\n- job: invoice-rollup\n- schedule: 04:15 UTC daily\n"
     "- owner: Finance Eng",
     "invoice-rollup job\n---\nThe invoice-rollup cron runs daily at 04:15 UTC and "
     "belongs to Finance Eng."),
]  # fmt: skip

# Chinese against English (names, numbers, paths and commands stay as they are).
CHINESE: list[tuple[str, str, str]] = [
    ("project", "The Quota API is owned by the Nimbus team.", "Quota API 归 Nimbus 团队负责。"),
    ("project", "Courier worker deploys every Thursday at 16:30 CET.",
     "Courier worker 每周四 16:30 CET 上线。"),
    ("feedback", "Never run `terraform destroy` against prod.",
     "绝不要对生产环境执行 `terraform destroy`。"),
    ("project", "Kafka topic orders.v2 keeps events for 7 days.",
     "Kafka 主题 orders.v2 的事件保留 7 天。"),
    ("reference", "The Checkout latency dashboard is https://grafana.acme.dev/d/chk-lat.",
     "Checkout 延迟看板：https://grafana.acme.dev/d/chk-lat"),
    ("project", "The Media API listens on port 9120 and runs on Go 1.22.",
     "Media API 监听 9120 端口，用 Go 1.22 运行。"),
    ("user", "Yuki prefers answers in Japanese when talking about Vue.",
     "Yuki 讨论 Vue 时更喜欢用日语回答。"),
    ("project", "Pia Holm is the escalation contact for the Geo API.",
     "Geo API 出问题时联系 Pia Holm。"),
    ("feedback", "Run `pnpm test` before pushing the Storefront repo.",
     "推送 Storefront 仓库前先跑 `pnpm test`。"),
    # Two memories of earlier batches, written apart, that state the same facts (who is
    # on call for the Search API, the day the rotation changes): no batch labelled them.
    ("project", "Search API 的 on-call 是 Li Wei，每周二轮换。",
     "Who is on call for Search API: Li Wei, rotation changes on Tuesday."),
]  # fmt: skip

# Odd punctuation and spacing on top of other wording.
PUNCTUATION: list[tuple[str, str, str]] = [
    ("project", "Search API rate limit == 200 req/min (per key)",
     "Rate limit on the Search API: 200 req/min, counted per key."),
    ("feedback", "NO direct commits to `release/*` branches!!!",
     "Direct commits to `release/*` branches are not allowed."),
    ("reference", "Design specs → Figma, file \"Checkout v3\"",
     "The design specs live in Figma (file: Checkout v3)."),
]  # fmt: skip

# One memory holding the other, in other words, plus a fact of its own.
SUPERSETS: list[tuple[str, str, str]] = [
    ("project", "Harbor team owns the Dock API.",
     "The Dock API belongs to the Harbor team. Its Slack channel is #harbor-dock."),
    ("project", "The Refund worker runs on Python 3.12.",
     "Refund worker: Python 3.12 runtime, 2 replicas in eu-central-1."),
    ("reference", "Incident reviews are filed in Jira project INC.",
     "We file incident reviews in the INC Jira project; the template is pinned in "
     "#incidents."),
    ("user", "Bruno leads the Android team.",
     "Bruno is the Android team's lead and approves all Play Store releases."),
]  # fmt: skip

# A typo on top of other wording.
TYPOS: list[tuple[str, str, str]] = [
    ("feedback", "Always add an index when a migration adds a foreign key.",
     "Whenever a migraton adds a foreign key, add an index as well."),
]  # fmt: skip

# Written last, by yet another voice, to check the rule chosen on the pairs above
# before the held-out corpus was read again; the synonyms "approval" and "consult"
# were added after it.
SECOND_VOICE: list[tuple[str, str, str]] = [
    ("project", "The Inventory service is maintained by the Stockroom team; their lead is "
     "Dara Voss.", "Stockroom team runs Inventory. Dara Voss leads it."),
    ("project", "Deploys of the Billing UI happen on Wednesdays after 14:00.",
     "We ship Billing UI every Wednesday, never before 14:00."),
    ("project", "Use Node 20 for the Checkout frontend builds.",
     "Checkout frontend is built with Node 20."),
    ("reference", "Sentry alerts for the Mobile app go to #mobile-alerts.",
     "The #mobile-alerts channel receives the Mobile app's Sentry alerts."),
    ("feedback", "Carla Mendes approves changes to the Terraform modules.",
     "Changes to Terraform modules need an approval from Carla Mendes."),
    ("project", "Our staging cluster is called kube-stg-2 and lives in us-west-2.",
     "kube-stg-2 (us-west-2) is the staging cluster."),
    ("project", "Nightly backups of the Orders DB are kept for 30 days.",
     "We keep the Orders DB nightly backups 30 days."),
    ("user", "For anything about SSO, talk to Felix Wong.",
     "Felix Wong is the person to ask about SSO."),
    ("feedback", "The Search team prefers squash merges on the search-ui repo.",
     "On search-ui, the Search team wants PRs squash-merged."),
    ("project", "Reports API timeouts are set to 45 seconds.",
     "Timeout of the Reports API: 45 seconds."),
    ("project", "Jenkins builds the Android app on every push to main.",
     "Every push to main triggers a Jenkins build of the Android app."),
    ("feedback", "Ask Priya Rao before touching the payment retry logic.",
     "Priya Rao must be consulted before anyone changes the payment retry logic."),
]  # fmt: skip

DUPLICATES = REWORDED + BULLETS + CHINESE + PUNCTUATION + SUPERSETS + TYPOS + SECOND_VOICE

# One template or subject, one fact changed: none may merge.
LOOKALIKES: list[tuple[str, str, str]] = [
    # another service, owner, day, number, time, version, region, path, person
    ("project", "Owner of Geo API: Atlas team. Escalations go to Pia Holm.",
     "Heads up: the Atlas folks are the ones responsible for the Maps API, and if "
     "something is on fire you should escalate to Pia Holm."),
    ("project", "Owner of Geo API: Atlas team. Escalations go to Pia Holm.",
     "The Orbit team is responsible for the Geo API; escalate to Pia Holm."),
    ("project", "Owner of Geo API: Atlas team. Escalations go to Pia Holm.",
     "The Atlas team is responsible for the Geo API; escalate to Ivo Lind."),
    ("project", "Ticketing worker ships every Thursday, 11:00 CET.",
     "We usually release the Ticketing worker on Fridays at 11:00 CET."),
    ("project", "Ticketing worker ships every Thursday, 11:00 CET.",
     "We usually release the Ticketing worker on Thursdays at 15:00 CET."),
    ("project", "Ticketing worker ships every Thursday, 11:00 CET.",
     "We usually release the Ticketing API on Thursdays at 11:00 CET."),
    ("project", "Ruby 3.3 is what the Storefront monolith runs on.",
     "Storefront monolith: Ruby 3.2"),
    ("project", "The Uploads bucket is s3://acme-uploads-prod in eu-west-1.",
     "Uploads are stored in the s3://acme-uploads-staging bucket (region eu-west-1)."),
    ("project", "The Uploads bucket is s3://acme-uploads-prod in eu-west-1.",
     "Uploads are stored in the s3://acme-uploads-prod bucket (region us-east-1)."),
    ("project", "Pager rotation for the Loyalty API switches every Monday at 09:00.",
     "Loyalty API pager rotation changes hands Mondays, 10:00."),
    ("project", "Max upload size for the Media API is 50 MB.",
     "Media API rejects uploads above 50 GB."),
    ("project", "Max upload size for the Media API is 50 MB.",
     "Avatar API rejects uploads above 50 MB."),
    ("project", "Kafka topic orders.v2 holds 7 days of events.",
     "Retention on the orders.v3 Kafka topic: 7 days."),
    ("project", "Kafka topic orders.v2 holds 7 days of events.",
     "Retention on the orders.v2 Kafka topic: 14 days."),
    ("project", "The Ledger team maintains the Refund worker; Olga Sand is its tech lead.",
     "Refund worker -> Ledger team (tech lead Nils Berg)."),
    ("user", "Marta is a staff engineer who mostly writes Kotlin.",
     "Marta: staff engineer, spends most of her time in Scala."),
    ("reference", "Vendor contracts sit in the Legal drive, folder Vendors/2026.",
     "You'll find vendor contracts in Legal's drive under Vendors/2025."),
    # the same names and numbers, another relation or environment
    ("project", "Ivo Lind is on call for the Maps API this week.",
     "Ivo Lind owns the Maps API."),
    ("project", "Pia Holm reviews every Geo API migration.",
     "Pia Holm writes every Geo API migration."),
    ("project", "Pia Holm approves Geo API releases.",
     "Pia Holm announces the Geo API releases."),
    ("project", "Staging deploys of the Geo API go out Tuesday 10:00.",
     "Production deploys of the Geo API go out Tuesday 10:00."),
    ("project", "The Geo API staging database is restored nightly from the 02:00 snapshot.",
     "The Geo API production database is backed up nightly at 02:00."),
    ("project", "Search API rate limit == 200 req/min (per key)",
     "Rate limit on the Search API: 200 req/min, counted per IP."),
    ("project", "Search API rate limit == 200 req/min (per key)",
     "Search API timeout: 200 ms per request."),
    ("project", "Media API memory limit: 512 MB.", "Media API upload limit: 512 MB."),
    ("project", "Refund worker has 4 replicas in eu-central-1.",
     "Refund worker has 4 CPUs in eu-central-1."),
    ("project", "Geo API deploys on Tuesday; Maps API deploys on Thursday.",
     "Geo API deploys on Thursday; Maps API deploys on Tuesday."),
    ("project", "Atlas team owns the Geo API and Orbit team owns the Maps API.",
     "Orbit team owns the Geo API and Atlas team owns the Maps API."),
    ("feedback", "Pin GitHub Actions to a commit SHA, not a tag.",
     "Pin GitHub Actions to a tag, not a commit SHA."),
    ("feedback", "Bump the Helm chart version whenever values.yaml changes.",
     "Never bump the Helm chart version when only values.yaml changes."),
    ("feedback", "NO direct commits to `release/*` branches!!!",
     "Direct commits to `hotfix/*` branches are allowed."),
    ("feedback", "Run `pnpm test` before pushing the Storefront repo.",
     "Run `pnpm lint` before pushing the Storefront repo."),
    ("user", "Tariq wants PR descriptions to list the manual test steps.",
     "Tariq wants PR descriptions to list the rollback steps."),
    ("user", "Bruno leads the Android team.", "Bruno leads the iOS team."),
    ("user", "Bruno leads the Android team.", "Bruno joined the Android team last month."),
    # bullets with one value changed
    ("project", "Geo API\n---\n- owner: Atlas team\n- deploys: Tuesday\n- port: 7011",
     "Geo API facts\n---\nThe Atlas team owns the Geo API, which deploys on Wednesdays "
     "and listens on port 7011."),
    ("project", "Billing cron\n---\n- job: invoice-rollup\n- schedule: 04:15 UTC daily\n"
     "- owner: Finance Eng",
     "invoice-rollup job\n---\nThe invoice-rollup cron runs weekly at 04:15 UTC and "
     "belongs to Finance Eng."),
    # Chinese with one fact changed
    ("project", "The Quota API is owned by the Nimbus team.", "Quota API 归 Orbit 团队负责。"),
    ("project", "Courier worker deploys every Thursday at 16:30 CET.",
     "Courier worker 每周二 16:30 CET 上线。"),
    ("feedback", "Never run `terraform destroy` against prod.",
     "绝不要对预发布环境执行 `terraform destroy`。"),
    ("project", "Kafka topic orders.v2 keeps events for 7 days.",
     "Kafka 主题 orders.v2 的事件保留 30 天。"),
    ("project", "The Media API listens on port 9120 and runs on Go 1.22.",
     "Media API 监听 9121 端口，用 Go 1.22 运行。"),
    ("project", "Pia Holm is the escalation contact for the Geo API.",
     "Geo API 的负责人是 Pia Holm。"),
    ("feedback", "Run `pnpm test` before pushing the Storefront repo.",
     "推送 Storefront 仓库后再跑 `pnpm test`。"),
    ("project", "The Quota API is owned by the Nimbus team.", "Quota API 的值班是 Nimbus 团队。"),
    # a superset whose added words change the fact both share
    ("project", "Harbor team owns the Dock API.",
     "The Dock API used to belong to the Harbor team; the Orbit team owns it now."),
    ("reference", "Incident reviews are filed in Jira project INC.",
     "We file security incident reviews in the SEC Jira project, not INC."),
]  # fmt: skip

# Written after the first held-out check merged one pair it should not have (the pair
# was not read): what the facts judge trusted most, stated otherwise. A role or a unit
# on one side only; facts added that change the one both state; Chinese that says
# "formerly" or "no longer" in words the glossary does not read.
LOOKALIKES += [
    ("project", "Ledger API: 3 replicas.", "Ledger API: 3 regions."),
    ("project", "Quotas API owner: Vega team.",
     "The Vega team owned the Quotas API until May; the Platform team owns it now."),
    ("project", "Bo Chen owns the Metrics API.", "Bo Chen 曾经负责 Metrics API。"),
    ("project", "Bo Chen owns the Metrics API.", "Bo Chen 不再负责 Metrics API。"),
    ("project", "Rates API 由 Kim Ito 负责。", "Kim Ito reviews the Rates API."),
    ("reference", "Ledger dashboards: https://grafana.acme.dev/d/ledger",
     "Ledger dashboards moved away from https://grafana.acme.dev/d/ledger last year."),
    ("feedback", "Deploy Ledger API with `make deploy-ledger`.",
     "Never deploy Ledger API with `make deploy-ledger` alone."),
]  # fmt: skip

LOOKALIKES += [
    ("feedback", "Carla Mendes approves changes to the Terraform modules.",
     "Changes to Terraform modules need a review from Carla Mendes."),
    ("project", "Reports API timeouts are set to 45 seconds.",
     "Retries of the Reports API: 45 seconds apart."),
    ("project", "Jenkins builds the Android app on every push to main.",
     "Every push to main triggers a Jenkins build of the iOS app."),
    ("project", "Nightly backups of the Orders DB are kept for 30 days.",
     "We keep the Orders DB weekly backups 30 days."),
]  # fmt: skip
