"""The demo project, made by memsync's own code paths (``manage.py memsync_demo``).

Every event of ``dashboard.demo.story.TIMELINE`` goes through what the server runs for
it, in this process:

- a session: the transcript is stored redacted, as the sessions API stores an upload,
  and ``request_extraction`` runs the extraction task (the deterministic engine) onto
  ``members/<user>``, which runs the member merge task into ``main``;
- a push: the member's own clone commits (``sync``, as ``memsync push`` does) and
  ``git push``-es to ``members/<user>`` with the server's pre-receive hook checking it,
  then the merge task runs, as the post-receive hook would have queued it;
- a dream: ``start_manual_dream`` runs the dream task (the deterministic engine), and
  its proposal is left open for review.

Celery runs these tasks in this process (``task_always_eager``), so each writes its
``Run`` row exactly as a worker does; the gate checks a merge sends by name still go
to the broker, for the demo's worker to answer. Each event happens "days ago": its
commits carry that date (``GIT_AUTHOR_DATE``, ``GIT_COMMITTER_DATE``), and its rows
(runs, the session, conflicts) are moved to it afterwards, so ages, freshness and the
dashboard's history read as four months of a team's work.

Seeding is idempotent: an existing demo project is kept as it is. A seed that fails
removes what it had made; one that was killed leaves its marker file behind, and the
next run removes the half-made project before it starts again.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import tempfile
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from django.contrib.auth.models import User
from django.utils import timezone

from dashboard.models import (
    ConflictItem,
    ConflictStatus,
    DreamEngineChoice,
    Membership,
    Project,
    Run,
    RunStatus,
    SessionRecord,
)
from dashboard.queue import queue_merge
from dashboard.services import dreams
from dashboard.services.extraction import request_extraction
from dashboard.sync import create_repository, identity_for
from memsync.dream.proposals import list_proposals
from memsync.extract.transcript import read_transcript
from memsync.memory import INDEX_FILENAME
from memsync.secrets.transcripts import redact_transcript
from memsync.store import MAIN, CommitKind, GitError, MemoryRepo, trailers
from memsync.store.refs import member_ref

from .story import (
    PEOPLE,
    PROJECT_AGE_DAYS,
    PROJECT_NAME,
    PROJECT_SLUG,
    TIMELINE,
    TRANSCRIPTS_DIR,
    Dream,
    Event,
    Push,
    Session,
)

SEED_WORKER = "memsync_demo (in-process)"
UNFINISHED_MARKER = ".demo-seeding"
_DATE_VARIABLES = ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE")


class SeedFailed(Exception):
    """A step of the demo's story did not turn out as told; the message says which."""


@dataclass
class SeedResult:
    slug: str
    created: bool
    commits: dict[str, int] = field(default_factory=dict)  # kind → count on main
    open_proposals: list[str] = field(default_factory=list)
    open_conflicts: list[str] = field(default_factory=list)


def demo_project() -> Project | None:
    return Project.objects.filter(slug=PROJECT_SLUG).first()


def remove_demo() -> bool:
    """Delete the demo project: its rows and its directory. The demo users stay."""
    project = demo_project()
    if project is None:
        return False
    base = project.base_dir
    project.delete()
    shutil.rmtree(base, ignore_errors=True)
    return True


def seed_demo(
    *, reset: bool = False, now: datetime | None = None, out: Callable[[str], None] = print
) -> SeedResult:
    """Make the demo project unless it exists (``reset`` makes it again)."""
    if reset and remove_demo():
        out(f"removed the demo project {PROJECT_SLUG}")
    users = _people()
    project = demo_project()
    if project is not None and (project.base_dir / UNFINISHED_MARKER).exists():
        out(f"the demo project {PROJECT_SLUG} was left half-made; seeding it again")
        remove_demo()
        project = None
    if project is not None:
        out(f"the demo project {PROJECT_SLUG} is already there; keeping it")
        return _result(project, created=False)
    now = now or timezone.now()
    with _dated(now - timedelta(days=PROJECT_AGE_DAYS)) as start:
        project = Project.objects.create(
            slug=PROJECT_SLUG,
            name=PROJECT_NAME,
            created_at=start,
            allow_transcripts=True,
            # The story is told for the engines that need no API key; a key in the
            # environment must not turn the demo into paid model calls.
            dream_engine=DreamEngineChoice.DETERMINISTIC,
        )
        try:
            project.base_dir.mkdir(parents=True, exist_ok=True)
            (project.base_dir / UNFINISHED_MARKER).write_text("seeding\n")
            create_repository(project)
        except BaseException:
            remove_demo()
            raise
    try:
        for persona in PEOPLE:
            Membership.objects.update_or_create(
                project=project, user=users[persona.username], defaults={"role": persona.role}
            )
        with tempfile.TemporaryDirectory(prefix="memsync-demo-clones-") as clones, _in_process():
            for event in TIMELINE:
                moment = now - timedelta(days=event.days_ago)
                _happen(project, event, moment, users, Path(clones), out)
    except BaseException:
        remove_demo()
        raise
    (project.base_dir / UNFINISHED_MARKER).unlink()
    return _result(project, created=True)


def _people() -> dict[str, User]:
    users = {}
    for persona in PEOPLE:
        user, _ = User.objects.get_or_create(username=persona.username)
        first, _, last = persona.full_name.partition(" ")
        user.first_name, user.last_name, user.email = first, last, persona.email
        # The logins the demo prints must work, whatever an earlier demo changed.
        user.set_password(persona.password)
        user.save()
        users[persona.username] = user
    return users


def _happen(
    project: Project,
    event: Event,
    moment: datetime,
    users: dict[str, User],
    clones: Path,
    out: Callable[[str], None],
) -> None:
    last_run = Run.objects.filter(project=project).order_by("-pk").values_list("pk", flat=True)
    since_run = last_run.first() or 0
    since_conflict = ConflictItem.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    user = users[event.persona.username]
    when = _days_ago(event.days_ago)
    with _dated(moment):
        if isinstance(event, Session):
            out(f"{when}: {user.username}'s session {event.transcript} is extracted")
            _session(project, event, moment, user)
        elif isinstance(event, Push):
            out(f"{when}: {user.username} pushes {', '.join(_paths(event))}")
            _push(project, event, user, clones)
        elif isinstance(event, Dream):
            out(f"{when}: {user.username} starts a dream")
            _dream(project, user)
    for run in Run.objects.filter(project=project, pk__gt=since_run):
        _check(run)
        took = run.finished_at - run.started_at if run.finished_at and run.started_at else None
        Run.objects.filter(pk=run.pk).update(
            created_at=moment,
            started_at=moment if run.started_at else None,
            finished_at=moment + took if took is not None else None,
            worker=SEED_WORKER,
        )
        out(f"    {run.kind} run: {run.status} — {run.summary}")
    ConflictItem.objects.filter(project=project, pk__gt=since_conflict).update(created_at=moment)


def _check(run: Run) -> None:
    if run.status in (RunStatus.FAILED, RunStatus.LOCKED, RunStatus.CANCELLED):
        raise SeedFailed(f"the demo's {run.kind} run ended {run.status}: {run.summary} {run.error}")


def _session(project: Project, event: Session, moment: datetime, user: User) -> None:
    text, session_id = _transcript_at(TRANSCRIPTS_DIR / event.transcript, moment)
    clean, _ = redact_transcript(text, path=f"{session_id}.jsonl")
    project.transcripts_dir.mkdir(parents=True, exist_ok=True)
    stored = project.transcripts_dir / f"{session_id}.jsonl"
    stored.write_text(clean, encoding="utf-8")
    record = SessionRecord.objects.create(
        project=project,
        user=user,
        session_id=session_id,
        touched_at=moment,
        messages=len(read_transcript(stored).messages),
        transcript=stored.relative_to(project.base_dir).as_posix(),
        created_at=moment,
    )
    request_extraction(record)


def _transcript_at(path: Path, moment: datetime) -> tuple[str, str]:
    """The transcript with its timestamps moved so that its last message is at ``moment``."""
    entries = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    stamps = [datetime.fromisoformat(entry["timestamp"]) for entry in entries]
    shift = moment - max(stamps)
    for entry, stamp in zip(entries, stamps, strict=True):
        entry["timestamp"] = (stamp + shift).isoformat(timespec="milliseconds")
    text = "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries)
    return text, str(entries[0]["sessionId"])


def _paths(event: Push) -> list[str]:
    return [*event.files, *event.copies]


def _push(project: Project, event: Push, user: User, clones: Path) -> None:
    identity = identity_for(user)
    directory = clones / event.clone
    if directory.exists():
        clone = MemoryRepo(directory, committer=identity)
    else:
        clone = MemoryRepo.clone(project.repo_dir, directory, committer=identity)
    for path, text in event.files.items():
        (directory / path).write_text(text, encoding="utf-8")
    for path, (phrase, name) in event.copies.items():
        source = _memory_saying(directory, phrase)
        text = re.sub(r"^name: .*$", f"name: {name}", source, count=1, flags=re.MULTILINE)
        (directory / path).write_text(text, encoding="utf-8")
    if event.index_lines:
        index = directory / INDEX_FILENAME
        existing = index.read_text(encoding="utf-8") if index.exists() else ""
        added = [line for line in event.index_lines if line not in existing.splitlines()]
        index.write_text(existing + "".join(f"{line}\n" for line in added), encoding="utf-8")
    paths = _paths(event) + ([INDEX_FILENAME] if event.index_lines else [])
    tip = clone.commit(
        CommitKind.SYNC,
        ", ".join(paths),
        [trailers.MEMBER(user.username)],
        author=identity,
        body="\n".join(paths),
    )
    if tip is None:
        raise SeedFailed(f"{user.username}'s push of {', '.join(paths)} changed nothing")
    # Through the server's own pre-receive hook (installed in the project's repository):
    # refs policy, secret scan, format warnings. The merge is run below, in this process.
    try:
        clone.push(member_ref(user.username), env={"REMOTE_USER": user.username})
    except GitError as error:
        raise SeedFailed(f"{user.username}'s push was refused:\n{error.stderr}") from None
    queue_merge(project.pk, user.username, tip=tip)


def _memory_saying(directory: Path, phrase: str) -> str:
    for path in sorted(directory.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        if path.name != INDEX_FILENAME and phrase in text:
            return text
    raise SeedFailed(f"no memory on main says {phrase!r}")


def _dream(project: Project, user: User) -> None:
    run = dreams.start_manual_dream(project, user)
    run.refresh_from_db()
    if run.status != RunStatus.PROPOSED:
        raise SeedFailed(f"the demo's dream ended {run.status}: {run.summary} {run.error}")


@contextmanager
def _dated(moment: datetime) -> Iterator[datetime]:
    """Commits made meanwhile (by any git this process starts) carry ``moment``."""
    stamp = f"@{int(moment.timestamp())} +0000"
    saved = {name: os.environ.get(name) for name in _DATE_VARIABLES}
    os.environ.update(dict.fromkeys(_DATE_VARIABLES, stamp))
    try:
        yield moment
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextmanager
def _in_process() -> Iterator[None]:
    """Celery tasks run here, synchronously, and their errors surface."""
    from memsync.celery import app

    saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    # Each task's run is reported by the seed itself, in the story's words.
    trace = logging.getLogger("celery.app.trace")
    level = trace.level
    trace.setLevel(logging.WARNING)
    try:
        with warnings.catch_warnings():
            # The gate checks a merge sends by name are meant for the broker.
            warnings.filterwarnings("ignore", message=".*task_always_eager has no effect")
            yield
    finally:
        app.conf.task_always_eager, app.conf.task_eager_propagates = saved
        trace.setLevel(level)


def _days_ago(days: float) -> str:
    if days < 1:
        return "today"
    if days < 2:
        return "yesterday"
    return f"{int(days)} days ago"


def _result(project: Project, *, created: bool) -> SeedResult:
    result = SeedResult(project.slug, created)
    repo = MemoryRepo(project.repo_dir)
    for commit in repo.log(MAIN):
        kind = commit.kind or "other"
        result.commits[kind] = result.commits.get(kind, 0) + 1
    result.open_proposals = [p.id for p in list_proposals(repo) if p.is_open]
    result.open_conflicts = list(
        ConflictItem.objects.filter(project=project, status=ConflictStatus.OPEN).values_list(
            "path", flat=True
        )
    )
    return result


__all__ = ["SeedFailed", "SeedResult", "demo_project", "remove_demo", "seed_demo"]
