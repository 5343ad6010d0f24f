"""WSGI entry point (gunicorn memsync.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memsync.settings")
application = get_wsgi_application()

# Only a web process imports this module: its views and templates loaded before the
# first request, its garbage collected between requests (dashboard.web_process).
from dashboard.web_process import prepare_web_process  # noqa: E402

prepare_web_process()
