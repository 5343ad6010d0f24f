"""A generated corpus of memories whose right answers are known.

Made-up service names (kelvane, zordock, …) × twenty subjects a team keeps memories
about. Each memory states its rule, a **Why:** and a **How to apply:** line like a real
feedback/project memory, then filler that names other services and, in passing, two
other subjects of the same service: near-misses planted so that a ranking which
merely counts shared words gets the wrong memory. Each question is phrased the way
someone would ask it, with inflections ("deploying", "backed up") and near-synonyms
("PRs" for pull requests, "credentials" for secrets, "rolled out" for deployed) that
the memory does not use verbatim. Two services in five also have Chinese memories and
Chinese questions.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from memsync.recall.rank import RecallDocument

# Two syllables make a service name that is no English word, so it matches only itself.
_PREFIXES = "kel mar zor tav quin bel dra fen gul hol vor pim sab tor nim cas lur wex yal bro"
_PREFIXES += " cin dup esk fal gri"
_SUFFIXES = "vane dock rix ora tenn mont sel quay bury lith wick garde fax nel pode"
_SUFFIXES += " stra thorn vex zell mire"


def component_names(count: int) -> list[str]:
    names = [prefix + suffix for suffix in _SUFFIXES.split() for prefix in _PREFIXES.split()]
    assert count <= len(names)
    return names[:count]


# (slug, type, title, description, rule, why, how to apply, questions)
ASPECTS = [
    (
        "deploy_freeze",
        "project",
        "deploy freeze",
        "No deploys of {c} on Fridays after 14:00 UTC",
        "{C} is never deployed on Friday afternoons.",
        "A Friday deploy of {c} broke checkout over a weekend.",
        "Schedule {c} releases Monday to Thursday.",
        [
            "can I deploy {c} on a friday afternoon",
            "is there a freeze on deploying {c} fridays",
            "is shipping {c} allowed before the weekend",
        ],
    ),
    (
        "deploy_pipeline",
        "reference",
        "deploy pipeline",
        "{C} deploys go through the blue-green pipeline in Spinnaker",
        "{C} is deployed by the blue-green Spinnaker pipeline.",
        "Blue-green lets {c} roll back within a minute.",
        "Start {c} deploys from the Spinnaker pipeline page.",
        [
            "which pipeline deploys {c}",
            "how is {c} rolled out with spinnaker",
            "how do {c} releases get rolled back",
        ],
    ),
    (
        "db_migrations",
        "project",
        "database migrations",
        "{C} database migrations run before the web pods restart",
        "Run {c} schema migrations as a pre-deploy job.",
        "Pods of {c} crash on columns that do not exist yet.",
        "Add each {c} migration to the pre-deploy job.",
        [
            "when do {c} database migrations run",
            "order of {c} schema migration and pod restart",
            "{c} schema changes and pod startup order",
        ],
    ),
    (
        "db_backups",
        "reference",
        "database backups",
        "{C} database backups run nightly at 02:00 UTC into S3",
        "Nightly snapshots of the {c} database land in S3.",
        "Restores of {c} were once needed after a bad migration.",
        "Look in the {c}-backups bucket to restore.",
        [
            "where are {c} backups stored",
            "when is the {c} database backed up",
            "how to restore {c} data from a snapshot",
        ],
    ),
    (
        "rate_limit",
        "reference",
        "API rate limit",
        "{C} API allows 100 requests per second per token",
        "The {c} API throttles at 100 requests per second.",
        "Bursts above the limit get 429 responses from {c}.",
        "Batch calls to {c} instead of looping.",
        [
            "what is the {c} api request limit per second",
            "why does {c} return 429 throttled",
            "{c} keeps answering too many requests",
        ],
    ),
    (
        "retry_policy",
        "feedback",
        "client retries",
        "{C} client retries with exponential backoff, at most 5 attempts",
        "Retry failed {c} calls with exponential backoff, five attempts at most.",
        "Unbounded retries against {c} once caused a retry storm.",
        "Use the shared backoff helper for {c} calls.",
        [
            "how many times should a failed {c} call be retried",
            "backoff for retrying {c} requests",
            "{c} calls failing, how often to try again",
        ],
    ),
    (
        "cache_purge",
        "reference",
        "cache invalidation",
        "{C} caches are invalidated by publishing to the purge topic",
        "Publish to the {c} purge topic to invalidate its caches.",
        "Deleting {c} keys by hand leaves stale replicas.",
        "Send purge events for {c}, never flush Redis.",
        [
            "how do I invalidate the {c} cache",
            "purging stale {c} cached entries",
            "{c} serving stale data after an update",
        ],
    ),
    (
        "feature_flags",
        "project",
        "feature flags",
        "{C} features are toggled in LaunchDarkly, never by environment variables",
        "{C} feature toggles live in LaunchDarkly.",
        "Env var toggles for {c} needed a redeploy to flip.",
        "Create a LaunchDarkly flag for each {c} feature.",
        [
            "where are {c} feature flags toggled",
            "should {c} use env vars to toggle a feature",
            "turn on a new {c} feature without redeploying",
        ],
    ),
    (
        "on_call",
        "project",
        "on-call rotation",
        "{C} on-call rotation is weekly and hands over on Mondays",
        "The {c} on-call shift changes every Monday.",
        "Weekly rotations kept {c} pages predictable.",
        "Check PagerDuty for the current {c} on-call engineer.",
        [
            "who is on call for {c} this week",
            "when does the {c} oncall rotation hand over",
            "who gets paged when {c} breaks",
        ],
    ),
    (
        "code_review",
        "feedback",
        "review approvals",
        "{C} pull requests need two approvals from its owners",
        "Every {c} pull request needs two owner approvals.",
        "A single approval let a broken {c} change merge.",
        "Request two {c} owners as reviewers.",
        [
            "how many approvals does a {c} pull request need",
            "who must review {c} PRs",
            "can I merge a {c} change with one approval",
        ],
    ),
    (
        "integration_tests",
        "feedback",
        "integration tests",
        "{C} integration tests hit a real Postgres database, never mocks",
        "Test {c} against a real Postgres, not a mocked database.",
        "Mocked tests of {c} passed while the real migration failed.",
        "Start the Postgres container before running {c} tests.",
        [
            "should {c} tests mock the database",
            "can I use mocks in {c} integration testing",
            "fake database in the {c} test suite",
        ],
    ),
    (
        "log_retention",
        "reference",
        "log retention",
        "{C} logs are shipped to Loki and kept for 14 days",
        "Logs of {c} stay in Loki for fourteen days.",
        "Older {c} logs are dropped to save storage.",
        "Export {c} logs before they expire if an incident needs them.",
        [
            "how long are {c} logs kept",
            "where do {c} logs get shipped",
            "{c} log history older than two weeks",
        ],
    ),
    (
        "secrets_vault",
        "reference",
        "secrets in Vault",
        "{C} secrets live in Vault under kv/{c}",
        "All {c} credentials are stored in Vault.",
        "Secrets in {c} env files leaked once.",
        "Read {c} secrets with the Vault agent sidecar.",
        [
            "where are the {c} secrets kept",
            "which vault path holds {c} credentials",
            "where do {c} passwords and tokens live",
        ],
    ),
    (
        "latency_dashboard",
        "reference",
        "latency dashboard",
        "{C} latency percentiles are on the Grafana dashboard 'svc-{c}'",
        "Watch p99 latency of {c} on its Grafana board.",
        "The {c} dashboard shows regressions within minutes.",
        "Open the svc-{c} Grafana dashboard after deploys.",
        [
            "grafana dashboard for {c} latency",
            "where can I see {c} p99 latencies",
            "how slow is {c} right now",
        ],
    ),
    (
        "release_notes",
        "project",
        "release notes",
        "{C} release notes are written by the product manager in Notion",
        "The PM writes {c} release notes in Notion.",
        "Engineers' {c} notes were too technical for customers.",
        "Send the PM a summary of {c} changes.",
        [
            "who writes the {c} release notes",
            "where do {c} release notes get written",
            "who tells customers what changed in {c}",
        ],
    ),
    (
        "dependency_pins",
        "feedback",
        "dependency pinning",
        "{C} pins dependencies exactly; upgrades go through Renovate",
        "Pin every {c} dependency to an exact version.",
        "A floating range pulled a breaking {c} dependency.",
        "Let Renovate open {c} upgrade PRs.",
        [
            "how are {c} dependency upgrades handled",
            "should {c} pin its dependencies",
            "should {c} use version ranges for packages",
        ],
    ),
    (
        "timezones",
        "feedback",
        "timestamps in UTC",
        "{C} stores timestamps in UTC and converts only for display",
        "Store {c} times in UTC.",
        "Local times in {c} broke around daylight saving.",
        "Convert {c} timestamps in the UI layer.",
        [
            "what timezone does {c} store timestamps in",
            "storing {c} times as utc or local",
            "{c} dates around daylight saving",
        ],
    ),
    (
        "slo",
        "project",
        "availability SLO",
        "{C} SLO is 99.9% monthly availability",
        "{C} promises 99.9% availability each month.",
        "The {c} error budget gates risky launches.",
        "Check the {c} error budget before launching.",
        [
            "what availability target does {c} have",
            "{c} error budget and slo",
            "how much downtime can {c} afford",
        ],
    ),
    (
        "ownership",
        "project",
        "team ownership",
        "{C} is owned by the platform team; ask in #{c}-dev",
        "The platform team owns {c}.",
        "Questions about {c} used to go unanswered in general channels.",
        "Ask {c} questions in #{c}-dev.",
        ["which team owns {c}", "who should I ask about {c}", "{c} slack channel for questions"],
    ),
    (
        "commit_style",
        "feedback",
        "commit messages",
        "{C} commits use terse imperative subject lines",
        "Write {c} commit messages in the imperative mood, under 60 characters.",
        "The {c} changelog is generated from commit subjects.",
        "Start each {c} commit subject with a verb.",
        [
            "how should {c} commit messages be written",
            "style of {c} commit subjects",
            "{c} changelog entries",
        ],
    ),
]

# Chinese memories for some subjects: (slug, type, title, description, body, questions)
CHINESE = [
    (
        "zh_deploy_freeze",
        "project",
        "{c} 发布冻结",
        "{c} 每周五下午禁止发布上线",
        "周五下午不要部署 {c}，上次周末出了故障。",
        ["{c} 周五可以发布吗", "{c} 什么时候禁止上线"],
    ),
    (
        "zh_db_backups",
        "reference",
        "{c} 数据库备份",
        "{c} 数据库每晚两点备份到对象存储",
        "{c} 的数据库快照每天夜里自动生成。",
        ["{c} 的数据库备份在哪里", "{c} 数据库什么时候备份"],
    ),
    (
        "zh_on_call",
        "project",
        "{c} 值班安排",
        "{c} 值班每周一轮换",
        "{c} 的值班工程师每周一交接。",
        ["这周谁在 {c} 值班", "{c} 值班什么时候交接"],
    ),
    (
        "zh_log_retention",
        "reference",
        "{c} 日志保留",
        "{c} 日志在 Loki 中保留十四天",
        "{c} 的日志超过两周会被删除。",
        ["{c} 日志保留多久", "{c} 的日志存在哪里"],
    ),
    (
        "zh_code_review",
        "feedback",
        "{c} 代码评审",
        "{c} 的合并请求需要两位负责人批准",
        "每个 {c} 合并请求都要两个人评审。",
        ["{c} 合并请求需要几个人批准", "谁来评审 {c} 的代码"],
    ),
]

MENTIONS = [
    "This is separate from the {c} {t}.",
    "Do not confuse it with the {c} {t} note.",
    "The {t} of {c} is documented elsewhere.",
]

FILLER = [
    "This came up while we were looking at {o} too.",
    "Related: the {o} team follows a different deploy process.",
    "See also the notes on {o} caches and database backups.",
    "Nobody remembers why the {o} pipeline differs.",
    "We discussed logging, retries and feature flags in the same meeting.",
    "The {o} owners agreed with this in the weekly sync.",
    "It is unrelated to the on-call rotation or the release notes.",
    "Grafana alerts and Vault policies were out of scope.",
]


def build_corpus(
    components: int = 60, seed: int = 7
) -> tuple[list[RecallDocument], list[tuple[str, str]]]:
    """The memories, and (question, path of the memory that answers it) pairs."""
    rng = random.Random(seed)
    names = component_names(components)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    documents, questions = [], []
    for c in names:
        for slug, kind, title, description, rule, why, how, queries in ASPECTS:
            others = rng.sample([o for o in names if o != c], 2)
            filler = " ".join(rng.choice(FILLER).format(o=o) for o in others)
            # Planted near-misses: the same component's other subjects, in passing.
            siblings = rng.sample([a for a in ASPECTS if a[0] != slug], 2)
            filler += " " + " ".join(rng.choice(MENTIONS).format(c=c, t=a[2]) for a in siblings)
            fill = {"c": c, "C": c.capitalize()}
            body = (
                f"{rule.format(**fill)}\n\n**Why:** {why.format(**fill)}\n"
                f"**How to apply:** {how.format(**fill)}\n\n{filler}\n"
            )
            path = f"{kind}_{c}_{slug}.md"
            documents.append(
                RecallDocument(
                    path,
                    f"{c.capitalize()} {title}",
                    description.format(**fill),
                    body,
                    kind,
                    start + timedelta(hours=rng.randrange(8000)),
                )
            )
            questions.append((rng.choice(queries).format(**fill), path))
    for c in names[: max(components * 2 // 5, 1)]:
        for slug, kind, title, description, body, queries in CHINESE:
            path = f"{kind}_{c}_{slug}.md"
            documents.append(
                RecallDocument(
                    path,
                    title.format(c=c),
                    description.format(c=c),
                    body.format(c=c),
                    kind,
                    start + timedelta(hours=rng.randrange(8000)),
                )
            )
            questions.append((rng.choice(queries).format(c=c), path))
    return documents, questions
