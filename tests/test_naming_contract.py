"""The Git naming contract has one home each (issue 12 item 2), and this test keeps it so.

Ref names live in ``memsync/store/refs.py``, ``Memsync-*`` trailer names in
``memsync/store/trailers.py``, the index file's name in ``memsync/memory/index.py``
(the lowest layer that needs it) and the default model in ``memsync/agent/model.py``.
Every Python module under ``memsync/`` and ``dashboard/`` and every template is read,
and a literal of the contract anywhere else fails the test with its file and line.

Python is read as code: docstrings and comments may explain the contract in its own
words, string literals may not spell it out. The index file's name may appear in a
sentence (a prompt, an error message, help text: three words or more), because there it
is prose for a person or a model rather than a name the code uses. Templates hold no
literal at all: they use the filters of ``dashboard/templatetags/memsync.py``.
``main`` is not checked: the word is everywhere in prose; `refs.MAIN` is its home.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("memsync", "dashboard")
# Migrations are frozen history: they record what the models said when each was written.
ALLOWED_DIRS = (Path("dashboard/migrations"),)


@dataclass(frozen=True)
class Rule:
    name: str
    pattern: re.Pattern[str]
    home: Path
    prose_allowed: bool = False


RULES = (
    Rule(
        "ref name",
        re.compile(
            r"(?<![\w/.-])(?:refs/(?:heads|memsync|remotes)/"
            r"|(?:members|extractions|dream|extract|dream-adopt)/)"
        ),
        Path("memsync/store/refs.py"),
    ),
    # `X-Memsync-Signature` is the webhook HTTP header, not a commit trailer.
    Rule("trailer name", re.compile(r"(?<!X-)Memsync-[A-Za-z]"), Path("memsync/store/trailers.py")),
    Rule(
        "index file name",
        re.compile(r"MEMORY\.md"),
        Path("memsync/memory/index.py"),
        prose_allowed=True,
    ),
    Rule(
        "model name",
        re.compile(r"claude-(?:opus|sonnet|haiku)"),
        Path("memsync/agent/model.py"),
    ),
)


@dataclass(frozen=True)
class Finding:
    path: Path
    line: int
    rule: str
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.rule} spelled out: {self.text!r}"


def python_strings(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every string literal that is not a docstring; an f-string is read
    whole, ``{}`` standing for each value, so its sentence stays one sentence."""
    tree = ast.parse(source)
    skipped = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skipped.update(id(part) for part in node.values)
            yield (
                node.lineno,
                "".join(
                    part.value if isinstance(part, ast.Constant) else "{}" for part in node.values
                ),
            )
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str | bytes)
            and id(node) not in skipped
        ):
            value = node.value
            text = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
            yield node.lineno, text


def is_prose(text: str) -> bool:
    return len(text.split()) >= 3


def python_findings(path: Path, source: str) -> list[Finding]:
    found = []
    for line, text in python_strings(source):
        for rule in RULES:
            if rule.home == path or not rule.pattern.search(text):
                continue
            if rule.prose_allowed and is_prose(text):
                continue
            found.append(Finding(path, line, rule.name, text))
    return found


def template_findings(path: Path, text: str) -> list[Finding]:
    return [
        Finding(path, number, rule.name, line.strip())
        for number, line in enumerate(text.splitlines(), start=1)
        for rule in RULES
        if rule.pattern.search(line)
    ]


def scanned_files() -> Iterator[Path]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*")):
            relative = path.relative_to(ROOT)
            if path.suffix not in (".py", ".html") or "__pycache__" in relative.parts:
                continue
            if any(relative.is_relative_to(allowed) for allowed in ALLOWED_DIRS):
                continue
            yield relative


def findings() -> list[Finding]:
    found = []
    for relative in scanned_files():
        text = (ROOT / relative).read_text(encoding="utf-8")
        if relative.suffix == ".py":
            found += python_findings(relative, text)
        else:
            found += template_findings(relative, text)
    return found


def test_it_finds_no_literal_of_the_contract_outside_its_home() -> None:
    found = findings()
    assert not found, "use memsync.store.refs / memsync.store.trailers / …:\n" + "\n".join(
        map(str, found)
    )


def test_it_reads_the_modules_and_templates_it_guards() -> None:
    scanned = set(scanned_files())
    assert Path("memsync/dream/adoption.py") in scanned
    assert Path("dashboard/templates/dashboard/commit.html") in scanned
    assert Path("dashboard/migrations/0001_initial.py") not in scanned


@pytest.mark.parametrize(
    ("source", "rule"),
    [
        ('branch = f"members/{user}"', "ref name"),
        ('ref = "refs/heads/" + branch', "ref name"),
        ('KEEP = "refs/memsync/conflicts/"', "ref name"),
        ('prefix = "dream/"', "ref name"),
        ('pair = ("Memsync-Dream", dream_id)', "trailer name"),
        ('index = root / "MEMORY.md"', "index file name"),
        ('ATTRIBUTES = "MEMORY.md merge=memsync-index"', "index file name"),
        ('MODEL = "claude-sonnet-4-5"', "model name"),
    ],
)
def test_it_catches_a_planted_literal(source: str, rule: str) -> None:
    planted = python_findings(Path("memsync/planted.py"), source)
    assert [finding.rule for finding in planted] == [rule]


@pytest.mark.parametrize(
    "source",
    [
        '"""Merges ``members/<user>`` into main and writes ``Memsync-Member``."""',
        "# MEMORY.md is the index; refs/heads/dream/<id> is a proposal",
        'HELP = "cannot merge MEMORY.md: the file is not text"',
        'URL = "p/<slug:slug>/members/"',
        'MODULE = "memsync/dream/run.py"',
    ],
)
def test_it_lets_docstrings_comments_prose_and_paths_be(source: str) -> None:
    assert python_findings(Path("memsync/planted.py"), source) == []


def test_it_catches_a_literal_in_a_template() -> None:
    planted = template_findings(
        Path("dashboard/templates/planted.html"), '{{ commit|trailer:"Memsync-Session" }}'
    )
    assert [finding.rule for finding in planted] == ["trailer name"]
