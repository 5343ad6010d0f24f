"""The pre-receive hook: ``python -m memsync.sync.prereceive`` (installed by memsync).

Git runs it with the pushed objects in quarantine and the ref updates on stdin; what
it prints reaches the pusher as ``remote:`` lines, and a non-zero exit refuses the
whole push, which makes Git delete the quarantine: a refused push stores nothing.

Like the command-line entry point, this reads its environment: ``REMOTE_USER`` (the
authenticated pusher, set by the server's Git endpoint) and ``GIT_DIR`` (set by Git).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from memsync.sync.inspection import PREFIX, inspect_push
from memsync.sync.push_rules import RefUpdate


def main() -> int:
    pusher = os.environ.get("REMOTE_USER", "")
    git_dir = Path(os.environ.get("GIT_DIR", "."))
    updates = [RefUpdate.parse(line) for line in sys.stdin if line.strip()]
    try:
        report = inspect_push(git_dir, updates, pusher)
    except Exception as error:
        # Fail closed: whatever could not be inspected does not enter team memory.
        print(f"{PREFIX} push refused: it could not be inspected ({error}).", flush=True)
        print(f"{PREFIX} nothing of this push was stored.", flush=True)
        return 1
    for line in report.lines():
        print(line, flush=True)
    return 0 if report.accepted else 1


if __name__ == "__main__":
    sys.exit(main())
