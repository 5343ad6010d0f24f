"""Commands a memory cites that the code checkout no longer has (issue 15 item 4):
package scripts however they are run, and console scripts that were renamed; on a
checkout written for these tests, with a memory to flag and one to leave for each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsync.dream.code_checkout import CodeCheckout, code_evidence
from memsync.dream.declared_versions import declared_commands

PYPROJECT = """\
[project]
name = "acme-pricing"
requires-python = ">=3.12"

[project.scripts]
acme-reprice = "pricing.cli:reprice"
acme-export = "pricing.cli:export"
"""
SETUP_CFG = """\
[metadata]
name = acme-tools

[options.entry_points]
console_scripts =
    sync-catalog = tools.sync:main
    audit = tools.audit:main
"""
STALE = {
    "Run `pnpm test:e2e` before merging.": ("npm-script", "pnpm test:e2e"),
    "`yarn storybook` opens the gallery.": ("npm-script", "yarn storybook"),
    "npm start serves on 3000.": ("npm-script", "npm start"),
    "Reprice nightly with `reprice --all`.": ("console-script", "(it declares acme-reprice)"),
    "Use `acme_export --csv` for finance.": ("console-script", "(it declares acme-export)"),
    "`catalog --full` first.": ("console-script", "(it declares sync-catalog)"),
}
FRESH = [
    "Run `pnpm test` before merging.",  # a script the checkout has
    "`pnpm install` after pulling; `yarn add left-pad` is fine too.",  # built-in commands
    "Moved from yarn classic to pnpm last year.",  # prose: no backticks
    "npm test runs vitest.",
    "`acme-reprice --all` reprices everything.",  # declared as is
    "`audit` runs weekly.",
    "`sync --dry-run` first.",  # too short to tell from the system's own sync
    "`export DATABASE_URL=postgres://localhost/acme` before `acme-export`.",  # the shell's
    "`git push --force-with-lease` only on your own branch.",  # nothing declares a git-*
    "`repricing` is a word, not a command here.",
]


@pytest.fixture(scope="module")
def code(tmp_path_factory: pytest.TempPathFactory) -> CodeCheckout:
    root = tmp_path_factory.mktemp("code")
    (root / "package.json").write_text(json.dumps({"scripts": {"test": "vitest", "dev": "vite"}}))
    (root / "pricing").mkdir()
    (root / "pricing" / "pyproject.toml").write_text(PYPROJECT)
    (root / "tools").mkdir()
    (root / "tools" / "setup.cfg").write_text(SETUP_CFG)
    return CodeCheckout(root)


@pytest.mark.parametrize("memory", sorted(STALE))
def test_a_command_the_checkout_no_longer_has_is_evidence(code: CodeCheckout, memory: str):
    kind, cited = STALE[memory]

    evidence = code_evidence(memory, code)

    assert evidence is not None and evidence[0] == kind
    assert cited in evidence[1] and "which the code checkout no longer has" in evidence[1]


@pytest.mark.parametrize("memory", FRESH)
def test_a_declared_built_in_or_unrelated_command_is_no_evidence(code: CodeCheckout, memory: str):
    assert code_evidence(memory, code) is None


def test_commands_are_read_from_pyproject_and_setup_cfg_and_broken_ones_give_none(
    tmp_path: Path,
) -> None:
    poetry = '[tool.poetry.scripts]\nlumen = "lumen.cli:main"\n'

    assert declared_commands("pyproject.toml", PYPROJECT) == {"acme-reprice", "acme-export"}
    assert declared_commands("pyproject.toml", poetry) == {"lumen"}
    assert declared_commands("setup.cfg", SETUP_CFG) == {"sync-catalog", "audit"}
    assert declared_commands("pyproject.toml", "[project\n") == set()
    assert declared_commands("setup.cfg", "no section header\n") == set()
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert CodeCheckout(tmp_path).console_scripts is None
