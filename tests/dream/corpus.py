"""Memory directories with planted problems, for the dream's tests and its benchmark.

`build_corpus(root, memories=…)` writes a Claude Code memory directory (``MEMORY.md``
and topic files in the canonical format) and returns a `Corpus` that says exactly
what was planted, so a test can check each fix on disk:

- near-duplicates: a memory and a re-worded copy under another file name
  (`duplicate_pairs`), and two memories sharing one ``name`` whose text was updated
  in between (`same_name_pairs`), in English and Chinese;
- look-alikes: distinct memories written from the same template about another
  subject, which must never merge (`lookalike_pairs`);
- relative dates in bodies and descriptions, English and Chinese, with the absolute
  text each must become, computed here by hand from the file's last change
  (`relative_dates`);
- index entries linking files that do not exist (`dead_targets`), topic files no
  entry links (`orphans`), entries over 200 characters whose hook carries a detail
  the file does not (`long_entries`);
- with ``memories`` of 300 or more, an index far over 200 lines;
- memories last changed long ago (`stale`).

Every memory is built from templates with a generated subject, so thousands of
distinct memories share phrasing the way real ones do. Generation is deterministic
for a seed. `Corpus.context()` gives the `DreamContext` a run would pass, with
`last_changed` as Git would report it; `commit_corpus` makes those dates real
commits for tests that read them from Git.
"""

from __future__ import annotations

import os
import random
import subprocess
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from memsync.dream.engine import DreamContext, Scope

NOW = datetime(2026, 12, 2, 15, 0, tzinfo=UTC)
TYPES = ("user", "feedback", "project", "reference")
HEADINGS = {
    "user": "User",
    "feedback": "Feedback",
    "project": "Projects",
    "reference": "References",
}
STALE_DAYS = 90

_CONSONANTS = "bdfgklmnprstvz"
_VOWELS = "aeiou"

_STORES = ["Postgres", "Redis", "Kafka", "S3 bucket", "Elasticsearch", "MySQL", "ClickHouse"]
_STORES += ["SQS queue", "Mongo cluster", "etcd", "Cassandra ring", "DynamoDB table"]
_TOOLS = ["Grafana", "Datadog", "Kibana", "Sentry", "Honeycomb", "Looker", "Metabase"]
_TOOLS += ["Linear", "Jira", "Notion", "Confluence", "PagerDuty", "Buildkite"]
_TEAMS = ["platform", "payments", "growth", "infra", "data", "mobile", "security", "search"]
_TEAMS += ["billing", "identity", "support", "ml", "devex", "release"]
_PEOPLE = ["Dana", "Priya", "Tomas", "Mei", "Kofi", "Lena", "Arjun", "Sofia", "Yuki", "Omar"]
_PEOPLE += ["Ines", "Bruno", "Hana", "Felix", "Zara", "Nikolai", "Amara", "Jonas"]
_ROLES = ["staff engineer", "data scientist", "engineering manager", "SRE", "designer"]
_ROLES += ["security lead", "product manager", "mobile developer", "QA lead", "intern"]
_PREFS = ["short answers with code first", "diagrams before prose", "tests before fixes"]
_PREFS += ["British spelling in docs", "small reviewable commits", "explicit type hints"]
_PREFS += ["pairing over async review", "screenshots in bug reports", "one PR per ticket"]
_INCIDENTS = ["an outage", "a data loss scare", "a failed release", "a paging storm"]
_INCIDENTS += ["a corrupted backfill", "a week of flaky builds", "a customer escalation"]
_INCIDENTS += ["a rollback at midnight", "a leaked staging key", "a stuck migration"]
_CAUSES = ["a mocked client hid a schema change", "the retry loop doubled every write"]
_CAUSES += ["a config flag differed between regions", "the cache kept stale prices"]
_CAUSES += ["nobody owned the cron job", "the health check lied under load"]
_CAUSES += ["a timezone bug shifted invoices", "the queue consumer dropped poison messages"]
_ACTIONS = ["run the smoke suite", "check the canary graphs", "ask the owning team"]
_ACTIONS += ["read the runbook", "tag the release", "announce it in the channel"]
_ACTIONS += ["snapshot the database", "pin the dependency", "open a change ticket"]
_VERBS = ["deploy", "migrate", "restart", "rotate keys on", "scale down", "reindex"]
_VERBS += ["backfill", "truncate tables on", "upgrade", "fail over"]
_CHANNELS = ["#ops", "#alerts", "#releases", "#oncall", "#db", "#frontend", "#billing-eng"]
_CHANNELS += ["#security", "#incidents", "#data-eng"]
_ZH_CHECKS = ["数据库迁移", "缓存配置", "权限变更", "灰度开关", "定时任务", "消息队列消费"]
_ZH_INCIDENTS = ["导致了一次故障，回滚花了两个小时", "让支付接口报错了半小时", "触发了大量告警"]
_ZH_INCIDENTS += ["把一批订单写进了错误的分区", "让夜间报表全部失败"]
_ZH_STEPS = ["发布前运行迁移检查", "先在预发跑一遍冒烟测试", "提前和负责人确认回滚方案"]
_ZH_STEPS += ["对照变更清单逐项核对", "先导出一份数据快照"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August"]


@dataclass
class Corpus:
    root: Path
    now: datetime
    last_changed: dict[str, datetime] = field(default_factory=dict)
    types: dict[str, str] = field(default_factory=dict)  # topic file → type
    duplicate_pairs: list[tuple[str, str]] = field(default_factory=list)  # (newer, older)
    same_name_pairs: list[tuple[str, str]] = field(default_factory=list)  # (newer, older)
    lookalike_pairs: list[tuple[str, str]] = field(default_factory=list)
    same_subject_pairs: list[tuple[str, str]] = field(default_factory=list)
    relative_dates: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    dead_targets: list[str] = field(default_factory=list)
    orphans: list[str] = field(default_factory=list)
    long_entries: dict[str, str] = field(default_factory=dict)  # file → its long hook
    long_details: dict[str, str] = field(default_factory=dict)  # file → detail not in it
    stale: list[str] = field(default_factory=list)
    chinese: list[str] = field(default_factory=list)

    @property
    def topic_files(self) -> list[str]:
        return sorted(self.types)

    def context(self, scope: Scope = Scope.PERSONAL, workdir: Path | None = None) -> DreamContext:
        return DreamContext(
            workdir=workdir or self.root,
            scope=scope,
            now=self.now,
            last_changed=dict(self.last_changed),
        )


@dataclass
class RecordingProgress:
    """A `DreamProgress` that remembers what it was told and can ask to stop: after
    `cancel_after` calls of `cancelled()`, it answers True."""

    cancel_after: int | None = None
    phases: list[str] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    checks: int = 0

    def phase(self, name: str) -> None:
        self.phases.append(name)

    def turn(self, number: int) -> None:
        self.turns.append(number)

    def touched(self, path: str) -> None:
        self.files.append(path)

    def cancelled(self) -> bool:
        self.checks += 1
        return self.cancel_after is not None and self.checks > self.cancel_after


class _Writer:
    def __init__(self, corpus: Corpus, rng: random.Random) -> None:
        self.corpus = corpus
        self.rng = rng
        self.subjects: set[str] = set()
        self.entries: list[tuple[str, str, str, str]] = []  # type, title, file, hook

    def subject(self) -> str:
        while True:
            syllables = [
                self.rng.choice(_CONSONANTS) + self.rng.choice(_VOWELS)
                for _ in range(self.rng.randint(2, 3))
            ]
            name = "".join(syllables).capitalize() + self.rng.choice(["n", "r", "l", "x", ""])
            if name not in self.subjects:
                self.subjects.add(name)
                return name

    def changed(self, days_ago: int) -> datetime:
        return self.corpus.now - timedelta(days=days_ago, hours=self.rng.randint(0, 20))

    def write(
        self,
        path: str,
        *,
        name: str,
        description: str,
        kind: str,
        body: str,
        changed: datetime,
        extra: str = "",
        title: str | None = None,
        indexed: bool = True,
    ) -> None:
        text = f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n{extra}---\n\n{body}"
        (self.corpus.root / path).write_text(text, encoding="utf-8")
        self.corpus.last_changed[path] = changed
        self.corpus.types[path] = kind
        if (self.corpus.now - changed).days > STALE_DAYS:
            self.corpus.stale.append(path)
        if indexed:
            self.entries.append(
                (kind, title or name.replace("-", " ").capitalize(), path, description)
            )
        else:
            self.corpus.orphans.append(path)


class _Picker:
    """Slot choices for a template. A look-alike is written with `shared` for every
    other slot, so it has the same phrasing in half its slots and its own in the rest."""

    def __init__(self, rng: random.Random, own: random.Random | None = None) -> None:
        self.rng = rng
        self.own = own
        self.count = 0

    def __call__(self, items: list[str]) -> str:
        self.count += 1
        source = self.own if self.own is not None and self.count % 2 == 0 else self.rng
        return source.choice(items)


def _memory(
    rng: random.Random, kind: str, subject: str, own: random.Random | None = None
) -> tuple[str, str, str]:
    """(name, description, body) of one distinct memory about `subject`."""
    pick = _Picker(rng, own)
    lower = subject.lower()
    if kind == "feedback":
        verb, store, action = pick(_VERBS), pick(_STORES), pick(_ACTIONS)
        other = pick([a for a in _ACTIONS if a != action])
        body = (
            f"Never {verb} the {subject} {store} on a Friday afternoon; {action} and {other} "
            f"first.\n**Why:** {pick(_INCIDENTS)} in {pick(_MONTHS)}, when "
            f"{pick(_CAUSES)}.\n**How to apply:** before any {verb} of {subject}, post "
            f"the plan in {pick(_CHANNELS)} and wait for {pick(_PEOPLE)}.\n"
        )
        return f"{lower}-{verb.split()[0]}-rule", f"How to {verb} {subject} safely", body
    if kind == "project":
        team, old, new = pick(_TEAMS), pick(_STORES), pick(_STORES)
        body = (
            f"{subject} moves from {old} to {new}; the {team} team owns the cut-over and "
            f"{pick(_PEOPLE)} signs off each step.\n**Why:** {pick(_CAUSES)}, "
            f"which {old} cannot prevent.\n**How to apply:** new {subject} code talks to "
            f"{new} only; flag anything still reading {old} in {pick(_CHANNELS)}.\n"
        )
        return f"{lower}-migration", f"{subject} is moving from {old} to {new}", body
    if kind == "user":
        person, role = pick(_PEOPLE), pick(_ROLES)
        body = (
            f"{person} {subject} is a {role} on the {pick(_TEAMS)} team and prefers "
            f"{pick(_PREFS)}. Explain {pick(_STORES)} internals in depth; skip "
            f"basics of {pick(_TOOLS)}.\n"
        )
        return f"user-{lower}", f"{person} {subject}, {role}: how to work with them", body
    tool, channel = pick(_TOOLS), pick(_CHANNELS)
    body = (
        f"{subject} dashboards live in {tool} under the {pick(_TEAMS)} folder; its "
        f"alerts go to {channel} and the runbook is the {subject} page in "
        f"{pick([t for t in _TOOLS if t != tool])}.\n"
    )
    return f"{lower}-dashboards", f"Where {subject} dashboards, alerts and runbook live", body


def _another_fact(rng: random.Random, kind: str, subject: str) -> tuple[str, str, str]:
    """(name, description, body): a second memory about `subject` that says something else."""
    lower = subject.lower()
    person, channel, tool = rng.choice(_PEOPLE), rng.choice(_CHANNELS), rng.choice(_TOOLS)
    if kind in ("feedback", "project"):
        body = (
            f"Changes to {subject} need two approvals, one of them from {person}.\n"
            f"**Why:** {rng.choice(_CAUSES)} slipped through a single review.\n"
            f"**How to apply:** request {person} on every {subject} pull request and link "
            f"the ticket from {tool}.\n"
        )
        return f"{lower}-reviews", f"Review rules for {subject} changes", body
    if kind == "user":
        body = f"{person} {subject} is on call every other week; page via {channel} only.\n"
        return f"user-{lower}-oncall", f"When and how to reach {person} {subject}", body
    body = f"The {subject} API reference is built nightly into {tool}; examples: {channel}.\n"
    return f"{lower}-api-docs", f"Where the {subject} API reference lives", body


def _reworded(rng: random.Random, body: str, subject: str) -> str:
    """A copy of `body` as another session might write it: some words changed, one
    sentence added, sometimes one line left out."""
    swaps = [
        ("Never", "Do not"),
        (" first.", " beforehand."),
        ("moves from", "is migrating from"),
        ("prefers", "likes"),
        ("live in", "are in"),
        (" only;", " exclusively;"),
        ("signs off", "approves"),
        ("skip", "leave out"),
    ]
    text = body
    for old, new in rng.sample(swaps, 4):
        text = text.replace(old, new, 1)
    lines = text.rstrip("\n").split("\n")
    if len(lines) > 2 and rng.random() < 0.4:
        del lines[rng.randrange(1, len(lines))]
    lines.append(f"This was confirmed again while looking at {subject} last sprint.")
    return "\n".join(lines) + "\n"


def _updated(rng: random.Random, kind: str, subject: str) -> str:
    """A newer memory under the same name that says something different."""
    return (
        f"Update: the {subject} rule changed after the {rng.choice(_TEAMS)} review; "
        f"{rng.choice(_PEOPLE)} now decides case by case.\n"
        f"**Why:** {rng.choice(_CAUSES)}.\n"
        f"**How to apply:** ask in {rng.choice(_CHANNELS)} before touching {subject}.\n"
        if kind in ("feedback", "project")
        else f"Update: {subject} moved to {rng.choice(_TOOLS)} this quarter.\n"
    )


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _plant_dates(writer: _Writer, count: int) -> None:
    """Memories whose text says when, relatively; the expected absolute text is worked
    out here from the file's last change, independently of the dream's own code."""
    rng = writer.rng
    english = [
        ("yesterday", lambda d: (d - timedelta(days=1)).isoformat()),
        ("3 days ago", lambda d: (d - timedelta(days=3)).isoformat()),
        ("last week", lambda d: f"the week of {(_monday(d) - timedelta(weeks=1)).isoformat()}"),
        ("two weeks ago", lambda d: (d - timedelta(days=14)).isoformat()),
    ]
    for number in range(count):
        subject = writer.subject()
        kind = TYPES[number % len(TYPES)]
        name, description, body = _memory(rng, kind, subject)
        phrase, expected = english[number % len(english)]
        changed = writer.changed(rng.randint(5, 60))
        reference = changed.date()
        body = body.rstrip("\n") + f"\nWe agreed on this {phrase} after the {subject} review.\n"
        plants = [(phrase, expected(reference))]
        if number % 3 == 0:
            description = f"{description} (decided yesterday)"
            plants.append(("yesterday", (reference - timedelta(days=1)).isoformat()))
        path = f"{kind}_{subject.lower()}_dated.md"
        writer.write(
            path, name=name, description=description, kind=kind, body=body, changed=changed
        )
        writer.corpus.relative_dates[path] = plants

    chinese = [
        ("昨天", lambda d: (d - timedelta(days=1)).isoformat()),
        ("3天前", lambda d: (d - timedelta(days=3)).isoformat()),
        ("上周", lambda d: f"{(_monday(d) - timedelta(weeks=1)).isoformat()} 当周"),
    ]
    for number in range(max(2, count // 2)):
        subject = writer.subject()
        phrase, expected = chinese[number % len(chinese)]
        changed = writer.changed(rng.randint(5, 60))
        verb = rng.choice(["部署", "发布", "迁移", "重启", "扩容"])
        body = (
            f"{verb}{subject}服务之前，必须先在预发环境验证{rng.choice(_ZH_CHECKS)}。\n"
            f"**Why:** {phrase}直接{verb}{subject}{rng.choice(_ZH_INCIDENTS)}。\n"
            f"**How to apply:** {rng.choice(_ZH_STEPS)}，并在 {rng.choice(_CHANNELS)} 频道通知。\n"
        )
        path = f"feedback_{subject.lower()}_zh.md"
        writer.write(
            path,
            name=f"{subject.lower()}-预发验证",
            description=f"{subject} {verb}前必须在预发环境验证",
            kind="feedback",
            body=body,
            changed=changed,
        )
        writer.corpus.relative_dates[path] = [(phrase, expected(changed.date()))]
        writer.corpus.chinese.append(path)


def build_corpus(
    root: Path,
    *,
    memories: int = 80,
    seed: int = 3,
    grouped: bool = True,
    now: datetime = NOW,
    team: bool = False,
) -> Corpus:
    """Write a memory directory of about `memories` topic files into `root`.

    `grouped` writes ``MEMORY.md`` with ``##`` type headings, as real indexes often
    are; otherwise one flat list. `team` adds a ``team/`` directory with problems of
    its own (a duplicate pair, a dead entry, a relative date), for scope tests.
    """
    root.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    corpus = Corpus(root=root, now=now)
    writer = _Writer(corpus, rng)
    planted = max(2, memories // 20)

    for number in range(planted):
        subject = writer.subject()
        kind = TYPES[number % len(TYPES)]
        name, description, body = _memory(rng, kind, subject)
        older = writer.changed(rng.randint(20, 60))
        newer = writer.changed(rng.randint(1, 15))
        first = f"{kind}_{subject.lower()}.md"
        second = f"{kind}_{subject.lower()}_notes.md"
        writer.write(first, name=name, description=description, kind=kind, body=body, changed=older)
        writer.write(
            second,
            name=f"{name}-notes",
            description=f"{description} (notes)",
            kind=kind,
            body=_reworded(rng, body, subject),
            changed=newer,
            extra=f"originSessionId: session-{number}\n",
        )
        corpus.duplicate_pairs.append((second, first))

    for number in range(planted):
        subject = writer.subject()
        kind = TYPES[(number + 1) % len(TYPES)]
        name, description, body = _memory(rng, kind, subject)
        older, newer = writer.changed(rng.randint(30, 80)), writer.changed(rng.randint(1, 25))
        first = f"{kind}_{subject.lower()}_v1.md"
        second = f"{kind}_{subject.lower()}_v2.md"
        writer.write(first, name=name, description=description, kind=kind, body=body, changed=older)
        writer.write(
            second,
            name=name,
            description=f"{description}, as updated",
            kind=kind,
            body=_updated(rng, kind, subject),
            changed=newer,
        )
        corpus.same_name_pairs.append((second, first))

    # A Chinese near-duplicate pair.
    subject = writer.subject()
    zh_body = (
        f"{subject}的所有接口都必须返回统一的错误格式，包含错误码和请求编号。\n"
        f"**Why:** 客户端按错误码重试，格式不一致会导致重复扣款。\n"
        f"**How to apply:** 新增接口时使用公共的错误处理中间件，并补充契约测试。\n"
    )
    zh_copy = zh_body.replace("所有接口", "全部接口").rstrip("\n") + "\n评审时也要检查这一点。\n"
    zh_first, zh_second = (
        f"feedback_{subject.lower()}_errors.md",
        f"feedback_{subject.lower()}_errors_2.md",
    )
    writer.write(
        zh_first,
        name=f"{subject.lower()}-错误格式",
        description=f"{subject} 接口的统一错误格式",
        kind="feedback",
        body=zh_body,
        changed=writer.changed(40),
    )
    writer.write(
        zh_second,
        name=f"{subject.lower()}-错误格式-补充",
        description=f"{subject} 接口必须使用统一的错误格式",
        kind="feedback",
        body=zh_copy,
        changed=writer.changed(4),
    )
    corpus.duplicate_pairs.append((zh_second, zh_first))
    corpus.chinese += [zh_first, zh_second]

    # Look-alikes: one template, one set of generic phrases, another subject and store.
    for number in range(planted):
        kind = TYPES[number % len(TYPES)]
        state = rng.getstate()
        first_subject, second_subject = writer.subject(), writer.subject()
        paths = []
        for subject, own in ((first_subject, None), (second_subject, random.Random(number))):
            rng.setstate(state)
            name, description, body = _memory(rng, kind, subject, own)
            path = f"{kind}_{subject.lower()}_alike.md"
            writer.write(
                path,
                name=name,
                description=description,
                kind=kind,
                body=body,
                changed=writer.changed(10 + number),
            )
            paths.append(path)
        corpus.lookalike_pairs.append((paths[0], paths[1]))

    # One subject, two facts: they share the subject's name and must stay apart.
    for number in range(planted):
        subject = writer.subject()
        kind = TYPES[number % len(TYPES)]
        paths = []
        for variant, write in enumerate((_memory, _another_fact)):
            name, description, body = write(rng, kind, subject)
            path = f"{kind}_{subject.lower()}_{'facts' if variant else 'main'}.md"
            writer.write(
                path,
                name=name,
                description=description,
                kind=kind,
                body=body,
                changed=writer.changed(rng.randint(3, 70)),
            )
            paths.append(path)
        corpus.same_subject_pairs.append((paths[0], paths[1]))

    _plant_dates(writer, planted)

    for number in range(planted):
        subject = writer.subject()
        kind = TYPES[number % len(TYPES)]
        name, description, body = _memory(rng, kind, subject)
        path = f"{kind}_{subject.lower()}.md"
        person, channel = rng.choice(_PEOPLE), rng.choice(_CHANNELS)
        detail = f"escalate to {person} {subject}-oncall in {channel}-{subject.lower()} twice"
        hook = (
            f"{description}; {detail}, and keep the incident doc for the quarterly {subject} "
            f"review with the on-call rotation notes and the dashboards the {subject} team watches"
        )
        writer.write(
            path,
            name=name,
            description=description,
            kind=kind,
            body=body,
            changed=writer.changed(30),
        )
        writer.entries[-1] = (kind, writer.entries[-1][1], path, hook)
        corpus.long_entries[path] = hook
        corpus.long_details[path] = detail

    for _ in range(planted):
        subject = writer.subject()
        kind = rng.choice(TYPES)
        name, description, body = _memory(rng, kind, subject)
        writer.write(
            f"{kind}_{subject.lower()}_loose.md",
            name=name,
            description=description,
            kind=kind,
            body=body,
            changed=writer.changed(rng.randint(1, 50)),
            indexed=False,
        )

    for number in range(planted):
        subject = writer.subject()
        kind = TYPES[number % len(TYPES)]
        target = f"{kind}_{subject.lower()}_gone.md"
        writer.entries.append((kind, f"{subject} notes", target, f"What we knew about {subject}"))
        corpus.dead_targets.append(target)

    while len(corpus.types) < memories:
        subject = writer.subject()
        kind = rng.choice(TYPES)
        name, description, body = _memory(rng, kind, subject)
        days = rng.randint(1, 400) if rng.random() < 0.15 else rng.randint(1, 80)
        writer.write(
            f"{kind}_{subject.lower()}.md",
            name=name,
            description=description,
            kind=kind,
            body=body,
            changed=writer.changed(days),
        )

    rng.shuffle(writer.entries)
    (root / "MEMORY.md").write_text(_index(writer.entries, grouped), encoding="utf-8")
    corpus.last_changed["MEMORY.md"] = now - timedelta(days=1)
    if team:
        _team(corpus)
    return corpus


def _index(entries: list[tuple[str, str, str, str]], grouped: bool) -> str:
    lines = ["# Memory Index", ""]
    if not grouped:
        lines += [f"- [{title}]({path}) — {hook}" for _, title, path, hook in entries]
        return "\n".join(lines) + "\n"
    by_type: dict[str, list[str]] = defaultdict(list)
    for kind, title, path, hook in entries:
        by_type[kind].append(f"- [{title}]({path}) — {hook}")
    for kind in TYPES:
        lines += [f"## {HEADINGS[kind]}", *by_type[kind], ""]
    return "\n".join(lines)


def _team(corpus: Corpus) -> None:
    team = corpus.root / "team"
    team.mkdir()
    body = (
        "Releases are cut from main every Tuesday; hotfixes go through the release channel.\n"
        "**Why:** two teams shipped conflicting hotfixes yesterday.\n"
        "**How to apply:** tag the release owner before merging a hotfix.\n"
    )
    files = {
        "project_release_train.md": ("release-train", "When releases are cut", body),
        "project_release_train_copy.md": ("release-train-copy", "When releases are cut", body),
    }
    lines = ["# Team Memory", ""]
    for path, (name, description, text) in files.items():
        (team / path).write_text(
            f"---\nname: {name}\ndescription: {description}\ntype: project\n---\n\n{text}",
            encoding="utf-8",
        )
        # Two members saved the same memory on the same day.
        corpus.last_changed[f"team/{path}"] = corpus.now - timedelta(days=5, hours=len(path))
        lines.append(f"- [{name}]({path}) — {description}")
    lines.append("- [Gone](project_gone.md) — a team memory that was deleted")
    (team / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    corpus.last_changed["team/MEMORY.md"] = corpus.now - timedelta(days=2)


def commit_corpus(corpus: Corpus) -> None:
    """Make `corpus.root` a Git repository whose history gives each file the last
    change `corpus.last_changed` says: one commit per distinct day, oldest first, at the
    day's latest time (which `last_changed` then records, so it stays what Git says)."""
    root = corpus.root
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    days: dict[date, list[str]] = defaultdict(list)
    for path, changed in corpus.last_changed.items():
        days[changed.date()].append(path)
    for day in sorted(days):
        paths = days[day]
        latest = max(corpus.last_changed[path] for path in paths).replace(microsecond=0)
        corpus.last_changed.update(dict.fromkeys(paths, latest))
        stamp = latest.strftime("%Y-%m-%dT%H:%M:%S%z")
        env = {
            **os.environ,
            "GIT_AUTHOR_DATE": stamp,
            "GIT_COMMITTER_DATE": stamp,
            "GIT_AUTHOR_NAME": "corpus",
            "GIT_AUTHOR_EMAIL": "corpus@example.com",
            "GIT_COMMITTER_NAME": "corpus",
            "GIT_COMMITTER_EMAIL": "corpus@example.com",
        }
        subprocess.run(["git", "-C", str(root), "add", "--", *paths], check=True, env=env)
        subprocess.run(
            ["git", "-C", str(root), "commit", "-q", "-m", f"memories of {day}"],
            check=True,
            env=env,
        )
