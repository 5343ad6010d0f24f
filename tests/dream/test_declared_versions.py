"""A memory stating a version the code checkout declares otherwise is stale (issue 15
item 4), on a checkout written for these tests: each manifest kind has a memory it must
flag, and each way of being unsure has one it must not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsync.dream.code_checkout import CodeCheckout, code_evidence
from memsync.dream.declared_versions import declared_versions, is_manifest, version_conflict

MANIFESTS = {
    "package.json": json.dumps({"name": "web", "engines": {"node": ">=20.11 <23"}}),
    "api/pyproject.toml": '[project]\nname = "api"\nrequires-python = ">=3.12,<3.14"\n',
    "worker/.python-version": "3.11.9\n",
    "svc/go.mod": "module example.com/svc\n\ngo 1.22\n\nrequire example.com/x v1.4.0\n",
    "docker-compose.yml": (
        "services:\n  db:\n    image: postgres:16-alpine\n  cache:\n"
        "    image: 'docker.io/library/redis:7.2'\n"
        "  search:\n    image: getmeili/meilisearch:v1.6\n"
    ),
    "deploy/Dockerfile": "FROM --platform=linux/amd64 python:3.12-slim AS build\nRUN pip i .\n",
    ".tool-versions": "nodejs 20.11.1\nterraform 1.7.0\n",
    "README.md": "Node 14 and Postgres 9 are mentioned here, which declares nothing.\n",
}

STALE = {
    "Web builds need Node 18 locally.": "says Node 18, but the code checkout's .tool-versions",
    "Local database: Postgres 15 via docker compose.": "docker-compose.yml has postgres:16",
    "The cache is Redis 6.": "has docker.io/library/redis:7.2",
    "Build the svc binary with Go 1.20.": "svc/go.mod has go 1.22",
    "本地数据库用 PostgreSQL 14。": "says PostgreSQL 14",
    "Workers run python3.10 in production.": "says python3.10",
}
FRESH = [
    "Web builds need Node 20 locally.",  # agrees with the lower bound
    "Node 22 works too.",
    "API and worker run Python 3.11.",  # worker/.python-version
    "Python 3 only.",  # at its own precision
    "We upgraded from Postgres 15 to 16 in March.",  # names the declared version too
    "Migrated off Node 16 last year.",  # looks back
    "Never add Python 2 syntax.",  # looks away
    "以前用 Redis 5，现在不用管。",  # looks back, in Chinese
    "Redis 6379 is the port, not a version.",
    "Terraform 1.5 for infra.",  # a tool memsync does not read versions of
    "Go 2 steps back and retry.",  # not a Go version
    "MySQL 5.7 for the reporting replica.",  # the checkout declares no MySQL
    "Meilisearch v1.5 powers search.",  # not a tool this module knows
]


@pytest.fixture(scope="module")
def code(tmp_path_factory: pytest.TempPathFactory) -> CodeCheckout:
    root = tmp_path_factory.mktemp("code")
    for relative, text in MANIFESTS.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")
    return CodeCheckout(root)


@pytest.mark.parametrize("memory", sorted(STALE))
def test_a_version_the_checkout_declares_otherwise_is_evidence(
    code: CodeCheckout, memory: str
) -> None:
    evidence = code_evidence(memory, code)

    assert evidence is not None and evidence[0] == "version"
    assert STALE[memory] in evidence[1]


@pytest.mark.parametrize("memory", FRESH)
def test_an_agreeing_uncertain_or_unknown_version_is_no_evidence(
    code: CodeCheckout, memory: str
) -> None:
    assert code_evidence(memory, code) is None


def test_only_files_made_to_declare_a_version_are_read(code: CodeCheckout) -> None:
    manifests = sorted(filter(is_manifest, MANIFESTS))

    declared = declared_versions(code.root, manifests)

    assert "README.md" not in manifests
    assert {d.text for d in declared["postgres"]} == {"postgres:16-alpine"}
    assert [(d.version, d.lower_bound) for d in declared["python"]] == [
        ((3, 12), True),  # api/pyproject.toml; the upper bound says nothing here
        ((3, 12), False),  # deploy/Dockerfile
        ((3, 11, 9), False),  # worker/.python-version
    ]
    assert [(d.source, d.version) for d in declared["node"]] == [
        (".tool-versions", (20, 11, 1)),
        ("package.json", (20, 11)),
    ]


def test_a_broken_manifest_declares_nothing(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text("{not json", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[project\n", encoding="utf-8")

    declared = declared_versions(tmp_path, ["package.json", "pyproject.toml", "gone/go.mod"])

    assert declared == {}
    assert version_conflict("Node 18 and Python 3.8", declared) is None
