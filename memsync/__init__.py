"""memsync: Git-backed team memory for coding agents.

Kept import-free on purpose: ``memsync merge-index`` runs inside every ``git merge``
and must not pay for Django or Celery. The Celery app is loaded when Django starts,
by ``dashboard.apps.DashboardConfig.ready``.
"""
