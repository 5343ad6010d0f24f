"""Records read by the thousand are built without their dataclass ``__init__``
(`memsync.memory.frozen.built`): each is the very record ``__init__`` builds."""

from __future__ import annotations

import dataclasses

import pytest

from memsync.memory import MemoryFile
from memsync.memory.decoding import BOM

FILES = [
    "---\nname: user-role\ndescription: Doug teaches Fuzzbox Physics\ntype: user\n---\n\nBody.\n",
    BOM + "---\r\nname: a\r\ndescription: b\r\ntype: project\r\n---\r\nNo gap.\r\n",
    "---\nname: a\ndescription: 'quoted'\nmetadata:\n  type: feedback\n---\n\n**Why:** x\n",
    "---\nname: a\noriginSessionId: 123e4567\ndescription: Deploys: never on Friday\n---\n",
]


@pytest.mark.parametrize("text", FILES)
def test_a_parsed_memory_and_its_block_are_what_their_init_builds(text):
    memory = MemoryFile.parse("feedback_x.md", text.encode("utf-8"))
    block = memory._block
    assert block is not None

    # `replace` builds through __init__ from every init field: a field `built` was not
    # given would be missing here, and one it was given twice would differ.
    assert vars(memory) == vars(dataclasses.replace(memory))
    assert vars(block) == vars(dataclasses.replace(block))
    assert memory.render() == text.encode("utf-8")
    with pytest.raises(dataclasses.FrozenInstanceError):
        memory.body = "changed"  # type: ignore[misc]
