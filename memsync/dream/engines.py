"""The dream engines by name: ``deterministic`` (SPEC D8) and ``anthropic`` (SPEC D3).

The run and the CLI pick an engine by name and pass what they read from settings;
nothing here reads settings or the environment.
"""

from __future__ import annotations

from memsync.dream.deterministic import DeterministicEngine
from memsync.dream.engine import DreamEngine
from memsync.dream.llm import AnthropicEngine

DETERMINISTIC = "deterministic"
ANTHROPIC = "anthropic"
ENGINE_NAMES = (DETERMINISTIC, ANTHROPIC)


class EngineConfigurationError(ValueError):
    """The engine asked for does not exist or cannot run as configured."""


def get_engine(
    name: str,
    *,
    api_key: str | None,
    base_url: str | None,
    model: str,
    max_turns: int,
    token_budget: int,
) -> DreamEngine:
    """The engine called `name`, ready to run.

    Raises `EngineConfigurationError` for an unknown name, or for ``anthropic``
    without an API key (the deterministic engine needs none).
    """
    if name == DETERMINISTIC:
        return DeterministicEngine()
    if name == ANTHROPIC:
        if not api_key:
            raise EngineConfigurationError(
                "the anthropic dream engine needs an Anthropic API key "
                "(ANTHROPIC_API_KEY); without one, use the deterministic engine"
            )
        if max_turns < 1:
            raise EngineConfigurationError(f"max_turns must be at least 1, not {max_turns}")
        return AnthropicEngine(
            api_key=api_key,
            base_url=base_url,
            model=model,
            max_turns=max_turns,
            token_budget=token_budget,
        )
    raise EngineConfigurationError(
        f"unknown dream engine {name!r}; the engines are {', '.join(ENGINE_NAMES)}"
    )
