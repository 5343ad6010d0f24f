"""What is never saved, even on request (SPEC F5), as the deterministic engine sees it.

The model reads the rule in its prompt and judges; without a model, the statement's
own words must show it, so only clear signs count and anything else is saved:

- code structure: a source file path with its folders (``src/auth/session.ts``), a
  source file named as a location ("lives in settings.py"), or the words
  architecture, project/directory/folder structure, code pattern, naming convention;
- git history: ``git log``/``blame``, a commit hash, "who changed/wrote/merged …",
  "changed in PR …", "the last commits", "this week's PRs";
- debugging recipes and fixes: "the fix was …", "fixed it by …", "to fix this …",
  "the bug was caused by …", "workaround", a stack trace;
- what CLAUDE.md already says: most of the statement's words in one of its lines;
- ephemeral task details: "for now", "right now", "currently working on", "this
  session", "temporary", "work in progress", "my current task", "TODO".

URLs are removed before looking for paths, so a dashboard link stays a reference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memsync.recall.rank import tokenize

# Share of a statement's terms that one CLAUDE.md line must hold to count as saying it.
CLAUDE_MD_OVERLAP = 0.8
_CLAUDE_MD_MIN_TERMS = 3

_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_SOURCE_EXTENSIONS = (
    r"py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|m|scala|"
    r"sql|sh|vue|svelte|css|scss|html|toml|ya?ml|json|ini|cfg|gradle|proto"
)
_SOURCE_PATH = re.compile(
    rf"(?<![\w@])(?:\.{{0,2}}/)?(?:[\w.-]+/)+[\w.-]+\.(?:{_SOURCE_EXTENSIONS})\b", re.IGNORECASE
)
_SOURCE_FILE_AS_PLACE = re.compile(
    rf"\b(?:in|inside|under|lives\s+in|located\s+in|defined\s+in|is\s+in|are\s+in|from)\s+"
    rf"`?[\w.-]+\.(?:{_SOURCE_EXTENSIONS})\b|在\s*`?[\w./-]+\.(?:{_SOURCE_EXTENSIONS})`?\s*(?:里|中|文件)",
    re.IGNORECASE,
)
_CATEGORIES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    (
        "code structure",
        "code patterns, conventions, architecture and file paths are read from the code",
        re.compile(
            r"\b(?:architecture|(?:project|directory|folder|file|repo(?:sitory)?|code)\s+"
            r"(?:structure|layout|organi[sz]ation)|code\s+patterns?|design\s+patterns?|"
            r"naming\s+conventions?|coding\s+conventions?|code\s+style)\b"
            r"|架构|目录结构|项目结构|文件结构|代码结构|代码规范|命名规范|代码模式|设计模式|文件路径",
            re.IGNORECASE,
        ),
    ),
    (
        "git history",
        "git log and git blame are the record of what changed and who changed it",
        re.compile(
            r"\bgit\s+(?:log|blame|history|show)\b|\bcommit\s+[0-9a-f]{7,40}\b|"
            r"\bwho\s+(?:changed|wrote|committed|merged|added|removed|broke)\b|"
            r"\b(?:changed|added|removed|refactored|rewrote|merged|introduced)\s+(?:in|by|with)\s+"
            r"(?:commit|pr\b|pull\s+request|#\d+)|\b(?:last|latest|recent)\s+(?:\d+\s+)?"
            r"(?:commits?|changes|merges|prs)\b|\bthis\s+week'?s\s+(?:prs?|pull\s+requests|commits)"
            r"|提交记录|git\s*记录|谁改了|谁提交|最近的提交|这周的\s*(?:PR|pr|合并请求)",
            re.IGNORECASE,
        ),
    ),
    (
        "debugging recipe",
        "a fix lives in the code, and its story in the commit message",
        re.compile(
            r"\bthe\s+fix\s+(?:was|is)\b|\bfixed\s+(?:it|this|that|the\s+\w+)?\s*by\b|"
            r"\bto\s+fix\s+(?:this|that|it|the)\b|\bworkaround\b|\b(?:bug|error|crash|"
            r"exception|failure|issue)\s+(?:was|is)\s+caused\s+by\b|\bstack\s*trace\b|"
            r"\btraceback\b|\bto\s+debug\b"
            r"|修复方法|修复办法|修复方式|解决办法是|报错是因为|调试方法|堆栈",
            re.IGNORECASE,
        ),
    ),
    (
        "ephemeral",
        "details of the task at hand are not worth keeping across sessions",
        re.compile(
            r"\b(?:for\s+now|right\s+now|at\s+the\s+moment|currently\s+working\s+on|"
            r"(?:i'?m|we'?re)\s+(?:currently\s+)?working\s+on|this\s+session|"
            r"temporar(?:y|ily)|work\s+in\s+progress|wip|my\s+current\s+task|todo\s+list|"
            r"to-?do\s+list|in\s+this\s+conversation)\b"
            r"|当前任务|正在做|暂时|临时|这次会话|目前在做|进行中|待办",
            re.IGNORECASE,
        ),
    ),
)


@dataclass(frozen=True)
class Exclusion:
    category: str
    reason: str

    def message(self) -> str:
        return f"not saved ({self.category}): {self.reason}"


def never_saved(statement: str, claude_md: str = "") -> Exclusion | None:
    """Why `statement` must not become a memory, or None when it may."""
    without_urls = _URL.sub(" ", statement)
    if _SOURCE_PATH.search(without_urls) or _SOURCE_FILE_AS_PLACE.search(without_urls):
        category, reason, _ = _CATEGORIES[0]
        return Exclusion(category, reason)
    for category, reason, pattern in _CATEGORIES:
        if pattern.search(without_urls):
            return Exclusion(category, reason)
    if claude_md and _said_in(statement, claude_md):
        return Exclusion("in CLAUDE.md", "CLAUDE.md already says it, and CLAUDE.md wins")
    return None


def _said_in(statement: str, claude_md: str) -> bool:
    terms = set(tokenize(statement))
    if len(terms) < _CLAUDE_MD_MIN_TERMS:
        return False
    for line in claude_md.splitlines():
        held = terms & set(tokenize(line))
        if len(held) >= CLAUDE_MD_OVERLAP * len(terms):
            return True
    return False
