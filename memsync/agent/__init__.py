"""The Anthropic tool loop and its sandbox, shared by extraction and the dream.

`run_agent` drives the Messages API with a `ToolSet` confined by a `Sandbox`;
see `memsync.agent.loop` for the loop and `memsync.agent.tools` for the tools.
"""

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
