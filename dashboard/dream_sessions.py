"""The server's side of the dream's session gate (SPEC D1, T5): sessions are the
``SessionRecord`` rows members' clients report, and the scan throttle's state is
``Project.last_session_scan_at``. Both implement the protocols of
``memsync.dream.gates`` and touch the database only when the gate chain asks.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q

from .models import Project, SessionRecord


class RecordedSessions:
    """Session ids of one project touched after a moment, newest first."""

    def __init__(self, project_id: int) -> None:
        self.project_id = project_id

    def sessions_touched_since(self, since: datetime | None) -> list[str]:
        records = SessionRecord.objects.filter(project_id=self.project_id)
        if since is not None:
            records = records.filter(touched_at__gt=since)
        return list(records.order_by("-touched_at").values_list("session_id", flat=True))


class ProjectScanThrottle:
    """One conditional UPDATE: the scan is ours only if no other one was recorded within
    the interval, so simultaneous triggers for one project scan once."""

    def __init__(self, project_id: int) -> None:
        self.project_id = project_id

    def claim_scan(self, now: datetime, interval: timedelta) -> bool:
        due = Q(last_session_scan_at__isnull=True) | Q(last_session_scan_at__lte=now - interval)
        # A scan recorded far "in the future" (a clock moved back) must not block scans
        # forever; one a moment ahead is another worker's claim, racing this one.
        due |= Q(last_session_scan_at__gt=now + interval)
        claimed = (
            Project.objects.filter(pk=self.project_id).filter(due).update(last_session_scan_at=now)
        )
        return claimed == 1
