"""Stale marking with evidence only (issue 15 item 4), on a small checkout and memory
directory written for it: every rule has a memory it must flag and one it must not."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from memsync.dream.code_checkout import CodeCheckout, code_evidence
from memsync.dream.deterministic import DeterministicEngine
from memsync.dream.engine import DreamContext, Scope
from memsync.dream.staleness import find_stale
from memsync.memory import MemoryFile
from tests.dream.corpus import NOW, RecordingProgress

STALE = {
    "project_deploy.md": ("Deploying", "Deploys run scripts/deploy.sh from the repo root."),
    "project_storybook.md": ("Storybook", "Start the component gallery with `npm run storybook`."),
    "feedback_release.md": ("Release", "Always cut releases with make release, never by hand."),
    "project_receipts.md": ("Receipts", "Receipt parsing lives in `parse_receipt()`."),
    "project_token.md": ("Token", "The client reads `PAYMENTS_API_TOKEN` at start-up."),
}
FRESH = {
    "project_entry.md": ("Entry point", "The entry point is src/app.py."),
    "project_build.md": ("Build", "Build the bundle with npm run build before a release."),
    "feedback_lint.md": ("Lint", "Run make lint before pushing."),
    "project_parser.md": ("Parser", "Invoices are parsed by `InvoiceParser`."),
    "project_payments.md": ("Payments", "PAYMENTS_URL points at the sandbox in dev."),
    "reference_wiki.md": ("Wiki", "Runbooks are in wiki/Payments/Home on Confluence."),
    "reference_link.md": ("Link", "See https://github.com/acme/shop/blob/main/src/gone.py."),
    "project_route.md": ("Route", "Checkout calls `/v2/checkout` on the gateway."),
    "user_old.md": ("Role", "Ines is a backend engineer who prefers terse reviews."),
}


def write(root: Path, path: str, name: str, description: str, kind: str | None = None) -> None:
    kind = kind or path.rsplit("/", 1)[-1].split("_", 1)[0]
    root.joinpath(path).parent.mkdir(parents=True, exist_ok=True)
    root.joinpath(path).write_text(
        f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n---\n\n{description}\n",
        encoding="utf-8",
    )


def checkout(root: Path) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "scripts").mkdir()
    (root / "scripts" / "migrate.sh").write_text("#!/bin/sh\n")
    (root / "src" / "app.py").write_text(
        "import os\n\nPAYMENTS_URL = os.environ['PAYMENTS_URL']\n\n"
        "class InvoiceParser:\n    def parse_invoice(self, data): ...\n\n"
        "def read_receipt(data): ...\n"
    )
    (root / "package.json").write_text(json.dumps({"scripts": {"build": "vite build"}}))
    (root / "Makefile").write_text("lint:\n\truff check .\n\ntest: lint\n\tpytest\n")
    return root


def memory_directory(root: Path) -> dict[str, object]:
    root.mkdir(parents=True)
    changed = {}
    for number, (path, (name, text)) in enumerate({**STALE, **FRESH}.items()):
        write(root, path, name, text)
        changed[path] = NOW - timedelta(days=400 + number)  # old, all of them
    write(root, "project_node_old.md", "node-web", "Node version for web: 18")
    write(root, "project_node_new.md", "node-web-2", "Node version for web: 20")
    write(root, "project_staging_day.md", "staging-day", "Staging deploy day: Tuesday")
    write(root, "project_prod_day.md", "prod-day", "Production deploy day: Thursday")
    write(root, "project_freeze.md", "freeze", "Release freeze starts on Friday 18:00")
    write(root, "team/project_freeze.md", "freeze", "Release freeze starts on Thursday 18:00")
    changed |= {
        "project_node_old.md": NOW - timedelta(days=200),
        "project_node_new.md": NOW - timedelta(days=20),
        "project_staging_day.md": NOW - timedelta(days=200),
        "project_prod_day.md": NOW - timedelta(days=20),
        "project_freeze.md": NOW - timedelta(days=100),
        "team/project_freeze.md": NOW - timedelta(days=10),
    }
    return changed


def test_only_memories_with_evidence_are_flagged_and_age_is_none(tmp_path: Path) -> None:
    changed = memory_directory(tmp_path / "memory")
    code = checkout(tmp_path / "code")
    context = DreamContext(tmp_path / "memory", Scope.PERSONAL, NOW, changed, code_dir=code)

    result = DeterministicEngine().consolidate(context, RecordingProgress())

    flagged = dict(line.split(": ", 1) for line in result.stale)
    expected = set(STALE) | {"project_node_old.md", "project_freeze.md"}
    assert set(flagged) == expected
    assert "cites scripts/deploy.sh," in flagged["project_deploy.md"]
    assert "cites npm run storybook," in flagged["project_storybook.md"]
    assert "cites make release," in flagged["feedback_release.md"]
    assert "cites parse_receipt()," in flagged["project_receipts.md"]
    assert "superseded by project_node_new.md" in flagged["project_node_old.md"]
    assert "contradicted by team/project_freeze.md" in flagged["project_freeze.md"]
    assert "7 memories may be stale, with evidence (1 contradicted, " in result.summary
    assert result.summary.count(".md (") == 3  # the top three, then a count
    assert "and 4 more." in result.summary


def test_without_a_checkout_only_newer_memories_are_evidence(tmp_path: Path) -> None:
    changed = memory_directory(tmp_path / "memory")
    context = DreamContext(tmp_path / "memory", Scope.PERSONAL, NOW, changed)

    result = DeterministicEngine().consolidate(context, RecordingProgress())

    assert sorted(line.split(": ", 1)[0] for line in result.stale) == [
        "project_freeze.md",
        "project_node_old.md",
    ]
    assert "days old" not in result.summary


def test_check_with_code_lists_stale_memories_with_their_evidence(tmp_path: Path) -> None:
    memory_directory(tmp_path / "memory")
    code = checkout(tmp_path / "code")
    command = [sys.executable, "-m", "memsync.client.cli", "check", str(tmp_path / "memory")]

    shown = subprocess.run([*command, "--code", str(code), "--json"], capture_output=True,
                           text=True, check=False)  # fmt: skip

    report = json.loads(shown.stdout)
    stale = {item["path"]: item for item in report["stale"]}
    assert "project_deploy.md" in stale and "project_entry.md" not in stale
    assert stale["project_deploy.md"]["kind"] == "path"
    text = subprocess.run([*command, "--code", str(code)], capture_output=True, text=True,
                          check=False).stdout  # fmt: skip
    assert "project_deploy.md: possibly stale: cites scripts/deploy.sh" in text


def test_a_checkout_read_without_its_code_still_has_paths_but_checks_no_symbol(
    tmp_path: Path,
) -> None:
    code = checkout(tmp_path / "code")
    lean = CodeCheckout(code, read_code=False)

    assert code_evidence("Receipt parsing lives in `parse_receipt()`.", lean) is None
    assert code_evidence("Receipt parsing lives in `parse_receipt()`.", CodeCheckout(code))
    assert code_evidence("Deploys run scripts/deploy.sh.", lean) == (
        "path", "cites scripts/deploy.sh, which the code checkout no longer has"
    )  # fmt: skip


def test_a_reworded_newer_memory_supersedes_and_the_reason_names_both_values(
    tmp_path: Path,
) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    write(root, "project_port.md", "payments-port", "The Payments API listens on port 8443.")
    write(root, "project_move.md", "lb-change", "We moved the Payments API to port 9443.")
    write(root, "project_search.md", "search-port", "The Search API listens on port 8081.")
    write(root, "team/project_cache.md", "cache", "Session cache moved from Redis to Valkey.")
    write(root, "project_cache_old.md", "sessions", "The session cache runs on Redis.")
    changed = {
        "project_port.md": NOW - timedelta(days=300),
        "project_move.md": NOW - timedelta(days=30),
        "project_search.md": NOW - timedelta(days=5),
        "project_cache_old.md": NOW - timedelta(days=300),
        "team/project_cache.md": NOW - timedelta(days=30),
    }
    context = DreamContext(root, Scope.PERSONAL, NOW, changed)

    result = DeterministicEngine().consolidate(context, RecordingProgress())

    flagged = dict(line.split(": ", 1) for line in result.stale)
    assert set(flagged) == {"project_port.md", "project_cache_old.md"}
    assert flagged["project_port.md"] == (
        "superseded by project_move.md, a newer memory on the same subject "
        "(9443 where this one says 8443)"
    )
    assert flagged["project_cache_old.md"].startswith("contradicted by team/project_cache.md")


def test_a_cited_file_that_links_out_of_the_checkout_is_not_read_for_values(
    tmp_path: Path,
) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text("READ_TIMEOUT = 45\n")
    code = tmp_path / "code"
    (code / "config").mkdir(parents=True)
    (code / "config" / "settings.py").symlink_to(outside)
    (code / "config" / "limits.py").write_text("BATCH_SIZE = 500\n")
    memories = {
        "project_timeout.md": MemoryFile.parse(
            "project_timeout.md",
            b"---\nname: timeout\ndescription: Read timeout\ntype: project\n---\n\n"
            b"The read timeout in config/settings.py is 30 seconds.\n",
        ),
        "project_batch.md": MemoryFile.parse(
            "project_batch.md",
            b"---\nname: batch\ndescription: Batch size\ntype: project\n---\n\n"
            b"The batch size in config/limits.py is 1000 rows.\n",
        ),
    }

    found = find_stale(memories, lambda path: NOW, code=CodeCheckout(code))

    assert [(stale.path, stale.kind) for stale in found] == [("project_batch.md", "value")]


def test_a_value_named_in_words_counts_at_the_end_of_a_sentence(tmp_path: Path) -> None:
    code = tmp_path / "code"
    (code / "config").mkdir(parents=True)
    (code / "config" / "limits.py").write_text("BATCH_SIZE = 500\nMAX_PAGE = 50\n")
    memories = {
        f"project_{name}.md": MemoryFile.parse(
            f"project_{name}.md",
            f"---\nname: {name}\ndescription: {name}\ntype: project\n---\n\n{text}\n".encode(),
        )
        for name, text in {
            "batch": "The batch size in config/limits.py is 1000.",
            "page": "The max page in config/limits.py is 50.",
            "version": "The batch size in config/limits.py depends on client 3.x.",
        }.items()
    }

    found = find_stale(memories, lambda path: NOW, code=CodeCheckout(code))

    assert [(stale.path, stale.kind) for stale in found] == [("project_batch.md", "value")]
