"""Celery tasks, one module per concern; Celery's autodiscovery imports this package.

Tasks are thin: ids in, one call to the use case in ``dashboard/services/`` (which writes
the ``Run`` row through ``dashboard/runs.py``), its short summary out. Their names are
``dashboard/queue.py``'s, which is also the one way to queue them.
"""

# Importing registers the tasks: the dream's, extraction of uploaded transcripts, member
# merges, repository upkeep, notifications, the dashboard's facts after main moves.
from . import dream, extract, facts, notify, sync, upkeep  # noqa: F401
