"""New memory files in the layout the installed Claude Code writes, and its
``[[name]]`` links (issue 11, item 9)."""

from __future__ import annotations

from datetime import date

import pytest

from memsync.memory import MemoryFile
from memsync.memory.layout import (
    MemoryLayout,
    create_memory,
    detect_layout,
    kebab_name,
    link_wiki_names,
    memory_name,
    resolve_wiki_link,
    wiki_link_candidates,
    wiki_links,
)

CLASSIC = b"---\nname: Release train\ndescription: Tuesdays\ntype: project\n---\n\nTuesdays.\n"
CURRENT = (
    b"---\nname: deploy-freeze\ndescription: No Friday deploys\nmetadata:\n"
    b"  node_type: memory\n  type: project\n---\n\nNo deploys on Fridays.\n"
)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Deploy freeze on Fridays!", "deploy-freeze-on-fridays"),
        ("already-kebab_ok", "already-kebab_ok"),  # Claude Code keeps such a name
        ("  Use pnpm — not npm  ", "use-pnpm-not-npm"),
        ("部署前跑迁移", ""),
    ],
)
def test_kebab_name_follows_claude_codes_rule(text, name):
    assert kebab_name(text) == name


def test_a_chinese_subject_still_gets_a_kebab_name():
    name = memory_name(MemoryLayout.CURRENT, "部署前跑迁移", "feedback", "部署前必须先跑数据库迁移")

    assert name.startswith("feedback-") and kebab_name(name) == name


def test_the_directorys_own_layout_wins_and_an_empty_one_gets_the_current_layout():
    classic = MemoryFile.parse("project_release_train.md", CLASSIC)
    current = MemoryFile.parse("deploy-freeze.md", CURRENT)

    assert detect_layout([]) is MemoryLayout.CURRENT
    assert detect_layout([classic]) is MemoryLayout.CLASSIC
    assert detect_layout([classic, current]) is MemoryLayout.CURRENT
    assert detect_layout([classic, classic, current]) is MemoryLayout.CLASSIC


def test_a_current_layout_file_reads_back_as_claude_code_wrote_it():
    memory = create_memory(
        MemoryLayout.CURRENT,
        "deploy-freeze.md",
        name="deploy-freeze",
        description="No Friday deploys",
        type="project",
        body="No deploys on Fridays.",
        session_id="5c0375b4",
        day=date(2026, 12, 2),
    )

    assert memory.render().decode() == (
        "---\nname: deploy-freeze\ndescription: No Friday deploys\nmetadata:\n"
        "  node_type: memory\n  type: project\n  originSessionId: 5c0375b4\n"
        "  modified: '2026-12-02'\n---\n\nNo deploys on Fridays.\n"
    )
    assert memory.memory_type == "project" and memory.errors == ()


def test_wiki_links_are_read_and_resolved_by_name_or_file():
    body = "See [[deploy-freeze]], [[Release Train|the train]] and [[deploy-freeze#why]]."
    files = {
        "deploy-freeze.md": MemoryFile.parse("deploy-freeze.md", CURRENT),
        "project_release_train.md": MemoryFile.parse("project_release_train.md", CLASSIC),
    }

    assert wiki_links(body) == ["deploy-freeze", "Release Train"]
    assert resolve_wiki_link("deploy-freeze", files) == "deploy-freeze.md"
    assert resolve_wiki_link("Release Train", files) == "project_release_train.md"
    assert resolve_wiki_link("nothing", files) is None
    assert wiki_link_candidates("Release Train") == ["Release Train.md", "release-train.md"]
    linked = link_wiki_names(body, lambda name: "/m/x" if name == "deploy-freeze" else None)
    assert linked == (
        "See [deploy-freeze](</m/x>), [[Release Train|the train]] and [deploy-freeze#why](</m/x>)."
    )
