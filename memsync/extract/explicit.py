"""Explicit requests in what the user said: "remember …", "forget …" (SPEC E3).

Only the user's own words count, and only requests made as requests: the trigger must
open a sentence, after nothing but lead-ins ("ok,", "also", "please", "can you",
"好的，", "对了，", "请"). So "Remember: staging resets nightly", "please remember
that …", "can you remember that …?", "from now on, …", "don't forget to …", "记住：…",
"以后都用 …", "别忘了 …" are requests, while "do you remember …?", "I remember when
…", "吃完饭以后 …" and "忘了说，…" ("I forgot to say") are not. Code blocks and inline
code are never read for requests. A request runs to the end of its sentence.

"from now on", "going forward", "remember to …", "以后", "记得 …" state a rule for the
future, so they become feedback; otherwise the statement's words choose the type:
always/never/don't/must… → feedback; "I am …", "my role …" → user; a URL, dashboard,
channel or ticket system → reference; anything else → project.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from memsync.extract.transcript import TranscriptMessage

Action = Literal["remember", "forget"]


class _Lazy:
    """A pattern compiled the first time it is used. The Chinese ones are used only on
    text holding Chinese (`is_chinese`), so an English session's extraction does not
    compile them: ~5 ms of every such process (issue 14)."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._source = (pattern, flags)

    @functools.cached_property
    def _compiled(self) -> re.Pattern[str]:
        return re.compile(*self._source)

    def match(self, text: str) -> re.Match[str] | None:
        return self._compiled.match(text)

    def search(self, text: str) -> re.Match[str] | None:
        return self._compiled.search(text)


_FENCED = re.compile(r"^[ \t]*(`{3,}|~{3,}).*?^[ \t]*\1[ \t]*$", re.MULTILINE | re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]+`")
# A sentence ends at . ! ? followed by a space, at a CJK full stop, or at a line break;
# the terminator is kept so a question can be told from a request.
_SENTENCE = re.compile(r"[^\n]*?(?:[.!?](?=\s)|[。！？；?!]|$)", re.MULTILINE)

_EN_LEAD = (
    r"(?:(?:ok(?:ay)?|alright|all right|also|and|so|btw|by the way|oh|hey|now|actually|"
    r"then|but|one more thing|important|note|please|pls|plz|kindly|just)\b[\s,:;!.\-–—]*)*"
)
_EN_POLITE = r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+)?"
_EN_REMEMBER = re.compile(
    _EN_LEAD + _EN_POLITE + r"(?:also\s+|always\s+)?"
    r"(?P<verb>remember|memori[sz]e|don'?t\s+forget|do\s+not\s+forget|never\s+forget|"
    r"keep\s+in\s+mind|save\s+(?:this|that|it)\s+(?:to|in)\s+(?:your\s+)?memory|"
    r"add\s+(?:this|that|it)\s+to\s+(?:your\s+)?memory)\b"
    r"(?:\s+(?:this|that)\s*(?=[:\-–—]))?\s*[:,\-–—]?\s*(?:that\b\s*)?(?P<fact>.*)$",
    re.IGNORECASE | re.DOTALL,
)
_EN_FROM_NOW_ON = re.compile(
    _EN_LEAD + r"(?:from\s+now\s+on|going\s+forward|from\s+here\s+on(?:\s+out)?|henceforth)\b"
    r"\s*[,:;\-–—]?\s*(?P<fact>.*)$",
    re.IGNORECASE | re.DOTALL,
)
_EN_FORGET = re.compile(
    _EN_LEAD + _EN_POLITE + r"forget\b(?:\s+about)?\s*[:,\-–—]?\s*(?P<target>.*)$",
    re.IGNORECASE | re.DOTALL,
)
# "Do you remember when …", "remember how we …": reminiscing, not a request.
_EN_NOT_A_FACT = re.compile(r"^(?:when|how|me|us|the\s+time)\b", re.IGNORECASE)
# "forget it", "forget that, …", "forget about it": never mind. ("forget that the
# staging URL moved" names something to forget.)
_EN_NEVER_MIND = re.compile(
    r"^(?:(?:it|that|this|about\s+it|it\s+all|everything)\b\s*(?:[,;.!\-–—]|$)|$)", re.IGNORECASE
)

_ZH_LEAD = (
    r"(?:(?:好的?|行|嗯|哦|噢|喔|对了|另外|还有|顺便(?:说一下|提一下)?|那么?|然后|以及|"
    r"请你?|麻烦你?|帮我|你|也|一定要|务必|要)[\s，,：:、。!！]*)*"
)
_ZH_REMEMBER = _Lazy(
    _ZH_LEAD + r"(?P<verb>记住|记下来|记下|记一下|记得|别忘了|不要忘了|不要忘记|别忘记)"
    r"(?:一下)?[\s，,：:]*(?:这(?:一)?(?:点|件事|条)?[\s，,：:]+)?(?P<fact>.*)$",
    re.DOTALL,
)
_ZH_FROM_NOW_ON = _Lazy(
    _ZH_LEAD + r"(?:从今以后|从今往后|从现在开始|从现在起|以后|今后|往后)[\s，,：:]*(?P<fact>.*)$",
    re.DOTALL,
)
_ZH_FORGET = _Lazy(
    _ZH_LEAD + r"(?:忘记|忘掉|删掉|删除)(?:关于)?[\s，,：:]*(?P<target>.*)$", re.DOTALL
)
_ZH_FORGET_OBJECT = _Lazy(
    _ZH_LEAD + r"把(?P<target>.+?)(?:忘记|忘掉|忘了|删掉|删除|去掉)(?:吧|掉|了)?[\s。!！]*$",
    re.DOTALL,
)

_TRAILING = " \t\r\n.。!！?？~～;；,，:：\"'“”‘’「」"
_ZH_TRAILING_PARTICLES = "吧哦啊呀啦哈"

_EN_RULE_WORDS = re.compile(
    r"\b(?:always|never|don'?t|do\s+not|doesn'?t|stop|avoid|must|mustn'?t|should|"
    r"shouldn'?t|prefer|instead\s+of|rather\s+than|make\s+sure|no\s+longer|only\s+use|"
    r"use\s+\S+\s+(?:not|instead)|not\s+allowed)\b",
    re.IGNORECASE,
)
_ZH_RULE_WORDS = _Lazy(
    r"总是|永远|始终|一律|都要|都用|不要|别|不准|不许|禁止|避免|必须|应该|务必|一定要|"
    r"而不是|改用|优先|每次|不能"
)
_EN_ABOUT_SELF = re.compile(
    r"^(?:i\s+am|i'?m|i\s+work|i\s+have\s+been|i'?ve\s+been|i\s+lead|i\s+manage|i\s+own|"
    r"my\s+(?:role|name|job|title|team|background|expertise|timezone|time\s+zone))\b",
    re.IGNORECASE,
)
_ZH_ABOUT_SELF = _Lazy(r"^(?:我是|我的(?:角色|职位|名字|工作|背景|时区)|我负责|我在\S{0,12}工作)")
_POINTER = re.compile(
    r"https?://|www\.|(?<![\w#])#[A-Za-z][\w-]{1,}|\b(?:dashboards?|channels?|slack|linear|"
    r"jira|notion|confluence|wiki|grafana|datadog|sentry|pagerduty|kibana|runbooks?|"
    r"tickets?|trackers?|tracked\s+in|issue\s+tracker|board|spreadsheet|google\s+docs?)\b"
    r"|看板|仪表盘|面板|频道|工单|文档在|群里|群聊|链接",
    re.IGNORECASE,
)
_EN_REASON = re.compile(
    r"\s*(?:[,;]\s*|\s+[—–-]\s*|\s+)(?:because|since(?!\s+(?:\d|last|yesterday|then))|"
    r"otherwise|so\s+that)\b\s*(?P<why>.+)$|\s+[—–]\s*(?P<dash>.+)$",
    re.IGNORECASE | re.DOTALL,
)
_ZH_REASON_AFTER = _Lazy(r"[，,；;。\s]*(?P<why>(?:因为|由于|否则|不然)\S.*)$", re.DOTALL)
_ZH_REASON_BEFORE = _Lazy(
    r"^(?:因为|由于)(?P<why>[^，,]+)[，,]\s*(?:所以)?(?P<rest>.+)$", re.DOTALL
)


@dataclass(frozen=True)
class ExplicitRequest:
    action: Action
    text: str  # the fact to remember, or what to forget, as said
    message_index: int
    timestamp: datetime | None
    rule: bool  # phrased as a rule for the future ("from now on", "remember to", 以后)
    sentence: str  # the whole sentence it was found in

    @property
    def chinese(self) -> bool:
        return is_chinese(self.text)


@dataclass(frozen=True)
class Statement:
    """A fact to remember, split into what it says and why."""

    fact: str
    why: str | None


def is_chinese(text: str) -> bool:
    return not text.isascii() and bool(_cjk().search(text))


@functools.cache
def _cjk() -> re.Pattern[str]:
    # Compiled when first needed: a class of wide Unicode ranges takes the regex
    # compiler ~4 ms, which every extraction paid before reading any text (issue 14).
    return re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def find_requests(message: TranscriptMessage) -> list[ExplicitRequest]:
    """The explicit requests in a user message, in the order they were made."""
    if message.role != "user":
        return []
    text = _FENCED.sub(" ", message.text)
    text = _INLINE_CODE.sub(lambda m: m.group(0).replace(".", "\u2024"), text)
    found: list[ExplicitRequest] = []
    for match in _SENTENCE.finditer(text):
        sentence = match.group(0).strip().replace("\u2024", ".")
        if not sentence:
            continue
        request = _request_in(sentence, message)
        if request is not None:
            found.append(request)
    return found


def _request_in(sentence: str, message: TranscriptMessage) -> ExplicitRequest | None:
    question = sentence.endswith(("?", "？")) or sentence.rstrip(_TRAILING).endswith("吗")
    polite = re.match(r"^\W*(?:can|could|would|will)\s+you\b", sentence, re.IGNORECASE)
    if question and not polite:
        return None

    def make(action: Action, raw: str, rule: bool) -> ExplicitRequest | None:
        text = _clean(raw)
        if not text:
            return None
        return ExplicitRequest(action, text, message.index, message.timestamp, rule, sentence)

    if match := _EN_REMEMBER.match(sentence):
        fact = match["fact"].strip()
        if _EN_NOT_A_FACT.match(fact):
            return None
        # "remember to …", "don't forget to …": a rule for the future.
        rule = bool(re.match(r"^to\s+\w", fact, re.IGNORECASE))
        if rule:
            fact = re.sub(r"^to\s+", "", fact, flags=re.IGNORECASE)
        return make("remember", fact, rule)
    if match := _EN_FROM_NOW_ON.match(sentence):
        return make("remember", match["fact"], True)
    if match := _EN_FORGET.match(sentence):
        target = match["target"].strip()
        if _EN_NEVER_MIND.match(target):
            return None
        return make("forget", re.sub(r"^that\s+", "", target, flags=re.IGNORECASE), False)
    if not is_chinese(sentence):
        return None  # each Chinese request below holds a Chinese verb
    if match := _ZH_REMEMBER.match(sentence):
        fact = match["fact"]
        if fact.startswith(("了吗", "吗", "了")) or not fact.strip():
            return None
        rule = match["verb"] in ("记得", "别忘了", "不要忘了", "不要忘记", "别忘记") or bool(
            re.match(r"^(?:要|以后|每次|总是|都要)", fact)
        )
        return make("remember", fact, rule)
    if match := _ZH_FROM_NOW_ON.match(sentence):
        fact = match["fact"]
        if fact.startswith(("再", "的", "呢")) or len(fact.strip(_TRAILING)) < 2:
            return None
        return make("remember", fact, True)
    if match := _ZH_FORGET_OBJECT.match(sentence):
        return make("forget", match["target"], False)
    if match := _ZH_FORGET.match(sentence):
        target = match["target"]
        # 忘记说了 / 忘记告诉你: "I forgot to say", not a request.
        if target.startswith(("说", "告诉", "讲", "提", "了")) or len(target.strip(_TRAILING)) < 2:
            return None
        return make("forget", target, False)
    return None


def _clean(text: str) -> str:
    text = " ".join(text.split())
    text = text.strip(_TRAILING)
    while text and text[-1] in _ZH_TRAILING_PARTICLES and is_chinese(text):
        text = text[:-1].rstrip(_TRAILING)
    return text


def classify(text: str, rule: bool) -> str:
    """The memory type a statement fits best (SPEC F2)."""
    chinese = is_chinese(text)
    about_self = bool(_EN_ABOUT_SELF.match(text) or (chinese and _ZH_ABOUT_SELF.match(text)))
    rule_words = bool(_EN_RULE_WORDS.search(text) or (chinese and _ZH_RULE_WORDS.search(text)))
    if rule_words or (rule and not about_self):
        return "feedback"
    if about_self:
        return "user"
    if _POINTER.search(text):
        return "reference"
    return "project"


def split_reason(text: str) -> Statement:
    """ "Use pnpm because the lockfile is pnpm's" → fact "Use pnpm", why "the lockfile …"."""
    if is_chinese(text):
        before = _ZH_REASON_BEFORE.match(text)
        if before:
            return Statement(_clean(before["rest"]), _clean(before["why"]))
        after = _ZH_REASON_AFTER.search(text)
        if after and after.start() > 0:
            return Statement(_clean(text[: after.start()]), _clean(after["why"]))
        return Statement(text, None)
    match = _EN_REASON.search(text)
    if match and match.start() > 0:
        why = match["why"] or match["dash"]
        fact = _clean(text[: match.start()])
        if fact and why:
            return Statement(fact, _clean(why))
    return Statement(text, None)


def sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].isalpha() and text[:1].isascii() else text
