"""A team memory that looks like a real one, for the browser tests and their screenshots:
memories of every type and age, an index with headings and one dead link, extraction
history with sessions and models, a member's push, a conflict and a dream proposal."""

from __future__ import annotations

from dataclasses import dataclass

from dashboard.models import ConflictItem
from memsync.dream.run import DreamOutcome
from memsync.store import CommitKind, Identity, MemoryRepo
from tests.dashboard.world import (
    World,
    commit_days_ago,
    commit_memories,
    dream,
    entry,
    member_commit,
    merge_member,
    topic,
)

DEPLOY = topic(
    "deploy-process",
    "Releases go out through the staging gate on Tuesdays",
    "project",
    "Releases go to staging first and to production on Tuesdays after the smoke suite.\n\n"
    "**Why:** a Friday release broke billing in March.\n"
    "**How to apply:** never propose a production deploy on another day.\n",
)
REVIEW = topic(
    "review-style",
    "Review comments are short, numbered, and quote the line",
    "feedback",
    "Keep review comments short and numbered; quote the line you mean.\n\n"
    "**Why:** the team reads reviews on phones.\n"
    "**How to apply:** one point per comment, `file:line` first.\n",
)
ROLE = topic(
    "user-role",
    "Alice is the release manager and owns the deploy calendar",
    "user",
    "Alice decides release dates and keeps the calendar in `docs/releases.md`.\n",
)
API_DOCS = topic(
    "api-docs",
    "The public API reference lives at docs.example.com/api",
    "reference",
    "See [the API reference](https://docs.example.com/api) for every endpoint.\n",
)
TESTING = topic(
    "testing-rules",
    "Integration tests hit a real database, never mocks",
    "feedback",
    "Integration tests run against a real PostgreSQL.\n\n"
    "**Why:** mocked tests passed while a migration failed in production.\n"
    "**How to apply:** use the `db` fixture; do not patch the ORM.\n",
)
INDEX = (
    "# Team memory\n\n## Process\n"
    + entry("Deploy process", "deploy_process.md", "staging gate, Tuesdays only")
    + entry("Review style", "review_style.md", "short numbered comments")
    + entry("Testing rules", "testing_rules.md", "real database in integration tests")
    + "\n## People\n"
    + entry("Alice's role", "user_role.md", "release manager")
    + "\n## References\n"
    + entry("API docs", "api_docs.md", "public API reference")
    + entry("Old runbook", "old_runbook.md", "moved to the wiki")
)


EXTRACTION = Identity("memsync extract", "extract@memsync.invalid")


@dataclass
class TeamScene:
    world: World
    repo: MemoryRepo
    proposal: DreamOutcome
    conflict: ConflictItem


def build_team_scene(world: World) -> TeamScene:
    repo = world.repo()
    commit_days_ago(
        repo,
        {"deploy_process.md": DEPLOY, "review_style.md": REVIEW},
        days=23,
        summary="0b7e3c1d — saved 2 memories",
        trailers=(("Memsync-Session", "0b7e3c1d-5f2a"), ("Memsync-Model", "claude-sonnet-4-5"),
                  ("Memsync-Tokens", "in=4210 out=388")),
        author=EXTRACTION,
    )  # fmt: skip
    commit_days_ago(
        repo,
        {"user_role.md": ROLE, "api_docs.md": API_DOCS, "MEMORY.md": INDEX.encode()},
        days=3,
        summary="5c0375b4 — saved 2 memories",
        trailers=(("Memsync-Session", "5c0375b4-57a5"), ("Memsync-Model", "claude-sonnet-4-5"),
                  ("Memsync-Tokens", "in=3904 out=512")),
        author=EXTRACTION,
    )  # fmt: skip
    member_commit(
        world.acme,
        "bob",
        {"review_style.md": REVIEW.replace(b"quote the line", b"link the commit")},
        "review style from bob's laptop",
    )
    commit_memories(
        repo,
        {"testing_rules.md": TESTING, "review_style.md": REVIEW.replace(b"short", b"brief")},
        CommitKind.EXTRACT,
        "1af7fc5e — saved 2 memories",
        (("Memsync-Session", "1af7fc5e-8455"), ("Memsync-Model", "claude-sonnet-4-5"),
         ("Memsync-Tokens", "in=5120 out=640")),
        author=EXTRACTION,
    )  # fmt: skip
    merge_member(world.acme, "bob")
    conflict = ConflictItem.objects.get(project=world.acme, path="review_style.md")
    proposal = dream(
        world.acme,
        {
            "deploy_process.md": DEPLOY.replace(
                b"on Tuesdays after the smoke suite",
                b"on Tuesdays (since 2026-03-12) after the smoke suite",
            ),
            "release_calendar.md": topic(
                "release-calendar", "Release dates are set by Alice two weeks ahead", "project"
            ),
            "MEMORY.md": INDEX.replace(
                entry("Old runbook", "old_runbook.md", "moved to the wiki"),
                entry("Release calendar", "release_calendar.md", "dates two weeks ahead"),
            ).encode(),
        },
        summary=(
            "Improved 2 memories: deploy_process.md (the relative date made absolute), "
            "release_calendar.md (new, from sessions 5c0375b4 and 1af7fc5e); removed the "
            "index entry pointing at old_runbook.md, which does not exist."
        ),
        sessions=("5c0375b4-57a5", "1af7fc5e-8455", "0b7e3c1d-5f2a"),
    )
    return TeamScene(world, repo, proposal, conflict)
