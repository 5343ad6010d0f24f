"""Transcripts leave the machine without memsync's injected context and without the
text of private memories (issue 11, item 7). The entries are laid out as Claude Code
2.1.332 writes them; tests/claude_code/test_privacy.py runs the real thing end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsync.extract.privacy import (
    PRIVATE_REMOVED,
    RECALL_REMOVED,
    PrivateText,
    recall_blocks,
    scrub_transcript,
    wrap_recall,
)

PRIVATE_LINE = "The staging database password rotates every Monday at 09:00 (PRIV_4e1a)."
TEAM_LINE = "Deploys are frozen on Fridays after 14:00, ask in #release first."


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    memory = tmp_path / "memory"
    (memory / "team").mkdir(parents=True)
    (memory / "MEMORY.md").write_text(
        "- [Staging rotation](staging_rotation.md) — when the staging secrets rotate (PRIV_idx)\n"
    )
    (memory / "staging_rotation.md").write_text(
        "---\nname: staging rotation\ndescription: when secrets rotate\ntype: project\n---\n\n"
        f"{PRIVATE_LINE}\nShort line.\n{TEAM_LINE}\n"
    )
    (memory / "team" / "freeze.md").write_text(f"---\nname: freeze\n---\n\n{TEAM_LINE}\n")
    return memory


def jsonl(*entries: object) -> str:
    return "".join(json.dumps(entry) + "\n" for entry in entries)


def recall_attachment(context: str) -> dict:
    return {
        "type": "attachment",
        "attachment": {"type": "hook_additional_context", "content": [wrap_recall(context)]},
        "rendered": [
            {
                "content": f"<system-reminder>\nUserPromptSubmit hook additional context: "
                f"{wrap_recall(context)}\n</system-reminder>"
            }
        ],
    }


def test_it_drops_every_recall_block_and_keeps_the_rest_of_the_text():
    blob = {
        "type": "api-request-blob",
        "message": {"role": "user", "content": [{"type": "text", "text": (
            "hello\n\nUserPromptSubmit hook additional context: "
            + wrap_recall("Memory: /m/a.md:\nPRIV_block")
            + "\n\nToday's date is 2026-12-02."
        )}]},
    }  # fmt: skip
    user = {"type": "user", "message": {"role": "user", "content": "how do refunds work?"}}
    text = jsonl(user, recall_attachment("Memory: /m/a.md:\nPRIV_block"), blob)

    scrubbed = scrub_transcript(text)

    assert "PRIV_block" not in scrubbed.text
    assert scrubbed.recall_blocks == 3 and recall_blocks(scrubbed.text) == 0
    assert "Today's date is 2026-12-02." in scrubbed.text and RECALL_REMOVED in scrubbed.text
    lines = scrubbed.text.splitlines(keepends=True)
    assert lines[0] == json.dumps(user) + "\n"  # untouched lines stay byte for byte
    assert all(isinstance(json.loads(line), dict) for line in lines)


def test_it_drops_the_lines_of_private_memories_wherever_they_appear(memory: Path):
    private = PrivateText.from_directory(memory)
    read_result = {
        "type": "user",
        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
            "content": f"     1\t---\n     6\t{PRIVATE_LINE}\n     8\t{TEAM_LINE}\n"}]},
    }  # fmt: skip
    loaded_index = {
        "type": "api-request-blob",
        "message": {"role": "user", "content": [{"type": "text", "text": (
            f"Contents of {memory}/MEMORY.md (user's auto-memory, persists across "
            "conversations):\n\n"
            + (memory / "MEMORY.md").read_text()
        )}]},
    }  # fmt: skip
    quoted = {"type": "assistant", "message": {"content": [{"type": "text", "text": PRIVATE_LINE}]}}

    scrubbed = scrub_transcript(jsonl(read_result, loaded_index, quoted), private)

    assert "PRIV_4e1a" not in scrubbed.text and "PRIV_idx" not in scrubbed.text
    assert scrubbed.private_lines == 3
    assert TEAM_LINE in scrubbed.text  # a team memory's line is not private
    assert scrubbed.text.count(PRIVATE_REMOVED) == 3


def test_a_block_hidden_behind_json_escapes_is_still_found():
    entry = json.dumps(recall_attachment("PRIV_escaped"), ensure_ascii=True)
    escaped = entry.replace("<", "\\u003c") + "\n"

    assert recall_blocks(escaped) == 2
    scrubbed = scrub_transcript(escaped)
    assert recall_blocks(scrubbed.text) == 0 and "PRIV_escaped" not in scrubbed.text


def test_an_unclosed_block_and_a_line_that_is_not_json_are_cleaned_too():
    cut = {"type": "attachment", "attachment": {"content": ["<memsync-recall>\nPRIV_cut …"]}}
    text = jsonl(cut) + "not json <memsync-recall>PRIV_raw</memsync-recall> tail\n"

    scrubbed = scrub_transcript(text)

    assert "PRIV_cut" not in scrubbed.text and "PRIV_raw" not in scrubbed.text
    assert scrubbed.text.splitlines()[1] == f"not json {RECALL_REMOVED} tail"


def test_private_text_ignores_short_lines_hidden_folders_and_the_team(memory: Path):
    (memory / ".git").mkdir()
    (memory / ".git" / "notes.md").write_text("This line is inside the private repo's .git.\n")

    private = PrivateText.from_directory(memory)

    assert PRIVATE_LINE in private.lines
    assert "Short line." not in private.lines
    assert TEAM_LINE not in private.lines
    assert not any(".git" in line for line in private.lines)
    assert not PrivateText.from_directory(memory / "missing")
