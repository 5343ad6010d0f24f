"""Errors as pages that say why (issue 13 item 8), with DEBUG off as in production and the
demo: 403 with the role needed, 404, 500, an expired form; and a favicon."""

from __future__ import annotations

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import include, path

from memsync import urls as site_urls


def _explode(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


urlpatterns = [path("explode/", _explode), path("", include(site_urls.urlpatterns))]

pytestmark = pytest.mark.usefixtures("production")


@pytest.fixture
def production(settings):
    settings.DEBUG = False
    settings.ROOT_URLCONF = __name__


def page(response) -> str:
    text = response.content.decode()
    assert '<link rel="stylesheet"' in text and 'class="error-page"' in text, text[:300]
    return text


def test_a_member_is_told_which_role_an_action_needs(world):
    response = world.client("bob").get("/p/acme/members/")

    assert response.status_code == 403
    text = page(response)
    assert "You are not allowed to do that" in text
    assert "bob is a member of acme; this needs the maintainer role" in text


def test_a_missing_page_is_a_styled_404_not_the_debug_page(world):
    response = world.client("carol").get("/p/acme/memories/nothing-here.md")

    assert response.status_code == 404
    text = page(response)
    assert "Nothing here" in text and "Traceback" not in text and "URLconf" not in text


def test_a_crash_is_a_styled_500_without_details(world):
    client = Client(raise_request_exception=False)
    client.force_login(world.users["carol"])

    response = client.get("/explode/")

    assert response.status_code == 500
    text = page(response)
    assert "Something went wrong on the server" in text and "a bug" not in text


def test_an_expired_form_says_so(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.users["alice"])

    response = client.post("/p/acme/members/add", {"username": "bob", "role": "viewer"})

    assert response.status_code == 403
    assert "This form has expired" in page(response)


def test_every_page_names_the_favicon_and_the_old_path_finds_it(world):
    text = world.client("carol").get("/").content.decode()
    icon = world.client(None).get("/favicon.ico")

    assert 'rel="icon" href="/static/dashboard/favicon.svg"' in text
    assert icon.status_code == 301 and icon["Location"] == "/static/dashboard/favicon.svg"
