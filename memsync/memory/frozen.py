"""Building many frozen dataclass instances quickly.

A frozen dataclass's ``__init__`` sets each field with a call to
``object.__setattr__``; for the records read by the thousand (a memory per topic file,
an entry per index line, renumbered again after every edit of an index) those calls
cost more than the reading. `built` gives the very instance ``__init__`` would, from
all its fields at once; callers pass every field, and a test of each caller compares
the result with the ``__init__``'s field by field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")
R = TypeVar("R")


def built(cls: type[T], **fields: Any) -> T:
    """``cls(**fields)`` for a frozen dataclass without ``__slots__`` or
    ``__post_init__``, given every one of its fields."""
    instance = object.__new__(cls)
    object.__setattr__(instance, "__dict__", fields)
    return instance


class derived(Generic[R, T]):
    """`functools.cached_property` without its lock: a value worked out from a frozen
    record the first time it is read, then kept in the record's ``__dict__``, where
    every later read finds it without calling anything. Python 3.11's
    `cached_property` takes a lock on every first read, which cost more than working
    out a memory's name, description and type; for a value of an immutable record,
    working it out twice in two threads at once gives the same value, so no lock is
    needed."""

    def __init__(self, func: Callable[[R], T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type[R], name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type[R] | None = None) -> derived[R, T]: ...

    @overload
    def __get__(self, instance: R, owner: type[R] | None = None) -> T: ...

    def __get__(self, instance: R | None, owner: type[R] | None = None) -> T | derived[R, T]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value
