"""Package exports loaded on first use (PEP 562's module ``__getattr__``).

``from memsync.store import MemoryRepo`` should not cost the import of every module the
package has: the push hooks and Claude Code's hooks start a Python process for each
call, and pay for each import on the way.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, sources: Mapping[str, str]) -> Callable[[str], Any]:
    """A ``__getattr__`` for `package` that imports each name from the module `sources`
    gives for it, the first time it is asked for, and keeps it in the package."""

    def __getattr__(name: str) -> Any:
        module = sources.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
