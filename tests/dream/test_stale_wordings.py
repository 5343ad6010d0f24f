"""The readings stale marking rests on, one wording each (issue 15 item 4): ports a
compose file publishes, what a newer memory names as left behind, and citations in a
sentence about the past."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsync.dream.code_checkout import CodeCheckout, code_evidence
from memsync.dream.published_ports import port_conflict, published_ports
from memsync.dream.supersession import claims, replacement
from memsync.memory import MemoryFile

COMPOSE = """services:
  db:
    image: postgres:16
    ports: ["5433:5432"]
  api:
    build: .
    ports:
      - target: 8000
        published: 8080
  cache:
    image: redis:7
    ports: ["6379"]
"""


@pytest.fixture
def checkout(tmp_path: Path) -> CodeCheckout:
    (tmp_path / "docker-compose.yml").write_text(COMPOSE, encoding="utf-8")
    (tmp_path / "Makefile").write_text("migrate-db:\n\ttrue\n", encoding="utf-8")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "seed.py").write_text("", encoding="utf-8")
    (tmp_path / "totals.py").write_text("def render_total():\n    pass\n", encoding="utf-8")
    return CodeCheckout(tmp_path)


def test_compose_files_publish_host_ports_by_service(checkout: CodeCheckout) -> None:
    found = {p.service: (set(p.names), set(p.host_ports)) for p in checkout.published_ports}
    # A container port alone ("6379") publishes nothing on the host.
    assert found == {"db": ({"db", "postgres"}, {"5433"}), "api": ({"api"}, {"8080"})}
    assert published_ports(checkout.root, []) == []


@pytest.mark.parametrize(
    ("text", "stale"),
    [
        ("Local Postgres is on localhost port 5432.", True),
        ("The compose db answers on localhost:5432.", True),
        ("Run the API locally; it is on port 8000.", True),
        ("Local Postgres is on localhost port 5433.", False),
        ("Inside the compose network Postgres listens on container port 5432.", False),
        ("Local Postgres was on port 5432 before the clash with Homebrew.", False),
        ("Locally the api and Postgres share port 5432.", False),  # two services named
        ("Redis is on localhost port 6380.", False),  # publishes nothing on the host
        ("Postgres listens on port 5432.", False),  # not said to be the host's side
    ],
)
def test_a_host_port_the_compose_files_do_not_publish_is_stale(
    checkout: CodeCheckout, text: str, stale: bool
) -> None:
    assert (port_conflict(text, checkout.published_ports) is not None) == stale


@pytest.mark.parametrize(
    ("text", "stale"),
    [
        ("Apply migrations with `make migrate` before starting the API.", True),
        ("We used to run `make migrate`; it is `make migrate-db` now.", False),
        ("`make migrate` was renamed when the Makefile was split.", False),
        ("Build with Vite; the output goes to dist/.", False),  # built, never checked in
        ("Seed with scripts/seed_db.py.", True),
        ("Seed with scripts/seed.py.", False),
        ("Totals come from the compute_total function.", True),
        ("Totals come from compute_total().", True),
        ("Totals come from computeTotal() and the main function.", True),
        ("Never print() secrets; the main function exits early.", False),
        ("Totals come from render_total() in the totals module.", False),
    ],
)
def test_a_citation_counts_only_in_a_sentence_about_now(
    checkout: CodeCheckout, text: str, stale: bool
) -> None:
    assert (code_evidence(text, checkout) is not None) == stale


def memory(description: str, body: str, kind: str = "project") -> MemoryFile:
    text = f"---\nname: x\ndescription: {description}\ntype: {kind}\n---\n\n{body}\n"
    return MemoryFile.parse("x.md", text.encode())


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (("Error tracking service", "Errors go to Sentry; the DSN is in the vault."),
         ("Error tracking moved", "We no longer use Sentry; errors go to Honeybadger.")),
        (("Celery broker", "Celery uses RabbitMQ as its broker."),
         ("Celery broker changed", "Celery uses Redis now; RabbitMQ was decommissioned.")),
        (("Python dependencies", "Python dependencies are managed with pip-tools."),
         ("Python dependencies", "Python dependencies are managed with uv; pip-tools is gone.")),
        (("Merge style for feature branches", "Feature branches are squash-merged."),
         ("Feature branch merges", "Feature branches are rebased; no more squash.")),
        (("Internal docs host", "Internal docs are hosted on GitBook."),
         ("Internal docs host", "Internal docs: GitBook replaced by Docusaurus.")),
        (("Default branch", "The default branch is master."),
         ("Default branch", "We renamed the default branch from master to main.")),
        (("日志存储", "服务日志保存在 Elasticsearch。"),
         ("日志存储变更", "服务日志不再存到 Elasticsearch，换成了 Loki。")),
        (("Deploy day", "Deploys happen on Tuesdays."),
         ("Deploy day", "Since March we deploy on Thursdays.")),
        (("Code review approvals", "Every PR needs 2 approvals before merge."),
         ("Approval rule", "PRs now need only 1 approval before merge.")),
        (("API version", "Clients must call API v2."),
         ("API version", "API v2 is deprecated; clients must call v3.")),
        (("Worker memory", "The worker container memory limit is 512 MB."),
         ("Worker memory", "Worker container memory limit: 1 GB")),
    ],
)  # fmt: skip
def test_a_newer_memory_replaces_an_older_one_however_it_says_so(
    older: tuple[str, str], newer: tuple[str, str]
) -> None:
    assert replacement(claims(memory(*older)), claims(memory(*newer))) is not None


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (("Staging Celery broker", "Staging Celery uses RabbitMQ as its broker."),
         ("Production Celery broker", "Production Celery moved from RabbitMQ to Redis.")),
        (("Web app Node version", "The web app runs on Node 20."),
         ("Web app unit tests", "Jest was replaced by Vitest in the web app.")),
        (("Release branch merges", "Release branches are squash-merged."),
         ("Feature branch merges", "No more squash merges on feature branches.")),
        (("Primary region", "Our primary region is eu-central-1."),
         ("Where we run", "We run in eu-central-1 as the primary region, with us-east-1 "
          "as the DR site.")),
        (("Production Postgres version", "Production Postgres runs 16 on RDS."),
         ("Staging Postgres version", "Staging Postgres runs 15 on RDS.")),
        (("Hotfix day", "Hotfixes happen on Thursdays."),
         ("Retro day", "Retros happen on Fridays.")),
        (("Orders API version", "The Orders API serves v2."),
         ("Billing API version", "The Billing API serves v3.")),
        (("API version", "Clients must call API v2."),
         ("Internal API callers", "Internal tools may still call API v1.")),
    ],
)  # fmt: skip
def test_a_newer_memory_on_another_thing_replaces_nothing(
    older: tuple[str, str], newer: tuple[str, str]
) -> None:
    assert replacement(claims(memory(*older)), claims(memory(*newer))) is None
