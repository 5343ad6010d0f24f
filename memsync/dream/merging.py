"""Merging duplicate memories' bodies (SPEC D4, D8; issue 15 item 3): the kept copy,
then every line of the others it lacks, so no fact of either is lost. Which memories
are duplicates is `memsync.dream.dedupe`."""

from __future__ import annotations

import re

from memsync.dream.profiles import tokens

_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")


def _blocks(body: str) -> list[list[str]]:
    """Paragraphs (runs of non-blank lines) and fenced code blocks, as lists of lines.
    A fence is kept whole: half a code block appended elsewhere would break it."""
    blocks: list[list[str]] = []
    current: list[str] = []
    fence = ""
    for line in body.replace("\r\n", "\n").split("\n"):
        opened = _FENCE.match(line)
        if fence:
            current.append(line)
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                blocks.append(current)
                current, fence = [], ""
            continue
        if opened:
            if current:
                blocks.append(current)
            current, fence = [line], opened.group(1)
            continue
        if line.strip():
            current.append(line)
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def union_bodies(newest: str, *older: str) -> tuple[str, int]:
    """`newest` followed by every line of the older bodies it does not already have.

    Lines are compared as written (surrounding whitespace aside), so no wording is
    judged equal to another and dropped; a paragraph keeps its remaining lines
    together and a code block moves whole. Returns the body and how many lines were
    added.
    """
    seen = {line.strip() for line in newest.replace("\r\n", "\n").split("\n") if line.strip()}
    newest_blocks = {"\n".join(block) for block in _blocks(newest)}
    added: list[list[str]] = []
    count = 0
    for body in older:
        for block in _blocks(body):
            if _FENCE.match(block[0]):
                if "\n".join(block) not in newest_blocks:
                    added.append(block)
                    newest_blocks.add("\n".join(block))
                    count += len(block)
                continue
            fresh = [line for line in block if line.strip() not in seen]
            if fresh:
                added.append(fresh)
                seen.update(line.strip() for line in fresh)
                count += len(fresh)
    if not added:
        return newest, 0
    head = newest.rstrip("\r\n")
    tail = "\n\n".join("\n".join(block) for block in added)
    return (head + "\n\n" + tail if head else tail) + "\n", count


def covered(text: str, by: str) -> bool:
    """Whether every word of `text` already occurs in `by` (so it adds nothing)."""
    words = set(tokens(text))
    return not words or words <= set(tokens(by))
