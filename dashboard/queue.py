"""Every Celery task's name, and the one way to queue each: by name, after the commit.

By name, so that the use cases (``dashboard/services/``) never import the tasks that
call them, the post-receive hook (which imports no Django) can queue a merge, and the
settings can route and schedule tasks before any app is loaded. Through the app's
registry (``app.tasks[name]``), so that eager mode in tests runs them in-process.

A message is published once the current transaction commits (at once outside one),
and a broker that cannot take it is logged, not raised, except for a dream: the
periodic sweep queues again the merges and extractions that could not be queued
(``dashboard/recovery.py``), and the beat re-checks every project's dream gates.
Two are raised instead, for nothing else would send them again: a dream's (its run
row waits for it) and a held upload's redaction (nothing is stored for the sweep yet).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

MERGE_TASK = "dashboard.tasks.sync.merge_member_branch"
SWEEP_TASK = "dashboard.tasks.sync.sweep_unmerged_pushes"
EXTRACT_TASK = "dashboard.tasks.extract.extract_uploaded_session"
REDACT_TASK = "dashboard.tasks.extract.redact_uploaded_transcript"
DREAM_BEAT_TASK = "dashboard.tasks.dream.evaluate_dream_gates"
DREAM_GATE_TASK = "dashboard.tasks.dream.check_dream_gates"
DREAM_RUN_TASK = "dashboard.tasks.dream.run_dream"
UPKEEP_TASK = "dashboard.tasks.upkeep.keep_repositories"
DELIVER_TASK = "dashboard.tasks.notify.deliver_notification"
PUSH_REFUSED_TASK = "dashboard.tasks.notify.push_refused"
FACTS_TASK = "dashboard.tasks.facts.warm_main_facts"

# Publishing from a request: one quick retry, then give up. An unreachable broker costs
# the request a second, not the minute of Celery's defaults.
QUICK_PUBLISH: dict[str, Any] = {
    "retry": True,
    "retry_policy": {"max_retries": 1, "interval_start": 0, "interval_step": 0.5},
}


def queue_merge(project_id: int, username: str, *, tip: str = "", branch: str = "") -> None:
    """Merge ``members/<username>`` (or ``branch``, another of theirs) into ``main``."""
    _publish(MERGE_TASK, (project_id, username), {"tip": tip, "branch": branch})


def queue_extraction(record_id: int) -> None:
    """Extract the new messages of a session's stored transcript."""
    _publish(EXTRACT_TASK, (record_id,))


def queue_redaction(record_id: int, held: str) -> None:
    """Redact the upload held in the project's inbox as ``held``, then extract it.

    Robust: with the broker down the upload stays held, and the sweep queues it again
    (``dashboard.recovery.queue_held_uploads``)."""
    _publish(REDACT_TASK, (record_id, held))


def queue_dream_gate_check(project_id: int, trigger: str) -> None:
    """Ask the dream's gate chain to look at the project (a lost nudge only delays).

    Always through the broker, eager mode or not: a nudge for the workers, never work
    the caller waits for (the demo and the tests run everything else in-process)."""
    _publish(DREAM_GATE_TASK, (project_id, trigger), through_broker=True)


def queue_facts_warmup(project_id: int) -> None:
    """``main`` moved: have a worker bring the dashboard's cached facts up to it, so no
    page request pays for the move (a lost message only costs that request the work).

    Through the broker in eager mode too: the caller never waits for it."""
    _publish(FACTS_TASK, (project_id,), through_broker=True)


def queue_delivery(delivery_id: int) -> None:
    """Send one recorded notification (the worker retries it; see dashboard/notifications.py).

    Through the broker in eager mode too: a delivery is never work the caller waits for."""
    _publish(DELIVER_TASK, (delivery_id,), through_broker=True)


def queue_dream(run_id: int, task_id: str) -> None:
    """Run the queued dream ``Run`` ``run_id`` as task ``task_id`` (the row names it)."""
    _publish(DREAM_RUN_TASK, (run_id,), task_id=task_id, robust=False)


def _publish(
    name: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any] | None = None,
    *,
    task_id: str | None = None,
    robust: bool = True,
    through_broker: bool = False,
) -> None:
    from memsync.celery import app

    def send() -> None:
        if through_broker:
            app.send_task(name, args, kwargs, task_id=task_id, **QUICK_PUBLISH)
        else:
            app.tasks[name].apply_async(args, kwargs, task_id=task_id, **QUICK_PUBLISH)

    transaction.on_commit(send, robust=robust)
