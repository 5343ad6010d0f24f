"""A maintainer's hand on `main`: edit, delete and confirm ("still true") one memory,
each one commit with its kind, the scope's ``MEMORY.md`` kept consistent."""

from memsync.curate.edits import (
    CONFIRMED_FIELD,
    MAX_EDIT_BYTES,
    EditRefused,
    check_memory,
    confirm_memory,
    delete_memory,
    edit_memory,
)

__all__ = [
    "CONFIRMED_FIELD",
    "MAX_EDIT_BYTES",
    "EditRefused",
    "check_memory",
    "confirm_memory",
    "delete_memory",
    "edit_memory",
]
