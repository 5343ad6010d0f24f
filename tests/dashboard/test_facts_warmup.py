"""Once a worker has merged a member's branch into ``main``, it brings the dashboard's
cached facts up to the new ``main`` (``dashboard.tasks.facts``): the first page request
after the merge finds them on disk instead of computing them."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from django.core.management import call_command

from dashboard.memory_facts import cache_file
from dashboard.models import Project
from dashboard.queue import queue_merge
from memsync.store import MAIN, CommitKind, MemoryRepo
from tests.dashboard.world import topic

pytestmark = pytest.mark.django_db(transaction=True)


def stored_facts(repo: MemoryRepo, timeout: float = 120.0) -> dict:
    """The facts file once it names ``main``'s commit."""
    path = cache_file(repo, "")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and repo.rev_parse(MAIN) in path.read_text()[:160]:
            return json.loads(path.read_text())
        time.sleep(0.2)
    raise AssertionError(f"no facts for main's commit after {timeout}s")


def test_a_merge_in_the_worker_leaves_the_facts_of_the_new_main_on_disk(celery_worker, tmp_path):
    slug = f"warm-{os.getpid()}"
    call_command("memsync_project", "create", slug)
    call_command("memsync_member", "add", slug, "bob", "--role", "member")
    project = Project.objects.get(slug=slug)
    repo = MemoryRepo(project.repo_dir)
    before = repo.rev_parse(MAIN)
    workspace = Path(tmp_path / "bob")
    bob = repo.add_worktree(workspace, "members/bob")
    bob.apply({"fresh.md": topic("fresh", "Learned just now")}, CommitKind.EXTRACT, "learned")
    repo.remove_worktree(workspace)
    assert not cache_file(repo, "").exists()

    queue_merge(project.pk, "bob")

    stored = stored_facts(repo)
    assert stored["commit"] == repo.rev_parse(MAIN) != before
    assert "fresh.md" in stored["files"]
    assert "Learned just now" in json.dumps(stored["files"]["fresh.md"])
