"""A web process made ready before its first request, and its garbage collected between
requests rather than inside them.

Django imports the views and compiles each template the first time a request needs
them, and CPython's cyclic collector runs whenever enough objects were allocated:
inside whichever request tipped it. A full pass walks every object the process holds
(about 100,000 once Django, the views and the templates are loaded: 70-320 ms on a busy
2-core machine); a young one, a few milliseconds. Pages that answer in 5 ms paid that
as their slow tail. So, once per web process, after the application is loaded:

- the URLconf is resolved (which imports every view) and every template is compiled,
  so no visitor pays for it;
- what is loaded then lives as long as the process: it is frozen out of the collector
  (``gc.freeze``), whose passes then walk only what came later;
- the collector runs when a response has been sent (``request_finished``), for the
  generations whose counts are due, as CPython itself would have; inside a request it
  runs only past a much higher count, the safety net of a request that allocates a lot.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from django.core.signals import request_finished
from django.template import engines
from django.urls import get_resolver

TEMPLATES = Path(__file__).resolve().parent / "templates"
# CPython's thresholds: a young pass every 700 net allocations, an older one every 10.
BETWEEN_REQUESTS = (700, 10, 10)
# Inside a request the young generation is collected only past this many.
WITHIN_A_REQUEST = 50_000


def template_names() -> list[str]:
    """The dashboard's templates, as ``get_template`` names them."""
    return [path.relative_to(TEMPLATES).as_posix() for path in sorted(TEMPLATES.rglob("*.html"))]


def collect_due_garbage(**_: Any) -> None:
    """The oldest generation whose count is past its threshold, collected now."""
    counts = gc.get_count()
    for generation in (2, 1, 0):
        if counts[generation] >= BETWEEN_REQUESTS[generation]:
            gc.collect(generation)
            return


def prepare_web_process() -> None:
    """Load what every request uses, keep it out of the cyclic collector, and move the
    collector's work to between requests."""
    get_resolver().url_patterns  # noqa: B018  (imports every view)
    engine = engines["django"]
    for name in template_names():
        engine.get_template(name)
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(WITHIN_A_REQUEST, middle, oldest)
    request_finished.connect(collect_due_garbage, dispatch_uid="memsync-collect-due-garbage")
