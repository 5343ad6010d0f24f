"""Chinese words of team memories, read as the English words they translate (issue 15
item 3): a bilingual team writes one fact in either language, or in both mixed
("Fulfilment API 由 Warehouse 团队负责"), and duplicate detection compares words.

Only words with one reading in how teams write memories; names, numbers and
identifiers are written the same in both languages and need no entry. Chinese text
the glossary does not cover stays as characters, which no English word matches: such
a memory is never judged to say what an English one says (when unsure, no merge).
"""

from __future__ import annotations

from collections.abc import Iterator

_DAYS = ("一", "monday"), ("二", "tuesday"), ("三", "wednesday"), ("四", "thursday"), (
    "五", "friday"), ("六", "saturday"), ("日", "sunday"), ("天", "sunday")  # fmt: skip

_ENTRIES = """
负责人 owner|负责 own|维护 maintain|所有者 owner|归属 own|属于 own
团队 team|小组 team|组 team|服务 service|接口 api|数据库 database|部署窗口 deploy window
部署 deploy|上线 deploy|发布 release|发版 release|回滚 rollback|窗口 window
生产环境 production|生产 production|预发布 staging|预发 staging|测试环境 test|环境 environment
测试 test|集成测试 integration test|单元测试 unit test|每周 weekly|每天 daily|每晚 nightly
每月 monthly|每次 every|夜间 nightly|监听 listen|端口 port|版本 version|运行 run|构建 build
使用 use|提交 commit|合并 merge|分支 branch|主分支 main|直接 directly|之前 before|之后 after
前 before|后 after|不要 not|不能 not|禁止 never|别 not|必须 must|总是 always|一律 always
先 first|值班人 on call|值班 on call|分析 analytics|简短 short|回答 answer|喜欢 like
检查 check|代码审查 review|审查 review|评审 review|日志 log|监控 monitor|告警 alert
密钥 secret|缓存 cache|队列 queue|任务 job|脚本 script|文档 docs|配置 config|仓库 repo
迁移 migrate|索引 index|重建 rebuild|重置 reset|备份 backup|恢复 restore|用户 user
客户 customer|前端 frontend|后端 backend|移动端 mobile|请求 request|限制 limit|速率 rate
分钟 minute|小时 hour|内存 memory|故障 incident|事故 incident|上报 escalate|升级 escalate
联系 contact|通知 notify|频道 channel|代码 code|上 on|到 to|在 in|用 with|由 by|被 by
"""
GLOSSARY: dict[str, str] = dict(
    entry.split(" ", 1) for line in _ENTRIES.split("\n") for entry in line.split("|") if entry
)
for _char, _day in _DAYS:
    for _prefix in ("周", "星期", "每周", "每星期"):
        GLOSSARY[_prefix + _char] = _day
_LONGEST = max(len(word) for word in GLOSSARY)


def segment(run: str) -> Iterator[tuple[str, bool]]:
    """A run of Chinese characters as (English words, True) for each glossary word,
    longest first, and (character, False) for each character it does not cover."""
    at = 0
    while at < len(run):
        for length in range(min(_LONGEST, len(run) - at), 0, -1):
            english = GLOSSARY.get(run[at : at + length])
            if english is not None:
                yield english, True
                at += length
                break
        else:
            yield run[at], False
            at += 1


def translated(word: str) -> str:
    """The English of a whole Chinese word (a fact such as "周二"), else the word."""
    return GLOSSARY.get(word, word)
