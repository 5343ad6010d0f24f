"""Relative dates in memories → absolute dates (SPEC F4, D3).

"We moved to Postgres yesterday" means nothing a week later, so the dream and the
extractor rewrite such phrases against the day the memory was written. English and
Chinese are covered, conservatively: a phrase is left alone when it sits in a code
span or block, a URL or link target, frontmatter, right next to an absolute date
that already says the same, inside a word or path (``today.md``), in quotes
(``"today"`` is a word being talked about), or as a possessive (``today's``), whose
rewrite ("2026-12-02's") would read worse than the original.

What phrases become:

- a day ("yesterday", "3 days ago", "2 weeks ago", "last Friday", 昨天, 3天前,
  上周五) → ``2026-12-01``;
- a week ("last week", 上周) → the week's Monday: "the week of 2026-11-23" in
  English, "2026-11-23 当周" in Chinese, since naming one day would claim too much;
- a month ("last month", "3 months ago", 上个月) → ``2026-11`` in English,
  ``2026年11月`` in Chinese (so 上个月底 becomes 2026年11月底);
- a year ("last year", 去年) → ``2025`` / ``2025年``.

Weeks start on Monday. "this/next Friday" and 本周五/下周五 are that day of this or
next week; "last Friday" is the most recent Friday before the reference day, while
上周五 is Friday of last week, as each language means them. Phrases preceded by
"the" ("the last week", "the next month") mean a span of time, not a calendar week,
and are left alone; so are vague ones ("a few days ago", 几天前) and 后天, which is
also the everyday word for "acquired" (先天/后天).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from datetime import date, timedelta

from memsync.memory.frontmatter import FrontmatterBlock, split_frontmatter


@dataclass(frozen=True)
class RelativeDate:
    start: int
    end: int
    phrase: str
    resolved: date
    text: str


_EN_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_EN_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_CN_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7}
_CN_DIGITS |= {"八": 8, "九": 9}
_CN_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}

_EN_NUMBER = r"(?P<n>\d{1,3}|" + "|".join(sorted(_EN_NUMBERS, key=len, reverse=True)) + ")"
_ENGLISH = re.compile(
    r"(?<![\w/.\\@#-])(?:"
    r"(?P<before>the\s+day\s+before\s+yesterday)"
    r"|(?P<after>the\s+day\s+after\s+tomorrow)"
    r"|(?P<rel>last|this|next)\s+(?P<wd>" + "|".join(_EN_WEEKDAYS) + r")"
    r"|" + _EN_NUMBER + r"\s+(?P<unit>days?|weeks?|months?|years?)\s+ago"
    r"|(?P<prel>last|this|next)\s+(?P<period>week|month|year)"
    r"|(?P<day>today|yesterday|tomorrow)"
    r")(?![\w/\\-]|\.\w|['’]s\b)",
    re.IGNORECASE,
)

_CN_NUMBER = r"(?P<cn>\d{1,3}|[一二两三四五六七八九十]{1,3})"
_CHINESE = re.compile(
    r"(?P<cday>大前天|前天|昨天|昨日|今天|今日|明天|明日)"
    r"|(?P<crel>上上|上|本|这|下下|下)个?(?:周|星期|礼拜)(?P<cwd>[一二三四五六日天])"
    r"|(?P<cwrel>上上|上|本|这|下下|下)个?(?:周|星期|礼拜)"
    r"|(?P<cmrel>上上|上|本|这|下下|下)个?月"
    r"|(?P<cyear>去年|今年|明年)"
    r"|" + _CN_NUMBER + r"\s*(?P<cunit>天|日|周|个星期|星期|个礼拜|礼拜|个月|年)前"
)
_CN_DAY_OFFSETS = {"大前天": -3, "前天": -2, "昨天": -1, "昨日": -1, "今天": 0, "今日": 0}
_CN_DAY_OFFSETS |= {"明天": 1, "明日": 1}
_CN_REL = {"上上": -2, "上": -1, "本": 0, "这": 0, "下": 1, "下下": 2}

# Characters that, before or after a Chinese phrase, show it is part of another word:
# 说明天数 is 说明 + 天数, 登上月球 is 登上 + 月球, 以下周期 is 以下 + 周期.
_BEFORE_SHANG = set("晚早马路身线网手桌世天地楼车会班加以之向往跟赶爱看碰遇算再登踏走爬北迎")
_BEFORE_XIA = set("以之底天地楼乡南留剩写放记拿打一落跌降私陛殿阁部手")
_BEFORE_BEN = set("基根日成资版原书样账课剧")
_BEFORE_MING = set("说证表发声查光透文聪标注阐指载简鲜高申讲写言分英开清黎失神")
_BEFORE_QIAN = set("提之以向往面眼目跟当事空日年")
_BEFORE_JIN = set("如至古")
_BEFORE_QU = set("过失除回离来上下进出")
# 上周一直 is 上周 + 一直 ("all along"), 本周日常 is 本周 + 日常 ("routine").
_AFTER_WEEKDAY = {"一": "直起样些切共般定点次致同再旦边面", "日": "常志报期程记后益用本内前夜子里"}
_AFTER_WEEKDAY["天"] = _AFTER_WEEKDAY["日"]
_AFTER_WEEK = set("期年岁刊末边围转到全密知长游旋")
_AFTER_MONTH = set("球亮光色饼台")
_AFTER_YEAR = set("龄纪级代轻限鉴")
_AFTER_DAY = set("数气")

_ISO_BEFORE = re.compile(r"\d{4}-\d{2}(?:-\d{2})?\s*[(（,，:：—–-]?\s*$")
_ISO_AFTER = re.compile(r"\s*[(（,，:：—–-]?\s*\d{4}-\d{2}")
_THE_BEFORE = re.compile(r"\bthe\s+$", re.IGNORECASE)

# Every phrase `find_relative_dates` handles contains one of these (the day words,
# "ago", a "last/this/next" before a period or weekday, a Chinese day, week, month or
# year character); most texts contain none, and the check is far cheaper than the search.
DATE_HINT = re.compile(
    r"\b(?:today|yesterday|tomorrow|ago)\b"
    r"|\b(?:last|this|next)\s+(?:week|month|year|mon|tue|wed|thu|fri|sat|sun)"
    r"|[天日周期拜月年]",
    re.IGNORECASE,
)
# Words one of `DATE_HINT`'s phrases must contain, tested as plain substrings of the
# case-folded text first: most memories have none, and a substring test is several
# times cheaper than the pattern. ("ı", the dotless i, is an "i" to the pattern.) The
# words every text is tested for are written out: a generator over them cost more
# than the tests.
_SECOND_HINTS = ("week", "mon", "year", "tue", "wed", "thu", "fri", "sat", "sun")
# Letters the patterns, matching case-insensitively, take for ASCII ones though
# lowering them does not give those: "ſ" (long s) for "s", the dotless "ı" and the
# dotted "İ" for "i". "laſt week" is "last week" to `_ENGLISH`, and must be to the
# words it reads too (`_ascii_lower`).
_ASCII_LOOKALIKES = str.maketrans({"ſ": "s", "ı": "i", "İ": "i"})
_CJK_HINTS = "天日周期拜月年"


def has_date_hint(text: str) -> bool:
    """`DATE_HINT.search(text)`, quicker on text that has none. False means the text
    holds no relative date `find_relative_dates` would find."""
    folded = _ascii_lower(text)
    maybe = (
        "today" in folded
        or "yesterday" in folded
        or "tomorrow" in folded
        or "ago" in folded
        or (
            ("last" in folded or "this" in folded or "next" in folded)
            and any(word in folded for word in _SECOND_HINTS)
        )
        or (not text.isascii() and any(character in text for character in _CJK_HINTS))
    )
    return maybe and DATE_HINT.search(text) is not None


def _ascii_lower(text: str) -> str:
    """`text` in lowercase, as the patterns read it: `_ASCII_LOOKALIKES` as ASCII."""
    return (text if text.isascii() else text.translate(_ASCII_LOOKALIKES)).lower()


_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`)(?:(?!\n[ \t]*\n).)+?(?<!`)\1(?!`)", re.DOTALL)
_URL = re.compile(r"(?:\b[A-Za-z][A-Za-z0-9+.-]*://|\bwww\.)[^\s<>()\[\]]+|<[^<>\s]+>")
_LINK_TARGET = re.compile(r"\]\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\)")


def _protected_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    block = split_frontmatter(text)
    if isinstance(block, FrontmatterBlock):
        spans.append((0, len(block.opening + block.yaml_text + block.closing)))
    offset, fence, fence_start = 0, "", 0
    # A fence is three backticks or tildes: most memories have none, and then no line
    # needs the pattern.
    fenced = "```" in text or "~~~" in text
    for line in text.splitlines(keepends=True) if fenced else ():
        opened = _FENCE.match(line)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                spans.append((fence_start, offset + len(line)))
                fence = ""
        elif opened:
            fence, fence_start = opened.group(1), offset
        offset += len(line)
    if fence:
        spans.append((fence_start, len(text)))
    spans.extend(_inline_spans(text))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _inline_spans(text: str) -> list[tuple[int, int]]:
    """Code spans, URLs and link targets, pattern by pattern. Each pattern is tried only
    where the text holds what every match of it holds: most texts have no code span,
    URL or link, and each search tried every position."""
    found: list[tuple[int, int]] = []
    if "`" in text:
        found += [match.span() for match in _INLINE_CODE.finditer(text)]
    if "://" in text or "www." in text or "<" in text:
        found += [match.span() for match in _URL.finditer(text)]
    if "](" in text:
        found += [match.span() for match in _LINK_TARGET.finditer(text)]
    return found


def _inside(spans: list[tuple[int, int]], starts: list[int], start: int, end: int) -> bool:
    position = bisect.bisect_right(starts, start) - 1
    if position >= 0 and spans[position][1] > start:
        return True
    following = position + 1
    return following < len(spans) and spans[following][0] < end


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _shift_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _chinese_number(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        if "十" in ones:
            return None
        high = _CN_DIGITS.get(tens, -1) if tens else 1
        low = _CN_DIGITS.get(ones, -1) if ones else 0
        return None if high < 0 or low < 0 else high * 10 + low
    if len(text) == 1 and text in _CN_DIGITS:
        return _CN_DIGITS[text]
    return None


def _english(match: re.Match[str], reference: date) -> tuple[date, str] | None:
    if match["before"]:
        resolved = reference - timedelta(days=2)
        return resolved, resolved.isoformat()
    if match["after"]:
        resolved = reference + timedelta(days=2)
        return resolved, resolved.isoformat()
    if match["day"]:
        offset = {"today": 0, "yesterday": -1, "tomorrow": 1}[_ascii_lower(match["day"])]
        resolved = reference + timedelta(days=offset)
        return resolved, resolved.isoformat()
    if match["wd"]:
        weekday = _EN_WEEKDAYS.index(_ascii_lower(match["wd"]))
        relation = _ascii_lower(match["rel"])
        if relation == "last":
            back = (reference.weekday() - weekday) % 7 or 7
            resolved = reference - timedelta(days=back)
        else:
            week = _monday(reference) + timedelta(days=7 if relation == "next" else 0)
            resolved = week + timedelta(days=weekday)
        return resolved, resolved.isoformat()
    if match["unit"]:
        count_text = _ascii_lower(match["n"])
        count = int(count_text) if count_text.isdigit() else _EN_NUMBERS[count_text]
        unit = _ascii_lower(match["unit"]).rstrip("s")
        if unit in ("day", "week"):
            resolved = reference - timedelta(days=count * (7 if unit == "week" else 1))
            return resolved, resolved.isoformat()
        months = count * (12 if unit == "year" else 1)
        resolved = _shift_months(reference, -months)
        return resolved, (str(resolved.year) if unit == "year" else resolved.strftime("%Y-%m"))
    offset = {"last": -1, "this": 0, "next": 1}[_ascii_lower(match["prel"])]
    period = _ascii_lower(match["period"])
    if period == "week":
        resolved = _monday(reference) + timedelta(weeks=offset)
        return resolved, f"the week of {resolved.isoformat()}"
    if period == "month":
        resolved = _shift_months(reference, offset)
        return resolved, resolved.strftime("%Y-%m")
    resolved = date(reference.year + offset, 1, 1)
    return resolved, str(resolved.year)


def _chinese(match: re.Match[str], text: str, reference: date) -> tuple[date, str] | None:
    before = text[match.start() - 1] if match.start() > 0 else ""
    after = text[match.end()] if match.end() < len(text) else ""
    if match["cday"]:
        phrase = match["cday"]
        blocked = (
            (phrase == "前天" and before in _BEFORE_QIAN)
            or (phrase.startswith("明") and before in _BEFORE_MING)
            or (phrase.startswith("今") and before in _BEFORE_JIN)
            or after in _AFTER_DAY
        )
        if blocked:
            return None
        resolved = reference + timedelta(days=_CN_DAY_OFFSETS[phrase])
        return resolved, resolved.isoformat()
    relation = match["crel"] or match["cwrel"] or match["cmrel"]
    if relation:
        if (relation[0] == "上" and before in _BEFORE_SHANG) or (
            relation[0] == "下" and before in _BEFORE_XIA
        ):
            return None
        if relation == "本" and before in _BEFORE_BEN:
            return None
        offset = _CN_REL[relation]
        if match["cwd"]:
            if after and after in _AFTER_WEEKDAY.get(match["cwd"], ""):
                return None
            week = _monday(reference) + timedelta(weeks=offset)
            resolved = week + timedelta(days=_CN_WEEKDAYS[match["cwd"]])
            return resolved, resolved.isoformat()
        if match["cwrel"]:
            if after in _AFTER_WEEK:
                return None
            resolved = _monday(reference) + timedelta(weeks=offset)
            return resolved, f"{resolved.isoformat()} 当周"
        if after in _AFTER_MONTH:
            return None
        resolved = _shift_months(reference, offset)
        return resolved, f"{resolved.year}年{resolved.month}月"
    if match["cyear"]:
        phrase = match["cyear"]
        blocked = (
            after in _AFTER_YEAR
            or (phrase == "去年" and before in _BEFORE_QU)
            or (phrase == "明年" and before in _BEFORE_MING)
            or (phrase == "今年" and before in _BEFORE_JIN)
        )
        if blocked:
            return None
        resolved = date(reference.year + {"去年": -1, "今年": 0, "明年": 1}[phrase], 1, 1)
        return resolved, f"{resolved.year}年"
    count = _chinese_number(match["cn"])
    if count is None or (before and (before in "第几" or before.isdigit())):
        return None
    unit = match["cunit"]
    if unit in ("天", "日"):
        resolved = reference - timedelta(days=count)
        return resolved, resolved.isoformat()
    if unit in ("周", "个星期", "星期", "个礼拜", "礼拜"):
        resolved = reference - timedelta(weeks=count)
        return resolved, resolved.isoformat()
    if unit == "个月":
        resolved = _shift_months(reference, -count)
        return resolved, f"{resolved.year}年{resolved.month}月"
    resolved = date(reference.year - count, 1, 1)
    return resolved, f"{resolved.year}年"


def find_relative_dates(text: str, reference: date) -> list[RelativeDate]:
    """Every relative date phrase we would rewrite, in order, never overlapping."""
    if not has_date_hint(text):
        return []  # most texts: no phrase can be there
    return _find_relative_dates(text, reference)


def _find_relative_dates(text: str, reference: date) -> list[RelativeDate]:
    """`find_relative_dates`, searching whatever the text holds."""
    spans: list[tuple[int, int]] | None = None  # found at the first phrase: most have none
    starts: list[int] = []
    found: list[RelativeDate] = []
    # Every Chinese phrase has a character outside ASCII.
    for pattern in (_ENGLISH,) if text.isascii() else (_ENGLISH, _CHINESE):
        for match in pattern.finditer(text):
            start, end = match.span()
            if spans is None:
                spans = _protected_spans(text)
                starts = [span_start for span_start, _ in spans]
            if _inside(spans, starts, start, end):
                continue
            if _ISO_BEFORE.search(text, max(0, start - 20), start) or _ISO_AFTER.match(
                text, end, min(len(text), end + 20)
            ):
                continue
            quote_before = text[start - 1 : start] if start else ""
            quote_after = text[end : end + 1]
            if quote_before and quote_before + quote_after in ('""', "''", "“”", "‘’", "「」"):
                continue
            if pattern is _ENGLISH:
                if (match["rel"] or match["prel"]) and _THE_BEFORE.search(
                    text, max(0, start - 8), start
                ):
                    continue
                result = _english(match, reference)
            else:
                result = _chinese(match, text, reference)
            if result is None:
                continue
            resolved, replacement = result
            phrase = match.group(0)
            if phrase[:1].isupper() and replacement[:1].isalpha():
                replacement = replacement[0].upper() + replacement[1:]
            found.append(RelativeDate(start, end, phrase, resolved, replacement))
    found.sort(key=lambda item: (item.start, -item.end))
    kept: list[RelativeDate] = []
    for item in found:
        if not kept or item.start >= kept[-1].end:
            kept.append(item)
    return kept


def rewrite_relative_dates(text: str, reference: date) -> tuple[str, list[RelativeDate]]:
    """`text` with every relative date made absolute, and what was changed."""
    if not has_date_hint(text):
        return text, []  # most texts: no phrase can be there
    return rewrite_hinted_dates(text, reference)


def rewrite_hinted_dates(text: str, reference: date) -> tuple[str, list[RelativeDate]]:
    """`rewrite_relative_dates` for a text `has_date_hint` has said yes to: a caller
    that asked it first (to skip the reference day of most memories) need not pay
    for asking again, the pattern search included."""
    found = _find_relative_dates(text, reference)
    pieces: list[str] = []
    position = 0
    for item in found:
        pieces.append(text[position : item.start])
        pieces.append(item.text)
        position = item.end
    pieces.append(text[position:])
    return "".join(pieces), found
