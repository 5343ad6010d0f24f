"""The Anthropic tool loop and its sandbox, shared by extraction and the dream.

`run_agent` drives the Messages API with a `ToolSet` confined by a `Sandbox`;
see `memsync.agent.loop` for the loop and `memsync.agent.tools` for the tools.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memsync.lazy import lazy_exports

if TYPE_CHECKING:
    from memsync.agent.loop import (
        AgentError,
        AgentResult,
        TurnReport,
        Usage,
        connect,
        run_agent,
    )
    from memsync.agent.sandbox import Sandbox, SandboxDenied
    from memsync.agent.tools import Denial, ToolOutcome, ToolSet

# Loaded on first use: a CLI command that only needs `memsync.agent.model` for its
# help text must not pay for the Anthropic SDK.
_SOURCES = {
    "AgentError": "memsync.agent.loop",
    "AgentResult": "memsync.agent.loop",
    "TurnReport": "memsync.agent.loop",
    "Usage": "memsync.agent.loop",
    "connect": "memsync.agent.loop",
    "run_agent": "memsync.agent.loop",
    "Sandbox": "memsync.agent.sandbox",
    "SandboxDenied": "memsync.agent.sandbox",
    "Denial": "memsync.agent.tools",
    "ToolOutcome": "memsync.agent.tools",
    "ToolSet": "memsync.agent.tools",
}


__getattr__ = lazy_exports(__name__, _SOURCES)


__all__ = [
    "AgentError",
    "AgentResult",
    "Denial",
    "Sandbox",
    "SandboxDenied",
    "ToolOutcome",
    "ToolSet",
    "TurnReport",
    "Usage",
    "connect",
    "run_agent",
]
