"""Every citation resolves inside the repository.

``SPEC F3`` in code, tests, deployment files and the README means the requirement with
that anchor in docs/requirements.md; a ``docs/…`` path names a file here (and, with
``#anchor``, a place in it); relative Markdown links point at files that exist. The old
spellings of documents kept outside the repository (a bare ``SPEC``, ``GIT-NOTES``) do
not resolve, so they fail too. Each failure names the file, the line and the citation.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = ROOT / "docs" / "requirements.md"
CITING_DIRS = ("memsync", "dashboard", "tests", "bench", "deploy", "scripts")
# This file spells the patterns it looks for; it is checked by running, not by scanning.
SELF = Path(__file__).resolve()
SKIPPED_PARTS = {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"}

_ID = r"[A-Z][0-9]*\b"
_SPAN = rf"{_ID}(?:\s*[–-]\s*{_ID})?"
SPEC_CITATION = re.compile(rf"\bSPEC ({_SPAN}(?:,\s*{_SPAN})*)")
BARE_SPEC = re.compile(rf"\bSPEC\b(?! {_ID})")
GIT_NOTES = re.compile(r"\bGIT-NOTES\b")
DOCS_PATH = re.compile(r"(?<![\w./-])docs/[\w./-]*[\w/](?:#[\w-]+)?")
MARKDOWN_LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
README_SPEC_LINK = re.compile(r"\[SPEC ([A-Z][0-9]*)\]\(docs/requirements\.md#([\w-]+)\)")
ANCHOR_TAG = re.compile(r"""<a\s+(?:id|name)=["']([^"']+)["']""")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)


def citing_files() -> list[Path]:
    found = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for name in CITING_DIRS:
        found += sorted(
            path
            for path in (ROOT / name).rglob("*")
            if path.is_file() and path != SELF and not SKIPPED_PARTS & set(path.parts)
        )
    return found


def text_of(path: Path) -> str | None:
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def lines(text: str) -> Iterator[tuple[int, str]]:
    yield from enumerate(text.splitlines(), start=1)


def prose_of_python(text: str) -> Iterator[tuple[int, str]]:
    """Comments and docstrings with their first line: where a Python file cites things.

    String literals elsewhere are data (a memory body in a test may well say `docs/x`).
    """
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                for offset, line in enumerate(first.value.value.splitlines()):
                    yield first.lineno + offset, line


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@cache
def anchors_of(path: Path) -> frozenset[str]:
    text = path.read_text()
    return frozenset(ANCHOR_TAG.findall(text)) | {slug(h) for h in HEADING.findall(text)}


def requirement_ids(citation: str) -> Iterator[str]:
    """``D1–D3, F2`` → D1, D2, D3, F2; a range across groups comes back as it is."""
    for span in re.split(r",\s*", citation):
        ends = [end.strip() for end in re.split(r"[–-]", span)]
        if len(ends) == 1:
            yield ends[0]
            continue
        first, last = ends
        if first[0] != last[0] or not first[1:] or not last[1:]:
            yield span
            continue
        yield from (f"{first[0]}{n}" for n in range(int(first[1:]), int(last[1:]) + 1))


def resolve_docs_path(citation: str) -> str | None:
    """Why ``docs/…`` (maybe with ``#anchor``) does not resolve, or None when it does."""
    path, _, anchor = citation.partition("#")
    target = ROOT / path.rstrip(".")
    if not target.exists():
        return f"{path} does not exist"
    if anchor and target.suffix == ".md" and anchor not in anchors_of(target):
        return f"{path} has no anchor #{anchor}"
    return None


def spec_problems() -> list[str]:
    anchors = anchors_of(REQUIREMENTS)
    problems = []
    for path in citing_files():
        text = text_of(path)
        if text is None or ("SPEC" not in text and "GIT-NOTES" not in text):
            continue
        where = path.relative_to(ROOT)
        for number, line in lines(text):
            for match in SPEC_CITATION.finditer(line):
                for requirement in requirement_ids(match.group(1)):
                    if requirement.lower() not in anchors:
                        problems.append(
                            f"{where}:{number}: {match.group(0)!r} cites {requirement}, "
                            "which docs/requirements.md has no anchor for"
                        )
            for match in BARE_SPEC.finditer(line):
                problems.append(
                    f"{where}:{number}: 'SPEC' without a requirement ID "
                    f"(…{line[match.start() : match.start() + 20]!r}…)"
                )
            if GIT_NOTES.search(line):
                problems.append(f"{where}:{number}: cites GIT-NOTES; cite docs/git-notes.md")
    return problems


def docs_path_problems() -> list[str]:
    problems = []
    for path in citing_files():
        text = text_of(path)
        if text is None or "docs/" not in text:
            continue
        if path.suffix == ".py":
            prose = list(prose_of_python(text))
        elif path.suffix == ".md" and path.parent.name != "docs" and path.name != "README.md":
            continue  # memory files and samples under tests/ are data, not citations
        else:
            prose = list(lines(text))
        where = path.relative_to(ROOT)
        for number, line in prose:
            for match in DOCS_PATH.finditer(line):
                reason = resolve_docs_path(match.group(0))
                if reason:
                    problems.append(f"{where}:{number}: {match.group(0)}: {reason}")
    return problems


def outside_code(text: str) -> Iterator[tuple[int, str]]:
    """Markdown lines with fenced blocks and inline code taken out: examples, not links."""
    fence = None
    for number, line in lines(text):
        opening = re.match(r"^\s*(`{3,}|~{3,})", line)
        if fence is None and opening:
            fence = opening.group(1)
        elif fence is not None:
            if line.strip().startswith(fence):
                fence = None
        else:
            yield number, re.sub(r"`+[^`]*`+", "", line)


def markdown_link_problems() -> list[str]:
    problems = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        where = path.relative_to(ROOT)
        for number, line in outside_code(path.read_text()):
            for target in MARKDOWN_LINK.findall(line):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue  # a URL: outside the repository on purpose
                file, _, anchor = target.partition("#")
                resolved = (path.parent / file).resolve() if file else path
                if not resolved.exists():
                    problems.append(f"{where}:{number}: link to {target}: no such file")
                elif anchor and resolved.suffix == ".md" and anchor not in anchors_of(resolved):
                    problems.append(f"{where}:{number}: link to {target}: no such anchor")
    return problems


def test_it_finds_an_anchor_for_every_requirement_cited():
    problems = spec_problems()
    assert not problems, "\n".join(problems)


def test_it_finds_every_docs_path_cited():
    problems = docs_path_problems()
    assert not problems, "\n".join(problems)


def test_it_finds_the_target_of_every_relative_link_in_the_documents():
    problems = markdown_link_problems()
    assert not problems, "\n".join(problems)


def test_it_links_every_spec_citation_in_the_readme_to_its_requirement():
    readme = (ROOT / "README.md").read_text()
    cited = SPEC_CITATION.findall(readme)
    linked = README_SPEC_LINK.findall(readme)

    assert len(linked) == len(cited), "README cites SPEC without linking it to the requirement"
    assert all(anchor == ident.lower() for ident, anchor in linked), linked


def test_it_gives_each_requirement_one_anchor():
    text = REQUIREMENTS.read_text()
    ids = ANCHOR_TAG.findall(text)

    assert len(ids) == len(set(ids)), "an anchor appears twice in docs/requirements.md"
    for group, count in {"F": 6, "E": 5, "D": 8, "T": 5, "R": 2, "W": 4, "O": 2}.items():
        expected = {group.lower(), *(f"{group.lower()}{n}" for n in range(1, count + 1))}
        assert expected <= set(ids), f"group {group} misses {sorted(expected - set(ids))}"


# The checks themselves, on citations made up for the purpose: a check that cannot fail
# would let every citation through.
@pytest.mark.parametrize(
    ("citation", "expected"),
    [
        ("F3", ["F3"]),
        ("D1–D3, F2", ["D1", "D2", "D3", "F2"]),
        ("E1-E2", ["E1", "E2"]),
        ("R", ["R"]),
        ("T1–W4", ["T1–W4"]),
    ],
)
def test_it_expands_ranges_of_requirements(citation, expected):
    assert list(requirement_ids(citation)) == expected


def test_it_reads_citations_the_way_the_code_writes_them():
    line = '"""Gates (SPEC D1, D2, Claude Code\'s semantics; SPEC F2–F5) and SPEC says."""'

    assert [m.group(1) for m in SPEC_CITATION.finditer(line)] == ["D1, D2", "F2–F5"]
    assert len(BARE_SPEC.findall(line)) == 1
    assert not BARE_SPEC.search("_YAML_SPECIAL = 1")


def test_it_refuses_a_path_or_an_anchor_that_is_not_there():
    assert resolve_docs_path("docs/requirements.md#f3") is None
    assert resolve_docs_path("docs/git-notes.md#concurrency") is None
    assert "no anchor #z9" in (resolve_docs_path("docs/requirements.md#z9") or "")
    assert "does not exist" in (resolve_docs_path("docs/SPEC.md") or "")


def test_it_reads_only_comments_and_docstrings_of_python():
    source = (
        '"""Module, see docs/a.md."""\n'
        "BODY = 'a memory that says docs/b.md'\n"
        "def f():\n"
        '    """docs/c.md"""\n'
        "    return 1  # docs/d.md\n"
    )
    cited = [m.group(0) for _, text in prose_of_python(source) for m in DOCS_PATH.finditer(text)]

    assert sorted(cited) == ["docs/a.md", "docs/c.md", "docs/d.md"]


# --- docs/ARCHITECTURE.md follows the code ---------------------------------------------------
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
CODE_PATH = re.compile(r"`((?:memsync|dashboard)/[\w/]+\.py)(?::(\w+))?`")
MODULE_NAME = re.compile(r"`((?:memsync|dashboard)(?:\.\w+)+)`")


def architecture_references() -> Iterator[tuple[int, str]]:
    for number, line in enumerate(ARCHITECTURE.read_text().splitlines(), start=1):
        for match in CODE_PATH.finditer(line):
            yield number, match.group(0).strip("`")
        for match in MODULE_NAME.finditer(line):
            yield number, match.group(1)


def missing_reference(reference: str) -> str | None:
    """Why ``reference`` (a file, ``file:name`` or a dotted module) is not in the code."""
    if "/" in reference:
        file, _, name = reference.partition(":")
        path = ROOT / file
        if not path.is_file():
            return f"no file {file}"
        if name and not re.search(rf"^\s*(?:def|class)\s+{name}\b", path.read_text(), re.M):
            return f"no function or class {name} in {file}"
        return None
    parts = reference.split(".")
    for cut in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:cut])
        if base.with_suffix(".py").is_file() or (base / "__init__.py").is_file():
            if cut == len(parts):
                return None
            module = base.with_suffix(".py") if base.with_suffix(".py").is_file() else base
            source = module.read_text() if module.is_file() else ""
            return None if re.search(rf"\b{parts[cut]}\b", source) else f"no {reference}"
    return f"no module {reference}"


def test_the_architecture_names_only_files_and_functions_that_exist():
    missing = [
        f"docs/ARCHITECTURE.md:{number}: {reference} — {why}"
        for number, reference in architecture_references()
        if (why := missing_reference(reference)) is not None
    ]

    assert list(architecture_references()), "no references found: the patterns broke"
    assert not missing, "\n".join(missing)


def test_the_architecture_names_every_package():
    text = ARCHITECTURE.read_text()
    packages = [
        f"memsync.{path.parent.name}" for path in sorted((ROOT / "memsync").glob("*/__init__.py"))
    ]

    assert [name for name in packages if f"`{name}`" not in text] == []


def test_the_architecture_check_refuses_what_is_not_there():
    assert missing_reference("memsync/store/repo.py:MemoryRepo") is None
    assert missing_reference("memsync/store/nothing.py") == "no file memsync/store/nothing.py"
    assert missing_reference("memsync/store/repo.py:nowhere") is not None
    assert missing_reference("memsync.nothing") == "no memsync.nothing"
