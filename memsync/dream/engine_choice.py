"""The dream engines by name: ``deterministic`` (SPEC D8), ``anthropic`` (SPEC D3),
``auto``, or an engine of an installation's own.

``auto`` means anthropic when there is an API key, else deterministic (SPEC D8). A name
of the form ``package.module:factory`` imports that factory and calls it with no
arguments: how an installation plugs in an engine of its own (and how the tests drive
the run with theirs). The run, the CLI and the server pass what they read from
settings; nothing here reads settings or the environment.
"""

from __future__ import annotations

import importlib

from memsync.dream.deterministic import DeterministicEngine
from memsync.dream.engine import DreamEngine

AUTO = "auto"
DETERMINISTIC = "deterministic"
ANTHROPIC = "anthropic"
ENGINE_NAMES = (DETERMINISTIC, ANTHROPIC)


class EngineUnavailable(ValueError):
    """The engine asked for does not exist or cannot run as configured; the message
    says why and what to do."""


def choose_engine_name(requested: str | None, *, api_key: str | None) -> str:
    name = (requested or AUTO).strip()
    if name == AUTO:
        return ANTHROPIC if api_key else DETERMINISTIC
    return name


def get_engine(
    name: str | None,
    *,
    api_key: str | None,
    base_url: str | None,
    model: str,
    max_turns: int,
    token_budget: int,
) -> DreamEngine:
    """The engine called `name` (``auto`` when None), ready to run.

    Raises `EngineUnavailable` for an unknown name, a custom engine that cannot be
    loaded, or ``anthropic`` without an API key (the deterministic engine needs none).
    """
    name = choose_engine_name(name, api_key=api_key)
    if ":" in name:
        return _custom_engine(name)
    if name == DETERMINISTIC:
        return DeterministicEngine()
    if name == ANTHROPIC:
        if not api_key:
            raise EngineUnavailable(
                "the anthropic dream engine needs an Anthropic API key "
                "(ANTHROPIC_API_KEY); without one, use the deterministic engine"
            )
        if max_turns < 1:
            raise EngineUnavailable(f"max_turns must be at least 1, not {max_turns}")
        # Imported here: the anthropic SDK costs seconds to import on a loaded worker,
        # and projects without an API key never need it.
        from memsync.dream.llm import AnthropicEngine

        return AnthropicEngine(
            api_key=api_key,
            base_url=base_url,
            model=model,
            max_turns=max_turns,
            token_budget=token_budget,
        )
    raise EngineUnavailable(
        f"unknown dream engine {name!r}; the engines are {', '.join(ENGINE_NAMES)}"
    )


def _custom_engine(spec: str) -> DreamEngine:
    module_name, _, attribute = spec.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as error:
        raise EngineUnavailable(f"cannot load the dream engine {spec!r}: {error}") from error
    engine: DreamEngine = factory()
    return engine
