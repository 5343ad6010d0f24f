"""Which memories earn a place in ``MEMORY.md`` when not all fit (issue 15 item 1).

The rank, highest first, compares in this order:

1. type: ``feedback`` and ``user`` memories shape every session (how to work, who
   the agent works with) and are rarely looked up by topic, so they stay first;
   ``project`` facts come next; ``reference`` entries point at outside systems an
   agent can still search for; a memory without a type comes last;
2. how many other memories link it: a file others lean on is a hub worth seeing;
3. how recently it changed: a newer memory is likelier to be current.

How often recall returned a memory would be a fourth signal, but memsync records no
per-memory recall counts yet; when it does, they belong between 1 and 2.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from datetime import datetime

from memsync.memory import MemoryFile

TYPE_WEIGHT = {"feedback": 3, "user": 3, "project": 2, "reference": 1}
_LINK = re.compile(r"\]\((?:\./)?([^)\s#]+\.md)(?:#[^)\s]*)?\)")


def inbound_links(memories: Mapping[str, MemoryFile]) -> Counter[str]:
    """How many other memories link each file (by Markdown link)."""
    linked: Counter[str] = Counter()
    for path, memory in memories.items():
        if "](" in memory.body:
            linked.update({target for target in _LINK.findall(memory.body) if target != path})
    return linked


def usefulness_of(
    memories: Mapping[str, MemoryFile], changed_at: Callable[[str], datetime]
) -> Callable[[str], tuple[float, ...]]:
    """A rank for each memory path; unknown paths rank lowest."""
    linked = inbound_links(memories)

    def rank(path: str) -> tuple[float, ...]:
        memory = memories.get(path)
        if memory is None:
            return (0.0, 0.0, 0.0)
        weight = TYPE_WEIGHT.get(memory.memory_type or "", 0)
        # `get`: a Counter's default for a file nobody links costs a method call.
        return (float(weight), float(linked.get(path, 0)), changed_at(path).timestamp())

    return rank
