"""Which engine a dream uses: ``deterministic``, ``anthropic``, ``auto``, or a custom one.

The two built-in engines come from the registry ``memsync.dream.engines.get_engine``.
``auto`` means anthropic when there is an API key, else deterministic (SPEC D8). A name
of the form ``package.module:factory`` imports that factory and calls it with no
arguments: how an installation plugs in an engine of its own (and how the tests drive
the run with theirs).
"""

from __future__ import annotations

import importlib

from memsync.dream.engine import DreamEngine

AUTO = "auto"
DETERMINISTIC = "deterministic"
ANTHROPIC = "anthropic"


class EngineUnavailable(Exception):
    """The engine asked for cannot be built; the message says why and what to do."""


def choose_engine_name(requested: str | None, *, api_key: str | None) -> str:
    name = (requested or AUTO).strip()
    if name == AUTO:
        return ANTHROPIC if api_key else DETERMINISTIC
    return name


def select_engine(
    name: str,
    *,
    api_key: str | None,
    base_url: str | None,
    model: str,
    max_turns: int,
    token_budget: int,
) -> DreamEngine:
    name = choose_engine_name(name, api_key=api_key)
    if ":" in name:
        return _custom_engine(name)
    try:
        registry = importlib.import_module("memsync.dream.engines")
    except ModuleNotFoundError as error:
        if error.name != "memsync.dream.engines":
            raise
        raise EngineUnavailable(
            f"the {name!r} dream engine is not installed (memsync.dream.engines is missing)"
        ) from None
    try:
        engine: DreamEngine = registry.get_engine(
            name,
            api_key=api_key,
            base_url=base_url,
            model=model,
            max_turns=max_turns,
            token_budget=token_budget,
        )
    except Exception as error:  # the registry's errors are configuration errors to show
        raise EngineUnavailable(str(error)) from error
    return engine


def _custom_engine(spec: str) -> DreamEngine:
    module_name, _, attribute = spec.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as error:
        raise EngineUnavailable(f"cannot load the dream engine {spec!r}: {error}") from error
    engine: DreamEngine = factory()
    return engine
