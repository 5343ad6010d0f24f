"""Only ``memsync/store/`` runs ``git`` (docs/ARCHITECTURE.md, "The Git store").

A scan of the source, like an import contract: outside the store no module reaches a
repository's raw git handle (``repo._git``, the old public ``repo.git``), imports the
store's runner (``memsync.store.gitcmd``), starts a process whose program is ``git``
(a literal ``["git", …]`` or ``shutil.which("git")``), or imports GitPython. Each
finding names the file, the line and what was found, so a new call either becomes a
store verb or joins :data:`ALLOWED` with its reason.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("memsync", "dashboard")
STORE = ROOT / "memsync" / "store"
SKIPPED_PARTS = {"__pycache__", "migrations"}

# file → why it runs git itself. Every entry must still need it (checked below).
ALLOWED = {
    "memsync/client/team.py": (
        "the developer's own team clone: clone, fetch and push over the network with a "
        "deadline, a pull whose conflicts stay open for the developer's own git, resets "
        "to the server's branch. The server never does any of it, and the clone is the "
        "developer's checkout, not a repository memsync owns; it runs through the store's "
        "runner and lock."
    ),
    "memsync/client/hookrun.py": (
        "the Claude Code Stop hook's fast path decides in milliseconds whether a push has "
        "work (two reads of the team clone, through the store's runner), without "
        "importing the client's team module."
    ),
    "dashboard/githttp.py": (
        "Git over HTTP is `git http-backend` run as a CGI: the protocol itself, streamed "
        "both ways, not an operation on a repository (docs/git-notes.md#serving)."
    ),
}


def _sources() -> Iterator[Path]:
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if SKIPPED_PARTS.isdisjoint(path.parts) and STORE not in path.parents:
                yield path


def _is_git_literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value == "git"


def findings(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, what) for every way ``tree`` reaches git around the store."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "_git":
            yield node.lineno, "the raw git handle `._git`"
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "git"
            and node.attr.startswith(("run", "stream", "start"))
        ):
            yield node.lineno, f"a raw git handle `.git.{node.attr}`"
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [alias.name for alias in node.names]
            module = node.module if isinstance(node, ast.ImportFrom) else None
            if "git" in names and module is None:
                yield node.lineno, "GitPython (`import git`)"
            if module == "git" or module == "memsync.store.gitcmd":
                yield node.lineno, f"`from {module} import …`"
            if module == "memsync.store" and "gitcmd" in names:
                yield node.lineno, "the store's runner (`memsync.store.gitcmd`)"
        elif isinstance(node, ast.List | ast.Tuple) and node.elts and _is_git_literal(node.elts[0]):
            yield node.lineno, "a `git` command line"
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "which"
            and node.args
            and _is_git_literal(node.args[0])
        ):
            yield node.lineno, '`shutil.which("git")`'


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize(
    "path", [path for path in _sources() if _relative(path) not in ALLOWED], ids=_relative
)
def test_only_the_store_runs_git(path: Path) -> None:
    found = list(findings(ast.parse(path.read_text(encoding="utf-8"), str(path))))

    assert not found, "\n".join(
        f"{_relative(path)}:{line}: {what} outside memsync/store/ (add a store verb)"
        for line, what in found
    )


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_every_exception_still_runs_git(name: str) -> None:
    assert list(findings(ast.parse((ROOT / name).read_text(encoding="utf-8")))), (
        f"{name} no longer runs git: take it off ALLOWED"
    )


@pytest.mark.parametrize(
    "code",
    [
        "repo._git.run('log')",
        "repo.git.run_bytes('log')",
        "subprocess.run(['git', 'log'])",
        "shutil.which('git')",
        "from memsync.store.gitcmd import GitRunner",
        "from memsync.store import gitcmd",
        "import git",
    ],
)
def test_the_scan_sees_each_way_of_reaching_git(code: str) -> None:
    assert list(findings(ast.parse(code)))
