"""The post-receive hook: ``python -m memsync.sync.postreceive`` (installed by memsync).

After Git has moved the refs, it queues the merge of the pusher's member branch into
``main`` on the Celery broker, by task name, so the hook imports neither Django nor
the tasks. The server's Git endpoint passes what it needs in the environment, which
this entry point reads like the command-line one does: ``REMOTE_USER``,
``MEMSYNC_PROJECT_ID``, ``MEMSYNC_BROKER_URL``, ``MEMSYNC_MERGE_TASK`` and
``MEMSYNC_QUEUE``.
"""

from __future__ import annotations

import os
import sys

from memsync.store.refs import branch_of, member_ref
from memsync.sync.inspection import PREFIX
from memsync.sync.push_rules import RefUpdate

# A broker that is down must not hold the pusher's terminal for long.
_PUBLISH_RETRY = {"max_retries": 2, "interval_start": 0.2, "interval_step": 0.5}


def publish(broker_url: str, task_name: str, queue: str, args: list[object]) -> str:
    """Publish one task by name; returns its task id."""
    from celery import Celery

    app = Celery("memsync-hook", broker=broker_url, set_as_current=False)
    app.conf.broker_connection_timeout = 5
    result = app.send_task(
        task_name, args=args, queue=queue, retry=True, retry_policy=_PUBLISH_RETRY
    )
    return str(result.id)


def main() -> int:
    pusher = os.environ.get("REMOTE_USER", "")
    updates = [RefUpdate.parse(line) for line in sys.stdin if line.strip()]
    received = [u for u in updates if pusher and u.ref == member_ref(pusher) and not u.is_delete]
    if not received:
        return 0
    branch = branch_of(received[-1].ref)
    project_id = os.environ.get("MEMSYNC_PROJECT_ID", "")
    broker_url = os.environ.get("MEMSYNC_BROKER_URL", "")
    task_name = os.environ.get("MEMSYNC_MERGE_TASK", "")
    if not (project_id.isdigit() and broker_url and task_name):
        print(f"{PREFIX} warning: {branch} was stored but no merge was queued: the push did "
              "not come through the memsync server", flush=True)  # fmt: skip
        return 0
    queue = os.environ.get("MEMSYNC_QUEUE", "memsync")
    try:
        publish(broker_url, task_name, queue, [int(project_id), pusher, received[-1].new])
    except Exception as error:
        # The push itself succeeded; the branch shows as a pending merge until the next
        # push (or an operator) queues it again.
        print(f"{PREFIX} warning: {branch} was stored but its merge into main could not be "
              f"queued ({error})", flush=True)  # fmt: skip
        return 0
    print(f"{PREFIX} {branch} stored; it is being merged into main", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
