"""A gunicorn web process (``memsync.wsgi``) is ready before its first request and
collects its garbage once a response has been sent, not in the middle of one.

Each test imports ``memsync.wsgi`` in a process of its own, as gunicorn's worker does:
freezing the collector and moving its thresholds must not happen to the test run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def web_process(tmp_path: Path, script: str) -> dict[str, object]:
    """What ``script`` prints as JSON, run after ``import memsync.wsgi``."""
    env = {
        **os.environ,
        "MEMSYNC_DATA_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "memsync.settings",
    }
    result = subprocess.run(
        [sys.executable, "-c", "import gc, json, sys\nimport memsync.wsgi\n" + script],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_it_has_every_view_imported_and_every_template_compiled_before_a_request(tmp_path):
    found = web_process(
        tmp_path,
        "from django.template import engines\n"
        "from dashboard.web_process import template_names\n"
        "loader = engines['django'].engine.template_loaders[0]\n"
        "print(json.dumps({'views': 'dashboard.views.team' in sys.modules,\n"
        "    'templates': sorted(set(template_names()) - set(loader.get_template_cache))}))",
    )

    assert found == {"views": True, "templates": []}


def test_it_keeps_what_it_loaded_out_of_the_cyclic_collector(tmp_path):
    found = web_process(tmp_path, "print(json.dumps(gc.get_freeze_count()))")

    assert isinstance(found, int) and found > 10_000


def test_it_collects_a_requests_garbage_once_the_response_is_sent(tmp_path):
    found = web_process(
        tmp_path,
        "class Cycle:\n"
        "    def __init__(self): self.me = self\n"
        "from django.test import Client\n"
        "def garbage(request):\n"
        "    for _ in range(2_000): Cycle()\n"
        "    from django.http import HttpResponse\n"
        "    return HttpResponse('ok')\n"
        "import weakref\n"
        "from django.urls import path\n"
        "import memsync.urls\n"
        "memsync.urls.urlpatterns.append(path('garbage', garbage))\n"
        "gc.collect()\n"
        "during = []\n"
        "def seen(phase, info):\n"
        "    if phase == 'stop': during.append(info['collected'])\n"
        "gc.callbacks.append(seen)\n"
        "Client().get('/garbage')\n"
        "print(json.dumps({'collections': len(during), 'collected': sum(during),\n"
        "    'left': gc.get_count()[0]}))",
    )

    assert found["collections"] == 1 and found["collected"] >= 2_000
    assert isinstance(found["left"], int) and found["left"] < 700
