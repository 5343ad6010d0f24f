"""The words duplicate detection reads (issue 15 item 3): which carry no fact, which a
re-wording swaps, which say what a sentence is about, and a light English stemmer.
Lists of words, not rules: the rules are in `memsync.dream.dedupe` and
`memsync.dream.rewording`, and `memsync.dream.phrasing` writes `PHRASES` as their words."""

from __future__ import annotations

import functools
import re


def word_set(text: str) -> frozenset[str]:
    """The words of a list written as text, one or more a line."""
    return frozenset(text.split())


DAYS = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
DAY_SET = frozenset(DAYS)
MONTHS = DAYS[7:]  # the days of the week first
# Words that carry no fact: articles, pronouns, auxiliaries, and the verbs a
# re-wording swaps for one another.
STOPWORDS = word_set(
    """
    a an the and or but of to in on at by for from with as is are was were be been
    being it its this that these those there here we our us you your they their them
    he she his her i me my do does did done has have had will would should shall can
    could may might so if then than also just very all any each every some such into
    onto about via per which who whom whose what when where why how up out over
    under again once use uses used using prefer prefers preferred please note notes
    keep kept make made go goes get gets got need needs needed whether because since
    while s t
    的 了 是 在 和 与 及 或 都 也 要 就 请 把 被 对 为 由 用 使
    个 每 将 向 从 于 以 之 其 该 此 这 那 些 等 着 过 吗 呢 吧 所 里 会 能 可 得 地 啊 有
    """
)
# The stopwords whose loss or swap never changes a fact, left out of the word order
# `memsync.dream.rewording` reads. The others ("keep", "use", "on", "by", "of", …)
# stay in it: "keep" where the other says "remove" is a substitution, and "port of X"
# ties "port" to X less than "X port" does.
GRAMMAR = word_set(
    """
    a an the and or but in at from with as is are was were be been being it
    its this that these those there here we our us you your they their them he she his
    her i me my do does did done has have had will would should shall can could may
    might so if then than also just very into onto about via per which who whom whose
    what when where why how s t 的 了 是 在 和 与 及 或 都 也 就 把 被 对 为
    """
)
# Words that carry no fact and that re-wordings swap, add or drop ("handles",
# "currently", "lives in", "the version"): not counted when word sets are compared.
# Safe only with `memsync.dream.rewording`: a memory that puts a word of its own where
# the other has one of these ("runs" → "skips") is still told apart.
WORDING = word_set(
    """
    currently presently now still already actually basically generally simply really
    mainly mostly primarily largely handle manage responsible responsibility charge
    happen occur live located sit reside store stored run version environment schedule
    around approximately roughly thing stuff info see
    information detail person people folks someone anyone everyone named
    through thru like likes liked want wants wanted let lets
    """
)


# Lowercase words that say which thing a sentence is about (an environment, a
# platform, a schedule, an order): added inside a sentence both memories say, they
# make another fact of it ("deploys every Tuesday", "deploys to production every
# Tuesday"), not the same fact plus one.
QUALIFIERS = word_set(
    """
    staging production prod dev development qa sandbox preview canary local test
    daily weekly nightly hourly monthly quarterly yearly annually biweekly
    web mobile ios android desktop frontend backend internal external public private
    primary secondary before after first last legacy old new read write
    """
)


# The qualifiers of order: a re-wording adds or drops them with the phrase they are in
# ("Check with the user first", "Requests after that wait"), so one alone tells two
# memories apart only against another of them ("before" / "after"). Read only by the
# judge that compares facts rather than wording.
ORDER = word_set("before after first last")


# Words that say a statement holds for one thing alone ("This holds for staging only",
# "applies to production"): with a qualifier they narrow all a memory says.
RESTRICTING = word_set("only exclusively solely apply applies hold holds")


# Words that say a statement held once and holds no more ("no longer", "formerly",
# "previously", "not anymore", "obsolete"): one side saying one alone ends what the
# other says, however alike the rest, wherever it says it. So does "until" before a
# date ("until March", "until 2026"), not before a day or an event ("they wait until
# Monday"): `memsync.dream.dedupe` reads those.
ENDED = word_set("longer anymore formerly former previously obsolete outdated superseded")


# Kinds of component: after a name they make another thing of it ("Ledger" and the
# "Ledger worker"), so one added there is no re-wording.
COMPONENTS = word_set(
    """
    api apis service services worker workers app apps job jobs queue queues database db
    bucket cluster bot cli sdk library repo pipeline portal gateway site website
    dashboard index topic cron lambda function module package importer exporter
    indexer scheduler consumer producer proxy frontend backend server client
    """
)


# What a person does to a thing, and the units a number is counted in: two memories
# stating the same names and numbers say another fact when one has one of these the
# other lacks ("Pia Holm owns the Geo API" / "Pia Holm is on call for the Geo API";
# "50 MB" / "50 GB" is a fact, "512 MB memory limit" / "512 MB upload limit" is not
# the same limit). Read only by the judge that compares facts rather than wording.
ROLES = word_set(
    """
    own owner oncall call review reviewer write writer approve approver escalate page
    contact lead test lint build backup restore reset read merge rebase squash revert
    rollback monitor alert block allow enable disable add remove create open close
    start stop join leave replace retire deprecate archive delete migrate
    """
)
UNITS = word_set(
    """
    second seconds minute minutes hour hours day days week weeks month months year years
    ms millisecond milliseconds kb mb gb tb kib mib gib tib percent replica replicas cpu
    cpus core cores request requests connection connections thread threads user users
    row rows item items retry retries
    """
)


# Words that say the opposite of one another, or one of a few that exclude each other
# (each line; inflections of one word joined by "/"): one memory saying one where the
# other says another ("weekdays" / "weekends", "at most" / "at least", "increase" /
# "decrease", "allow" / "deny") states the opposite fact, however the rest is worded.
# Written for the ninth tuning batch from the antonyms of team memories in general,
# not from any pair. `OPPOSITE_PARTICLES` are short words said in most memories, read
# only where the two put one in the other's place ("opt-in" / "opt-out").
OPPOSITES = [
    line.split()
    for line in """
    weekday/weekdays weekend/weekends
    most least
    max min
    maximum minimum
    add/adds/added/increase/increases/increased remove/removes/removed/decrease/decreases/decreased
    enable/enables/enabled disable/disables/disabled
    allow/allows/allowed deny/denies/denied block/blocks/blocked forbid/forbids/forbidden
    include/includes/included/including exclude/excludes/excluded/excluding
    read/reads write/writes
    first last
    before after
    beforehand afterwards
    more less/fewer
    higher lower
    upper lower
    start/starts/started stop/stops/stopped
    open/opens/opened close/closes/closed
    inbound outbound
    ingress egress
    ascending descending
    oldest newest
    earliest latest
    true false
    public private
    internal external
    import/imports/imported export/exports/exported
    upload/uploads/uploaded download/downloads/downloaded
    push/pushes/pushed pull/pulls/pulled
    lock/locks/locked unlock/unlocks/unlocked
    accept/accepts/accepted reject/rejects/rejected
    grant/grants/granted revoke/revokes/revoked
    encrypt/encrypted decrypt/decrypted
    sync async
    synchronous asynchronous
    online offline
    major minor
    manual/manually automatic/automatically
    mandatory optional
    north south
    east west
    morning/mornings afternoon/afternoons evening/evenings night/nights
    success/successful failure/failed
    """.strip().splitlines()
]
OPPOSITE_PARTICLES = [
    line.split()
    for line in ("in out", "on off", "up down", "over/above/exceeds/passes under", "all some none")
]


# Words that take away what the rest of a sentence grants, as a denial does ("answers
# that leave code samples out", "every region except eu-west-1", "skip the cache"): one
# side saying one of them alone says the opposite, however alike the rest.
PRIVATIVE = word_set(
    """
    leave leaves left omit omits omitted skip skips skipped drop drops dropped exclude
    excludes excluded excluding except without minus ignore ignores ignored disable
    disables disabled instead unless neither nor lacks lacking
    """
)


# Everyday nouns and verbs of team memories that a sentence or a label often starts
# with, capitalised there only ("Questions go to …", "Reason: …", "Connections go
# through …"): a capitalised one names nothing unless it is capitalised where no
# sentence starts. Written for the fourth tuning batch from the words of memories in
# general, not from any pair.
SENTENCE_STARTERS = word_set(
    """
    question questions reason reasons why how note notes context background detail
    details example examples status update updates summary rule rules tip tips warning
    caveat caveats gotcha gotchas step steps result results source sources link links
    connection connections request requests response responses query queries call calls
    deploy deploys deployment deployments release releases build builds test tests log
    logs metric metrics alert alerts dashboard dashboards backup backups secret secrets
    config configuration setting settings error errors incident incidents issue issues
    change changes commit commits branch branches review reviews owner owners ownership
    escalation escalations retention access credentials data events messages jobs tasks
    questions contact contacts meeting meetings standup schedule timing deadline
    everything anything nothing something ask run check make keep add remove avoid
    bring find send put set start stop open close tell try wait write read merge push
    pull tag update install follow lead explain answer reply show skip give take
    checklist overview guide plan flow setup stack layout
    """
)


# What is left of a denial written as a contraction once "n't" is split off, and
# "cannot" (profiles reads each as a denial; here each is "not").
DENYING = "isn aren wasn weren doesn didn hasn haven hadn shouldn wouldn couldn mustn needn cannot"

# Words a re-wording swaps for one another, each mapped to one of them (after the
# stemmer). Only true synonyms in how teams write memories: never a pair like
# staging/production or weekly/nightly, which are facts.
_SYNONYM_GROUPS = (
    "not never dont don no avoid without",
    "own owner ownership maintain maintainer belong",
    "team squad",
    "lead head",
    "prod production",
    "db database",
    "repo repository",
    "doc docs documentation",
    "config configuration",
    "k8s kubernetes",
    "move mov migrate migrat",
    "like prefer want",
    "approve sign-off signoff approval",
    "skip omit",
    "first beforehand",
    "only exclusively",
    "live locat",
    "ask request consult",
    "pr prs pull-request",
    "ci pipeline",
    "deploy ship deployment",
    "mandatory required requir must",
    # General English of team memories, written for the second tuning batch: verbs and
    # nouns that name one relation, never two facts (not deploy/release, not
    # write/review, not backend/frontend).
    "contact reach",
    "talk communicat speak discuss",
    "break fail crash",
    "trigger kick",
    "developer dev",
    "answer reply respons",
    "short terse brief concise",
    "fix correct correction",
    "remove delete",
    "check verify",
    "change modify edit",
    "start begin",
    "send post",
    "limit cap",
    # For the fourth tuning batch: one relation each, whatever part of speech.
    "connect connection connections",
    # "isn't" is "is not": the word a contraction leaves before "n't" denies as "not"
    # does ("don", "won" and "can" are words and names of their own).
    f"not {DENYING}",
)
SYNONYMS = {word: group.split()[0] for group in _SYNONYM_GROUPS for word in group.split()}


_NUMBER_WORDS = (
    "two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)

# Phrases a re-wording uses for one word, as that word (before stemming): "looks
# after" and "is responsible for" say "owns"; "pull request" is "PR".
PHRASES = {
    "looks after": "owns",
    "look after": "owns",
    "looked after": "owns",
    "takes care of": "owns",
    "take care of": "owns",
    "in charge of": "owns",
    "point of contact for": "contact",
    "point of contact": "contact",
    "reach out to": "contact",
    "get in touch with": "contact",
    "pull requests": "pr",
    "pull request": "pr",
    "merge requests": "pr",
    "merge request": "pr",
    "kicks off": "triggers",
    "kick off": "triggers",
    "every night": "nightly",
    "each night": "nightly",
    "every day": "daily",
    "each day": "daily",
    "every week": "weekly",
    "each week": "weekly",
    "every month": "monthly",
    "each month": "monthly",
    "backed up": "backup",
    "back up": "backup",
    "backs up": "backup",
    "on call": "oncall",
    "on-call": "oncall",
    "sign off": "approve",
    "signs off": "approve",
    "signed off": "approve",
    "fixes for bugs": "bug fixes",
    "architecture decision records": "adr",
    "architecture decision record": "adr",
    "adrs": "adr",
    "k8s": "kubernetes",
    "product managers": "pm",
    "product manager": "pm",
    # "X belongs to Y" says "X is owned by Y": read as the passive it is, so word order
    # sees Y as the owner (`memsync.dream.rewording._active`).
    "belongs to": "owned by",
    "belong to": "owned by",
    "belonged to": "owned by",
    "is maintained by": "owned by",
    "are maintained by": "owned by",
    "times out after": "timeout",
    "timed out after": "timeout",
    "time out after": "timeout",
    "times out": "timeout",
    "timed out": "timeout",
    "instead of": "over",
    "rather than": "over",
    "below": "under",
    "stay": "keep",
    "stays": "keep",
    "remain": "keep",
    "remains": "keep",
    # Claude Code's label for a memory's last line says how, not to what alone it
    # applies (`RESTRICTING`).
    "how to apply": "howto",
    # A rule's modal said in other words is one modal: "has to", "needs to" and "is
    # required to" say "must" (a rule's polarity, `memsync.dream.profiles`), and "do
    # not ever" says "never". Written for the eighth tuning batch from how rules are
    # phrased in general, not from any pair.
    "is required to": "must",
    "are required to": "must",
    "required to": "must",
    "has to": "must",
    "have to": "must",
    "needs to": "must",
    "need to": "must",
    "do not ever": "never",
    "don't ever": "never",
    "not ever": "never",
    # A number written as a word is its digits ("three replicas", "3 replicas"), so it
    # is a fact as a number is and "three" / "four" is a number changed. Not "one",
    # which is as often a pronoun ("one of them", "the one-click flow").
    **{word: str(number) for number, word in enumerate(_NUMBER_WORDS.split(), start=2)},
    # "twice" is "two times", as "two" is "2" ("retried twice", "two retries").
    "twice": "2 times",
    "thrice": "3 times",
    **{
        word: str(number)
        for word, number in (
            ("thirty", 30),
            ("forty", 40),
            ("fifty", 50),
            ("sixty", 60),
            ("ninety", 90),
        )
    },
}
_DOUBLING = ("ings", "ing", "ed")
_DOUBLED = re.compile(r"([bdgkmnprt])\1$")
_SILENT_E = re.compile(r"[^aeiou][aeiou][^aeiouwxy]")


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light English stemmer: plurals, the commonest verb endings, "-ation", "-ition" and a few
    irregular participles. A final "e" goes too, so "handle", "handles" and "handled"
    are one, and "rotates" and "rotation". "-ied" is "-y", as "-ies" is ("retried",
    "retries"), and a short verb that lost its "e" before "-ed" or "-ing" gets it back
    ("paged", "paging", "pages" are "page"; "noted" is "note", not the denial "not")."""
    if len(word) <= 3 or not word.isascii() or not word.isalpha():
        return word
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    stemmed = word
    endings = (
        ("itions", ""),  # "definitions", "defined"; not "position" (see below)
        ("ition", ""),
        ("ations", "at"),
        ("ation", "at"),
        ("ies", "y"),
        ("ied", "y"),  # "retried", "retries": one verb
        ("sses", "ss"),
        ("ings", ""),
        ("ing", ""),
        ("ed", ""),
        ("es", "e"),
    )
    if word.endswith(("xes", "ches", "shes", "zes")):  # "fixes", "pushes": no "e" to keep
        word = stemmed = word[:-2]
    for suffix, keep in endings:
        if word.endswith(suffix) and len(word) - len(suffix) >= (5 if "iti" in suffix else 3):
            stemmed = word[: -len(suffix)] + keep
            # A consonant doubled before "-ed" or "-ing" is one: "tagged", "tag".
            if suffix in _DOUBLING and _DOUBLED.search(stemmed) and len(stemmed) > 3:
                stemmed = stemmed[:-1]
            elif suffix in _DOUBLING and _SILENT_E.fullmatch(stemmed):
                # A short verb lost its "e": "paged", "paging" are "page" (kept whole,
                # being four letters), as "pages" is.
                stemmed += "e"
            break
    else:
        if word.endswith("s") and not word.endswith(("ss", "us", "is")):
            stemmed = word[:-1]
    # Four letters at least stay: "note" must not become "not".
    return stemmed[:-1] if stemmed.endswith("e") and len(stemmed) > 4 else stemmed


_IRREGULAR = {
    participle: verb
    for verb, participles in (
        ("writ", "written wrote writes write"),
        ("run", "ran runs running"),
        ("build", "built builds building"),
        ("choos", "chosen chose chooses choose"),
        ("tak", "taken took takes take"),
        ("giv", "given gave gives give"),
        ("send", "sent sends sending"),
        ("hold", "held holds holding"),
    )
    for participle in participles.split()
}
# The stemmed forms too ("approved" → "approv" → "approve"'s group).
SYNONYMS |= {stem(word): canonical for word, canonical in SYNONYMS.items()}
