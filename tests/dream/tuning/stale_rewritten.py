"""A second tuning set for stale marking (issue 15 item 4), worded independently of
``stale_variants``: other verbs and sentence orders ("X replaced Y", "dropped X for Y",
"going forward", "effective 1 April"), dates in other formats (``2026-03-04``,
``4/3/2026``, "March 4th"), teammates who say it differently, Chinese, memories with
and without frontmatter. Written to find what the rules fitted to ``stale_variants``
miss, never from ``tests/heldout``.

Each entry is (type, older, newer). A text starting with ``---`` is written as the
whole file (its own frontmatter); a text starting with ``!`` is written with no
frontmatter at all; any other text gets a neutral name, its first sentence as the
description and the type.
"""

from __future__ import annotations

# A newer memory of the same directory says otherwise about the same thing.
SUPERSEDED_AGAIN: list[tuple[str, str, str]] = [
    ("project", "The Tax API is served on port 5050.",
     "Port 5151 replaced 5050 for the Tax API in the 2026-03-04 release."),
    ("project", "Invoice PDFs are rendered by wkhtmltopdf.",
     "We dropped wkhtmltopdf for Gotenberg to render invoice PDFs."),
    ("project", "Geo service on-call is Dana Kim.",
     "Going forward, Geo service on-call is Luis Vega."),
    ("project", "The Cart API session timeout is 15 minutes.",
     "Effective 1 April the Cart API session timeout became 45 minutes."),
    ("project", "Quotes are stored in the quotes_v1 table.",
     "Quotes live in the quotes_v2 table since 4/3/2026."),
    ("project", "The importer runs 2 workers.",
     "As of March 4th the importer runs 8 workers."),
    ("reference", "Product analytics are in Mixpanel.",
     "Mixpanel was replaced by PostHog for product analytics."),
    ("project", "Email for the Alerts service goes through Mailgun.",
     "The Alerts service stopped using Mailgun; email goes through SES."),
    ("project", "Sprint planning for the Growth team is on Mondays.",
     "Growth team sprint planning was rescheduled; it is on Wednesdays from now on."),
    ("project", "Maps tiles cache holds 2 GB.",
     "The maps tiles cache was resized to 8 GB."),
    ("project",
     "!Kiosk app builds use Xcode 14.\n\nThe CI image pins it.",
     "!Kiosk app builds use Xcode 15 now.\n\nThe CI image was updated."),
    ("project",
     "---\nname: Ledger export format\ndescription: Ledger exports are CSV\ntype: project\n"
     "updated: 2025-11-02\n---\n\nLedger exports are written as CSV files.\n",
     "---\nname: Ledger export format\ndescription: Ledger exports are Parquet\n"
     "type: project\nupdated: 2026-02-10\n---\n\nLedger exports are written as Parquet "
     "files since February.\n"),
    ("project", "账单服务部署在周二。", "账单服务的部署改到周四了。"),
    ("project", "搜索服务的端口是 8200。", "搜索服务的端口从 8200 改成了 8300。"),
    ("project", "The Rewards API is owned by the Loyalty team.",
     "The Growth team took ownership of the Rewards API."),
    ("project", "Vendor sync for the Catalog runs every 30 minutes.",
     "Catalog vendor sync: every 10 minutes (changed in January)."),
    # Facts as a list under the subject the description names.
    ("project",
     "---\nname: payouts-api\ndescription: Payouts API service facts\ntype: project\n---\n\n"
     "- Port: 8080\n- Owner: Ledger team\n- Deploys: Tuesday\n",
     "---\nname: payouts-api-facts\ndescription: Payouts API service facts\ntype: project\n"
     "---\n\n- Port: 9090\n- Owner: Ledger team\n- Deploys: Tuesday\n"),
    ("reference",
     "---\nname: vpn\ndescription: Office VPN settings\ntype: reference\n---\n\n"
     "Gateway: vpn1.acme.dev\nProtocol: WireGuard\n",
     "---\nname: vpn-settings\ndescription: Office VPN settings\ntype: reference\n---\n\n"
     "Gateway: vpn2.acme.dev\nProtocol: WireGuard\n"),
    # How often, said as a word or as a number of days or weeks.
    ("project", "Release branches are cut from main every 2 weeks.",
     "Release branches are now cut from main weekly."),
    ("project", "Dependency updates for the monorepo are merged monthly.",
     "Monorepo dependency updates are merged every 7 days now."),
]  # fmt: skip

# A teammate's newer memory (team/) says otherwise than one of mine.
CONTRADICTED_AGAIN: list[tuple[str, str, str]] = [
    ("project", "The Tickets API rate limit is 100 requests per second.",
     "Heads up: Tickets API rate limit is 250 requests per second, not 100."),
    ("project", "Payroll batch jobs start at 23:00.",
     "Actually the payroll batch jobs kick off at 21:30."),
    ("project", "The Media worker is owned by Sam Cole.",
     "Media worker owner is Priya Shah these days."),
    ("project", "The Search API reads from the replica db-ro-1.acme.dev.",
     "Search API reads now hit db-ro-3.acme.dev; the old replica is gone."),
    ("project", "Chat service retries 3 times.", "The chat service retries 5 times."),
    ("project", "报表服务每天凌晨 2 点运行。", "报表服务现在每天凌晨 4 点运行。"),
    ("project", "Auth tokens for the mobile app expire after 7 days.",
     "Mobile app auth tokens last 30 days now."),
]  # fmt: skip

# Pairs that share a subject or its words without one replacing the other: never
# flagged, whichever is newer, in one directory or as a teammate's memory.
NEAR_MISSES_AGAIN: list[tuple[str, str, str]] = [
    ("project", "The Tax API is served on port 5050.",
     "The Fees API is served on port 5151."),
    ("project", "Staging for the Cart API has a 15 minute session timeout.",
     "Production for the Cart API has a 45 minute session timeout."),
    ("project", "The importer runs 2 workers in staging.",
     "The importer runs 8 workers in production."),
    ("project", "Geo service on-call is Dana Kim.", "Geo service tech lead is Luis Vega."),
    ("project", "Sprint planning for the Growth team is on Mondays.",
     "Sprint demos for the Growth team are on Fridays."),
    ("project", "Quotes are stored in the quotes_v1 table.",
     "Quote audits are stored in the quote_audit table."),
    ("project", "账单服务部署在周二。", "搜索服务部署在周四。"),
    ("project", "搜索服务的端口是 8200。", "搜索服务的管理端口是 8201。"),
    ("project", "The Tickets API rate limit is 100 requests per second.",
     "The Tickets API rate limit is 100 requests per second; bursts up to 150 are allowed."),
    ("project", "Payroll batch jobs start at 23:00.",
     "Payroll reports are emailed at 07:00."),
    ("project", "Chat service retries 3 times.", "Chat service times out after 3 seconds."),
    ("project", "Maps tiles cache holds 2 GB.", "Maps search cache holds 8 GB."),
    ("project", "We dropped jQuery from the admin app.",
     "We dropped Moment from the admin app."),
    ("reference", "Product analytics are in Mixpanel.",
     "Marketing analytics moved from Mixpanel to Amplitude."),
    ("project", "Kiosk app builds use Xcode 15.", "Watch app builds use Xcode 14."),
    # The wording the rules read as a change, said of another subject.
    ("project", "Billing exports run on Mondays.",
     "Going forward, billing imports run on Fridays."),
    ("project", "Support email goes through Mailgun.",
     "The Alerts service stopped using Mailgun; its email goes through SES."),
    ("reference", "Product analytics are in Mixpanel.",
     "Mixpanel was replaced by PostHog for marketing analytics."),
    ("project", "The Q3 roadmap review is on 2026-09-14.",
     "The Q4 roadmap review is on 2026-12-07."),
    ("project", "账单服务在周二部署到预发环境。", "账单服务在周四部署到生产环境。"),
    ("project", "As of March 4th the importer runs 8 workers.",
     "As of March 4th the exporter runs 2 workers."),
    ("project", "Effective 1 April the Cart API session timeout is 45 minutes.",
     "Effective 1 April the Cart API idle timeout is 10 minutes."),
    # Lists of facts under two subjects, or two environments of one.
    ("project",
     "---\nname: billing-api\ndescription: Billing API service facts\ntype: project\n---\n\n"
     "- Port: 8080\n- Owner: Ledger team\n",
     "---\nname: search-api\ndescription: Search API service facts\ntype: project\n---\n\n"
     "- Port: 8081\n- Owner: Ledger team\n"),
    ("project",
     "---\nname: billing-staging\ndescription: Billing API staging settings\ntype: project\n"
     "---\n\n- Replicas: 2\n- Region: eu-west-1\n",
     "---\nname: billing-production\ndescription: Billing API production settings\n"
     "type: project\n---\n\n- Replicas: 6\n- Region: eu-west-1\n"),
    ("project",
     "!# Billing API\n\n- Port: 8080\n",
     "!# Search API\n\n- Port: 8081\n"),
    ("project",
     "---\nname: payouts-owner\ndescription: Payouts API service facts\ntype: project\n---\n\n"
     "- Owner: Ledger team\n",
     "The Growth team took ownership of the Rewards API."),
    # How often, of two things.
    ("project", "Release branches are cut from main every 2 weeks.",
     "Release notes are published weekly."),
    ("project", "Ledger backups run nightly and are kept 30 days.",
     "Ledger backups run nightly; restores are tested monthly."),
]  # fmt: skip
