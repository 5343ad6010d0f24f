"""A ninth tuning batch for duplicate detection (issue 15 item 3), written to find false
merges: look-alike pairs that are one memory with exactly one fact changed, in the
styles memories are written in (Claude Code's layout with ``**Why:**`` and ``**How to
apply:**`` lines, bullet lists, one-liners, code blocks with commands, Chinese mixed
with English, German and Japanese), and a few true duplicates as controls.

The fact changed is the kind a word-set judge is blind to: an antonym ("increase" /
"decrease", "allow" / "deny", "weekdays" / "weekends", "min" / "max", "at least" / "at
most", "first" / "last", "over" / "under"), a number written as a word ("three" /
"four"), a unit ("ms" / "s", "days" / "hours"), a port, path, URL or command flag, a
name in another role ("Ana reviews, Bo approves" and swapped), a denial spelt out or
contracted, a condition added ("except on Fridays", "if CI is green"), a tense ("used
to own"), a scope ("EU only"), besides the usual owner, day, time, environment and
region. Each look-alike is a base memory or its restatement with one phrase replaced
(`tests.dream.tuning.restated.changed`), and no change is made to both, so two
look-alikes never say the same. Written by hand after reading real memory files;
nothing here is taken from ``tests/heldout``. `write_corpus` writes the pairs among the
first batch's fillers and the fourth batch's directory of services.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from tests.dream.tuning.restated import changed

if TYPE_CHECKING:
    from tests.dream.tuning import TuningCorpus

HERON = (
    "Heron deploy window\n---\nThe Heron payments API is deployed to production on weekdays "
    "between 09:00 and 16:00 CET, at most three times a day.\n\n**Why:** Ana Ruiz, the "
    "on-call engineer, works office hours.\n\n**How to apply:** schedule Heron deploys "
    "after the 09:30 standup."
)
HERON_RESTATED = (
    "When Heron ships\n---\nHeron's payments API goes to production on weekdays from 09:00 "
    "to 16:00 CET, three deploys a day at most.\n\n**Why:** Ana Ruiz is on call and works "
    "office hours.\n\n**How to apply:** Heron deploys go after the 09:30 standup."
)
WREN = (
    "Wren database settings\n---\n- Wren uses PostgreSQL 15 on RDS\n- max connections: 200"
    "\n- statement timeout: 30 s\n- three read replicas in eu-west-1"
)
WREN_RESTATED = (
    "Wren DB settings\n---\n- Wren runs PostgreSQL 15 on RDS\n- max connections: 200\n- "
    "statement timeout: 30 s\n- 3 read replicas in eu-west-1"
)
MIGRATIONS = "Never run database migrations on Friday afternoons."
MIGRATIONS_RESTATED = "Do not ever run database migrations on Friday afternoons."
KITE = (
    "Run Kite locally\n---\nFrom the repo root:\n\n```\ndocker compose up -d kite-db\nmake "
    "run PORT=8080 FLAGS=--debug\n```\n\n**Why:** kite-db must be up before the API starts."
)
KITE_RESTATED = (
    "Starting Kite on your machine\n---\nKite's API needs kite-db running first. In the "
    "repo root:\n\n```\ndocker compose up -d kite-db\nmake run PORT=8080 FLAGS=--debug\n```"
)
KESTREL = "Kestrel 部署\n---\nKestrel 服务每周二 10:00 部署到生产环境，负责人是 Li Wei。"
KESTREL_RESTATED = "Kestrel deploys\n---\nKestrel 服务每周二 10:00 部署到生产环境。负责人：Li Wei。"
FALCON = (
    "Falcon Deploys\n---\nDer Falcon-Dienst wird jeden Dienstag um 10:00 Uhr in Produktion "
    "deployt. Ansprechpartnerin ist Jana Roth."
)
FALCON_RESTATED = (
    "Falcon deploy day\n---\nDer Falcon-Dienst wird jeden Dienstag um 10:00 Uhr in "
    "Produktion deployt; Ansprechpartnerin: Jana Roth."
)
OSPREY = (
    "Osprey デプロイ\n---\nOsprey のデプロイは毎週火曜日 10:00 に本番環境で行う。担当は Sato Ken。"
)
OSPREY_RESTATED = (
    "Osprey デプロイ\n---\nOsprey のデプロイは毎週火曜日 10:00 に本番環境で行う. 担当: Sato Ken."
)
PELICAN = (
    "Review flow for Pelican\n---\nFor the Pelican repo, Ana Ruiz reviews pull requests and "
    "Bo Chen approves them.\n\n**How to apply:** get both before merging."
)
PELICAN_RESTATED = (
    "Pelican PR reviews\n---\nPull requests to the Pelican repo are reviewed by Ana Ruiz and "
    "approved by Bo Chen.\n\n**How to apply:** get both before you merge."
)
GREBE = (
    "Grebe warehouse access\n---\nThe analytics team has read access to the Grebe warehouse "
    "in prod; Omar Nasser grants anything more.\n\n**How to apply:** ask in #grebe-data."
)
EGRET = (
    "Egret CORS\n---\nThe Egret gateway must allow requests from app.egret.io and deny every "
    "other origin.\n\n**Why:** a wildcard origin leaked session cookies in 2025."
)
PLOVER = (
    "Plover one-click checkout\n---\nEnable the `checkout.one_click` flag for Plover "
    "customers in the EU.\n\n**Why:** the PSD2 review by Lena Vogt passed there in June."
)
PLOVER_RESTATED = (
    "Plover one-click checkout\n---\nEnable the `checkout.one_click` flag for Plover "
    "customers in the EU.\n\n**Why:** Lena Vogt's PSD2 review passed there in June."
)
TERN = (
    "Tern autoscaling\n---\nWhen Tern's queue depth passes 5000 messages, increase the "
    "consumer replicas by 2, up to a maximum of 12.\n\n**How to apply:** the limit is "
    "`tern.autoscale.max` in the Helm values."
)
TERN_RESTATED = (
    "Tern consumer scaling\n---\nTern adds 2 consumer replicas whenever its queue depth is "
    "over 5000 messages, with 12 as the maximum.\n\n**How to apply:** the limit is "
    "`tern.autoscale.max` in the Helm values."
)
AUK = (
    "Auk log retention\n---\nAuk request logs are kept for 90 days in the auk-logs bucket, "
    "then deleted.\n\n**How to apply:** export what you need from auk-logs before then."
)
AUK_RESTATED = (
    "How long Auk keeps logs\n---\nThe auk-logs bucket holds Auk's request logs for 90 days; "
    "then they are deleted.\n\n**How to apply:** export anything you need from auk-logs "
    "before then."
)
IBIS = (
    "Ibis client timeout\n---\nThe Ibis HTTP client times out after 500 ms and retries at "
    "most 3 times.\n\n**Why:** the upstream p99 is 300 ms."
)
IBIS_RESTATED = (
    "Ibis HTTP timeouts\n---\nThe Ibis HTTP client times out after 500 ms and retries at "
    "most three times.\n\n**Why:** the upstream p99 is 300 ms."
)
RAIL = (
    "Rail exporter owner\n---\nJonas Weber owns the Rail billing exporter.\n\n**How to "
    "apply:** ask him about failed exports from `rail-export`."
)
STILT = "All Stilt endpoints require an API key, including /health and /metrics."
SWIFT = "Auto-merge Dependabot patch updates in the Swift repo."
SWALLOW = (
    "Dependabot in Swallow\n---\nAuto-merge Dependabot patch updates in the Swallow repo.\n\n"
    "**Why:** Noor Haddad reviewed the lockfile policy in April."
)
GANNET = "On-call handover for Gannet is on the first Monday of each month at 10:00 UTC."
GANNET_RESTATED = "Gannet on-call handover: first Monday of each month, 10:00 UTC."
LARK = (
    "Lark telemetry\n---\nTelemetry in the Lark CLI is opt-in; users turn it on with `lark "
    "config set telemetry true`."
)
MURRE = (
    "Murre API docs\n---\nDocs for the Murre API are served at https://docs.murre.dev/v2 and "
    "the OpenAPI file is at /srv/murre/openapi.yaml."
)
PUFFIN = "The Puffin worker doesn't retry failed webhooks from Stripe."
PUFFIN_RESTATED = "The Puffin worker does not retry failed webhooks from Stripe."
SNIPE = (
    "Snipe migrations\n---\nRun `make migrate` before deploying the Snipe API.\n\n**Why:** "
    "the API refuses to start on an old schema; Priya Shah found this in May."
)
SHRIKE = (
    "Shrike cookie banner\n---\nThe cookie banner on the Shrike site is shown to every "
    "visitor.\n\n**Why:** legal (Marta Silva) asked for it in 2024."
)
CRANE = (
    "Crane upload limits\n---\n- Max upload size: 50 MB\n- Min image width: 640 px\n- "
    "Allowed types: PNG, JPEG\n\nSet in `crane/settings.py` by Hugo Lambert."
)
CRANE_RESTATED = (
    "Crane upload limits\n---\n- Max upload size: 50 MB\n- Min image width: 640 px\n- "
    "Allowed types: PNG and JPEG\n\nSet in `crane/settings.py` by Hugo Lambert."
)
DUNLIN = (
    "Dunlin cache\n---\nThe Dunlin product cache in Redis is flushed on the last Sunday of "
    "each month at 02:00 UTC by the `dunlin-flush` cron.\n\n**How to apply:** warm it "
    "with `make warm` afterwards."
)
DUNLIN_RESTATED = (
    "Monthly Dunlin cache flush\n---\nOn the last Sunday of each month at 02:00 UTC, the "
    "`dunlin-flush` cron flushes Dunlin's product cache in Redis.\n\n**How to apply:** run "
    "`make warm` afterwards to warm it."
)
EIDER = (
    "Eider rate limit\n---\nThe Eider public API allows at least 100 requests per second "
    "per tenant on the Pro plan.\n\n**Why:** agreed with Sales (Tom Berg) in Q3 2025."
)
EIDER_RESTATED = (
    "Eider Pro rate limit\n---\nOn the Pro plan each tenant gets at least 100 requests per "
    "second on the Eider public API.\n\n**Why:** Tom Berg from Sales agreed it in Q3 2025."
)
FULMAR = (
    "Fulmar builds\n---\nThe Fulmar iOS app builds with Xcode 16.2 on the macos-14 runners; "
    "the build takes 25 minutes.\n\n**How to apply:** cache `~/Library/Caches/fulmar` "
    "between jobs."
)
GODWIT = (
    "Godwit reviews\n---\nPRs touching `godwit/billing/` need two approvals, one of them "
    "from Sara Kim.\n\n**Why:** billing bugs cost Godwit 40k EUR in 2024."
)
GODWIT_RESTATED = (
    "Godwit billing reviews\n---\nA PR that touches `godwit/billing/` needs two approvals, "
    "and one of them must be Sara Kim's.\n\n**Why:** in 2024 billing bugs cost Godwit 40k EUR."
)
HOBBY = (
    "user-role\n---\nKai Müller is a backend developer on the Hobby team; he writes Go "
    "daily and has never used React.\n\n**How to apply:** explain frontend changes step by "
    "step."
)
HOBBY_RESTATED = (
    "Kai Müller's background\n---\nKai Müller, backend developer on the Hobby team, writes "
    "Go every day and has never used React.\n\n**How to apply:** explain frontend changes "
    "step by step."
)
JACANA = (
    "Jacana secrets rotation\n---\nThe Jacana database password is rotated every 30 days by "
    "Vault; the app reads it from `secret/jacana/db` at startup.\n\n**How to apply:** "
    "restart the pods after a rotation."
)
JACANA_RESTATED = (
    "Jacana DB password rotation\n---\nVault rotates the Jacana database password every 30 "
    "days; the app reads it from `secret/jacana/db` at startup.\n\n**How to apply:** after "
    "a rotation, restart the pods."
)
KNOT = "Knot 的测试覆盖率要求至少 80%，由 CI 检查。"
LOON = (
    "Loon backups\n---\nLoon's Postgres is backed up hourly to gs://loon-backups and kept "
    "for 14 days.\n\n**How to apply:** restore with `loon-restore --at <time>`."
)
LOON_RESTATED = (
    "Loon backups\n---\nLoon's Postgres is backed up hourly to gs://loon-backups and kept for "
    "fourteen days.\n\n**How to apply:** restore with `loon-restore --at <time>`."
)
MERLIN = (
    "Merlin feature freeze\n---\nNo new features are merged into the Merlin app after "
    "November 15; only bug fixes until the 2.0 release.\n\n**Why:** QA (Lin Zhou) needs two "
    "weeks."
)
NODDY = (
    "Noddy log level\n---\nSet `LOG_LEVEL=info` for the Noddy worker in production and "
    "`LOG_LEVEL=debug` in staging.\n\n**Why:** debug logs in production cost 3k USD a month."
)
OUZEL = (
    "Ouzel SSH\n---\nSSH into Ouzel hosts through the bastion at bastion.ouzel.net on port "
    "2222, with your YubiKey.\n\n**How to apply:** `ssh -J bastion.ouzel.net:2222 host`."
)
PIPIT = (
    "Pipit preferences\n---\nPipit's owner, Dana Whitfield, wants answers in English and "
    "code comments in German.\n\n**How to apply:** keep the commit messages in English too."
)
QUAIL = (
    "Quail index rebuild\n---\nThe Quail search index is rebuilt incrementally every 15 "
    "minutes and fully every Sunday at 04:00 UTC.\n\n**Why:** a full rebuild takes 3 hours."
)
QUAIL_RESTATED = (
    "Quail search index rebuilds\n---\nEvery 15 minutes the Quail search index is rebuilt "
    "incrementally; every Sunday at 04:00 UTC it is rebuilt fully.\n\n**Why:** a full "
    "rebuild takes 3 hours."
)


# The same memory written again: another hand's words, a number as digits, a denial
# spelt out, punctuation. These should merge; the floor is what the rules reach.
DUPLICATES: list[tuple[str, str, str]] = [
    ("project", HERON, HERON_RESTATED),
    ("project", WREN, WREN_RESTATED),
    ("feedback", MIGRATIONS, MIGRATIONS_RESTATED),
    ("project", KITE, KITE_RESTATED),
    ("project", KESTREL, KESTREL_RESTATED),
    ("project", FALCON, FALCON_RESTATED),
    ("project", OSPREY, OSPREY_RESTATED),
    ("feedback", PELICAN, PELICAN_RESTATED),
    ("project", PLOVER, PLOVER_RESTATED),
    ("project", TERN, TERN_RESTATED),
    ("project", AUK, AUK_RESTATED),
    ("project", IBIS, IBIS_RESTATED),
    ("project", GANNET, GANNET_RESTATED),
    ("project", PUFFIN, PUFFIN_RESTATED),
    ("project", CRANE, CRANE_RESTATED),
    ("project", DUNLIN, DUNLIN_RESTATED),
    ("project", EIDER, EIDER_RESTATED),
    ("feedback", GODWIT, GODWIT_RESTATED),
    ("user", HOBBY, HOBBY_RESTATED),
    ("project", JACANA, JACANA_RESTATED),
    ("project", LOON, LOON_RESTATED),
    ("project", QUAIL, QUAIL_RESTATED),
]

KINDS: dict[tuple[str, str, str], str] = dict.fromkeys(DUPLICATES, "adversarial controls")


# One fact changed: none may merge with the memory it was made from.
LOOKALIKES: list[tuple[str, str, str]] = [
    # antonyms: weekdays / weekends, at most / at least, before / after, min / max, …
    ("project", HERON, changed(HERON_RESTATED, "weekdays", "weekends")),
    ("project", HERON, changed(HERON_RESTATED, "at most", "at least")),
    ("project", HERON, changed(HERON_RESTATED, "after the 09:30", "before the 09:30")),
    ("project", WREN, changed(WREN_RESTATED, "max connections", "min connections")),
    ("project", WREN, changed(WREN_RESTATED, "3 read replicas", "3 write replicas")),
    ("project", TERN, changed(TERN_RESTATED, "Tern adds", "Tern removes")),
    ("project", TERN, changed(TERN_RESTATED, "over 5000", "under 5000")),
    ("project", TERN, changed(TERN_RESTATED, "12 as the maximum", "12 as the minimum")),
    ("project", EGRET, changed(EGRET, "allow requests from app.egret.io and deny",
                                "deny requests from app.egret.io and allow")),
    ("project", PLOVER, changed(PLOVER_RESTATED, "Enable the", "Disable the")),
    ("project", GREBE, changed(GREBE, "read access", "write access")),
    ("project", GANNET, changed(GANNET_RESTATED, "first Monday", "last Monday")),
    ("project", DUNLIN, changed(DUNLIN_RESTATED, "last Sunday", "first Sunday")),
    ("project", DUNLIN, changed(DUNLIN_RESTATED, "afterwards", "beforehand")),
    ("project", EIDER, changed(EIDER_RESTATED, "at least", "at most")),
    ("project", CRANE, changed(CRANE_RESTATED, "Max upload", "Min upload")),
    ("project", CRANE, changed(CRANE_RESTATED, "Min image", "Max image")),
    ("project", CRANE, changed(CRANE_RESTATED, "Allowed types", "Blocked types")),
    ("project", SNIPE, changed(SNIPE, "before deploying", "after deploying")),
    ("project", LARK, changed(LARK, "opt-in", "opt-out")),
    ("project", STILT, changed(STILT, "All Stilt", "Some Stilt")),
    ("project", STILT, changed(STILT, "All Stilt", "No Stilt")),
    ("project", STILT, changed(STILT, "including", "excluding")),
    ("project", QUAIL, changed(QUAIL_RESTATED, "incrementally; every Sunday",
                                "fully; every Sunday")),
    ("project", AUK, changed(AUK_RESTATED, "then they are deleted", "then they are archived")),
    ("feedback", PIPIT, changed(PIPIT, "answers in English and code comments in German",
                                 "answers in German and code comments in English")),
    # a number written as a word, a unit
    ("project", WREN, changed(WREN, "three read", "four read")),
    ("project", WREN, changed(WREN_RESTATED, "30 s", "30 ms")),
    ("project", IBIS, changed(IBIS_RESTATED, "three times", "five times")),
    ("project", IBIS, changed(IBIS, "500 ms", "500 s")),
    ("project", IBIS, changed(IBIS_RESTATED, "at most", "at least")),
    ("project", HERON, changed(HERON_RESTATED, "three deploys", "two deploys")),
    ("project", LOON, changed(LOON_RESTATED, "fourteen days", "fourteen hours")),
    ("project", LOON, changed(LOON_RESTATED, "fourteen days", "fifteen days")),
    ("project", LOON, changed(LOON, "hourly", "daily")),
    ("project", AUK, changed(AUK_RESTATED, "90 days", "90 hours")),
    ("project", QUAIL, changed(QUAIL_RESTATED, "15 minutes", "15 seconds")),
    ("project", FULMAR, changed(FULMAR, "25 minutes", "25 seconds")),
    ("project", CRANE, changed(CRANE_RESTATED, "50 MB", "50 GB")),
    ("project", JACANA, changed(JACANA_RESTATED, "30 days", "30 hours")),
    ("feedback", GODWIT, changed(GODWIT_RESTATED, "two approvals", "three approvals")),
    ("feedback", GODWIT, changed(GODWIT, "two approvals", "one approval")),
    # a port, path, URL, flag or command
    ("project", KITE, changed(KITE_RESTATED, "PORT=8080", "PORT=8081")),
    ("project", KITE, changed(KITE_RESTATED, "--debug", "--release")),
    ("project", KITE, changed(KITE, "docker compose up -d", "docker compose down")),
    ("project", MURRE, changed(MURRE, "/v2", "/v3")),
    ("project", MURRE, changed(MURRE, "/srv/murre", "/opt/murre")),
    ("project", MURRE, changed(MURRE, "https://", "http://")),
    ("project", OUZEL, changed(OUZEL, "2222", "22")),
    ("project", NODDY, changed(NODDY, "`LOG_LEVEL=info` for the Noddy worker in production "
                                "and `LOG_LEVEL=debug` in staging",
                                "`LOG_LEVEL=debug` for the Noddy worker in production and "
                                "`LOG_LEVEL=info` in staging")),
    ("project", LARK, changed(LARK, "telemetry true", "telemetry false")),
    ("project", JACANA, changed(JACANA_RESTATED, "secret/jacana/db", "secret/jacana/api")),
    ("project", FULMAR, changed(FULMAR, "macos-14", "macos-15")),
    # a name, owner, service, environment, region, time
    ("feedback", PELICAN, changed(PELICAN, "Ana Ruiz reviews pull requests and Bo Chen "
                                   "approves", "Bo Chen reviews pull requests and Ana Ruiz "
                                   "approves")),
    ("feedback", PELICAN, changed(PELICAN_RESTATED, "reviewed by Ana Ruiz and approved by "
                                   "Bo Chen", "reviewed by Bo Chen and approved by Ana Ruiz")),
    ("project", HERON, changed(HERON_RESTATED, "to production", "to staging")),
    ("project", HERON, changed(HERON_RESTATED, "CET", "UTC")),
    ("project", WREN, changed(WREN_RESTATED, "eu-west-1", "eu-west-2")),
    ("project", GREBE, changed(GREBE, "in prod", "in staging")),
    ("project", GREBE, changed(GREBE, "analytics team", "marketing team")),
    ("project", PLOVER, changed(PLOVER_RESTATED, "in the EU", "in the US")),
    ("project", RAIL, changed(RAIL, "Jonas Weber owns", "Jonas Weber used to own")),
    ("project", RAIL, changed(RAIL, "Rail billing exporter", "Rail billing importer")),
    ("user", HOBBY, changed(HOBBY_RESTATED, "backend developer", "frontend developer")),
    ("user", HOBBY, changed(HOBBY_RESTATED, "explain frontend", "explain backend")),
    ("user", HOBBY, changed(HOBBY_RESTATED, "has never used React", "has used React")),
    ("project", DUNLIN, changed(DUNLIN_RESTATED, "02:00 UTC", "03:00 UTC")),
    ("project", MERLIN, changed(MERLIN, "after November 15", "before November 15")),
    ("project", MERLIN, changed(MERLIN, "No new features", "New features")),
    ("project", SHRIKE, changed(SHRIKE, "every visitor", "every visitor from the EU")),
    ("project", SHRIKE, changed(SHRIKE, "every visitor", "every logged-in visitor")),
    # a denial contracted, spelt out or dropped; a condition or a scope added
    ("project", PUFFIN, changed(PUFFIN, "doesn't retry", "retries")),
    ("project", PUFFIN, changed(PUFFIN_RESTATED, "from Stripe", "from PayPal")),
    ("feedback", MIGRATIONS, changed(MIGRATIONS, "Friday afternoons",
                                      "Friday afternoons, except hotfixes")),
    ("feedback", MIGRATIONS, changed(MIGRATIONS_RESTATED, "afternoons", "mornings")),
    ("feedback", MIGRATIONS, changed(MIGRATIONS, "Never run", "Always run")),
    ("feedback", SWIFT, changed(SWIFT, "repo.", "repo if CI is green.")),
    ("feedback", SWIFT, changed(SWIFT, "repo.", "repo, except on Fridays.")),
    ("feedback", SWIFT, changed(SWIFT, "repo.", "repo on weekdays only.")),
    ("feedback", SWALLOW, changed(SWALLOW, "Swallow repo.", "Swallow repo unless it is "
                                      "a release week.")),
    ("feedback", SWALLOW, changed(SWALLOW, "patch updates", "minor updates")),
    ("project", SNIPE, changed(SNIPE, "Run `make migrate`", "Never run `make migrate`")),
    ("project", EIDER, changed(EIDER_RESTATED, "On the Pro plan", "On the Free plan")),
    # Chinese, German, Japanese
    ("project", KESTREL, changed(KESTREL_RESTATED, "周二", "周四")),
    ("project", KESTREL, changed(KESTREL_RESTATED, "10:00", "14:00")),
    ("project", KESTREL, changed(KESTREL_RESTATED, "生产环境", "测试环境")),
    ("project", KESTREL, changed(KESTREL_RESTATED, "每周二 10:00 部署", "每周二 10:00 不部署")),
    ("project", KNOT, changed(KNOT, "至少", "最多")),
    ("project", KNOT, changed(KNOT, "80%", "60%")),
    ("project", FALCON, changed(FALCON_RESTATED, "Dienstag", "Donnerstag")),
    ("project", FALCON, changed(FALCON_RESTATED, "wird jeden", "wird nicht jeden")),
    ("project", FALCON, changed(FALCON, "in Produktion", "in Staging")),
    ("project", OSPREY, changed(OSPREY_RESTATED, "火曜日", "木曜日")),
    ("project", OSPREY, changed(OSPREY_RESTATED, "本番環境", "検証環境")),
    ("project", OSPREY, changed(OSPREY, "行う", "行わない")),
]  # fmt: skip


def write_corpus(root: Path, now: datetime | None = None) -> TuningCorpus:
    """The pairs as a memory directory, as the fifth batch's are
    (`tests.dream.tuning.paraphrased.write_among_services`)."""
    from tests.dream.tuning import paraphrased

    return paraphrased.write_among_services(root, KINDS, LOOKALIKES, "(bare) ", now)
