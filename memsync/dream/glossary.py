"""Chinese words of team memories, read as the English words they translate (issue 15
item 3): a bilingual team writes one fact in either language, or in both mixed
("Fulfilment API 由 Warehouse 团队负责"), and duplicate detection compares words.

Only words with one reading in how teams write memories; names, numbers and
identifiers are written the same in both languages and need no entry. Chinese text
the glossary does not cover stays as characters, which no English word matches: such
a memory is never judged to say what an English one says (when unsure, no merge).
"""

from __future__ import annotations

import re
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
使用 use|提交 commit|合并 merge|分支 branch|主分支 main branch|直接 directly|之前 before|之后 after
前 before|后 after|不要 not|不能 not|禁止 never|别 not|必须 must|总是 always|一律 always
先 first|值班人 oncall|值班 oncall|分析 analytics|简短 short|回答 answer|喜欢 like
检查 check|代码审查 review|审查 review|评审 review|日志 log|监控 monitor|告警 alert
密钥 secret|缓存 cache|队列 queue|任务 job|脚本 script|文档 docs|配置 config|仓库 repo
迁移 migrate|索引 index|重建 rebuild|重置 reset|备份 backup|恢复 restore|用户 user
客户 customer|前端 frontend|后端 backend|移动端 mobile|请求 request|限制 limit|速率 rate
分钟 minute|小时 hour|内存 memory|故障 incident|事故 incident|上报 escalate|升级 escalate
联系 contact|通知 notify|频道 channel|代码 code|上 on|到 to|在 in|用 with|由 by|被 by
推送 push|强制推送 force push|强推 force push
每夜 nightly|晚上 night|每小时 hourly|每季度 quarterly|季度 quarter
发到 to|发送 send|给 to|中文 chinese|英文 english|回复 answer|速率限制 rate limit
存储 store|保存 store|存放 store|位于 in|放在 in|链接 link|地址 address|网址 url
域名 domain|工程师 engineer|开发者 developer|经理 manager|主管 lead|组长 lead|会议 meeting
周会 weekly meeting|站会 standup|早上 morning|上午 morning|下午 afternoon|时区 timezone
超时 timeout|重试 retry|失败 fail|出错 fail|报错 error|错误 error|异常 exception
崩溃 crash|修复 fix|修改 change|更改 change|变更 change|更新 update|删除 remove|移除 remove
添加 add|新增 add|创建 create|启动 start|开始 start|停止 stop|关闭 close|打开 open
启用 enable|开启 enable|禁用 disable|验证 verify|确认 confirm|审批 approve|批准 approve
标记 tag|文件 file|目录 directory|文件夹 folder|路径 path|字段 field|端点 endpoint
网关 gateway|容器 container|集群 cluster|镜像 image|流水线 pipeline|持续集成 ci
定时任务 cron job|作业 job|导出 export|导入 import|同步 sync|异步 async|写入 write
读取 read|桶 bucket|存储桶 bucket|证书 certificate|令牌 token|密码 password|账号 account
账户 account|权限 permission|角色 role|管理员 admin|时间戳 timestamp|格式 format
依赖 dependency|框架 framework|学习 learn|初级 junior|高级 senior|资深 senior|熟悉 know
偏好 prefer|更喜欢 prefer|希望 want|不允许 never|不得 never|不准 never|切勿 never
千万不要 never|永远不要 never|从不 never|绝不 never|务必 must|一定要 must
每个 every|所有 all|任何 any|只 only|仅 only|只能 only|默认 default|变量 variable
参数 parameter|版本号 version|端口号 port|天 day|迁到 migrate to|移到 move to
通过 through|经过 through|连接 connect|连接池 connection pool|性能 performance
仪表盘 dashboard|看板 dashboard|运行手册 runbook|注释 comment|评论 comment
合并请求 pr|拉取请求 pr|灰度 canary|冻结 freeze|封版 freeze|复盘 postmortem
编写 write|写 write|读 read|调用 call|限流 rate limit|说明 docs
数据 data|表 table|消息 message|事件 event|付款 payment|支付 payment
订单 order|账单 bill|发票 invoice|搜索 search|认证 auth|登录 login
主题 topic|保留 keep|延迟 latency|跑 run|日语 japanese|讨论 discuss|问题 issue
跳过 skip|钩子 hook|一次 once|有一次 once|进 into|进了 into|让 let|导致 cause|因为 because
等待 wait|等 wait|开 open|一个 one|一 one|两个 2|两 2|三 3|四 4|五 5
十 10|次 time|两次 twice|一次 once|秒 second|秒钟 second|毫秒 ms|客户端 client
服务端 server|服务器 server|中 in|内 in|并 and|工作 work|开发 develop|响应 response
负载均衡 load balancer|调度 schedule|轮换 rotate|轮值 rotation|交接 handover|记录 record
报告 report|指标 metric|警报 alert|阈值 threshold|上限 limit|最多 most|至少 least|最少 least
保持 keep|月 month|年 year|工作日 weekday|周末 weekend|节假日 holiday|每晚 nightly
西班牙语 spanish|德语 german|法语 french|语言 language|答案 answer|示例 example|例子 example
解释 explanation|说明 explanation|简洁 concise|详细 detailed|审核 review|合并前 before merge
批准后 after approval|后再 after|再 then|直接推送 push directly|打包 package|安装 install
升级版本 upgrade|依赖项 dependency|项目 project|模块 module|接口文档 api docs|密钥库 vault
所以 so|如果 if|否则 otherwise|然后 then|已经 already|还 still|没有 not|没 not|需要 need
应该 should|可以 can|时 when|时候 when|的时候 when|以后 after|以前 before|并且 and|而且 and
或者 or|但是 but|但 but|如何 how|怎么 how|什么 what|哪里 where|谁 who|为什么 why|原因 why
新 new|旧 old|设置 settings|尽早 early|第二天 next day|之间 between|财务 finance|报表 report
提供 provide|最后 last|注入 inject|它们 them|他们 they|她 she|他 he|结账 close the books
"""
GLOSSARY: dict[str, str] = dict(
    entry.split(" ", 1) for line in _ENTRIES.split("\n") for entry in line.split("|") if entry
)
# Words that name a service or a domain as often as they describe one ("支付服务", the
# Payments service): written capitalised, so word order reads them as names, as it
# reads "Payments" in English, and two of them trading places is seen.
_NAMED = "支付 付款 订单 账单 发票 搜索 认证 登录 分析 用户 客户 消息"
for _named in _NAMED.split():
    GLOSSARY[_named] = GLOSSARY[_named].capitalize()
for _char, _day in _DAYS:
    for _prefix in ("周", "星期", "每周", "每星期"):
        GLOSSARY[_prefix + _char] = _day
# Each character a glossary word starts with → the lengths of such words, longest first.
_LENGTHS: dict[str, list[int]] = {}
for _word in GLOSSARY:
    _LENGTHS.setdefault(_word[0], []).append(len(_word))
_LENGTHS = {first: sorted(set(lengths), reverse=True) for first, lengths in _LENGTHS.items()}


def segment(run: str) -> Iterator[tuple[str, bool]]:
    """A run of Chinese characters as (English words, True) for each glossary word,
    longest first, and (character, False) for each character it does not cover."""
    at = 0
    while at < len(run):
        # Only the lengths of the words starting with its character (most start none).
        for length in _LENGTHS.get(run[at], ()):
            english = GLOSSARY.get(run[at : at + length]) if at + length <= len(run) else None
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


# Spanish, German and French words of team memories, as their English: the same
# rule as for Chinese (one reading each, names and numbers need none), and no word
# that is also an English word a memory might use ("also", "will", "red"), but
# "die" (read only in text holding other words of those languages).
# Grammar words become "the", which is no content word.
_LATIN_ENTRIES = """
el la los las un una unos unas del al de en es son ser está están y o que se su sus
por para con sin muy más
die der das den dem des ein eine einen einem einer und oder ist sind wird werden wurde
zum zur von vom zu für mit auf bei nach
le les du des une et ou est sont sera au aux pour avec sur dans par
"""
_LATIN_WORDS = """
equipo team|servicio service|propiedad own|propietario owner|responsable own
mantiene maintain|mantenido maintain|escucha listen|puerto port|datos database
despliega deploy|desplegado deploy|despliegue deploy|desplegar deploy
nunca never|siempre always|no not|lunes monday|martes tuesday|miércoles wednesday
jueves thursday|viernes friday|sábado saturday|domingo sunday|noche night
semana week|cada every|copia backup|respaldo backup|pruebas test|prueba test
escribir write|errores bug|corrección fix|correcciones fix|versión version
rama branch|producción production|usa use|usar use|ejecuta run
ejecutar run|lancer run|lance run|antes before|después after|contacto contact|contactar contact
team team|dienst service|besitzer owner|gehört own|verantwortlich own|zuständig own
betreut maintain|hört listen|lauscht listen|port port|datenbank database
deployt deploy|ausgerollt deploy|bereitgestellt deploy|niemals never
nie never|immer always|nicht not|kein not|keine not|montag monday|dienstag tuesday
mittwoch wednesday|donnerstag thursday|freitag friday|samstag saturday|sonntag sunday
nacht night|nächtlich nightly|woche week|wöchentlich weekly|täglich daily
gesichert backup|sicherung backup|tests test|test test|schreiben write|fehler bug
behebungen fix|behebung fix|vor before|produktion production|version version
équipe team|propriétaire owner|appartient own|maintenu maintain|écoute listen
données database|déployer deploy|déployé deploy|déploie deploy
déploiement deploy|jamais never|toujours always|ne not|pas not|lundi monday
mardi tuesday|mercredi wednesday|jeudi thursday|vendredi friday|samedi saturday
dimanche sunday|nuit night|semaine week|sauvegardé backup|sauvegarde backup
écrire write|corrections fix|correction fix|bogues bug|bugs bug|bogue bug
branche branch|avant before|après after|production production
escribe write|escriba write|escribas write|escrito write|utiliza use|utilizar use
usamos use|gestiona manage|revisa review|revisar review|revisión review|servidor server
despliegues deploy|base database|caché cache|cola queue|registro log|registros log
siempre always|nunca never|jamás never|prohibido never|hay there|mañana morning
schreibe write|schreibt write|geschrieben write|verwendet use|verwenden use|nutzt use
nutzen use|benutzt use|prüfen check|prüft check|überprüfen check|warteschlange queue
zwischenspeicher cache|protokoll log|protokolle log|server server|verboten never
utilise use|utiliser use|utilisons use|écrit write|écris write|vérifier check
file queue|journal log|journaux log|serveur server|interdit never
trabaja work|trabajan work|trabajar work|ingeniero engineer|ingeniera engineer
prefiere prefer|prefieren prefer|respuestas answer|respuesta answer|español spanish
inglés english|alemán german|cliente client|clientes client|reintenta retry
reintentos retry|segundos second|minutos minute|horas hour|días day|veces time
arbeitet work|arbeiten work|ingenieur engineer|ingenieurin engineer|bevorzugt prefer
antworten answer|antwort answer|deutsch german|englisch english|spanisch spanish
sekunden second|minuten minute|stunden hour|tage day|tagen day|mal time
travaille work|ingénieur engineer|préfère prefer|réponses answer|réponse answer
français french|anglais english|secondes second|heures hour|jours day|fois time
"""
_LATIN: dict[str, str] = (
    dict.fromkeys(_LATIN_ENTRIES.split(), "the")
    | dict.fromkeys(["cada", "chaque", "jeden", "jede", "jedes", "jeder"], "every")
    | dict(
        entry.split(" ", 1)
        for line in _LATIN_WORDS.split("\n")
        for entry in line.split("|")
        if entry
    )
)
# A memory in one of those languages holds one of these: only such text is read word
# by word (most memories are English, and splitting a text is quick).
_HINT_WORDS = """
el la los las del es una der das und ist wird le les des est une pour avec jeden jede
cada chaque
"""
LATIN_HINTS = frozenset(_HINT_WORDS.split())
_LATIN_WORD = re.compile(r"[^\W\d_]+")


def in_english(text: str) -> str:
    """`text` with the Spanish, German and French words of the glossary written in
    English (lowercase: a translated word names nothing), when it holds any."""
    if LATIN_HINTS.isdisjoint(text.lower().split()):
        return text
    return _LATIN_WORD.sub(_english, _BASE.sub("database", text))


# "base de datos", "base de données": "base" alone is an English word too.
_BASE = re.compile(r"\bbase de (?:datos|donn\u00e9es)\b", re.IGNORECASE)


def _english(match: re.Match[str]) -> str:
    word = match.group(0)
    if len(word) > 1 and word.isupper():  # an acronym ("ES", "LA") is a name
        return word
    return _LATIN.get(word.casefold(), word)
