"""The folders a memory directory holds besides its topic files.

Apart from `memsync.memory.directory`, which reads them, so that a caller that only
needs their names (the prompt hook's warm recall) does not import the format's parsers.
"""

from __future__ import annotations

LOGS_DIRNAME = "logs"  # daily logs: logs/YYYY/MM/YYYY-MM-DD.md
TEAM_DIRNAME = "team"  # the team's shared memories, often a clone of their own
