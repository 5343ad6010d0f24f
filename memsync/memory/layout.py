"""Writing memory files the way the installed Claude Code writes them, and reading its
``[[name]]`` links (issue 11, item 9).

Claude Code has written two layouts. The classic one (2.0.x, still in many
directories): ``feedback_testing.md`` with a flat frontmatter ``name`` /
``description`` / ``type``. The current one (2.1.332, measured in ``tests/claude_code``)::

    ---
    name: deploy-freeze
    description: No deploys on Fridays after 14:00
    metadata:
      node_type: memory
      type: project
      originSessionId: 5c0375b4-…
      modified: 2026-12-02
    ---

with ``name`` in kebab case (its own rule: lower case, every run of other characters
one ``-``), the file named after it, and related memories linked in the body as
``[[name]]``. A new file follows the layout the directory already uses, so a
directory never ends up half one way and half the other; an empty directory gets the
current one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from enum import StrEnum

from memsync.memory.frontmatter import dump_mapping
from memsync.memory.paths import djb2_hash
from memsync.memory.topic import MemoryFile

NODE_TYPE = "memory"
MAX_NAME_CHARS = 60
_KEBAB = re.compile(r"^[a-z0-9_-]+$")  # Claude Code leaves such a name as it is
_NOT_KEBAB = re.compile(r"[^a-z0-9]+")
WIKI_LINK = re.compile(r"\[\[([^\[\]\n|#]+)(?:#[^\[\]\n|]*)?(?:\|[^\[\]\n]*)?\]\]")


class MemoryLayout(StrEnum):
    CURRENT = "current"  # kebab name, nested metadata, file named after the name
    CLASSIC = "classic"  # flat frontmatter, file named <type>_<subject>.md


def kebab_name(text: str) -> str:
    """Claude Code's name rule: kept when already ``[a-z0-9_-]+``, else lower-cased with
    each run of other characters turned into one ``-``. "" when nothing is left
    (a name in Chinese, say): the caller picks a fallback."""
    if _KEBAB.match(text):
        return text[:MAX_NAME_CHARS]
    kebab = _NOT_KEBAB.sub("-", text.lower()).strip("-")
    return kebab[:MAX_NAME_CHARS].rstrip("-")


def detect_layout(files: Iterable[MemoryFile]) -> MemoryLayout:
    """The layout most of the directory's memories use; current when there are none
    (or as many of each)."""
    current = classic = 0
    for memory in files:
        if not memory.is_text or memory.type is None:
            continue
        if memory.has_nested_type:
            current += 1
        else:
            classic += 1
    return MemoryLayout.CLASSIC if classic > current else MemoryLayout.CURRENT


def memory_name(layout: MemoryLayout, title: str, kind: str, subject: str, slug: str = "") -> str:
    """The ``name`` field: the human title in the classic layout; in the current one
    kebab case, from `slug` (the subject's key words) or else the title, and when
    neither has a Latin letter or digit (Chinese, say) the type and a hash of the
    subject, since Claude Code's rule would leave nothing."""
    if layout is MemoryLayout.CLASSIC:
        return title
    from_slug = kebab_name(slug.replace("_", "-"))
    return from_slug or kebab_name(title) or f"{kind}-{djb2_hash(subject) & 0xFFFFFF:06x}"


def file_stem(layout: MemoryLayout, name: str, kind: str, slug: str) -> str:
    """What to call the file (without ``.md``): after the name in the current layout,
    ``<type>_<slug>`` in the classic one."""
    if layout is MemoryLayout.CURRENT:
        return name
    return f"{kind}_{slug}"


def create_memory(
    layout: MemoryLayout,
    path: str,
    *,
    name: str,
    description: str,
    type: str,
    body: str,
    session_id: str | None,
    day: date,
) -> MemoryFile:
    """A new memory file in `layout`."""
    if layout is MemoryLayout.CLASSIC:
        extra = {"originSessionId": session_id} if session_id else None
        return MemoryFile.create(
            path, name=name, description=description, type=type, body=body, extra=extra
        )
    # Validates the fields exactly as the classic path does, then lays them out anew.
    MemoryFile.create(path, name=name, description=description, type=type, body=body)
    metadata: dict[str, str] = {"node_type": NODE_TYPE, "type": type}
    if session_id:
        metadata["originSessionId"] = session_id
    metadata["modified"] = day.isoformat()
    mapping = {"name": name, "description": description, "metadata": metadata}
    text = "---\n" + dump_mapping(mapping) + "---\n"
    if body:
        text += "\n" + body + ("" if body.endswith("\n") else "\n")
    return MemoryFile.parse(path, text.encode("utf-8"))


def frontmatter_example(layout: MemoryLayout) -> str:
    """How a new file should start, for a model writing one."""
    if layout is MemoryLayout.CLASSIC:
        return (
            "---\nname: <a short name>\ndescription: <one specific line>\n"
            "type: <user, feedback, project or reference>\n---\n"
        )
    return (
        "---\nname: <kebab-case-name, also the file name>\ndescription: <one specific line>\n"
        "metadata:\n  node_type: memory\n  type: <user, feedback, project or reference>\n"
        "---\n"
    )


def wiki_links(body: str) -> list[str]:
    """The names a body links with ``[[name]]`` (``[[name|label]]`` and
    ``[[name#part]]`` name ``name``), in order, each once."""
    seen: dict[str, None] = {}
    for match in WIKI_LINK.finditer(body):
        seen.setdefault(match[1].strip(), None)
    return [name for name in seen if name]


def resolve_wiki_link(name: str, files: Mapping[str, MemoryFile]) -> str | None:
    """The top-level memory file ``[[name]]`` means: the one whose ``name`` is `name`,
    else the one whose file stem is; compared as Claude Code compares names (after its
    kebab rule), so ``[[Deploy Freeze]]`` finds ``name: deploy-freeze``."""
    wanted = name.strip().removesuffix(".md")
    keys = {wanted, kebab_name(wanted)} - {""}
    for path, memory in sorted(files.items()):
        declared = memory.name or ""
        if declared in keys or (declared and kebab_name(declared) in keys):
            return path
    for path in sorted(files):
        stem = path.removesuffix(".md")
        if stem in keys or kebab_name(stem) in keys:
            return path
    return None


def link_wiki_names(body: str, target_for: Callable[[str], str | None]) -> str:
    """`body` with each ``[[name]]`` that `target_for` resolves turned into a Markdown
    link to that target (for display); unresolved ones stay as written."""

    def replace(match: re.Match[str]) -> str:
        target = target_for(match[1].strip())
        if target is None:
            return match[0]
        label = match[0][2:-2].split("|", 1)[-1].strip()
        return f"[{label}](<{target}>)"

    return WIKI_LINK.sub(replace, body)


def wiki_link_candidates(name: str) -> list[str]:
    """The file names ``[[name]]`` may mean, most literal first (files are named after
    their kebab-case ``name`` in Claude Code's current layout)."""
    wanted = name.strip().removesuffix(".md")
    found = [wanted, kebab_name(wanted)]
    return [f"{stem}.md" for stem in dict.fromkeys(found) if stem and "/" not in stem]
