"""The server's use cases, one module each, called by the Celery tasks (``dashboard/tasks/``,
thin) and by the views: extraction of uploaded sessions, member merges, dreams."""
