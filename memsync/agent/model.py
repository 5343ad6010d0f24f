"""The Claude model memsync asks when nothing says otherwise (``MEMSYNC_MODEL``, the
CLI's ``--model``): declared once, for the server's settings and every CLI command."""

DEFAULT_MODEL = "claude-sonnet-4-5"
