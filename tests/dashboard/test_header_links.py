"""The links every page's header repeats (``nav_url``, reversed once per process) are
the ones ``{% url %}`` would give, under whatever prefix the site is served at."""

from __future__ import annotations

import re

from django.urls import reverse, set_script_prefix


def header_links(page: str) -> list[str]:
    header = page.split("<body>", 1)[1].split("<main>", 1)[0]
    return re.findall(r'(?:href|action)="([^"]+)"', header)


def test_the_header_links_every_tab_of_the_project(world):
    page = world.client("alice").get(reverse("dashboard:team", args=["acme"])).content.decode()

    links = header_links(page)

    assert links[:3] == ["/", "/p/acme/", "/tokens/"]
    tabs = ["index", "overview", "history", "proposals", "team", "activity", "members"]
    assert [reverse(f"dashboard:{tab}", args=["acme"]) for tab in tabs] == links[4:11]


def test_the_header_links_follow_the_prefix_the_site_is_served_at(world):
    client = world.client("carol")
    url = reverse("dashboard:team", args=["acme"])
    plain = header_links(client.get(url).content.decode())

    set_script_prefix("/memsync/")  # as gunicorn's WSGI handler does for SCRIPT_NAME
    try:
        prefixed = header_links(client.get(url).content.decode())
    finally:
        set_script_prefix("/")
    again = header_links(client.get(url).content.decode())

    assert prefixed == [f"/memsync{link}" for link in plain]
    assert again == plain
