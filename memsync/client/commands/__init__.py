"""Sub-command groups of the ``memsync`` command, one module per concern.

Each module defines ``register(subparsers)`` and imports heavy libraries (the store,
Django, anthropic) inside its handlers only: ``memsync merge-index`` runs inside every
``git merge`` and must start fast.
"""
