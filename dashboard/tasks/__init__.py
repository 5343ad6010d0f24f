"""Celery tasks, one module per concern; Celery's autodiscovery imports this package.

Tasks are thin: ids in, re-fetch, one domain call, a Run row written, a short summary out.
"""

# Importing registers the tasks: the dream's, extraction of uploaded transcripts, member
# merges, repository upkeep, notifications.
from . import dream, extract, notify, sync, upkeep  # noqa: F401
