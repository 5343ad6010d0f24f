"""Building many frozen dataclass instances quickly.

A frozen dataclass's ``__init__`` sets each field with a call to
``object.__setattr__``; for the records read by the thousand (a memory per topic file,
an entry per index line, renumbered again after every edit of an index) those calls
cost more than the reading. `built` gives the very instance ``__init__`` would, from
all its fields at once; callers pass every field, and a test of each caller compares
the result with the ``__init__``'s field by field.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def built(cls: type[T], **fields: Any) -> T:
    """``cls(**fields)`` for a frozen dataclass without ``__slots__`` or
    ``__post_init__``, given every one of its fields."""
    instance = object.__new__(cls)
    object.__setattr__(instance, "__dict__", fields)
    return instance
