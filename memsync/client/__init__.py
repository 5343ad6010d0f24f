"""The ``memsync`` command for developer machines and operators."""
