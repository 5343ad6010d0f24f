"""``/api/…``: the JSON API (dashboard.api)."""

from django.urls import path, re_path

from . import api

app_name = "api"

urlpatterns = [
    path("whoami", api.whoami, name="whoami"),
    path("projects/<slug:slug>/sessions", api.sessions, name="sessions"),
    path("projects/<slug:slug>/status", api.status, name="status"),
    re_path(r"^(?P<path>.*)$", api.not_found, name="not-found"),
]
