"""Celery tasks, one module per concern; Celery's autodiscovery imports this package.

Tasks are thin: ids in, re-fetch, one domain call, a Run row written, a short summary out.
"""

from . import dream, sync  # noqa: F401  (register the dream's tasks and the member merge)
from . import extract  # noqa: F401  (extraction of uploaded transcripts)
