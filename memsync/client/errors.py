"""Errors the ``memsync`` command prints without a traceback."""


class CommandError(Exception):
    """A failure the user can act on; ``exit_code`` 2 for usage and I/O errors."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code
