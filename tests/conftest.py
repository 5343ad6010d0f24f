from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest_plugins = [
    "tests.fixtures",
    "tests.support.celery_worker",
    "tests.support.messages_server",
    "tests.support.webhook_receiver",
]


def warm_helpers_under(root: Path) -> list[int]:
    """The pids of memsync's warm helpers (``memsync.client.helper_process``) serving a
    repository under `root`: the command line names the module and the repository."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state == "Z" or not any(b"memsync.client.helper_process" in part for part in argv):
            continue
        if any(os.fsdecode(part).startswith(f"{root}{os.sep}") for part in argv):
            found.append(int(entry.name))
    return found


def stop_warm_helpers(root: Path, timeout: float = 15) -> None:
    """SIGTERM each warm helper serving a repository under `root`; SIGKILL what is left."""
    helpers = warm_helpers_under(root)
    for pid in helpers:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while helpers and time.monotonic() < deadline:
        time.sleep(0.05)
        helpers = [pid for pid in helpers if pid in warm_helpers_under(root)]
    for pid in helpers:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture(scope="session", autouse=True)
def _no_warm_helper_left(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every ``memsync extract`` run as a command leaves a warm helper for its repository
    (it exits after idling, or when the repository goes); the run's are stopped at its
    end, since pytest keeps its temporary directories."""
    yield
    stop_warm_helpers(tmp_path_factory.getbasetemp())
