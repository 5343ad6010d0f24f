"""The pre-receive hook: ``python -m memsync.sync.prereceive`` (installed by memsync).

Git runs it with the pushed objects in quarantine and the ref updates on stdin; what
it prints reaches the pusher as ``remote:`` lines, and a non-zero exit refuses the
whole push, which makes Git delete the quarantine: a refused push stores nothing.

Like the command-line entry point, this reads its environment: ``REMOTE_USER`` (the
authenticated pusher, set by the server's Git endpoint) and ``GIT_DIR`` (set by Git).
A refusal is also published, by task name, for the project's notifications, when the
Git endpoint passed ``MEMSYNC_PROJECT_ID``, ``MEMSYNC_BROKER_URL``,
``MEMSYNC_REFUSED_TASK`` and ``MEMSYNC_QUEUE``.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from memsync.sync.inspection import PREFIX, PushReport, inspect_push
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
    if not report.accepted:
        _announce_refusal(pusher, report)
    return 0 if report.accepted else 1


def _announce_refusal(pusher: str, report: PushReport) -> None:
    """Queue the refused-push notification; the refusal stands whatever happens here."""
    project_id = os.environ.get("MEMSYNC_PROJECT_ID", "")
    broker_url = os.environ.get("MEMSYNC_BROKER_URL", "")
    task_name = os.environ.get("MEMSYNC_REFUSED_TASK", "")
    if not (project_id.isdigit() and broker_url and task_name):
        return
    from memsync.sync.postreceive import publish

    queue = os.environ.get("MEMSYNC_QUEUE", "memsync")
    # The refusal lines name file, line and rule, never the secret (secrets.findings).
    with contextlib.suppress(Exception):
        publish(broker_url, task_name, queue, [int(project_id), pusher, report.refusals[:20]])


if __name__ == "__main__":
    sys.exit(main())
